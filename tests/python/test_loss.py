"""Losses and the reduction / softmax gradients against torch, bitwise: cross_entropy = log_softmax +
nll_loss (forward cascade sum, total_weight, ignore_index, reductions, weights; backward through
NllLossBackward0 and LogSoftmaxBackward0), nll_loss, mse_loss, softmax / log_softmax backward along the
last and other dims (the FMA pattern of torch's build: serial one-row vs OpenMP rows), sum / mean
backward (keepdim, dim tuples), at the native capability, ATEN_CPU_CAPABILITY=avx2 and one thread.
Inputs come from torch.manual_seed + randn/randint, which densecore reproduces; each case returns its
inputs too, so a generator difference would show as such.
"""
import oracle
import pytest

SETUP = r"""
F = torch.nn.functional
def logits(shape, dt="float32", seed=0, scale=4.0):
    torch.manual_seed(seed)
    return (torch.randn(tuple(shape), dtype=torch.float64) * scale).to(getattr(torch, dt))
def targets(n, c, seed=1, every=0, ignore=-1):
    torch.manual_seed(seed)
    t = torch.randint(0, c, (n,))
    if every:
        t[::every] = ignore
    return t
def ints(shape, dt="float32", seed=0):
    torch.manual_seed(seed)
    return torch.randint(-5, 6, shape).to(getattr(torch, dt))
def leaf(x):
    return x.detach().requires_grad_()
"""

NS = [1, 7, 768, 4096]
CS = [2, 65, 1000]


def ce_cases(dtypes=("float32", "float64"), ns=NS, cs=CS):
    cases = {}
    for dt in dtypes:
        for n in ns:
            for c in cs:
                k = f"{dt}_{n}x{c}"
                x = f"leaf(logits(({n}, {c}), '{dt}', {n + c}))"
                # nanoGPT: mean reduction, ignore_index=-1, with some targets ignored
                cases[f"ce_mean_ign_{k}"] = (
                    f"x = {x}; t = targets({n}, {c}, 3, every=5)\n"
                    f"l = F.cross_entropy(x, t, ignore_index=-1); l.backward(); out = [x, t, l, x.grad]")
                cases[f"ce_sum_{k}"] = (
                    f"x = {x}; t = targets({n}, {c}, 4)\n"
                    f"l = F.cross_entropy(x, t, reduction='sum'); l.backward(); out = [l, x.grad]")
                cases[f"ce_none_{k}"] = (
                    f"x = {x}; t = targets({n}, {c}, 5, every=3, ignore=-100)\n"
                    f"l = F.cross_entropy(x, t, reduction='none'); g = logits(({n},), '{dt}', 9)\n"
                    f"l.backward(g); out = [l, x.grad]")
                cases[f"nll_w_{k}"] = (
                    f"x = {x}; t = targets({n}, {c}, 6, every=4, ignore=1)\n"
                    f"w = logits(({c},), '{dt}', 8).abs()\n"
                    f"l = F.nll_loss(x, t, weight=w, ignore_index=1); l.backward(); out = [l, x.grad]")
                cases[f"nll_w_sum_{k}"] = (
                    f"x = {x}; t = targets({n}, {c}, 6)\n"
                    f"w = logits(({c},), '{dt}', 8).abs()\n"
                    f"l = F.nll_loss(x, t, weight=w, reduction='sum'); l.backward(); out = [l, x.grad]")
    return cases


