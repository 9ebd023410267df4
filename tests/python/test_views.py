"""View ops against torch: values, sizes, strides, storage offset, contiguity, storage sharing
(data_ptr distance, writes through the view, shared _version) on contiguous, transposed, sliced,
stepped, expanded, empty and 0-dim inputs, in several dtypes; and a bad-input sweep (torch's errors)."""
import re

import oracle
import pytest

DTYPES = ["float32", "float64", "int64", "bool", "float16", "bfloat16", "uint8"]

# Run in both processes. The getattr fallbacks exist only for development builds that predate the
# creation ops (torch.arange/torch.tensor/Tensor.to); real torch and complete builds never use them.
SETUP = """
if not hasattr(torch, "tensor"): torch.tensor = torch._C._dev_tensor
if not hasattr(torch.Tensor, "to"): torch.Tensor.to = torch._C._dev_to

def base(n, D):
    return torch.arange(n).to(D)

INPUTS = {
    "contig": lambda D: base(24, D).view(2, 3, 4),
    "transposed": lambda D: base(24, D).view(4, 3, 2).permute(2, 1, 0),
    "sliced": lambda D: base(120, D).view(4, 5, 6)[1:3, ::2, 1:5],
    "stepped": lambda D: base(48, D).view(2, 3, 8)[:, :, ::2],
    "expanded": lambda D: base(4, D).view(1, 1, 4).expand(2, 3, 4),
    "empty": lambda D: base(0, D).view(2, 0, 4),
    "scalar": lambda D: base(3, D)[2],
}

def layout(y, x, is_view):
    return [y, list(y.stride()), y.storage_offset(), y.is_contiguous(), y._version,
            # torch's data_ptr() is 0 for an empty tensor: compare distances of non-empty ones only
            (y.data_ptr() - x.data_ptr()) if is_view and y.numel() and x.numel() else None]

def overlaps(t):  # several elements at one address (expand, stride-0 as_strided): not writable
    return any(n > 1 and s == 0 for n, s in zip(t.shape, t.stride()))

def probe(x, f, is_view=True, write=True):
    y = f(x)
    ys = list(y) if isinstance(y, tuple) else [y]
    out = [layout(v, x, is_view) for v in ys]
    # Write through the first result (never into expanded storage) and look at the base.
    if write and ys and ys[0].numel() > 0 and not overlaps(x) and not overlaps(ys[0]):
        ys[0][...] = 1
        out.append([x, x._version, ys[0]._version])
    return out
"""

