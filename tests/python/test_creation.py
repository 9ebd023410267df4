"""Factories against torch, bit for bit: empty/zeros/ones/full(+_like), arange, linspace, eye, tril/triu,
fill_, finfo/iinfo, and the bad-input sweep (torch's exception class and message)."""
import random

import oracle
import pytest

DTYPES = ["bool", "uint8", "int8", "int16", "int32", "int64", "float16", "bfloat16", "float32", "float64"]
FLOATS = ["float16", "bfloat16", "float32", "float64"]
INTS = ["uint8", "int8", "int16", "int32", "int64"]
CAPABILITIES = [None, "avx2", "default"]


def _env(cap):
    return {"ATEN_CPU_CAPABILITY": cap} if cap else None


@pytest.mark.oracle
def test_constant_factories_all_dtypes():
    cases = {}
    for dt in DTYPES:
        cases[f"zeros-{dt}"] = f"out = torch.zeros(2, 3, dtype=torch.{dt})"
        cases[f"ones-{dt}"] = f"out = torch.ones((4,), dtype=torch.{dt})"
        cases[f"ones0d-{dt}"] = f"out = torch.ones((), dtype=torch.{dt})"
        cases[f"empty-shape-{dt}"] = f"out = tuple(torch.empty([0, 5], dtype=torch.{dt}).shape)"
        cases[f"zeros_like-{dt}"] = f"out = torch.zeros_like(torch.ones(3, 2), dtype=torch.{dt})"
        cases[f"ones_like-{dt}"] = f"out = torch.ones_like(torch.zeros(2, dtype=torch.{dt}))"
        cases[f"full_like-{dt}"] = f"out = torch.full_like(torch.zeros(2, dtype=torch.{dt}), 1)"
    cases["zeros-default"] = "out = torch.zeros(3)"
    cases["zeros-size"] = "out = torch.zeros(torch.Size([2, 2]))"
    cases["zeros-list"] = "out = torch.zeros([2, 1, 2])"
    cases["empty-dtype"] = "out = str(torch.empty(2, 2).dtype)"
    cases["default64"] = "torch.set_default_dtype(torch.float64); out = torch.ones(2)"
    oracle.assert_cases_equal(cases)


FILL_VALUES = ["0", "1", "-1", "True", "False", "70000", "-70000", "70000.0", "65519.0", "65520.0", "1e40",
               "-1e40", "3.4e38", "3.5e38", "2**63-1", "-2**63", "1e19", "9.3e18", "2**31", "-129", "128",
               "255", "256", "-255", "-256", "-1.0", "-0.5", "255.9", "256.0", "float('nan')",
               "float('inf')", "-float('inf')", "-0.0", "127.9", "128.0", "-128.9", "-129.0", "2**24+1",
               "1/3", "0.1", "1.00048828125", "1.0009765625", "1.001953125", "65535.5", "1e-8", "5e-324"]


@pytest.mark.oracle
def test_full_values_checked_conversion():
    # Where a value overflows the dtype is the line under test: torch raises RuntimeError there.
    cases = {}
    for dt in DTYPES:
        for i, v in enumerate(FILL_VALUES):
            cases[f"full-{dt}-{i}"] = oracle.may_raise(RuntimeError, f"out = torch.full((3,), {v}, dtype=torch.{dt})")
    for i, v in enumerate(FILL_VALUES):
        cases[f"full-infer-{i}"] = oracle.may_raise(RuntimeError, f"out = torch.full((2,), {v})")
    oracle.assert_cases_equal(cases)


@pytest.mark.oracle
def test_fill_inplace_and_strided():
    cases = {}
    for dt in DTYPES:
        cases[f"fill-{dt}"] = f"t = torch.zeros(2, 3, dtype=torch.{dt}); t.fill_(1.5); out = t"
        cases[f"zero-{dt}"] = f"t = torch.ones(2, 3, dtype=torch.{dt}); t.zero_(); out = t"
    oracle.assert_cases_equal(cases)