def layout_cases(dtypes=("float32", "float64")):
    cases = {}
    for dt in dtypes:
        # view(-1, C) of 3-D logits, as nanoGPT calls it (12 x 64 x 65)
        cases[f"ce_view3d_{dt}"] = (
            f"x3 = logits((12, 64, 65), '{dt}', 11); t = targets(768, 65, 2, every=7)\n"
            f"out = F.cross_entropy(x3.view(-1, x3.size(-1)), t.view(-1), ignore_index=-1)")
        cases[f"ce_view3d_grad_{dt}"] = (
            f"x = leaf(logits((12, 64, 65), '{dt}', 11).view(-1, 65)); t = targets(768, 65, 2, every=7)\n"
            f"l = F.cross_entropy(x, t, ignore_index=-1); l.backward(); out = [l, x.grad]")
        cases[f"ce_view3d_leaf3d_{dt}"] = (  # model.py's exact call, gradient through ViewBackward0 to the 3-D leaf
            f"x = leaf(logits((12, 64, 65), '{dt}', 11)); t = targets(768, 65, 2, every=7).view(12, 64)\n"
            f"l = F.cross_entropy(x.view(-1, x.size(-1)), t.view(-1), ignore_index=-1); (l / 1).backward()\n"
            f"out = [l, x.grad, l.grad_fn.name()]")
        # non-contiguous logits: a transposed leaf, and a sliced one. The transposed leaf's .grad is compared
        # by values_only: torch gives it the leaf's strides, densecore contiguous ones (known gap
        # grad_layout_dense_leaf, test_autograd.py GAP_CASES); the same in softmax_bw_transposed.
        cases[f"ce_transposed_{dt}"] = (
            f"x = leaf(logits((65, 37), '{dt}', 12).t()); t = targets(37, 65, 2, every=6)\n"
            f"l = F.cross_entropy(x, t, ignore_index=-1); l.backward(); out = [x.is_contiguous(), l, values_only(x.grad)]")
        cases[f"ce_sliced_{dt}"] = (
            f"x = leaf(logits((40, 130), '{dt}', 13)[::2, 1::2]); t = targets(20, 65, 3)\n"
            f"l = F.cross_entropy(x, t, reduction='none'); l.sum().backward(); out = [l, x.grad]")
        cases[f"nll_none_sliced_{dt}"] = (
            f"x = leaf(logits((40, 30), '{dt}', 14)[::2]); t = targets(20, 30, 3, every=3)\n"
            f"l = F.nll_loss(x, t, reduction='none', ignore_index=-1); l.backward(logits((20,), '{dt}', 2))\n"
            f"out = [l, x.grad]")
        cases[f"ce_1d_{dt}"] = (
            f"x = leaf(logits((65,), '{dt}', 15)); l = F.cross_entropy(x, torch.tensor(7)); l.backward()\n"
            f"out = [l, x.grad]")
        # torch refuses a 1-element 1-D target for a 1-D input (its kernel wants a 0-d one)
        cases[f"nll_1d_target1_{dt}"] = oracle.raises(RuntimeError, (
            f"x = leaf(logits((65,), '{dt}', 15)); l = F.nll_loss(x, torch.tensor([7]), reduction='none')\n"
            f"l.backward(); out = [l, x.grad]"))
        cases[f"ce_all_ignored_{dt}"] = (
            f"x = leaf(logits((5, 9), '{dt}', 16)); l = F.cross_entropy(x, torch.full((5,), -1), ignore_index=-1)\n"
            f"l.backward(); out = [l, x.grad]")
        cases[f"ce_empty_{dt}"] = (
            f"x = leaf(logits((0, 9), '{dt}', 16)); t = torch.zeros(0, dtype=torch.long)\n"
            f"out = [F.cross_entropy(x, t), F.cross_entropy(x, t, reduction='sum'), F.cross_entropy(x, t, reduction='none')]")
        cases[f"nll_u8_target_{dt}"] = (
            f"x = leaf(logits((9, 7), '{dt}', 17)); t = targets(9, 7, 1).to(torch.uint8)\n"
            f"l = F.nll_loss(x, t); l.backward(); out = [l, x.grad]")
        cases[f"ce_scaled_loss_{dt}"] = (  # loss / grad_accum_steps as train.py does
            f"x = leaf(logits((33, 65), '{dt}', 18)); t = targets(33, 65, 1, every=4)\n"
            f"l = F.cross_entropy(x, t, ignore_index=-1) / 3; l.backward(); out = [l, x.grad]")
        cases[f"mse_{dt}"] = (
            f"a = leaf(logits((7, 33), '{dt}', 1)); b = leaf(logits((7, 33), '{dt}', 2))\n"
            f"l = F.mse_loss(a, b); l.backward(); out = [l, a.grad, b.grad]")
        cases[f"mse_sum_{dt}"] = (
            f"a = leaf(logits((300, 129), '{dt}', 1)); b = logits((300, 129), '{dt}', 2)\n"
            f"l = F.mse_loss(a, b, reduction='sum'); l.backward(); out = [l, a.grad]")
        cases[f"mse_none_{dt}"] = (
            f"a = leaf(logits((5, 17), '{dt}', 1)); b = leaf(logits((5, 17), '{dt}', 2))\n"
            f"l = F.mse_loss(a, b, reduction='none'); l.backward(logits((5, 17), '{dt}', 3)); out = [l, a.grad, b.grad]")
        cases[f"mse_strided_{dt}"] = (  # the fused kernels over a transposed operand and a transposed grad
            f"a = leaf(logits((33, 7), '{dt}', 1)); b = logits((7, 33), '{dt}', 2)\n"
            f"l = F.mse_loss(a.t(), b, reduction='none'); l.backward(logits((33, 7), '{dt}', 3).t()); out = [l, a.grad]")
    return cases


