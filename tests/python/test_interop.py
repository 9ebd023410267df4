"""torch.tensor / as_tensor / from_numpy / numpy() and the Python conversions (item, tolist, int,
float, bool, index, format, iter, .to/.type/.float...) against torch, plus in-process NumPy
memory-sharing checks that need no torch."""
import oracle
import pytest

DTYPES = ["bool", "uint8", "int8", "int16", "int32", "int64", "float16", "bfloat16", "float32", "float64"]
INTS = ["uint8", "int8", "int16", "int32", "int64"]
NP_DTYPES = ["bool_", "uint8", "int8", "int16", "int32", "int64", "float16", "float32", "float64"]

# Python floats near float16/bfloat16 rounding ties (double -> float -> half rounds twice).
EDGE_FLOATS = ["0.0", "-0.0", "float('nan')", "float('inf')", "-float('inf')", "1/3", "0.1", "1e-8", "5e-324",
               "2.0**24+1", "1.00048828125", "1.0004882812500002", "1.0004882812499998", "1.00390625",
               "1.0039062500000002", "1.0039062499999998", "65519.99", "65520.0", "3.4e38", "1e40", "-2.5",
               "255.9", "-1.5", "1e300", "2.0**-25", "2.0**-24*1.5", "6.1e-5"]
EDGE_INTS = ["0", "1", "-1", "127", "128", "-128", "-129", "255", "256", "-255", "-256", "32767", "32768",
             "2**31-1", "2**31", "-2**31", "2**53+1", "2**63-1", "-2**63", "2**24+1", "True", "False"]


@pytest.mark.oracle
def test_tensor_from_python_scalars_every_dtype():
    cases = {}
    for dt in DTYPES:
        # Where a value overflows an integer dtype is the line under test: torch raises RuntimeError there.
        declare = (lambda code: oracle.may_raise(RuntimeError, code)) if dt in INTS else (lambda code: code)
        for i, v in enumerate(EDGE_FLOATS):
            cases[f"f-{dt}-{i}"] = declare(f"out = torch.tensor([{v}], dtype=torch.{dt})")
            cases[f"f0d-{dt}-{i}"] = declare(f"out = torch.tensor({v}, dtype=torch.{dt})")
        for i, v in enumerate(EDGE_INTS):
            cases[f"i-{dt}-{i}"] = declare(f"out = torch.tensor([{v}], dtype=torch.{dt})")
    for i, v in enumerate(EDGE_FLOATS + EDGE_INTS):
        cases[f"infer-{i}"] = f"out = torch.tensor({v})"
    oracle.assert_cases_equal(cases)


@pytest.mark.oracle
def test_tensor_nested_and_inference():
    cases = {
        "nested": "out = torch.tensor([[1, 2, 3], [4, 5, 6]])",
        "nested3": "out = torch.tensor([[[1.5], [2.5]], [[3.5], [4.5]]])",
        "mixed-int-float": "out = torch.tensor([1, 2.5, True])",
        "mixed-bool-int": "out = torch.tensor([True, 1])",
        "bools": "out = torch.tensor([True, False])",
        "tuple": "out = torch.tensor(((1, 2), (3, 4)))",
        "range": "out = torch.tensor(range(5))",
        "empty": "out = torch.tensor([])",
        "empty-tuple": "out = torch.tensor(())",
        "empty-2d": "out = torch.tensor([[], []])",
        "empty-int": "out = torch.tensor([], dtype=torch.int32)",
        "scalar-int": "out = torch.tensor(5)",
        "scalar-float": "out = torch.tensor(2.5)",
        "scalar-bool": "out = torch.tensor(True)",
        "tensor-elems": "out = torch.tensor([torch.tensor(1.5), 2])",
        "tensor-int-elems": "out = torch.tensor([torch.tensor(1, dtype=torch.int8), 2])",
        "copy-tensor": "a = torch.tensor([1., 2.]); b = torch.tensor(a); b.fill_(0); out = [a, b]",
        "copy-tensor-dtype": "out = torch.tensor(torch.tensor([1.7, -2.5]), dtype=torch.int32)",
        "float-into-int": "out = torch.tensor([1.9, -1.9, 2.0], dtype=torch.int64)",
        "float-into-u8": "out = torch.tensor([255.9, 0.5], dtype=torch.uint8)",
        "neg-into-u8": "out = torch.tensor([-1, -255], dtype=torch.uint8)",
        "big-into-bool": "out = torch.tensor([2**70, 0, 0.0, float('nan')], dtype=torch.bool)",
        "big-into-f32": "out = torch.tensor([2**70], dtype=torch.float32)",
        "default64": "torch.set_default_dtype(torch.float64); out = torch.tensor([0.1, 1])",
        "as_tensor-list": "out = torch.as_tensor([1, 2], dtype=torch.float16)",
        "as_tensor-same": "a = torch.ones(2); out = torch.as_tensor(a) is a",
        "as_tensor-convert": "a = torch.ones(2); out = torch.as_tensor(a, dtype=torch.int8)",
    }
    oracle.assert_cases_equal(cases)


