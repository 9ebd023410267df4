"""Unary math ops, pow, lerp/addcmul/addcdiv and vector_norm against torch, bitwise.

float32/float64 x lengths that hit the vector tails (1, 7, 31, 33, 100), the VML grain (2049) and the
2-thread split (40013) x layouts (contiguous, transposed, strided slice, in-place, out=) with
NaN/inf/-0.0/denormals; gradients through each op's autograd row; native capability,
ATEN_CPU_CAPABILITY=avx2 and OMP_NUM_THREADS=1 (both libraries get the environment).
"""
import oracle
import pytest

pytestmark = pytest.mark.oracle

LENGTHS = [1, 7, 31, 33, 100, 2049, 40013]
FLOATS = ["float32", "float64"]
CONFIGS = {"native": None, "avx2": {"ATEN_CPU_CAPABILITY": "avx2"}, "1thread": {"OMP_NUM_THREADS": "1"}}

SETUP = r"""
import random
SPECIALS = [float('nan'), float('inf'), -float('inf'), -0.0, 0.0, 1.0, -1.0, 0.5, 1e-40, -1e-40, 88.7, -104.0, 1e30]
def vals(dt, n, seed, lo=-5.0, hi=5.0, specials=True, positive=False):
    r = random.Random(seed)
    xs = []
    for _ in range(n):
        if specials and r.random() < 0.1:
            x = SPECIALS[r.randrange(len(SPECIALS))]
        else:
            x = r.uniform(lo, hi) * (10 ** r.randint(-3, 1))
        xs.append(abs(x) if positive else x)
    return torch.tensor(xs, dtype=torch.float64).to(getattr(torch, dt))
"""

UNARY = ["sqrt", "rsqrt", "exp", "log", "tanh", "erf", "sin", "cos", "sigmoid", "reciprocal", "relu"]
POWS = ["2", "3", "-2", "0.5", "-0.5", "-1", "0", "1"]


def forward_cases():
    cases = {}
    for dt in FLOATS:
        for n in LENGTHS:
            for op in UNARY:
                cases[f"{op}_{dt}_{n}"] = f"a = vals('{dt}', {n}, {n}); out = torch.{op}(a)"
            for e in POWS:
                cases[f"pow{e}_{dt}_{n}"] = f"a = vals('{dt}', {n}, {n} + 1); out = torch.pow(a, {e})"
        for op in UNARY:  # layouts: transposed, strided slice, in-place, out=
            cases[f"{op}_{dt}_t"] = f"a = vals('{dt}', 3000, 5).reshape(60, 50).t(); out = torch.{op}(a)"
            cases[f"{op}_{dt}_slice"] = f"a = vals('{dt}', 9000, 6)[1::3]; out = a.{op}()"
            cases[f"{op}_{dt}_inplace"] = f"a = vals('{dt}', 1000, 7); b = a.{op}_(); out = [a, b is a]"
            if op == "relu":  # torch.relu has no out=
                continue
            cases[f"{op}_{dt}_out"] = f"a = vals('{dt}', 77, 8); o = torch.empty(77, dtype=a.dtype); r = torch.{op}(a, out=o); out = [o, r is o]"
            cases[f"{op}_{dt}_tout"] = f"a = vals('{dt}', 3000, 9).reshape(60, 50); o = torch.empty(50, 60, dtype=a.dtype).t(); torch.{op}(a, out=o); out = o"
            cases[f"{op}_{dt}_0dim"] = f"out = torch.{op}(torch.tensor(0.75, dtype=torch.{dt}))"
    for op in UNARY[:-1]:
        cases[f"{op}_int"] = f"out = torch.{op}(torch.tensor([1, 2, 3, 4]))"
    cases.update(sigmoid_bits_cases())
    return cases


# sigmoid's float vector body is SLEEF's exp as whole vectors: random bit patterns (NaN payloads of both signs,
# signalling NaNs, denormals, every exponent) and values at exp's cutoffs (-x beyond 100 gives inf, below -104
# gives 0), each in the vector body and again in the scalar tail; the backward with NaN gradients.
SIGMOID_EDGES = ("[104.0, -104.0, 103.99999, -100.0, -100.00001, 100.0, 88.72284, -88.72284, 87.33655, -87.33655, "
                 "1e-45, -1e-45, 1e-38, -0.0, 0.0, float('inf'), -float('inf'), 16.635532, -16.635532, 0.5, 1e30, -1e30]")
