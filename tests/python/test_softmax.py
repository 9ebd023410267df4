"""softmax / log_softmax against torch, bitwise: the last-dim kernels (vec::reduce_all max, SLEEF exp,
vector-tree sum, multiply by 1/sum; log_softmax's (x - max) - log(sum)) and the dim != last kernels (V inner
positions per step, scalar std::exp tails at inner ends and at the 2-thread split, log_softmax's chunked
vertical reduction), for float32 and float64, lengths around the vector widths, layouts that go through
.contiguous(), dtype=, NaN/inf, and the same subset under ATEN_CPU_CAPABILITY=avx2 / default and one thread.
"""
import oracle
import pytest

SETUP = r"""
import random
NANS = [float('nan'), float('inf'), -float('inf'), 0.0, -0.0]
INFS = [float('inf'), -float('inf'), 0.0, -0.0]
def vals(shape, dtype="float32", seed=0, specials=0.0, scale=10.0, pool=NANS):
    n = 1
    for s in shape:
        n *= s
    r = random.Random(seed)
    sp = pool
    xs = [sp[r.randrange(len(sp))] if r.random() < specials else r.uniform(-scale, scale) for _ in range(n)]
    return torch.tensor(xs, dtype=torch.float64).to(getattr(torch, dtype)).reshape(shape)
F = torch.nn.functional
"""

LAST = [1, 2, 7, 8, 9, 15, 16, 17, 31, 32, 33, 63, 64, 65, 100, 1000, 4097, 50257]


def cases_for(dtypes=("float32", "float64")):
    cases = {}
    for dt in dtypes:
        for n in LAST:
            rows = 3 if n < 5000 else 2
            x = f"vals(({rows}, {n}), '{dt}', {n})"
            cases[f"sm_last_{dt}_{n}"] = f"out = torch.softmax({x}, -1)"
            cases[f"lsm_last_{dt}_{n}"] = f"out = torch.log_softmax({x}, -1)"
            cases[f"sm_big_{dt}_{n}"] = f"out = torch.softmax(vals((2, {n}), '{dt}', {n}, scale=80.0), 1)"
            cases[f"lsm_big_{dt}_{n}"] = f"out = {x}.mul(9.0).log_softmax(1)"
        for shape in [(5, 7, 9), (3, 33, 17), (2, 40, 65), (7, 1, 31), (64, 3), (3, 64), (4, 5, 6, 7), (2, 100, 300),
                      (1, 5, 1), (9, 17)]:
            s = "x".join(map(str, shape))
            x = f"vals({shape}, '{dt}', 7)"
            for d in range(len(shape)):
                cases[f"sm_{dt}_{s}_{d}"] = f"out = torch.softmax({x}, {d})"
                cases[f"lsm_{dt}_{s}_{d}"] = f"out = torch.log_softmax({x}, {d})"
            cases[f"sm_T_{dt}_{s}"] = f"out = {x}.transpose(0, -1).softmax(0)"
            cases[f"lsm_T_{dt}_{s}"] = f"out = {x}.transpose(0, -1).log_softmax(-1)"
            cases[f"F_sm_{dt}_{s}"] = f"out = F.softmax({x}, dim=-1)"
            cases[f"F_lsm_{dt}_{s}"] = f"out = F.log_softmax({x}, dim=0)"
        for n in [2, 5, 8, 9, 16, 17, 24, 33, 40, 100]:
            for seed in range(3):  # +-inf and zeros only: every NaN made is the same default NaN
                x = f"vals((8, {n}), '{dt}', {seed}, specials=0.1, pool=INFS)"
                cases[f"sm_inf_{dt}_{n}_{seed}"] = f"out = torch.softmax({x}, -1)"
                cases[f"lsm_inf_{dt}_{n}_{seed}"] = f"out = torch.log_softmax({x}, -1)"
                cases[f"sm_inf0_{dt}_{n}_{seed}"] = f"out = torch.softmax({x}, 0)"
                cases[f"lsm_inf0_{dt}_{n}_{seed}"] = f"out = torch.log_softmax({x}, 0)"
        cases[f"sm_0dim_{dt}"] = f"out = torch.softmax(torch.tensor(3.0, dtype=torch.{dt}), 0)"
        cases[f"lsm_0dim_{dt}"] = f"out = torch.log_softmax(torch.tensor(3.0, dtype=torch.{dt}), -1)"
        cases[f"sm_empty_{dt}"] = f"out = torch.softmax(torch.zeros((0, 4), dtype=torch.{dt}), 1)"
        cases[f"sm_expand_{dt}"] = f"out = torch.softmax(vals((1, 33), '{dt}', 1).expand(4, 33), -1)"
    cases["sm_dtype"] = "out = torch.softmax(vals((3, 17)), -1, dtype=torch.float64)"
    cases["lsm_dtype"] = "out = vals((3, 17), 'float64').log_softmax(0, dtype=torch.float32)"
    return cases