@pytest.mark.oracle
def test_numpy_inputs_every_dtype():
    cases = {}
    for dt in NP_DTYPES:
        arr = f"np.array([[0, 1, 2], [3, 4, 5]]).astype(np.{dt})"
        cases[f"tensor-{dt}"] = f"out = torch.tensor({arr})"
        cases[f"from_numpy-{dt}"] = f"out = torch.from_numpy({arr})"
        cases[f"as_tensor-{dt}"] = f"out = torch.as_tensor({arr})"
        cases[f"strided-{dt}"] = f"out = torch.from_numpy({arr}[:, ::2])"
        cases[f"transposed-{dt}"] = f"out = torch.from_numpy({arr}.T)"
        cases[f"scalar-{dt}"] = f"out = torch.tensor(np.{dt}(3))"
        cases[f"in-list-{dt}"] = f"out = torch.tensor([np.{dt}(1), np.{dt}(0)])"
        cases[f"numpy-roundtrip-{dt}"] = f"out = torch.from_numpy({arr}).numpy().tolist()"
        for tdt in ("float32", "int32", "bool", "bfloat16"):
            cases[f"tensor-{dt}-to-{tdt}"] = f"out = torch.tensor({arr}, dtype=torch.{tdt})"
    cases["np-float-edges"] = ("out = torch.tensor(np.array([np.nan, -0.0, np.inf, 1e-40, 65519.99, 3e38, 1/3]), "
                               "dtype=torch.float16)")
    cases["np-0d"] = "out = torch.from_numpy(np.array(2.5))"
    cases["np-list-of-arrays"] = "out = torch.tensor([np.array([1, 2], dtype=np.int16), np.array([3, 4], dtype=np.int16)])"
    cases["np-mixed-list"] = "out = torch.tensor([np.float32(1.5), 2])"
    cases["np-empty"] = "out = torch.from_numpy(np.zeros((0, 3), dtype=np.float32))"
    cases["np-str"] = oracle.raises(TypeError, "torch.from_numpy(np.array(['a']))")
    cases["np-negative-stride"] = oracle.raises(ValueError, "torch.from_numpy(np.arange(6.)[::-1])")
    cases["np-not-array"] = oracle.raises(TypeError, "torch.from_numpy([1, 2])")
    cases["numpy-bf16"] = oracle.raises(TypeError, "torch.ones(2, dtype=torch.bfloat16).numpy()")
    cases["numpy-dtype"] = "out = str(torch.ones(2, dtype=torch.float16).numpy().dtype)"
    cases["array-protocol"] = "out = np.asarray(torch.arange(4)).tolist()"
    cases["array-protocol-dtype"] = "out = np.asarray(torch.arange(4), dtype=np.float32).tolist()"
    oracle.assert_cases_equal(cases, setup="import numpy as np")