SIGNALLING = "[0x7f800001, -0x7fbfff, 0x7fa00000, -0x400000, 0x7fc00123, -0x3fedcb]"


def sigmoid_bits_cases():
    cases = {}
    for n in (100003, 37):
        cases[f"sigmoid_random_bits_{n}"] = (
            f"r = random.Random({n}); "
            f"x = torch.tensor([r.getrandbits(32) - (1 << 31) for _ in range({n})], dtype=torch.int32).view(torch.float32); "
            "x.requires_grad_(); y = torch.sigmoid(x); "
            f"y.backward(torch.tensor([r.getrandbits(32) - (1 << 31) for _ in range({n})], dtype=torch.int32).view(torch.float32)); "
            "out = [y, x.grad]")
    cases["sigmoid_edges"] = (
        f"v = {SIGMOID_EDGES}; v = v + v[:5]; x = torch.tensor(v).requires_grad_(); y = torch.sigmoid(x); "
        "y.backward(torch.linspace(-1, 1, len(v))); out = [y, x.grad]")
    cases["sigmoid_nan_payloads"] = (
        f"b = {SIGNALLING} * 4; x = torch.tensor(b[:24] + b[:5], dtype=torch.int32).view(torch.float32); "
        "x.requires_grad_(); y = torch.sigmoid(x); "
        "g = torch.tensor(([0x7fc00777, -0x3ff667, 0x3f800000] * 10)[:29], dtype=torch.int32).view(torch.float32); "
        "y.backward(g); out = [y, x.grad]")
    return cases


def pointwise_cases():
    cases = {}
    for dt in FLOATS:
        for n in LENGTHS:
            s = f"s = vals('{dt}', {n}, 1); e = vals('{dt}', {n}, 2); t1 = vals('{dt}', {n}, 3); t2 = vals('{dt}', {n}, 4)"
            for w in ("0.1", "0.7", "0.5", "-0.3", "1.5"):
                cases[f"lerp{w}_{dt}_{n}"] = f"{s}; out = torch.lerp(s, e, {w})"
            cases[f"lerp_inplace_{dt}_{n}"] = f"{s}; s.lerp_(e, 1 - 0.9); out = s"
            for v in ("1", "0.001", "-0.3"):
                cases[f"addcmul{v}_{dt}_{n}"] = f"{s}; out = torch.addcmul(s, t1, t2, value={v})"
                cases[f"addcdiv{v}_{dt}_{n}"] = f"{s}; out = torch.addcdiv(s, t1, t2, value={v})"
            cases[f"addcmul_inplace_{dt}_{n}"] = f"{s}; s.mul_(0.99).addcmul_(t1, t1, value=1 - 0.99); out = s"
            cases[f"addcdiv_inplace_{dt}_{n}"] = f"{s}; s.addcdiv_(t1, t2.abs() + 1e-8, value=-0.0123); out = s"
            cases[f"norm_{dt}_{n}"] = f"a = vals('{dt}', {n}, {n}, specials=False); out = torch.linalg.vector_norm(a)"
        cases[f"addcmul_bcast_{dt}"] = f"s = vals('{dt}', 60, 1).reshape(6, 10); out = torch.addcmul(s, vals('{dt}', 10, 2), vals('{dt}', 6, 3).reshape(6, 1), value=0.5)"
        cases[f"lerp_t_{dt}"] = f"s = vals('{dt}', 3000, 1).reshape(60, 50).t(); out = torch.lerp(s, vals('{dt}', 3000, 2).reshape(50, 60), 0.3)"
        for n in (1, 2, 3, 4, 5, 7, 8, 9, 12, 13, 15, 16, 17, 31, 100, 1000, 70001):
            cases[f"norm_len{n}_{dt}"] = f"a = vals('{dt}', {n}, {n} + 7, specials=False); out = [torch.linalg.vector_norm(a), a.norm(), torch.norm(a)]"
        for dims in ("0", "1", "(0, 1)", "-1", "None"):
            cases[f"norm_dim{dims}_{dt}"] = f"a = vals('{dt}', 4000, 3, specials=False).reshape(80, 50); out = [torch.linalg.vector_norm(a, 2, {dims}), torch.linalg.vector_norm(a, 2, {dims}, keepdim=True)]"
        cases[f"norm_t_{dt}"] = f"a = vals('{dt}', 40000, 4, specials=False).reshape(200, 200).t(); out = [torch.linalg.vector_norm(a), torch.linalg.vector_norm(a, dim=1)]"
        for o in ("1", "float('inf')", "3", "0"):
            cases[f"norm_ord{o}_{dt}"] = f"a = vals('{dt}', 333, 5, specials=False); out = torch.linalg.vector_norm(a, {o})"
        cases[f"norm_ones_{dt}"] = f"a = vals('{dt}', 5, 6).reshape(5, 1); out = torch.linalg.vector_norm(a, dim=1)"
        cases[f"norm_0dim_{dt}"] = f"out = torch.linalg.vector_norm(torch.tensor(-3.0, dtype=torch.{dt}))"
        cases[f"norm_empty_{dt}"] = f"out = torch.linalg.vector_norm(torch.zeros(0, dtype=torch.{dt}))"
    return cases


