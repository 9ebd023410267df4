"""The matmul family (mm, addmm, bmm, mv, dot, matmul, @, F.linear) against torch, bit for bit.
The cases come from scripts/matmul_sweep.py (a ~300-case spread here; the full sweep is the script)."""
import importlib.util
import os

import oracle
import pytest

_SWEEP = os.path.join(oracle.ROOT, "scripts", "matmul_sweep.py")
_spec = importlib.util.spec_from_file_location("matmul_sweep", _SWEEP)
sweep = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(sweep)


@pytest.mark.oracle
def test_matmul_sweep_subset_is_bit_identical():
    oracle.assert_cases_equal(sweep.subset(300), setup=sweep.SETUP)


@pytest.mark.oracle
def test_matmul_subset_one_thread_is_bit_identical():
    oracle.assert_cases_equal(sweep.subset(60), setup=sweep.SETUP, env={"OMP_NUM_THREADS": "1"})


@pytest.mark.oracle
def test_set_num_threads_reaches_mkl():
    # at::set_num_threads also sets MKL's threads and turns MKL dynamic off; ours must too.
    cases = {k: "torch.set_num_threads(1)\n" + v for k, v in sweep.subset(20).items()}
    oracle.assert_cases_equal(cases, setup=sweep.SETUP)


@pytest.mark.oracle
def test_set_num_threads_arguments():
    # torch's Python wrapper takes an int that is not a bool, and a positive one; each refusal is a RuntimeError
    # and leaves the thread count as it was.
    # An int past int32 or int64 is a ValueError ("Overflow when unpacking long" / "long long").
    bad = {"bool": "True", "float": "2.0", "str": "'2'", "zero": "0", "negative": "-1", "int32-min": "-2**31"}
    cases = {k: oracle.raises(RuntimeError, f"torch.set_num_threads({v}); out = 0") for k, v in bad.items()}
    over = {"int32-max+1": "2**31", "int32-min-1": "-2**31 - 1", "int64-max": "2**63 - 1", "int64-max+1": "2**63",
            "int64-min-1": "-2**63 - 1"}
    cases.update({k: oracle.raises(ValueError, f"torch.set_num_threads({v}); out = 0") for k, v in over.items()})
    cases["unchanged"] = ("torch.set_num_threads(1)\ntry:\n    torch.set_num_threads(0)\nexcept RuntimeError:\n    pass\n"
                          "out = torch.get_num_threads()")
    oracle.assert_cases_equal(cases)

@pytest.mark.oracle
def test_integer_and_double_matmul():
    # Integers take the naive kernels (exact modulo 2**bits in any order); float64 takes dgemm.
    cases = {}
    for dt in ["float64", "int64", "int32", "int16", "int8", "uint8"]:
        c = f"lambda *s, off=0: mkt(*s, dtype='{dt}', off=off)"
        cases[f"mm-{dt}"] = f"c = {c}; out = torch.mm(c(9, 13), c(13, 6, off=5))"
        cases[f"bmm-small-{dt}"] = f"c = {c}; out = torch.bmm(c(3, 4, 5), c(3, 5, 6, off=5))"
        cases[f"bmm-big-{dt}"] = f"c = {c}; out = torch.bmm(c(3, 14, 15), c(3, 15, 16, off=5))"
        cases[f"mv-{dt}"] = f"c = {c}; out = torch.matmul(c(9, 13), c(13, off=5))"
        cases[f"dot-{dt}"] = f"c = {c}; out = torch.matmul(c(13), c(13, off=5))"
        cases[f"addmm-{dt}"] = f"c = {c}; out = torch.addmm(c(6, off=2), c(9, 13), c(13, 6, off=5), beta=2, alpha=3)"
        cases[f"linear3d-{dt}"] = f"c = {c}; out = torch.nn.functional.linear(c(2, 9, 13), c(6, 13, off=5), c(6, off=2))"
    cases["bool"] = oracle.raises(NotImplementedError, "out = torch.mm(mkt(2, 3, dtype='bool'), mkt(3, 2, dtype='bool'))")
    oracle.assert_cases_equal(cases, setup=sweep.SETUP)


