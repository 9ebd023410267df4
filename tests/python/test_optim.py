"""torch.optim (AdamW, Adam, SGD, lr schedulers) and torch.nn.utils.clip_grad_norm_ against torch,
bitwise: parameters, optimizer state and returned norms after 20 steps on given gradients, with
nanoGPT's two param groups (weight_decay 0.1 / 0.0), betas (0.9, 0.99) and lr rewritten in
param_groups every step; state_dict round trips; native, ATEN_CPU_CAPABILITY=avx2, OMP_NUM_THREADS=1.
SPECIAL_RUNS guard the fused Adam/AdamW and SGD steps (kernels/cpu/optim.cpp): NaNs of both signs and several payloads,
infinities and signed zeros in parameters and gradients, at sizes on each side of the vector body's 16, VML's
grain 2048 and the parallel grain 32768, so that the NaN each op keeps, in its vector body and in its scalar tail
of each thread's chunk, is checked against torch's separate kernels.
"""
import oracle
import pytest

pytestmark = pytest.mark.oracle

CONFIGS = {"native": None, "avx2": {"ATEN_CPU_CAPABILITY": "avx2"}, "1thread": {"OMP_NUM_THREADS": "1"}}

SETUP = r"""
import random, math
def vals(n, seed, scale=1.0):
    r = random.Random(seed)
    return torch.tensor([r.gauss(0, 1) * scale for _ in range(n)], dtype=torch.float32)
SHAPES = [(7,), (33, 5), (100,), (40013,), (3, 1)]
def make_params():
    return [torch.nn.Parameter(vals(math.prod(s), 100 + i).reshape(s)) for i, s in enumerate(SHAPES)]
def set_grads(params, step, scale=1.0):
    for i, p in enumerate(params):
        p.grad = vals(p.numel(), 1000 * step + i, scale).reshape(p.shape)
def lr_at(it):  # nanoGPT's get_lr: warmup then cosine decay
    warmup, decay, lr, min_lr = 5, 20, 1e-3, 1e-4
    if it < warmup:
        return lr * (it + 1) / (warmup + 1)
    ratio = (it - warmup) / (decay - warmup)
    return min_lr + 0.5 * (1.0 + math.cos(math.pi * ratio)) * (lr - min_lr)
def state_list(opt, params):
    return [[opt.state[p][k] for k in sorted(opt.state[p])] for p in params if p in opt.state]
"""

RUNS = {
    "adamw_nanogpt": """
params = make_params()
groups = [{'params': [p for p in params if p.dim() >= 2], 'weight_decay': 0.1},
          {'params': [p for p in params if p.dim() < 2], 'weight_decay': 0.0}]
opt = torch.optim.AdamW(groups, lr=1e-3, betas=(0.9, 0.99))
norms = []
for it in range(20):
    for g in opt.param_groups:
        g['lr'] = lr_at(it)
    set_grads(params, it, scale=0.5 if it % 3 else 3.0)
    norms.append(torch.nn.utils.clip_grad_norm_(params, 1.0))
    opt.step()
    opt.zero_grad(set_to_none=True)
out = [params, norms, state_list(opt, params), [p.grad is None for p in params]]
""",
    "adamw_defaults": """
params = make_params()
opt = torch.optim.AdamW(params)
for it in range(20):
    set_grads(params, it)
    opt.step()
out = [params, state_list(opt, params)]
""",
    "adam_l2_amsgrad": """
params = make_params()
opt = torch.optim.Adam(params, lr=3e-3, betas=(0.8, 0.95), eps=1e-6, weight_decay=0.05, amsgrad=True)
for it in range(20):
    set_grads(params, it)
    opt.step()
out = [params, state_list(opt, params)]
""",
    "adam_maximize": """
params = make_params()
opt = torch.optim.Adam(params, lr=1e-2, maximize=True)
for it in range(20):
    set_grads(params, it)
    opt.step()
out = [params, state_list(opt, params)]
""",
    "sgd_plain": """
params = make_params()
opt = torch.optim.SGD(params, lr=0.1)
for it in range(20):
    set_grads(params, it)
    opt.step()
out = params
""",
    "sgd_momentum_wd": """
params = make_params()
opt = torch.optim.SGD(params, lr=0.05, momentum=0.9, dampening=0.1, weight_decay=1e-3)
for it in range(20):
    set_grads(params, it)
    opt.step()
out = [params, state_list(opt, params)]
""",
    "sgd_nesterov": """
params = make_params()
opt = torch.optim.SGD(params, lr=0.05, momentum=0.9, nesterov=True)
for it in range(20):
    set_grads(params, it)
    opt.step()
out = [params, state_list(opt, params)]
""",
    "adamw_state_dict_roundtrip": """
params = make_params()
groups = [{'params': params[:2], 'weight_decay': 0.1}, {'params': params[2:], 'weight_decay': 0.0}]
opt = torch.optim.AdamW(groups, lr=1e-3, betas=(0.9, 0.99))
for it in range(10):
    set_grads(params, it)
    opt.step()
sd = opt.state_dict()
params2 = [torch.nn.Parameter(torch.empty_like(p).copy_(p.detach())) for p in params]
opt2 = torch.optim.AdamW([{'params': params2[:2], 'weight_decay': 0.1}, {'params': params2[2:], 'weight_decay': 0.0}],
                         lr=1e-3, betas=(0.9, 0.99))
opt2.load_state_dict(sd)
for it in range(10, 20):
    set_grads(params2, it)
    opt2.step()
sd2 = opt2.state_dict()
out = [params2, sd['param_groups'], sorted(sd['state'].keys()), [sorted(v.keys()) for v in sd['state'].values()],
       sd2['param_groups'], [sd2['state'][k] for k in sorted(sd2['state'])]]
""",
    "schedulers": """
params = make_params()
opt = torch.optim.SGD([{'params': params[:2]}, {'params': params[2:], 'lr': 0.3}], lr=0.1)
s1 = torch.optim.lr_scheduler.StepLR(opt, step_size=3, gamma=0.7)
lrs = []
for it in range(10):
    opt.step(); s1.step(); lrs.append(s1.get_last_lr())
opt = torch.optim.SGD(params, lr=0.1)
s2 = torch.optim.lr_scheduler.CosineAnnealingLR(opt, T_max=7, eta_min=0.001)
for it in range(20):
    opt.step(); s2.step(); lrs.append(s2.get_last_lr())
opt = torch.optim.SGD(params, lr=0.1)
s3 = torch.optim.lr_scheduler.LambdaLR(opt, lambda e: 0.95 ** e)
for it in range(5):
    opt.step(); s3.step(); lrs.append(s3.get_last_lr())
out = lrs
""",
}