GRAD = {
    "sqrt": "torch.sqrt(x)", "rsqrt": "torch.rsqrt(x)", "exp": "torch.exp(x)", "log": "torch.log(x)",
    "tanh": "torch.tanh(x)", "erf": "torch.erf(x)", "sin": "torch.sin(x)", "cos": "torch.cos(x)",
    "sigmoid": "torch.sigmoid(x)", "reciprocal": "torch.reciprocal(x)", "relu": "torch.relu(x)",
    "pow2": "x ** 2", "pow3": "torch.pow(x, 3)", "pow_half": "x.pow(0.5)", "pow_m1": "x.pow(-1)",
    "lerp": "torch.lerp(x, y, 0.3)", "lerp_big": "torch.lerp(x, y, 0.8)",
    "addcmul": "torch.addcmul(x, y, z, value=0.7)", "addcdiv": "torch.addcdiv(x, y, z, value=-0.7)",
}


def grad_cases():
    cases = {}
    for dt in FLOATS:
        for n in (7, 100, 40013):
            for name, expr in GRAD.items():
                cases[f"grad_{name}_{dt}_{n}"] = (
                    f"x = vals('{dt}', {n}, 1, lo=0.1, hi=3.0, specials=False, positive=True).requires_grad_(); "
                    f"y = vals('{dt}', {n}, 2, specials=False).requires_grad_(); "
                    f"z = vals('{dt}', {n}, 3, lo=0.5, hi=2, specials=False, positive=True).requires_grad_(); "
                    f"r = {expr}; r.backward(vals('{dt}', {n}, 4, specials=False)); "
                    f"out = [r, x.grad, y.grad, z.grad, r.grad_fn.name()]"
                )
    return cases


# torch raises RuntimeError for each.
ERRORS = {name: oracle.raises(RuntimeError, code) for name, code in {
    "pow_int_neg": "out = torch.pow(torch.tensor([1, 2]), -1)",
    "addcdiv_int": "out = torch.addcdiv(torch.ones(3), torch.tensor([1, 2, 3]), torch.tensor([1, 2, 3]))",
    "lerp_dtype": "out = torch.lerp(torch.ones(3), torch.ones(3, dtype=torch.float64), 0.5)",
    "lerp_shape": "out = torch.lerp(torch.ones(3), torch.ones(4), 0.5)",
    "exp_inplace_int": "a = torch.tensor([1, 2]); a.exp_(); out = a",
    "sqrt_leaf": "a = torch.ones(3, requires_grad=True); a.sqrt_(); out = a",
    "norm_int": "out = torch.linalg.vector_norm(torch.tensor([1, 2]))",
    "addcmul_shape": "out = torch.addcmul(torch.ones(3), torch.ones(2), torch.ones(3))",
}.items()}


@pytest.mark.parametrize("config", CONFIGS)
def test_unary_forward(config):
    oracle.assert_cases_equal(forward_cases(), setup=SETUP, env=CONFIGS[config])


@pytest.mark.parametrize("config", CONFIGS)
def test_pointwise_and_norm(config):
    oracle.assert_cases_equal(pointwise_cases(), setup=SETUP, env=CONFIGS[config])


@pytest.mark.parametrize("config", CONFIGS)
def test_unary_gradients(config):
    oracle.assert_cases_equal(grad_cases(), setup=SETUP, env=CONFIGS[config])


def test_errors_match_torch():
    oracle.assert_cases_equal(ERRORS, setup=SETUP)