SM_SHAPES = [(1, 1), (1, 7), (1, 16), (1, 17), (1, 33), (1, 65), (1, 100), (1, 1000), (1, 4097), (3, 8), (3, 33), (5, 65), (768, 65), (4, 1000), (2, 4097),
             (1, 50257), (5, 7, 9), (3, 33, 17), (2, 40, 65), (64, 3), (3, 64), (2, 100, 300), (4, 5, 6, 7)]


def softmax_cases(dtypes=("float32", "float64")):
    cases = {}
    for dt in dtypes:
        for shape in SM_SHAPES:
            s = "x".join(map(str, shape))
            for d in sorted({len(shape) - 1, 0}):
                for fn in ("softmax", "log_softmax"):
                    cases[f"{fn}_bw_{dt}_{s}_d{d}"] = (
                        f"x = leaf(logits({shape}, '{dt}', 3)); y = torch.{fn}(x, {d})\n"
                        f"y.backward(logits({shape}, '{dt}', 4, scale=1.0)); out = [y, x.grad]")
        cases[f"softmax_bw_mid_{dt}"] = (
            f"x = leaf(logits((4, 5, 6, 7), '{dt}', 3)); y = torch.softmax(x, 2)\n"
            f"y.backward(logits((4, 5, 6, 7), '{dt}', 4)); out = [y, x.grad]")
        cases[f"log_softmax_bw_mid_{dt}"] = (
            f"x = leaf(logits((4, 5, 6, 7), '{dt}', 3)); y = F.log_softmax(x, dim=1)\n"
            f"y.backward(logits((4, 5, 6, 7), '{dt}', 4)); out = [y, x.grad]")
        cases[f"softmax_bw_0dim_{dt}"] = (
            f"x = leaf(logits((), '{dt}', 3)); y = torch.softmax(x, 0); y.backward(); out = [y, x.grad]")
        cases[f"softmax_bw_transposed_{dt}"] = (
            f"x = leaf(logits((33, 20), '{dt}', 3).t()); y = x.softmax(-1)\n"
            f"y.backward(logits((20, 33), '{dt}', 4)); out = [y, values_only(x.grad)]")
        # the gradient seen by log_softmax in cross_entropy: one nonzero per row
        cases[f"log_softmax_bw_onehot_{dt}"] = (
            f"x = leaf(logits((9, 65), '{dt}', 3)); y = x.log_softmax(-1)\n"
            f"g = torch.zeros(9, 65, dtype=torch.{dt}); g[:, 3] = -0.125; y.backward(g); out = [y, x.grad]")
    return cases


def reduce_cases(dtypes=("float32", "float64")):
    cases = {}
    for dt in dtypes:
        x = f"leaf(logits((4, 5, 6), '{dt}', 3))"
        for name, call, gshape in [
            ("sum", "x.sum()", "()"), ("sum_d1", "x.sum(1)", "(4, 6)"), ("sum_d1k", "x.sum(1, keepdim=True)", "(4, 1, 6)"),
            ("sum_d02", "x.sum((0, 2))", "(5,)"), ("sum_dneg", "torch.sum(x, dim=[-1, 0])", "(5,)"),
            ("sum_d02k", "x.sum((0, 2), keepdim=True)", "(1, 5, 1)"), ("mean", "x.mean()", "()"),
            ("mean_d1", "x.mean(1)", "(4, 6)"), ("mean_d1k", "x.mean(-2, keepdim=True)", "(4, 1, 6)"),
            ("mean_d02", "x.mean((0, 2))", "(5,)"), ("mean_d12k", "torch.mean(x, (1, 2), True)", "(4, 1, 1)"),
        ]:
            cases[f"{name}_{dt}"] = (
                f"x = {x}; y = {call}; y.backward(logits({gshape}, '{dt}', 5)); out = [y, x.grad]")
        cases[f"mean_big_{dt}"] = (
            f"x = leaf(logits((3, 70000), '{dt}', 3)); y = x.mean(); y.backward(); out = [y, x.grad]")
        cases[f"mean_of_loss_{dt}"] = (  # estimate_loss: losses.mean() of a 20-vector
            f"x = leaf(logits((20,), '{dt}', 3)); y = x.mean(); y.backward(); out = [y, x.grad]")
        for name, call in [("amax", "x.amax()"), ("amax_d1", "x.amax(1)"), ("amax_d02k", "x.amax((0, 2), keepdim=True)"),
                           ("amin_dneg", "torch.amin(x, -1)"), ("amin", "x.amin()")]:
            cases[f"{name}_ties_{dt}"] = (  # rounded values: ties share the gradient
                f"x = leaf(ints((4, 5, 6), '{dt}', 3)); y = {call}\n"
                f"y.backward(torch.ones_like(y) * 3); out = [y, x.grad]")
        cases[f"sum_accumulate_{dt}"] = (  # two uses of x: both gradients summed into .grad
            f"x = {x}; (x.sum() + x.mean((0, 1)).sum()).backward(); out = x.grad")
    return cases


