"""The fused Adam/AdamW and SGD steps (densecore._C._adam_step_fused, _sgd_step_fused, kernels/cpu/optim.cpp) against
densecore's own op-by-op loops (optim/adam.py _single_tensor_adam, sgd.py _single_tensor_sgd), with no torch: the same bits and version counters where it runs, and
where it declines (returns False), nothing changed, so that the loop then runs on the state it expects.
test_optim.py checks both against torch."""
import math
import random
import struct

import densecore as torch
import pytest
from densecore.optim.adam import _single_tensor_adam
from densecore.optim.sgd import _single_tensor_sgd

pytestmark = pytest.mark.notorch

PAYLOADS = [0x7fc00001, 0xffc12345, 0x7f800003, 0xff812345]


def special(n, seed):
    """Gaussian values with NaNs (several payloads, both signs), infinities and signed zeros mixed in."""
    r = random.Random(seed)
    out = []
    for _ in range(n):
        c = r.random()
        if c < 0.05:
            out.append(struct.unpack("<f", struct.pack("<I", r.choice(PAYLOADS)))[0])
        elif c < 0.07:
            out.append(r.choice([math.inf, -math.inf, 0.0, -0.0]))
        else:
            out.append(r.gauss(0, 1))
    return torch.tensor(out, dtype=torch.float32)


def group(sizes, seed):
    """params, grads, exp_avgs, exp_avg_sqs, steps of one param group after a first step's state."""
    params = [special(n, seed + i) for i, n in enumerate(sizes)]
    grads = [special(n, seed + 100 + i) for i, n in enumerate(sizes)]
    exp_avgs = [special(n, seed + 200 + i) for i, n in enumerate(sizes)]
    exp_avg_sqs = [special(n, seed + 300 + i).abs() for i, n in enumerate(sizes)]
    steps = [torch.tensor(float(i % 3)) for i in range(len(sizes))]
    return params, grads, exp_avgs, exp_avg_sqs, steps


def copy_of(lists):
    return [[t.clone() for t in ts] for ts in lists]


def snapshot(lists):
    return [[(t._raw_bytes(), t._version) for t in ts] for ts in lists]


HYPER = dict(lr=1e-2, beta1=0.9, beta2=0.99, eps=1e-8)
SIZES = [1, 15, 16, 17, 2049, 32769, 65552]


def fused(lists, weight_decay=0.0, maximize=False, decoupled=True, **hyper):
    h = dict(HYPER, **hyper)
    with torch.no_grad():
        return torch._C._adam_step_fused(*lists, h["lr"], h["beta1"], h["beta2"], h["eps"], weight_decay, maximize,
                                         decoupled)


def loop(lists, weight_decay=0.0, maximize=False, decoupled=True, **hyper):
    h = dict(HYPER, **hyper)
    params, grads, exp_avgs, exp_avg_sqs, steps = lists
    with torch.no_grad():
        _single_tensor_adam(params, grads, exp_avgs, exp_avg_sqs, [], steps, amsgrad=False, weight_decay=weight_decay,
                            maximize=maximize, decoupled_weight_decay=decoupled, **h)


@pytest.mark.parametrize("threads", [1, 2])
@pytest.mark.parametrize("weight_decay,maximize", [(0.0, False), (0.1, False), (0.0, True), (0.1, True)])
def test_fused_step_is_the_loop(threads, weight_decay, maximize):
    before = torch.get_num_threads()
    torch.set_num_threads(threads)
    try:
        a = group(SIZES, 5)
        b = copy_of(a)
        for _ in range(3):
            assert fused(a, weight_decay, maximize) is True
            loop(b, weight_decay, maximize)
        # clone() starts each copy at version 0, so equal versions mean one bump per in-place op of the loop.
        assert snapshot(a) == snapshot(b)
    finally:
        torch.set_num_threads(before)


def declines(lists, **kw):
    want = snapshot(lists)
    assert fused(lists, **kw) is False
    assert snapshot(lists) == want


def test_declines_what_it_does_not_cover():
    declines(group([4, 5], 1), weight_decay=0.1, decoupled=False)  # L2 decay: grad.add(param) first
    declines(group([4, 5], 1), lr=float("nan"))
    declines(group([4, 5], 1), eps=float("nan"))
    declines(group([4, 5], 1), beta1=1.0)  # the loop's own arithmetic decides what happens
    declines(group([4, 5], 1), lr=torch.tensor(0.1))
    declines(group([4, 5], 1), lr=10**20)  # not exact as a double
    declines(group([4, 5], 1), lr=1e300)  # -step_size overflows float: addcdiv_ raises in the loop
    g = group([4, 5], 1)
    declines([tuple(g[0])] + list(g[1:]))  # params as a tuple, not a list (the same tensors in a list run)


@pytest.mark.parametrize("change", ["transposed", "float64", "grad_is_param", "shared_step", "grad_shares_storage",
                                    "short_list", "not_a_tensor", "grad_mode"])