VIEW_OPS = [
    "x.view(6, 4)", "x.view(-1)", "x.view(2, -1)", "x.view((4, 6))", "x.view(torch.Size([24]))",
    "x.view(1, 2, 1, 12)", "x.view(2, 3, 2, 2)", "x.view(size=(2, 12))",
    "x.transpose(0, 2)", "x.transpose(-1, 1)", "torch.transpose(x, 0, 1)", "x.swapaxes(0, 1)",
    "x.swapdims(1, 2)", "x.mT", "x.permute(2, 0, 1)", "x.permute((1, 2, 0))",
    "torch.permute(x, (2, 1, 0))", "x.permute([-1, 0, 1])",
    "x.expand(3, 2, 3, 4)", "x[:, :1].expand(-1, 5, -1)", "x.unsqueeze(1).expand(2, 2, 3, 4)",
    "x[:1].expand_as(x)", "x.expand((2, 3, 4))",
    "x.squeeze()", "x[:1].squeeze()", "x[:1].squeeze(0)", "x[:1, :, :1].squeeze((0, 2))",
    "torch.squeeze(x, 1)", "x[:, :1].squeeze(dim=1)",
    "x.unsqueeze(0)", "x.unsqueeze(-1)", "x.unsqueeze(2)", "torch.unsqueeze(x, 3)",
    "x.unflatten(2, (2, 2))", "x.unflatten(-1, (-1, 2))", "x.unflatten(0, (1, 2))",
    "x.narrow(2, 1, 2)", "x.narrow(0, -1, 1)", "torch.narrow(x, 1, 0, 0)", "x.narrow(1, 3, 0)",
    "x.select(1, 2)", "x.select(-1, -1)", "torch.select(x, 0, 1)",
    "x.split(2, dim=2)", "x.split([1, 3], 2)", "x.split([1, 1], 0)", "torch.split(x, 1)", "x.split(3, -1)",
    "x.split(5, 1)", "torch.split(x, [0, 2, 1], 1)",
    "x.chunk(2, 2)", "x.chunk(3, 1)", "torch.chunk(x, 4, -1)", "x.chunk(3, 2)",
    "x.unbind()", "x.unbind(2)", "torch.unbind(x, 1)",
    "x.as_strided((2, 2), (1, 2))", "x.as_strided((3,), (2,), 1)", "torch.as_strided(x, (2, 3), (3, 1))",
    "x.as_strided((2, 2), (0, 1))",
    "x.detach()", "x.view_as(x.reshape(4, 6))", "x.movedim(0, -1)", "x.movedim((0, 1), (2, 0))",
    "torch.movedim(x, 1, 0)", "x.moveaxis(2, 0)", "x[...]", "x.view(x.dtype)",
]
# Views when torch can, copies otherwise: sharing is checked by writing through the result.
MAYBE_COPY_OPS = [
    "x.reshape(-1)", "x.reshape(4, 6)", "x.reshape((3, 8))", "torch.reshape(x, (6, -1))",
    "x.reshape(2, 12)", "x.reshape_as(x.reshape(-1))", "x.flatten()", "x.flatten(1)", "x.flatten(0, 1)",
    "torch.flatten(x, -2, -1)", "x.flatten(1, 1)", "x.contiguous()",
]
SCALAR_OPS = [
    "x.view(1)", "x.view(-1)", "x.view(())", "x.reshape(1, 1)", "x.unsqueeze(0)", "x.unsqueeze(-1)",
    "x.squeeze()", "x.squeeze(0)", "x.squeeze(-1)", "x.t()", "x.T", "x.mT", "x.transpose(0, -1)", "x.permute(())",
    "x.expand(2, 3)", "x.expand(())", "x.flatten()", "x.movedim(0, 0)", "x[...]", "x[None]", "x[None, ..., None]",
    "x.detach()", "x.contiguous()", "x.as_strided((2,), (0,))", "x.reshape(())",
]
EMPTY_OPS = [
    "x.view(0, 4)", "x.view(8, 0)", "x.view(0)", "x.reshape(0)", "x.reshape(4, 0, 2)", "x.transpose(0, 1)",
    "x.flatten()", "x.split(1, 1)", "x.chunk(3, 1)", "x.unbind(1)", "x.narrow(1, 0, 0)", "x.squeeze()",
    "x.expand(3, 2, 0, 4)", "x.unflatten(2, (2, 2))", "x.permute(1, 2, 0)", "x.movedim(1, 0)",
    "x.select(2, 1)", "x.mT", "x.contiguous()", "x.unsqueeze(1)", "x.split([0, 0], 1)", "x.chunk(2, 0)",
]
# torch's unflatten re-raises an inner error with its C++ origin and stack frames appended (source paths of
# torch's build): DenseCore has none, so only the first two lines, torch's words, are compared.
def _unflatten_error(inner):
    return re.escape(f"unflatten got an unexpected error:\n{inner}") + r"(\nException raised from .*)?"