def _arange_cases(rng):
    cases = {}
    bounds = [("0", "10", "1"), ("-5", "5", "1"), ("0", "1", "0.1"), ("1", "0", "-0.1"), ("0.5", "100.5", "0.3"),
              ("0", "1", "0.01"), ("-3", "3", "0.07"), ("0", "5", "2"), ("1", "2", "1/3"), ("0", "65530", "3.1"),
              ("10", "-10", "-0.37"), ("0", "2**24+10", "1"), ("0.1", "99.9", "0.1"), ("0", "300", "1"),
              ("1e-3", "5e-1", "1e-3"), ("0", "1000", "1/7"), ("-1e5", "1e5", "97.13")]
    for _ in range(25):
        start = rng.uniform(-1000, 1000)
        step = rng.choice([1, -1]) * rng.uniform(1e-3, 50)
        n = rng.choice([5, 16, 33, 64, 65, 130, 1000])
        bounds.append((repr(start), repr(start + step * n), repr(step)))
    for i, (a, b, s) in enumerate(bounds):
        cases[f"arange-infer-{i}"] = f"out = torch.arange({a}, {b}, {s})"
        for dt in DTYPES[1:]:
            cases[f"arange-{dt}-{i}"] = f"out = torch.arange({a}, {b}, {s}, dtype=torch.{dt})"
    cases["arange-1arg"] = "out = torch.arange(7)"
    cases["arange-1arg-float"] = "out = torch.arange(7.5)"
    cases["arange-2arg"] = "out = torch.arange(2, 9)"
    cases["arange-bool-arg"] = "out = torch.arange(True)"
    cases["arange-big"] = "out = torch.arange(0, 2**62, 2**61)"
    cases["arange-parallel-f32"] = "out = torch.arange(-7.3, 40000.1, 0.37)"
    cases["arange-parallel-f64"] = "out = torch.arange(-7.3, 40000.1, 0.37, dtype=torch.float64)"
    cases["arange-parallel-f16"] = "out = torch.arange(0, 70001, 1.0, dtype=torch.float16)"
    cases["arange-parallel-bf16"] = "out = torch.arange(-3, 80000, 1.1, dtype=torch.bfloat16)"
    cases["arange-f16-inf"] = "out = torch.arange(0, 1e40, 1e38, dtype=torch.float16)"
    return cases


@pytest.mark.oracle
@pytest.mark.parametrize("cap", CAPABILITIES)
def test_arange_matches_bitwise(cap):
    oracle.assert_cases_equal(_arange_cases(random.Random(1234)), env=_env(cap))


@pytest.mark.oracle
def test_arange_one_thread():
    oracle.assert_cases_equal(_arange_cases(random.Random(99)), setup="torch.set_num_threads(1)")


def _linspace_cases(rng):
    cases = {}
    params = [("0", "1", "5"), ("0", "1", "2"), ("-1", "1", "11"), ("0", "10", "100"), ("3", "-7", "33"),
              ("0", "1", "1"), ("5", "1e5", "1"), ("0", "1", "0"), ("-1", "3", "5"), ("1/3", "2/3", "77"),
              ("-100", "100", "1001"), ("0", "255", "256"), ("0.1", "0.9", "65"), ("-2.5", "1e3", "4097"),
              ("0", "1", "40001"), ("2", "2", "10")]
    for _ in range(15):
        params.append((repr(rng.uniform(-100, 100)), repr(rng.uniform(-100, 100)), str(rng.choice([3, 17, 64, 99, 1000]))))
    for i, (a, b, n) in enumerate(params):
        cases[f"linspace-default-{i}"] = f"out = torch.linspace({a}, {b}, {n})"
        for dt in DTYPES:
            code = f"out = torch.linspace({a}, {b}, {n}, dtype=torch.{dt})"
            if dt == "bool":  # no bool kernel; with at most one step torch never calls it
                code = oracle.raises(NotImplementedError, code) if int(n) > 1 else code
            elif dt in INTS:  # the line under test: values that overflow the dtype raise
                code = oracle.may_raise(RuntimeError, code)
            cases[f"linspace-{dt}-{i}"] = code
    return cases


@pytest.mark.oracle
@pytest.mark.parametrize("cap", CAPABILITIES)
def test_linspace_matches_bitwise(cap):
    oracle.assert_cases_equal(_linspace_cases(random.Random(7)), env=_env(cap))


@pytest.mark.oracle
def test_eye_tril_triu():
    cases = {}
    for dt in DTYPES:
        cases[f"eye-{dt}"] = f"out = torch.eye(3, dtype=torch.{dt})"
        cases[f"eye-rect-{dt}"] = f"out = torch.eye(2, 5, dtype=torch.{dt})"
        for k in (-2, -1, 0, 1, 3):
            src = f"torch.arange(1, 25).reshape(2, 3, 4).to(torch.{dt})" if dt != "bool" else \
                "torch.tensor([[[True, False, True, True]] * 3] * 2)"
            cases[f"tril-{dt}-{k}"] = f"out = torch.tril({src}, {k})"
            cases[f"triu-{dt}-{k}"] = f"out = torch.triu({src}, diagonal={k})"
            cases[f"tril-method-{dt}-{k}"] = f"out = {src}.tril({k})"
    cases["eye-0"] = "out = torch.eye(0)"
    cases["eye-default"] = "out = torch.eye(4)"
    cases["tril-empty"] = "out = torch.tril(torch.zeros(0, 3))"
    cases["triu-wide"] = "out = torch.triu(torch.ones(3, 7), 2)"
    oracle.assert_cases_equal(cases)