SPECIAL_SETUP = SETUP + r"""
import struct
def nan_bits(bits):
    return struct.unpack('<f', struct.pack('<I', bits))[0]
PAYLOADS = [0x7fc00001, 0xffc12345, 0x7f800003, 0xff812345, 0x7fc0beef, 0xffffffff]
def spike(t, seed, frac):
    # frac of the elements become a NaN (70%), an infinity (15%) or a signed zero (15%)
    r = random.Random(seed)
    flat = t.reshape(-1)
    for _ in range(max(1, int(flat.numel() * frac))):
        k, c = r.randrange(flat.numel()), r.random()
        if c < 0.7:
            flat[k] = nan_bits(r.choice(PAYLOADS))
        elif c < 0.85:
            flat[k] = float('inf') if r.random() < 0.5 else -float('inf')
        else:
            flat[k] = 0.0 if r.random() < 0.5 else -0.0
    return t
SIZES = [1, 15, 16, 17, 33, 2047, 2049, 32768, 32769, 65552]
def special_run(make_opt, steps=6):
    params = [torch.nn.Parameter(spike(vals(n, 7 + n), n, 0.05)) for n in SIZES]
    opt = make_opt(params)
    for it in range(steps):
        for i, p in enumerate(params):
            p.grad = spike(vals(p.numel(), 1000 * it + i), 31 * it + i, 0.1)
        opt.step()
    return [params, state_list(opt, params), [p._version for p in params]]
def sparse_run(make_opt, steps=5):
    # As a ReLU layer's weights at batch 1: most gradients exactly zero step after step (exp_avg_sq stays +0,
    # Note [VML sqrt of zeros]), whole VML chunks of them, and tiny ones whose squares are denormal or +0.
    params = [torch.nn.Parameter(vals(n, 3 + n)) for n in SIZES]
    opt = make_opt(params)
    for it in range(steps):
        for i, p in enumerate(params):
            g = vals(p.numel(), 500 * it + i)
            flat = g.reshape(-1)
            flat[: (p.numel() * 3) // 5] = 0.0
            flat[1::7] = flat[1::7] * 1e-20
            flat[2::11] = -0.0
            p.grad = g
        opt.step()
    return [params, state_list(opt, params)]
"""

