"""repr/str of tensors compared as strings with torch 2.14.1: every dtype, shapes from 0-dim to 4-D,
int/fixed/scientific modes, nan/inf/-0, summarised large tensors, empty tensors and print options."""
import oracle
import pytest

DTYPES = ["bool", "uint8", "int8", "int16", "int32", "int64", "float16", "bfloat16", "float32", "float64"]

VALUE_SETS = {
    "ints": "[[1, 2, 3], [4, 5, 6]]",
    "neg": "[-1, 2, -30, 4]",
    "fracs": "[0.1, 0.25, -1.5, 3.0]",
    "tiny": "[1e-5, 1.0]",
    "huge": "[1e9, 1.0]",
    "ratio": "[1.0, 1001.0]",
    "nan-inf": "[0.0, float('nan'), float('inf'), -float('inf'), -0.0]",
    "nan-only": "[float('nan')]",
    "zeros": "[0.0, -0.0]",
    "mixed": "[[1.5, -2.25e-3], [123.0, 0.0]]",
    "bigint-float": "[123456789.0, 2.0]",
    "precise": "[1/3, 2/3, 1.0]",
    "ties": "[0.125, 0.375, 2.5, 0.00005]",
    "wide": "[float(i) * 1.37 for i in range(40)]",
    "wide-int": "list(range(-30, 30))",
    "3d": "[[[1, 2], [3, 4]], [[5, 6], [7, 8]]]",
    "4d": "[[[[1.5, 2]], [[3, 4]]], [[[5, 6]], [[7, 8.25]]]]",
}


def _src(values, dt):
    if dt == "bool":
        return f"torch.tensor({values}).to(torch.bool)" if "nan" not in values else "torch.tensor([True, False])"
    if dt in ("uint8",):
        return f"torch.tensor({values}).abs().to(torch.{dt})" if "nan" not in values else "torch.tensor([1, 2], dtype=torch.uint8)"
    if dt.startswith("int") and ("nan" in values or "inf" in values):
        return f"torch.tensor([1, -2], dtype=torch.{dt})"
    return f"torch.tensor({values}).to(torch.{dt})"


@pytest.mark.oracle
def test_repr_values_and_dtypes():
    cases = {}
    for name, values in VALUE_SETS.items():
        for dt in DTYPES:
            cases[f"{name}-{dt}"] = f"out = repr({_src(values, dt)})"
    oracle.assert_cases_equal(cases)


@pytest.mark.oracle
def test_repr_scalars_and_empty():
    cases = {}
    for dt in DTYPES:
        cases[f"0d-{dt}"] = f"out = repr(torch.tensor(3, dtype=torch.{dt}))"
        cases[f"0d-frac-{dt}"] = f"out = str(torch.tensor(0.5, dtype=torch.{dt}))"
        cases[f"empty-{dt}"] = f"out = repr(torch.zeros(0, dtype=torch.{dt}))"
        cases[f"empty2d-{dt}"] = f"out = repr(torch.zeros(0, 3, dtype=torch.{dt}))"
        cases[f"empty3d-{dt}"] = f"out = repr(torch.zeros(2, 0, 1, dtype=torch.{dt}))"
    cases.update({
        "0d-tiny": "out = repr(torch.tensor(1e-5))",
        "0d-nan": "out = repr(torch.tensor(float('nan')))",
        "0d-neg-zero": "out = repr(torch.tensor(-0.0))",
        "0d-inf": "out = repr(torch.tensor(-float('inf')))",
        "0d-bool": "out = repr(torch.tensor(True))",
        "eye": "out = repr(torch.eye(3))",
        "arange": "out = repr(torch.arange(10))",
        "default64": "torch.set_default_dtype(torch.float64); out = [repr(torch.ones(2)), repr(torch.ones(2, dtype=torch.float32)), repr(torch.zeros(0))]",
    })
    oracle.assert_cases_equal(cases)


@pytest.mark.oracle
def test_repr_summarised_large():
    cases = {}
    for dt in DTYPES:
        if dt == "bool":
            src = "(torch.arange(5000) % 3 == 0)" if False else "torch.tensor([[True, False] * 600] * 2)"
        else:
            src = f"torch.arange(2000).to(torch.{dt})"
        cases[f"1d-{dt}"] = f"out = repr({src})"
    cases.update({
        "1000-full": "out = repr(torch.arange(1000))",
        "1001-summ": "out = repr(torch.arange(1001))",
        "2d-summ": "out = repr(torch.tensor([[float(i * 50 + j) / 7 for j in range(50)] for i in range(40)]))",
        "2d-summ-narrow": "out = repr(torch.tensor([[i * 3 + j for j in range(3)] for i in range(500)]))",
        "3d-summ": "out = repr(torch.tensor([[[float(i + j + k) for k in range(20)] for j in range(10)] for i in range(8)]))",
        "summ-sci": "out = repr(torch.tensor([1e-7] * 3 + [0.0] * 1000 + [1e5] * 3))",
        "summ-middle-ignored": "out = repr(torch.tensor([1.0] * 3 + [1e-9] * 1000 + [2.0] * 3))",
        "linspace-big": "out = repr(torch.linspace(-1, 1, 3000))",
    })
    oracle.assert_cases_equal(cases)


@pytest.mark.oracle
def test_printoptions():
    cases = {
        "precision2": "torch.set_printoptions(precision=2); out = repr(torch.tensor([1.12345, 2.5]))",
        "threshold5": "torch.set_printoptions(threshold=5); out = repr(torch.arange(10))",
        "edge1": "torch.set_printoptions(threshold=5, edgeitems=1); out = repr(torch.arange(20).to(torch.float32))",
        "edge0": "torch.set_printoptions(threshold=5, edgeitems=0); out = [repr(torch.arange(10)), repr(torch.tensor([[1, 2, 3]] * 4))]",
        "linewidth": "torch.set_printoptions(linewidth=30); out = repr(torch.arange(40).to(torch.float64))",
        "sci-on": "torch.set_printoptions(sci_mode=True); out = repr(torch.tensor([1.5, 2.0]))",
        "sci-off": "torch.set_printoptions(sci_mode=False); out = repr(torch.tensor([1e-9, 1e9]))",
        "sci-zeros": "torch.set_printoptions(sci_mode=True); out = repr(torch.tensor([0.0, 0.0]))",
        "profile-short": "torch.set_printoptions(profile='short'); out = repr(torch.tensor([1/3, 2/3]))",
        "profile-full": "torch.set_printoptions(profile='full'); out = repr(torch.arange(1200))",
        "reset": "torch.set_printoptions(precision=1); torch.set_printoptions(profile='default'); out = repr(torch.tensor([1/3]))",
        "get": "torch.set_printoptions(precision=3); out = torch._tensor_str.get_printoptions() if hasattr(torch, '_tensor_str') else 0",
        "long-suffix": "out = repr(torch.tensor([[1.5] * 9] * 2, dtype=torch.float64))",
        "suffix-wrap": "out = repr(torch.tensor([123456.5] * 7, dtype=torch.float16))",
    }
    oracle.assert_cases_equal(cases)