@pytest.mark.oracle
def test_finfo_iinfo():
    cases = {}
    for dt in FLOATS:
        for attr in ("bits", "eps", "max", "min", "tiny", "smallest_normal", "resolution", "dtype"):
            cases[f"finfo-{dt}-{attr}"] = f"out = torch.finfo(torch.{dt}).{attr}"
        cases[f"finfo-repr-{dt}"] = f"out = repr(torch.finfo(torch.{dt}))"
    for dt in ["uint8", "int8", "int16", "int32", "int64"]:
        for attr in ("bits", "min", "max", "dtype"):
            cases[f"iinfo-{dt}-{attr}"] = f"out = torch.iinfo(torch.{dt}).{attr}"
        cases[f"iinfo-repr-{dt}"] = f"out = str(torch.iinfo(torch.{dt}))"
    cases["finfo-default"] = "out = repr(torch.finfo())"
    cases["finfo-int"] = oracle.raises(TypeError, "torch.finfo(torch.int32)")
    cases["iinfo-bool"] = oracle.raises(TypeError, "torch.iinfo(torch.bool)")
    cases["iinfo-float"] = oracle.raises(TypeError, "torch.iinfo(torch.float32)")
    oracle.assert_cases_equal(cases)


@pytest.mark.oracle
def test_bad_inputs_raise_like_torch():
    cases = {name: oracle.raises(RuntimeError, code) for name, code in {
        "zeros-neg": "torch.zeros(-1)",
        "ones-neg": "torch.ones(2, -3)",
        "empty-neg": "torch.empty(-1)",
        "full-neg": "torch.full((-1,), 2)",
        "full-uint8-256": "torch.full((2,), 256, dtype=torch.uint8)",
        "full-uint8-neg-float": "torch.full((2,), -1.0, dtype=torch.uint8)",
        "full-int64-huge": "torch.full((1,), 2**63)",
        "full-f32-huge": "torch.full((1,), 1e40, dtype=torch.float32)",
        "full_like-overflow": "torch.full_like(torch.ones(2, dtype=torch.uint8), 300)",
        "arange-zero-step": "torch.arange(0, 10, 0)",
        "arange-inf": "torch.arange(0, float('inf'))",
        "arange-nan": "torch.arange(float('nan'), 5)",
        "arange-nan-step": "torch.arange(0, 5, float('nan'))",
        "arange-sign": "torch.arange(10, 0)",
        "arange-sign2": "torch.arange(0, 10, -1)",
        "arange-int-overflow": "torch.arange(0, 1e20, 1e19, dtype=torch.int64)",
        "linspace-neg": "torch.linspace(0, 1, -1)",
        "linspace-f16-overflow": "torch.linspace(0, 1e5, 5, dtype=torch.float16)",
        "linspace-u8-overflow": "torch.linspace(0, 300, 5, dtype=torch.uint8)",
        "eye-neg-n": "torch.eye(-1)",
        "eye-neg-m": "torch.eye(2, -1)",
        "tril-1d": "torch.tril(torch.ones(3))",
        "triu-0d": "torch.triu(torch.tensor(1.))",
    }.items()}
    cases["zeros-float-size"] = oracle.raises(TypeError, "torch.zeros(2.5)")
    cases["arange-bool"] = oracle.raises(NotImplementedError, "torch.arange(5, dtype=torch.bool)")
    cases["linspace-bool"] = oracle.raises(NotImplementedError, "torch.linspace(0, 1, 5, dtype=torch.bool)")
    oracle.assert_cases_equal(cases)


@pytest.mark.oracle
def test_a_factory_tensor_starts_at_version_0():
    # torch's factories fill below the version counter: a new tensor is at version 0 whatever filled it, so a
    # later in-place edit reports version 1 (the message of a broken backward names it).
    factories = ["torch.randn(5)", "torch.rand(5)", "torch.randint(0, 5, (5,))", "torch.ones(5)", "torch.zeros(5)",
                 "torch.full((5,), 2.0)", "torch.ones_like(torch.ones(2))", "torch.full_like(torch.ones(2), 3)",
                 "torch.normal(0.0, 1.0, (3,))", "torch.arange(5)", "torch.eye(3)", "torch.empty(3)"]
    cases = {"versions": "out = [" + ", ".join(f"{f}._version" for f in factories) + "]",
             "view-of-filled": "t = torch.ones(4); v = t[1:]; t.fill_(2); out = [t._version, v._version]",
             "edited-after": oracle.raises(
                 RuntimeError, "a = torch.randn(5, requires_grad=True); b = torch.randn(5); y = (a * b).sum(); "
                               "b.add_(1); y.backward()")}
    oracle.assert_cases_equal(cases)