def nan_cases():
    cases = {}
    for dt in ("float32", "float64"):
        for n in [2, 5, 8, 9, 16, 17, 24, 33, 40, 100]:
            for seed in range(3):
                x = f"vals((8, {n}), '{dt}', {seed}, specials=0.08)"
                cases[f"sm_nan_{dt}_{n}_{seed}"] = f"out = torch.softmax({x}, -1)"
                cases[f"lsm_nan_{dt}_{n}_{seed}"] = f"out = torch.log_softmax({x}, -1)"
                cases[f"sm_nan0_{dt}_{n}_{seed}"] = f"out = torch.softmax({x}, 0)"
                cases[f"lsm_nan0_{dt}_{n}_{seed}"] = f"out = torch.log_softmax({x}, 0)"
    return cases


ERRORS = {
    "dim_range": oracle.raises(IndexError, "out = torch.softmax(vals((3, 4)), 2)"),
    "dim_range_neg": oracle.raises(IndexError, "out = torch.log_softmax(vals((3, 4)), -3)"),
    "int_input": oracle.raises(NotImplementedError, "out = torch.softmax(torch.tensor([1, 2, 3]), 0)"),
    "int_input_log": oracle.raises(NotImplementedError, "out = torch.log_softmax(torch.tensor([1, 2, 3]), 0)"),
    "int_input_dtype_ok": "out = torch.softmax(torch.tensor([1, 2, 3]), 0, dtype=torch.float32)",
    "F_no_dim": "import warnings; warnings.simplefilter('ignore'); out = F.softmax(vals((3, 4)))",
    "F_no_dim_1d": "import warnings; warnings.simplefilter('ignore'); out = F.log_softmax(vals((5,)))",
    "F_dtype": "out = F.softmax(vals((3, 4)), dim=1, dtype=torch.float64)",
}


def half_cases():
    cases = {}
    for dt in ("float16", "bfloat16"):
        for n in [1, 7, 8, 15, 16, 17, 31, 32, 33, 47, 64, 65, 100, 1000, 4097]:
            x = f"vals((3, {n}), '{dt}', {n})"
            cases[f"sm_last_{dt}_{n}"] = f"out = torch.softmax({x}, -1)"
            cases[f"lsm_last_{dt}_{n}"] = f"out = torch.log_softmax({x}, -1)"
        for shape in [(5, 7, 9), (3, 33, 17), (2, 40, 65), (64, 3), (3, 64), (2, 100, 300), (9, 17)]:
            s = "x".join(map(str, shape))
            x = f"vals({shape}, '{dt}', 7)"
            for d in range(len(shape)):
                cases[f"sm_{dt}_{s}_{d}"] = f"out = torch.softmax({x}, {d})"
                cases[f"lsm_{dt}_{s}_{d}"] = f"out = torch.log_softmax({x}, {d})"
        cases[f"sm_to_{dt}"] = f"out = torch.softmax(vals((3, 40)), -1, dtype=torch.{dt})"
    return cases


@pytest.mark.oracle
def test_softmax():
    oracle.assert_cases_equal(cases_for(), setup=SETUP)


# Note [NaN payloads in softmax]: a row with an input NaN (0x7FC00000) also makes x86's all-ones NaN in
# vec::maximum, and which of the two NaNs survives each later add/mul depends on the operand order GCC
# chose in each loop of torch's AVX2/AVX-512 builds (see kernels/cpu/softmax.cpp Note [NaN operand
# order]). The values are NaN on both sides; only the NaN bits can differ. Kept visible as an xfail.
@pytest.mark.oracle
@pytest.mark.xfail(reason="NaN payload of softmax rows mixing input NaNs and maximum's all-ones NaN", strict=False,
                   raises=AssertionError)
def test_softmax_nan_payloads():
    oracle.assert_cases_equal(nan_cases(), setup=SETUP)


@pytest.mark.oracle
def test_softmax_half():
    oracle.assert_cases_equal(half_cases(), setup=SETUP)


@pytest.mark.oracle
def test_softmax_errors():
    oracle.assert_cases_equal(ERRORS, setup=SETUP)


# Known gap: without dim, torch's argument parser says 'softmax() missing 1 required positional
# arguments: "dim"'; densecore's binding prints nanobind's listing of its signature.
@pytest.mark.oracle
@pytest.mark.xfail(strict=True, raises=AssertionError, reason="TypeError message of torch's argument parser")
def test_softmax_no_dim_message_gap():
    oracle.assert_cases_equal({"no_dim": oracle.raises(TypeError, "out = torch.softmax(vals((3, 4)))")}, setup=SETUP)


@pytest.mark.oracle
@pytest.mark.parametrize("env", [{"ATEN_CPU_CAPABILITY": "avx2"}, {"ATEN_CPU_CAPABILITY": "default"},
                                 {"OMP_NUM_THREADS": "1"}], ids=lambda e: "-".join(f"{k}={v}" for k, v in e.items()))
def test_softmax_env(env):
    oracle.assert_cases_equal({**cases_for(), **half_cases()}, setup=SETUP, env=env)