def test_declines_tensors_it_does_not_cover(change):
    params, grads, exp_avgs, exp_avg_sqs, steps = group([12, 12], 3)
    if change == "transposed":
        params[1] = params[1].reshape(3, 4).t()
        for ts in (grads, exp_avgs, exp_avg_sqs):
            ts[1] = ts[1].reshape(4, 3)
    elif change == "float64":
        params[0] = params[0].double()
    elif change == "grad_is_param":
        grads[1] = params[1]
    elif change == "shared_step":
        steps[1] = steps[0]
    elif change == "grad_shares_storage":
        grads[0] = exp_avgs[1].view(12)[:]
    elif change == "short_list":
        steps.pop()
    elif change == "not_a_tensor":
        steps[0] = 1.0
    lists = [params, grads, exp_avgs, exp_avg_sqs, steps]
    want = [[(t._raw_bytes(), t._version) if isinstance(t, torch.Tensor) else t for t in ts] for ts in lists]
    h = HYPER
    if change == "grad_mode":
        with torch.enable_grad():
            assert torch._C._adam_step_fused(*lists, h["lr"], h["beta1"], h["beta2"], h["eps"], 0.0, False, True) is False
    else:
        assert fused(lists) is False
    assert [[(t._raw_bytes(), t._version) if isinstance(t, torch.Tensor) else t for t in ts] for ts in lists] == want


def test_optimizer_takes_the_fused_path_and_falls_back():
    """Adam/AdamW.step runs the fused step for ordinary parameters, the loop for amsgrad and L2 decay; all agree
    with the loop run by hand."""
    for make in (lambda ps: torch.optim.AdamW(ps, lr=1e-2), lambda ps: torch.optim.Adam(ps, weight_decay=0.1),
                 lambda ps: torch.optim.Adam(ps, amsgrad=True)):
        ps = [torch.nn.Parameter(special(n, 9 + n)) for n in (3, 40)]
        opt = make(ps)
        for it in range(3):
            for i, p in enumerate(ps):
                p.grad = special(p.numel(), 50 * it + i)
            opt.step()
        assert all(opt.state[p]["step"].item() == 3.0 for p in ps)


SGD_CONFIGS = {
    "plain": dict(momentum=0.0, dampening=0.0, weight_decay=0.0, nesterov=False, maximize=False),
    "momentum": dict(momentum=0.9, dampening=0.1, weight_decay=0.0, nesterov=False, maximize=False),
    "nesterov_wd_maximize": dict(momentum=0.8, dampening=0.0, weight_decay=0.01, nesterov=True, maximize=True),
    "wd_maximize": dict(momentum=0.0, dampening=0.0, weight_decay=0.05, nesterov=False, maximize=True),
}


def sgd_fused(params, grads, bufs, lr=0.1, **cfg):
    with torch.no_grad():
        return torch._C._sgd_step_fused(params, grads, bufs, lr, cfg["momentum"], cfg["dampening"],
                                        cfg["weight_decay"], cfg["nesterov"], cfg["maximize"])


@pytest.mark.parametrize("threads", [1, 2])
@pytest.mark.parametrize("config", SGD_CONFIGS)
def test_fused_sgd_is_the_loop(threads, config):
    cfg = SGD_CONFIGS[config]
    before = torch.get_num_threads()
    torch.set_num_threads(threads)
    try:
        params, grads, bufs = group(SIZES, 11)[:3]
        a = [params, grads, bufs if cfg["momentum"] else []]
        b = copy_of(a)
        for _ in range(3):
            assert sgd_fused(*a, **cfg) is True
            with torch.no_grad():
                _single_tensor_sgd(*b, lr=0.1, **cfg)
        assert snapshot(a) == snapshot(b)
    finally:
        torch.set_num_threads(before)


def test_fused_sgd_declines():
    cfg = SGD_CONFIGS["momentum"]
    params, grads, bufs = group([5, 6], 2)[:3]
    for lists, kw in [([params, grads, [bufs[0], None]], {}),  # the loop makes the missing buffer
                      ([params, grads, bufs[:1]], {}),
                      ([params, grads, [bufs[0], params[1]]], {}),  # a buffer that is a parameter
                      ([params, grads, bufs], {"lr": float("nan")}),
                      ([params, grads, bufs], {"lr": 1e300}),  # alpha=-lr overflows float: add_ raises in the loop
                      ([[params[0].double(), params[1]], grads, bufs], {})]:
        want = [[(t._raw_bytes(), t._version) if isinstance(t, torch.Tensor) else t for t in ts] for ts in lists]
        assert sgd_fused(*lists, **dict(cfg, **kw)) is False
        assert [[(t._raw_bytes(), t._version) if isinstance(t, torch.Tensor) else t for t in ts] for ts in lists] == want