BAD_OPS = [oracle.raises(RuntimeError, op) for op in [
    "x.view(5, 5)", "x.view(-1, -1)", "x.view(-2, 12)", "x.permute(0, 1)", "x.permute(0, 0, 1)", "x.expand(3, 4)",
    "x.expand(2, 3, 5)", "x.expand(-1, 2, 3, 4)", "x.squeeze((0, 0))", "x.flatten(2, 0)", "x.unflatten(1, (2, 2))",
    "x.unflatten(1, ())", "x.narrow(0, 1, 5)", "x.narrow(0, 0, -1)", "x.split(-1)", "x.split(0)", "x.split([3, -1], 0)",
    "x.chunk(0)", "x.chunk(-1)", "x.as_strided((25,), (1,))", "x.as_strided((2,), (-1,))", "x.as_strided((2, 2), (1,))",
    "x.movedim((0, 0), (1, 2))", "x.movedim((0, 1), (1,))", "x.t()", "x.reshape(5, -1)", "x.mT.view(24)", "x.T.view(-1)",
    "torch.tensor(1.).chunk(1)", "torch.tensor(1.).split(1)", "torch.tensor(1.).narrow(0, 0, 1)",
]] + [oracle.raises(IndexError, op) for op in [
    "x.transpose(0, 3)", "x.permute(0, 1, 3)", "x.squeeze(3)", "x.unsqueeze(4)", "x.unsqueeze(-5)", "x.flatten(0, 3)",
    "x.narrow(0, 3, 0)", "x.narrow(3, 0, 1)", "x.select(0, 2)", "x.select(0, -3)", "x.select(3, 0)", "x.unbind(3)",
    "x.movedim(0, 3)", "torch.tensor(1.).unbind()", "torch.tensor(1.).select(0, 0)",
]] + [
    oracle.raises(RuntimeError, "torch.tensor(1.).unflatten(0, (1,))",
                  message=_unflatten_error("Dimension specified as 0 but tensor has no dimensions")),
    oracle.raises(RuntimeError, "x.unflatten(0, (-1, -1))", message=_unflatten_error("only one dimension can be inferred")),
]


def _declared(op):
    """Where a view exists is the line under test for view(), view_as() and as_strided(): they may raise
    torch's RuntimeError (sizes that span strides, an offset or size outside the storage)."""
    if isinstance(op, oracle.Raises):
        return op
    return oracle.may_raise(RuntimeError, op) if re.search(r"\.view(_as)?\(|as_strided", op) else op


def _cases(ops, inputs, dtypes, is_view, write=True):
    cases = {}
    for d in dtypes:
        for inp in inputs:
            for op in map(_declared, ops):
                cases[f"{d}|{inp}|{oracle.code_of(op)}"] = oracle.map_code(
                    op, lambda code: f"x = INPUTS['{inp}'](torch.{d})\nout = probe(x, lambda x: {code}, {is_view}, {write})")
    return cases


@pytest.mark.oracle
@pytest.mark.parametrize("dtype", DTYPES)
def test_views_share_storage_like_torch(dtype):
    inputs = ["contig", "transposed", "sliced", "stepped", "expanded"]
    cases = _cases(VIEW_OPS, inputs, [dtype], True)
    cases.update(_cases(MAYBE_COPY_OPS, inputs, [dtype], False))
    oracle.assert_cases_equal(cases, setup=SETUP)


@pytest.mark.oracle
def test_views_of_scalars_and_empty_tensors():
    cases = _cases(SCALAR_OPS, ["scalar"], DTYPES, True)
    cases.update(_cases(EMPTY_OPS, ["empty"], DTYPES, True))
    oracle.assert_cases_equal(cases, setup=SETUP)


@pytest.mark.oracle
def test_view_dtype_reinterprets_bytes():
    cases = {}
    for src in ["float32", "int64", "float16", "uint8", "bfloat16"]:
        # Not bool as a target: bytes other than 0/1 are not valid bools, and torch's own copies
        # of such views normalise them while a byte copy keeps them.
        for dst in [d for d in DTYPES if d != "bool"] + ["int32", "int16", "int8"]:
            for inp in ["contig", "sliced", "transposed", "scalar"]:
                # torch decides which reinterpretations exist (element sizes, last stride, offset, 0-d)
                cases[f"{src}>{dst}|{inp}"] = oracle.may_raise(RuntimeError, (
                    f"x = INPUTS['{inp}'](torch.{src})\nout = probe(x, lambda x: x.view(torch.{dst}), True, False)"))
    oracle.assert_cases_equal(cases, setup=SETUP)