@pytest.mark.oracle
def test_shape_and_dtype_errors_match_torch():
    F = "torch.nn.functional"
    cases = {name: oracle.raises(RuntimeError, code) for name, code in {
        "mm-shape": "out = torch.mm(mk(2, 3), mk(4, 5))",
        "mm-1d": "out = torch.mm(mk(2, 3), mk(3))",
        "mm-self-1d": "out = torch.mm(mk(3), mk(3, 2))",
        "addmm-shape": "out = torch.addmm(mk(5), mk(2, 3), mk(4, 5))",
        "addmm-bias": "out = torch.addmm(mk(3), mk(2, 3), mk(3, 5))",
        "addmm-1d": "out = torch.addmm(mk(5), mk(2, 3), mk(3))",
        "bmm-batch": "out = torch.bmm(mk(2, 3, 4), mk(3, 4, 6))",
        "bmm-inner": "out = torch.bmm(mk(2, 3, 4), mk(2, 5, 6))",
        "bmm-2d": "out = torch.bmm(mk(3, 4), mk(2, 4, 6))",
        "matmul-0d": "out = torch.matmul(mk(), mk(3))",
        "matmul-2d": "out = torch.matmul(mk(2, 3), mk(4, 5))",
        "matmul-3d2d": "out = torch.matmul(mk(2, 3, 4), mk(5, 6))",
        "matmul-dot": "out = torch.matmul(mk(3), mk(4))",
        "matmul-mv": "out = torch.matmul(mk(2, 3), mk(4))",
        "matmul-vm": "out = torch.matmul(mk(3), mk(4, 5))",
        "matmul-bcast": "out = torch.matmul(mk(2, 3, 4), mk(3, 4, 6))",
        "linear-shape": f"out = {F}.linear(mk(2, 3), mk(4, 5))",
        "linear-bias": f"out = {F}.linear(mk(2, 3), mk(4, 3), mk(5))",
        "linear-bias3d": f"out = {F}.linear(mk(2, 2, 3), mk(4, 3), mk(5))",
        "linear-0d": f"out = {F}.linear(mk(), mk(4, 3))",
    }.items()}
    cases["matmul-op-int"] = oracle.raises(TypeError, "out = mk(2, 3) @ 2")
    cases["matmul-rop-int"] = oracle.raises(TypeError, "out = 2 @ mk(2, 3)")
    oracle.assert_cases_equal(cases, setup=sweep.SETUP)


@pytest.mark.oracle
def test_linear_paths_and_shapes():
    # 1-D input / 1-D weight, 2-D and broadcast biases (the unfused path), 4-D input.
    F = "torch.nn.functional"
    cases = {
        "in1d": f"out = {F}.linear(mk(7), mk(5, 7, off=3), mk(5, off=9))",
        "w1d": f"out = {F}.linear(mk(4, 7), mk(7, off=3))",
        "bias2d": f"out = {F}.linear(mk(4, 7), mk(5, 7, off=3), mk(4, 5, off=9))",
        "bias3d": f"out = {F}.linear(mk(2, 4, 7), mk(5, 7, off=3), mk(2, 1, 5, off=9))",
        "bias_row": f"out = {F}.linear(mk(2, 4, 7), mk(5, 7, off=3), mk(1, 5, off=9))",
        "in4d": f"out = {F}.linear(mk(2, 3, 4, 70), mk(50, 70, off=3), mk(50, off=9))",
        "in4d_nb": f"out = {F}.linear(mk(2, 3, 4, 70), mk(50, 70, off=3))",
        "k0": "out = torch.addmm(mk(3, 4), mk(3, 0), mk(0, 4), beta=2)",
        "m0": "out = torch.mm(mk(0, 5), mk(5, 4))",
        "tensor-methods": "a = mk(6, 5); out = [a.mm(mk(5, 4)), a.matmul(mk(5)), a.addmm(mk(6, 4), mk(4, 5), beta=2, alpha=0.5), mk(2, 6, 5).bmm(mk(2, 5, 3))]",
        "rmatmul": "out = mk(4, 6).__rmatmul__(mk(3, 4))",
    }
    oracle.assert_cases_equal(cases, setup=sweep.SETUP)