SPECIAL_RUNS = {
    "adam_special": "out = special_run(lambda ps: torch.optim.Adam(ps, lr=1e-2))",
    "adamw_special": "out = special_run(lambda ps: torch.optim.AdamW(ps, lr=1e-2, weight_decay=0.1))",
    "adam_maximize_special": "out = special_run(lambda ps: torch.optim.Adam(ps, lr=1e-2, maximize=True, betas=(0.3, 0.6)))",
    "adamw_eps0_big_lr": "out = special_run(lambda ps: torch.optim.AdamW(ps, lr=3.0, eps=0.0, betas=(0.6, 0.7)))",
    "adam_sparse_grads": "out = sparse_run(lambda ps: torch.optim.Adam(ps, lr=1e-2))",
    "adamw_sparse_grads_eps0": "out = sparse_run(lambda ps: torch.optim.AdamW(ps, lr=1e-2, eps=0.0))",
    "sgd_special": "out = special_run(lambda ps: torch.optim.SGD(ps, lr=0.1))",
    "sgd_momentum_special": "out = special_run(lambda ps: torch.optim.SGD(ps, lr=0.1, momentum=0.9, dampening=0.2))",
    "sgd_nesterov_wd_maximize_special": """
out = special_run(lambda ps: torch.optim.SGD(ps, lr=0.05, momentum=0.8, nesterov=True, weight_decay=0.01, maximize=True))
""",
}

CLIP = {}
for _name, _scale, _maxn, _ord in [("below", 0.001, 1.0, 2.0), ("above", 2.0, 1.0, 2.0), ("above_max3", 2.0, 3.0, 2.0),
                                   ("inf", 2.0, 1.0, "float('inf')"), ("ord1", 0.01, 0.5, 1)]:
    CLIP[f"clip_{_name}"] = f"""
params = make_params()
set_grads(params, 7, {_scale})
n = torch.nn.utils.clip_grad_norm_(params, {_maxn}, norm_type={_ord})
out = [n, [p.grad for p in params]]
"""
CLIP["clip_generator_single"] = """
params = make_params()
set_grads(params, 3, 5.0)
params[1].grad = None
n = torch.nn.utils.clip_grad_norm_((p for p in params), 1.0)
m = torch.nn.utils.clip_grad_norm_(params[0], 0.1)
out = [n, m, [p.grad for p in params]]
"""
CLIP["clip_value"] = """
params = make_params()
set_grads(params, 4, 2.0)
torch.nn.utils.clip_grad_value_(params, 0.75)
out = [p.grad for p in params]
"""
CLIP["signature"] = """
import inspect
out = [list(inspect.signature(torch.optim.AdamW).parameters), list(inspect.signature(torch.optim.Adam).parameters),
       list(inspect.signature(torch.optim.SGD).parameters), 'fused' in inspect.signature(torch.optim.AdamW).parameters]
"""
CLIP["defaults"] = """
p = torch.nn.Parameter(torch.ones(3))
o = torch.optim.AdamW([p])
out = [o.defaults, o.param_groups[0]['betas'], torch.optim.SGD([p]).defaults]
"""

ERRORS = {name: oracle.raises(ValueError, code) for name, code in {
    "empty": "out = torch.optim.AdamW([])",
    "bad_lr": "out = torch.optim.AdamW([torch.nn.Parameter(torch.ones(2))], lr=-1.0)",
    "bad_beta": "out = torch.optim.Adam([torch.nn.Parameter(torch.ones(2))], betas=(1.0, 0.9))",
    "int_betas": "out = torch.optim.Adam([torch.nn.Parameter(torch.ones(2))], betas=(0, 0.9))",
    "duplicate_group": "p = torch.nn.Parameter(torch.ones(2)); out = torch.optim.SGD([{'params': [p]}, {'params': [p]}], lr=0.1)",
    "non_leaf": "p = torch.ones(2, requires_grad=True) * 2; out = torch.optim.SGD([p], lr=0.1)",
    "nesterov": "out = torch.optim.SGD([torch.nn.Parameter(torch.ones(2))], lr=0.1, nesterov=True)",
    "load_mismatch": "p = torch.nn.Parameter(torch.ones(2)); o = torch.optim.SGD([p], lr=0.1); out = o.load_state_dict({'state': {}, 'param_groups': []})",
}.items()}
ERRORS["tensor_params"] = oracle.raises(TypeError, "out = torch.optim.SGD(torch.ones(2), lr=0.1)")


@pytest.mark.parametrize("config", CONFIGS)
def test_optimizers_20_steps(config):
    oracle.assert_cases_equal(RUNS, setup=SETUP, env=CONFIGS[config])


@pytest.mark.parametrize("config", CONFIGS)
def test_adam_special_values(config):
    oracle.assert_cases_equal(SPECIAL_RUNS, setup=SPECIAL_SETUP, env=CONFIGS[config])


@pytest.mark.parametrize("config", CONFIGS)
def test_clip_grad(config):
    oracle.assert_cases_equal(CLIP, setup=SETUP, env=CONFIGS[config])


def test_errors_match_torch():
    oracle.assert_cases_equal(ERRORS, setup=SETUP)