@pytest.mark.oracle
def test_view_bad_inputs_raise_like_torch():
    cases = _cases(BAD_OPS, ["contig"], ["float32"], False, write=False)
    oracle.assert_cases_equal(cases, setup=SETUP)


# Known gaps: torch's argument parser words these TypeErrors its own way (it lists view's overloads, and
# counts permute's positional arguments before converting them); densecore's binding says what is wrong
# with the argument.
BAD_OP_GAPS = [oracle.raises(TypeError, op) for op in ["x.view('a')", "x.permute(0.5, 1, 2)", "x.view(2, 3, 4, 'a')"]]


@pytest.mark.oracle
@pytest.mark.parametrize("op", BAD_OP_GAPS, ids=oracle.code_of)
@pytest.mark.xfail(strict=True, raises=AssertionError, reason="TypeError messages of torch's argument parser")
def test_view_bad_input_message_gaps(op):
    oracle.assert_cases_equal(_cases([op], ["contig"], ["float32"], False, write=False), setup=SETUP)


# The `*sizes` methods are bound with CPython's vectorcall convention (python/src/fast_method.h), outside
# nanobind's dispatch: every way of passing their arguments, on a Tensor and on a subclass, as torch.
CALL_FORMS = {
    "view_ints": "out = x.view(4, 6)",
    "view_tuple": "out = x.view((4, -1))",
    "view_list": "out = x.view([24])",
    "view_size": "out = x.view(torch.Size([6, 4]))",
    "view_size_kw": "out = x.view(size=(4, 6))",
    "view_tensor_int": "out = x.view(torch.tensor(4), 6)",
    "view_dtype": "out = x.view(torch.int32)",
    "view_dtype_kw": "out = x.view(dtype=torch.int32)",
    "view_unbound": "out = torch.Tensor.view(x, 4, 6)",
    "view_parameter": "out = torch.nn.Parameter(x).view(4, 6).detach()",
    "view_bad_shape": oracle.raises(RuntimeError, "out = x.view(5, 5)"),
    "reshape_ints": "out = x.reshape(-1)",
    "reshape_kw": "out = x.reshape(shape=(6, 4))",
    "permute_ints": "out = x.permute(2, 0, 1)",
    "permute_kw": "out = x.permute(dims=[2, 0, 1])",
    "expand_ints": "out = x.expand(2, -1, -1, -1)",
    "expand_kw": "out = x.expand(size=(2, 2, 3, 4))",
    "expand_bad": oracle.raises(RuntimeError, "out = x.expand(3, 4)",
                                message=r"expand\(torch\.FloatTensor\{\[2, 3, 4\]\}, size=\[3, 4\]\): the number of "
                                        r"sizes provided \(2\) must be greater or equal to the number of dimensions "
                                        r"in the tensor \(3\)"),
    # torch's messages name its overloads or its C++ base class; the class is what must agree.
    "view_no_args": oracle.raises(TypeError, "out = x.view()", message=r"view\(\).*"),
    "view_unknown_kw": oracle.raises(TypeError, "out = x.view(4, 6, foo=1)", message=r"view\(\).*"),
    "view_size_and_dtype": oracle.raises(TypeError, "out = x.view(size=(24,), dtype=torch.int32)",
                                         message=r"view\(\).*"),
    "view_not_a_tensor": oracle.raises(TypeError, "out = torch.Tensor.view(3, 4)",
                                       message=r"descriptor 'view' for '.*' objects doesn't apply to a 'int' object"),
    "reshape_no_args": oracle.raises(TypeError, "out = x.reshape()"),
    "permute_no_args": oracle.raises(TypeError, "out = x.permute()"),
    "expand_no_args": oracle.raises(TypeError, "out = x.expand()"),
}


@pytest.mark.oracle
def test_sizes_methods_take_every_call_form_like_torch():
    cases = {k: oracle.map_code(v, lambda code: "x = torch.arange(24.).view(2, 3, 4)\n" + code)
             for k, v in CALL_FORMS.items()}
    oracle.assert_cases_equal(cases, setup=SETUP)