@pytest.mark.oracle
def test_python_conversions():
    cases = {}
    for dt in DTYPES:
        src = f"torch.tensor([[0, 1], [-2, 3]], dtype=torch.{dt})" if dt not in ("bool", "uint8") else \
            f"torch.tensor([[0, 1], [1, 0]], dtype=torch.{dt})"
        cases[f"tolist-{dt}"] = f"out = {src}.tolist()"
        cases[f"item-{dt}"] = f"out = torch.tensor(1, dtype=torch.{dt}).item()"
        cases[f"float-{dt}"] = f"out = float(torch.tensor([1], dtype=torch.{dt}))"
        cases[f"int-{dt}"] = f"out = int(torch.tensor([[1]], dtype=torch.{dt}))"
        cases[f"bool-{dt}"] = f"out = bool(torch.tensor([0], dtype=torch.{dt}))"
        cases[f"index-{dt}"] = f"out = [10, 20, 30][torch.tensor(1, dtype=torch.{dt})]"
        if dt.startswith(("float", "bfloat")):  # only integer tensors are indices
            cases[f"index-{dt}"] = oracle.raises(TypeError, cases[f"index-{dt}"])
        cases[f"iter-{dt}"] = f"out = [x.tolist() for x in {src}]"
        for target in DTYPES:
            cases[f"to-{dt}-{target}"] = f"out = {src}.to(torch.{target})"
        for meth in ("float", "double", "half", "bfloat16", "long", "int", "short", "char", "byte", "bool"):
            cases[f"{meth}-{dt}"] = f"out = {src}.{meth}()"
        cases[f"type-{dt}"] = f"out = {src}.type()"
    cases.update({
        "item-f16": "out = torch.tensor(0.1, dtype=torch.float16).item()",
        "item-bf16": "out = torch.tensor(0.1, dtype=torch.bfloat16).item()",
        "tolist-0d": "out = torch.tensor(3.5).tolist()",
        "tolist-empty": "out = torch.zeros(0, 2).tolist()",
        "int-trunc": "out = [int(torch.tensor(2.7)), int(torch.tensor(-2.7))]",
        "int-nan": oracle.raises(ValueError, "int(torch.tensor(float('nan')))"),
        "int-inf": oracle.raises(OverflowError, "int(torch.tensor(float('inf')))"),
        "bool-nan": "out = bool(torch.tensor(float('nan')))",
        "bool-many": oracle.raises(RuntimeError, "bool(torch.ones(2))"),
        "bool-empty": oracle.raises(RuntimeError, "bool(torch.tensor([]))"),
        "float-many": oracle.raises(ValueError, "float(torch.ones(2))"),
        "float-empty": oracle.raises(ValueError, "float(torch.tensor([]))"),
        "item-many": oracle.raises(RuntimeError, "torch.ones(2).item()"),
        "item-empty": oracle.raises(RuntimeError, "torch.tensor([]).item()"),
        "index-float": oracle.raises(TypeError, "torch.tensor([3.]).__index__()"),
        "index-many": oracle.raises(TypeError, "torch.tensor([1, 2]).__index__()"),
        "format-0d": "out = '{:.2f}'.format(torch.tensor(1.5))",
        "format-0d-int": "out = '{:>5}'.format(torch.tensor(7))",
        "format-1d": oracle.raises(TypeError, "'{:.3f}'.format(torch.tensor([1.5]))"),
        "format-1d-empty-spec": "out = '{}'.format(torch.tensor([1.5]))",
        "iter-0d": oracle.raises(TypeError, "list(torch.tensor(1))"),
        "to-self": "a = torch.ones(2); out = a.to(torch.float32) is a",
        "to-copy": "a = torch.ones(2); out = a.to(torch.float32, copy=True) is a",
        "to-device-dtype": "out = torch.tensor([1, 2]).to('cpu', torch.float64)",
        "to-device": "a = torch.ones(2); out = a.to('cpu') is a",
        "to-other": "out = torch.tensor([1.7]).to(torch.tensor([1], dtype=torch.int8))",
        "to-kw": "out = torch.tensor([1.7]).to(dtype=torch.float16)",
        "type-dtype": "out = torch.tensor([1, 2]).type(torch.float16)",
        "type-str": "out = torch.tensor([1, 2]).type('torch.DoubleTensor')",
        "cpu-self": "a = torch.ones(2); out = a.cpu() is a",
        "float-self": "a = torch.ones(2); out = a.float() is a",
    })
    oracle.assert_cases_equal(cases)