ERRORS = {
    "target_oob": oracle.raises(IndexError, "out = F.cross_entropy(logits((4, 5)), torch.tensor([0, 1, 2, 70]))"),
    "target_neg": oracle.raises(IndexError, "out = F.cross_entropy(logits((4, 5)), torch.tensor([0, 1, 2, -5]))"),
    "target_oob_none": oracle.raises(IndexError, "out = F.nll_loss(logits((4, 5)), torch.tensor([0, 1, 9, 2]), reduction='none')"),
    "target_float": oracle.raises(RuntimeError, "out = F.cross_entropy(logits((4, 5)), torch.tensor([0., 1, 2, 3]))"),
    "target_int32": oracle.raises(RuntimeError, "out = F.nll_loss(logits((4, 5)), torch.tensor([0, 1, 2, 3], dtype=torch.int32))"),
    "batch_mismatch": oracle.raises(ValueError, "out = F.cross_entropy(logits((4, 5)), torch.tensor([0, 1, 2]))"),
    "target_2d": oracle.raises(RuntimeError, "out = F.nll_loss(logits((4, 5)), torch.tensor([[0, 1, 2, 3]]).t())"),
    "input_0d": oracle.raises(ValueError, "out = F.nll_loss(logits(()), torch.tensor(1))"),
    "input_1d_target_2": oracle.raises(ValueError, "out = F.nll_loss(logits((5,)), torch.tensor([1, 2]))"),
    "bad_reduction": oracle.raises(ValueError, "out = F.cross_entropy(logits((4, 5)), torch.tensor([0, 1, 2, 3]), reduction='foo')"),
    "weight_shape": oracle.raises(RuntimeError, "out = F.nll_loss(logits((4, 5)), torch.tensor([0, 1, 2, 3]), weight=torch.ones(3))"),
    "weight_dtype": oracle.raises(RuntimeError, "out = F.nll_loss(logits((4, 5)), torch.tensor([0, 1, 2, 3]), weight=torch.ones(5, dtype=torch.float64))"),
    "int_input": oracle.raises(NotImplementedError, "out = F.cross_entropy(torch.ones(4, 5, dtype=torch.int32), torch.tensor([0, 1, 2, 3]))"),
    "target_3d_size": oracle.raises(RuntimeError, "out = F.cross_entropy(logits((4, 5, 3)), torch.tensor([0, 1, 2, 3]))"),
    "oob_unchanged": "x = logits((4, 5))\ntry:\n    F.cross_entropy(x, torch.tensor([0, 9, 1, 1]))\nexcept IndexError:\n    pass\nout = x",
}


@pytest.mark.oracle
def test_cross_entropy():
    oracle.assert_cases_equal(ce_cases(), setup=SETUP)


@pytest.mark.oracle
def test_loss_layouts():
    oracle.assert_cases_equal(layout_cases(), setup=SETUP)


@pytest.mark.oracle
def test_softmax_backward():
    oracle.assert_cases_equal(softmax_cases(), setup=SETUP)


@pytest.mark.oracle
def test_reduce_backward():
    oracle.assert_cases_equal(reduce_cases(), setup=SETUP)


@pytest.mark.oracle
def test_loss_errors():
    oracle.assert_cases_equal(ERRORS, setup=SETUP)


@pytest.mark.oracle
@pytest.mark.parametrize("env", [{"ATEN_CPU_CAPABILITY": "avx2"}, {"OMP_NUM_THREADS": "1"},
                                 {"ATEN_CPU_CAPABILITY": "avx2", "OMP_NUM_THREADS": "1"},
                                 {"ATEN_CPU_CAPABILITY": "default"}],
                         ids=lambda e: "-".join(f"{k}={v}" for k, v in e.items()))
def test_loss_env(env):
    cases = {**ce_cases(), **layout_cases(), **softmax_cases(), **reduce_cases()}
    oracle.assert_cases_equal(cases, setup=SETUP, env=env)