@pytest.mark.oracle
def test_bad_data_raises_like_torch():
    cases = {
        "ragged": oracle.raises(ValueError, "torch.tensor([[1, 2], [3]])"),
        "ragged-longer": oracle.raises(ValueError, "torch.tensor([[1], [2, 3]])"),
        "ragged-3": oracle.raises(ValueError, "torch.tensor([[1, 2], [3, 4, 5]])"),
        "scalar-vs-list": oracle.raises(TypeError, "torch.tensor([[1, 2], 3])"),
        "list-vs-scalar": oracle.raises(TypeError, "torch.tensor([1, [2]])"),
        "str": oracle.raises(TypeError, "torch.tensor('a')"),
        "str-in-list": oracle.raises(TypeError, "torch.tensor([1, 'a'])"),
        "str-with-dtype": oracle.raises(TypeError, "torch.tensor([1., 'a'], dtype=torch.float32)"),
        "none": oracle.raises(RuntimeError, "torch.tensor(None)"),
        "none-in-list": oracle.raises(RuntimeError, "torch.tensor([1, None])"),
        "object": oracle.raises(RuntimeError, "torch.tensor(object())"),
        "overflow-int64": oracle.raises(ValueError, "torch.tensor([2**63])"),
        "overflow-u8": oracle.raises(RuntimeError, "torch.tensor([256], dtype=torch.uint8)"),
        "overflow-u8-neg": oracle.raises(RuntimeError, "torch.tensor([-256], dtype=torch.uint8)"),
        "overflow-i8": oracle.raises(RuntimeError, "torch.tensor([128], dtype=torch.int8)"),
        "overflow-i32-float": oracle.raises(RuntimeError, "torch.tensor([1e10], dtype=torch.int32)"),
        "nan-into-int": oracle.raises(RuntimeError, "torch.tensor([float('nan')], dtype=torch.int32)"),
        "neg-float-into-u8": oracle.raises(RuntimeError, "torch.tensor([-1.0], dtype=torch.uint8)"),
        "tensor-1d-elems": oracle.raises(TypeError, "torch.tensor([torch.tensor([1, 2]), torch.tensor([3, 4])])"),
    }
    oracle.assert_cases_equal(cases)


@pytest.mark.notorch
def test_from_numpy_shares_memory_both_ways():
    import numpy as np

    import densecore as dc

    a = np.arange(6.0).reshape(2, 3)
    t = dc.from_numpy(a)
    a[0, 1] = 42.0
    assert t.tolist()[0][1] == 42.0
    n = t.numpy()
    n[1, 2] = -7.0
    assert a[1, 2] == -7.0
    assert np.shares_memory(n, a)


@pytest.mark.notorch
def test_numpy_keeps_tensor_alive_and_strides():
    import gc

    import numpy as np

    import densecore as dc

    n = dc.arange(12).tolist() and dc.tensor([[1, 2, 3], [4, 5, 6]], dtype=dc.int16).numpy()
    gc.collect()
    assert n.tolist() == [[1, 2, 3], [4, 5, 6]] and n.dtype == np.int16
    t = dc.from_numpy(np.arange(12, dtype=np.float32).reshape(3, 4)[:, 1::2])
    assert t.stride() == (4, 2) and t.tolist() == [[1.0, 3.0], [5.0, 7.0], [9.0, 11.0]]
    del t
    gc.collect()


@pytest.mark.notorch
def test_from_numpy_keeps_array_alive():
    import gc
    import weakref

    import numpy as np

    import densecore as dc

    class Owner(np.ndarray):
        pass

    a = np.arange(4.0).view(Owner)
    ref = weakref.ref(a)
    t = dc.from_numpy(a)
    del a
    gc.collect()
    assert ref() is not None and t.tolist() == [0.0, 1.0, 2.0, 3.0]
    del t
    gc.collect()
    assert ref() is None


@pytest.mark.notorch
def test_as_tensor_shares_numpy_memory():
    import numpy as np

    import densecore as dc

    a = np.zeros(3, dtype=np.int32)
    t = dc.as_tensor(a)
    a[1] = 5
    assert t.tolist() == [0, 5, 0]
    c = dc.tensor(a)
    a[2] = 9
    assert c.tolist() == [0, 5, 0]
