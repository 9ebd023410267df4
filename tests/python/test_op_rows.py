"""The ops declared as rows in csrc/op_rows.toml (frac, floor, ceil, round, trunc, sign, neg, abs, relu,
hardshrink, threshold_backward, logsumexp, the binary arithmetic add, sub, mul, div, maximum, minimum, the
optimizer's lerp, addcmul, addcdiv, the composite mm, addmm, bmm, mv, dot, tril, triu, gelu, _softmax,
_log_softmax, mse_loss, amax, amin, and the views view, _unsafe_view, alias, transpose, t, permute, expand,
squeeze (three overloads), unsqueeze, slice, select, as_strided), the selections index_select, gather,
masked_fill, where, max/min of all elements, scatter, scatter_add, embedding, max/min.dim, topk, sum and mean,
the composites with out= div.Tensor_mode, pow.Tensor_Scalar, clamp, and linalg_vector_norm, native_layer_norm,
nll_loss_forward, _scaled_dot_product_flash_attention_for_cpu, and the float classifications isnan, isinf,
isfinite, isposinf, isneginf, one_hot, and repeat (with torch.tile over it), against live torch.

Each row's generated parts are what these cases reach: the front end's dtype rule and dtype check, the
recording (grad_fn names, the out= refusal, the in-place form's saved copy), the derivative and its
saved state, the Python forms (function, method, in-place, out=). Sizes give a vector body and a scalar
tail (8 lanes on AVX2, 16 on AVX-512), where hardshrink's backward differs for NaN, as torch's does.
"""
import oracle
import pytest

pytestmark = pytest.mark.oracle

CAPS = [None, {"ATEN_CPU_CAPABILITY": "avx2"}]
CAP_IDS = ["native", "avx2"]

SETUP = """
SPECIAL = [0.0, -0.0, 0.5, -0.5, 2.5, -2.5, 1e30, -1e-30, float('inf'), float('-inf'), float('nan'), 0.49999997,
           -7.75, 3.0, -3.0, 1.0000001, 123456.789]
def special(dtype=torch.float32):
    # 37 elements: the special values in the vector body and again in the tail.
    g = torch.Generator().manual_seed(5)
    x = torch.randn(37, generator=g) * 4
    x[:len(SPECIAL)] = torch.tensor(SPECIAL)
    x[-len(SPECIAL):] = torch.tensor(SPECIAL)
    return x.to(dtype)
def grad_fn_name(t):
    return t.grad_fn.name() if t.grad_fn is not None else None
F = torch.nn.functional
"""

DTYPES = ["float32", "float64", "float16", "bfloat16"]

FRAC = {
    **{f"frac-{d}": f"out = torch.frac(special(torch.{d}))" for d in DTYPES},
    "frac-method-strided": "out = special().reshape(1, 37).expand(3, 37).t().frac()",
    "frac-out": "o = torch.empty(37); r = torch.frac(special(), out=o); out = [o, r is o]",
    "frac-inplace": "x = special(); x.frac_(); out = x",
    # raw bit patterns through the vector body and the tail: signalling and quiet NaN payloads of both signs
    **{f"frac-bits-{d}": (f"b = torch.tensor({bits} * 3, dtype=torch.{i}); out = [torch.frac(b.view(torch.{d})).view(torch.{i})]")
       for d, i, bits in (("float32", "int32", [0x7F800001, -0x007FFFFF, 0x7FC12345, -0x003FFFFF, 0x7F7FFFFF,
                                               -0x80000000, 0x00000001, 0x4B000001, -0x34FFFFFF, 0x3F7FFFFF, 0x7FA00000, 0x3FC00000]),
                          ("float64", "int64", [0x7FF0000000000001, -0x0007FFFFFFFFFFFF, 0x7FF8123456789ABC,
                                               -0x8000000000000000, 1, 0x4330000000000001, 0x3FEFFFFFFFFFFFFF]))},
    "frac-int": oracle.raises(NotImplementedError, "out = torch.frac(torch.arange(3))"),
    "frac-bool": oracle.raises(NotImplementedError, "out = torch.ones(3, dtype=torch.bool).frac()"),
    "frac-out-dtype": oracle.raises(RuntimeError, "out = torch.frac(special(), out=torch.empty(37, dtype=torch.float64))"),
    "frac-not-a-tensor": oracle.raises(TypeError, "out = torch.frac(1.5)",
                                       message=r"frac\(\): argument 'input' (\(position 1\) )?must be Tensor, not float"),
    "frac-backward": (
        "x = special().requires_grad_(); y = x.frac(); y.backward(torch.randn(37)); "
        "out = [y, x.grad, grad_fn_name(y)]"
    ),
    "frac-inplace-backward": (
        "x = special().requires_grad_(); y = x.clone(); y.frac_(); y.backward(torch.randn(37)); "
        "out = [y, x.grad, grad_fn_name(y)]"
    ),
    "frac-out-requires-grad": oracle.raises(
        RuntimeError, "x = special().requires_grad_(); out = torch.frac(x, out=torch.empty(37))"
    ),
}

# floor, ceil, round (to nearest even), trunc and its alias fix: one rounding kernel; integers are copied, bool raises.
ROUNDING = {}
for _op in ("floor", "ceil", "round", "trunc", "fix"):
    ROUNDING.update({
        **{f"{_op}-{d}": f"out = torch.{_op}(special(torch.{d}))" for d in DTYPES},
        f"{_op}-halves": f"out = torch.{_op}(torch.arange(-40, 41, dtype=torch.float32) / 4)",
        f"{_op}-large": f"out = torch.{_op}(torch.tensor([8388607.5, -8388607.5, 4503599627370495.5, 2.0 ** 60]).double())",
        f"{_op}-method-strided": f"out = special().reshape(1, 37).expand(3, 37).t().{_op}()",
        f"{_op}-out": f"o = torch.empty(37); r = torch.{_op}(special(), out=o); out = [o, r is o]",
        f"{_op}-inplace": f"x = special(); r = x.{_op}_(); out = [x, r is x]",
        f"{_op}-bits": (f"b = torch.tensor([0x7F800001, -0x007FFFFF, 0x7FC12345, -0x003FFFFF, 0x4B000001, 0x3F7FFFFF] * 6, "
                        f"dtype=torch.int32); out = [torch.{_op}(b.view(torch.float32)).view(torch.int32)]"),
        **{f"{_op}-{d}-copies": (f"x = torch.arange(-5, 12, dtype=torch.{d}); y = torch.{_op}(x); "
                                 f"out = [y, y.data_ptr() == x.data_ptr()]") for d in ("int64", "int32", "uint8", "int8")},
        f"{_op}-int-inplace": f"x = torch.arange(-5, 12); x.{_op}_(); out = x",
        f"{_op}-bool": oracle.raises(NotImplementedError, f"out = torch.ones(3, dtype=torch.bool).{_op}()"),
        f"{_op}-out-dtype": oracle.raises(RuntimeError, f"out = torch.{_op}(special(), out=torch.empty(37, dtype=torch.int64))"),
        f"{_op}-backward": (f"x = special().requires_grad_(); y = x.{_op}(); y.backward(torch.randn(37)); "
                            "out = [y, x.grad, grad_fn_name(y)]"),
        f"{_op}-inplace-backward": (f"x = special().requires_grad_(); y = x.clone(); y.{_op}_(); y.backward(torch.randn(37)); "
                                    "out = [y, x.grad, grad_fn_name(y)]"),
        f"{_op}-big": f"out = torch.{_op}(torch.randn(40013) * 100)",
    })

# sign: 1, -1 or +0 (NaN and -0.0 give +0) in every dtype, bool included; a zero gradient.
SIGN = {
    **{f"sign-{d}": f"out = torch.sign(special(torch.{d}))" for d in DTYPES},
    **{f"sign-{d}": f"out = torch.arange(-5, 12, dtype=torch.{d}).sign()" for d in ("int64", "int32", "int16", "int8", "uint8")},
    "sign-bool": "out = torch.tensor([True, False, True]).sign()",
    "sign-bits": ("b = torch.tensor([0x7F800001, -0x007FFFFF, 0x7FC12345, -0x80000000, 0, 1, -1] * 6, dtype=torch.int32); "
                  "out = [torch.sign(b.view(torch.float32)).view(torch.int32)]"),
    "sign-method-strided": "out = special().reshape(1, 37).expand(3, 37).t().sign()",
    "sign-out": "o = torch.empty(37); r = torch.sign(special(), out=o); out = [o, r is o]",
    "sign-inplace": "x = special(); r = x.sign_(); out = [x, r is x]",
    "sign-backward": "x = special().requires_grad_(); y = x.sign(); y.backward(torch.randn(37)); out = [y, x.grad, grad_fn_name(y)]",
    "sign-out-dtype": oracle.raises(RuntimeError, "out = torch.sign(special(), out=torch.empty(37, dtype=torch.int64))"),
    "sign-big": "out = torch.sign(torch.randn(40013))",
}

HARDSHRINK = {
    **{f"hardshrink-{d}": f"out = torch.hardshrink(special(torch.{d}))" for d in DTYPES},
    # lambd is rounded to the dtype before the compares: 0.49999997 is 0.5 in float16.
    "hardshrink-lambd-float16": "out = torch.hardshrink(special(torch.float16), 0.49999997)",
    "hardshrink-lambd-int": "out = special().hardshrink(3)",
    "hardshrink-lambd-negative": "out = special().hardshrink(lambd=-1.0)",
    "hardshrink-strided": "out = special().reshape(1, 37).expand(2, 37).t().hardshrink(2.5)",
    "hardshrink-out": "o = torch.empty(37); r = torch.hardshrink(special(), 0.5, out=o); out = [o, r is o]",
    "hardshrink-functional-module": (
        "m = torch.nn.Hardshrink(1.5); x = special(); "
        "out = [torch.nn.functional.hardshrink(x, 2.5), m(x), repr(m), torch.nn.Hardshrink().lambd]"
    ),
    "hardshrink-int": oracle.raises(NotImplementedError, "out = torch.hardshrink(torch.arange(3))"),
    "hardshrink-no-inplace": oracle.raises(AttributeError, "out = torch.ones(2).hardshrink_()",
                                           message=r".*object has no attribute 'hardshrink_'"),
    # NaN in self: the backward's vector form gives 0, its scalar form (the tail) passes grad through.
    **{f"hardshrink-backward-{d}": (
        f"x = special(torch.{d}).requires_grad_(); y = torch.hardshrink(x, 0.5); "
        f"y.backward(torch.randn(37).to(torch.{d})); out = [y, x.grad, grad_fn_name(y)]"
    ) for d in DTYPES},
    "hardshrink-backward-strided": (
        "x = special().requires_grad_(); y = x.reshape(1, 37).expand(3, 37).t().hardshrink(1.0); "
        "y.backward(torch.randn(37, 3)); out = [y, x.grad]"
    ),
    "hardshrink-backward-twice": oracle.raises(
        RuntimeError, "x = special().requires_grad_(); y = x.hardshrink(); y.sum().backward(); y.sum().backward()"
    ),
}

# threshold_backward is ReLU's backward: grad where the result is > 0, else +0 (NaN results pass grad).
THRESHOLD = {
    **{f"relu-backward-{d}": (
        f"x = special(torch.{d}).requires_grad_(); y = torch.relu(x); g = torch.randn(37).to(torch.{d}); "
        f"g[5] = -0.0; y.backward(g); out = [y, x.grad, grad_fn_name(y)]"
    ) for d in DTYPES},
    "relu-backward-strided": (
        "x = special().requires_grad_(); y = x.reshape(1, 37).expand(3, 37).t().relu(); "
        "y.backward(torch.randn(3, 37).t()); out = [y, x.grad]"
    ),
    "relu-backward-large": (
        "x = torch.randn(300, 128, requires_grad=True); y = torch.nn.functional.relu(x); "
        "y.backward(torch.randn(300, 128)); out = x.grad"
    ),
    "relu-inplace-backward": (
        "x = special().requires_grad_(); y = x * 1; y.relu_(); y.backward(torch.randn(37)); out = [y, x.grad, grad_fn_name(y)]"
    ),
    "relu-backward-broadcast-grad": (
        "x = torch.randn(4, 5, requires_grad=True); y = x.relu(); y.backward(torch.randn(5).expand(4, 5)); out = x.grad"
    ),
}

LOGSUMEXP = {
    "logsumexp-dim1": "out = torch.logsumexp(torch.randn(5, 37), 1)",
    "logsumexp-dim0-keepdim": "out = torch.randn(5, 37).logsumexp(0, keepdim=True)",
    "logsumexp-dims": "out = torch.logsumexp(torch.randn(3, 4, 5), (0, 2))",
    "logsumexp-negative-dim": "out = torch.logsumexp(torch.randn(3, 4, 5), -1)",
    "logsumexp-large": "out = torch.logsumexp(torch.randn(4, 300) * 100, 1)",
    "logsumexp-special": (
        "x = torch.tensor([[float('-inf'), float('-inf')], [float('inf'), 1.0], [float('nan'), 0.0], "
        "[float('inf'), float('-inf')], [-1e38, -1e38]]); out = [torch.logsumexp(x, 1), torch.logsumexp(x, 0)]"
    ),
    # float16/bfloat16 are left out: DenseCore's exp has no Half/BFloat16 kernel yet and raises.
    **{f"logsumexp-{d}": f"out = torch.logsumexp(special(torch.{d}).reshape(1, 37), 1)" for d in DTYPES[:2]},
    "logsumexp-int": "out = torch.logsumexp(torch.arange(12).reshape(3, 4), (0, 1))",
    "logsumexp-bool": "out = torch.logsumexp(torch.ones(3, dtype=torch.bool), 0)",
    "logsumexp-empty": "out = torch.logsumexp(torch.ones(0, 3), 0)",
    "logsumexp-0dim": "out = torch.logsumexp(torch.tensor(2.5), 0)",
    "logsumexp-no-dims": oracle.raises(RuntimeError, "out = torch.logsumexp(torch.ones(2, 3), ())"),
    "logsumexp-bad-dim": oracle.raises(IndexError, "out = torch.logsumexp(torch.ones(2, 3), 2)"),
    "logsumexp-bad-keepdim": oracle.raises(TypeError, "out = torch.logsumexp(torch.ones(2, 3), 1, 1)",
                                           message=r"logsumexp\(\): .*keepdim.*"),
    "logsumexp-backward": (
        "x = torch.randn(5, 37, requires_grad=True); y = torch.logsumexp(x, 1); y.backward(torch.randn(5)); "
        "out = [y, x.grad, grad_fn_name(y)]"
    ),
    "logsumexp-backward-keepdim-dims": (
        "x = torch.randn(3, 4, 5, requires_grad=True); y = x.logsumexp((0, 2), keepdim=True); "
        "y.backward(torch.randn(1, 4, 1)); out = [y, x.grad]"
    ),
    "logsumexp-backward-dims": (
        "x = torch.randn(3, 4, 5, dtype=torch.float64, requires_grad=True); y = x.logsumexp((2, 0)); "
        "y.backward(torch.randn(4, dtype=torch.float64)); out = [y, x.grad]"
    ),
    "logsumexp-backward-inf": (
        "x = torch.tensor([[float('-inf'), float('-inf')], [float('inf'), 1.0]], requires_grad=True); "
        "y = torch.logsumexp(x, 1); y.backward(torch.ones(2)); out = [y, x.grad]"
    ),
    "logsumexp-saved-modified": oracle.raises(
        RuntimeError,
        "x = torch.randn(3, 4, requires_grad=True); z = x * 1; y = z.logsumexp(1); z.add_(1); y.sum().backward()",
    ),
}


# The binary rows: their values are test_elementwise.py's; here what the rows generate. torch's codegen saves a
# tensor that only one input's formula reads only when that input requires grad, which decides whether a later
# in-place edit of it breaks the backward (mul: neither; div: other always; maximum: both).
BINARY_OPS = ["add", "sub", "mul", "div", "maximum", "minimum"]
EDITS = {
    "self-edited": "a = leaf * 1; b = torch.full((37,), 2.5); y = OP(a, b); a.add_(1)",
    "other-edited": "a = leaf * 1; b = torch.full((37,), 2.5); y = OP(b, a); a.add_(1)",
    "both-grad-self-edited": "a = leaf * 1; b = leaf2 * 1; y = OP(a, b); a.add_(1)",
    "inplace-other-edited": "a = leaf * 1; b = torch.full((37,), 2.5); y = b; INPLACE(y, a); a.add_(1)",
    "inplace-aliased": "a = leaf * 1; y = a; INPLACE(a, a)",
}
BINARY = {
    **{f"{op}-{edit}": oracle.may_raise(
        RuntimeError,
        "leaf = special().requires_grad_(); leaf2 = torch.randn(37, requires_grad=True); "
        + code.replace("INPLACE(", f"getattr(torch.Tensor, '{op}_')(").replace("OP(", f"torch.{op}(")
        + "; y.backward(torch.randn(37)); out = [y, leaf.grad, grad_fn_name(y)]",
    ) for op in BINARY_OPS for edit, code in EDITS.items()
       if not (op in ("maximum", "minimum") and edit.startswith("inplace"))},  # torch has no maximum_
    **{f"{op}-grads-broadcast": (
        "a = special().reshape(37, 1).requires_grad_(); b = torch.randn(3, requires_grad=True); "
        f"y = torch.{op}(a, b); y.backward(torch.randn(37, 3)); out = [y, a.grad, b.grad, grad_fn_name(y)]"
    ) for op in BINARY_OPS},
    "add-alpha-grads": (
        "a = torch.randn(37, requires_grad=True); b = torch.randn(37, requires_grad=True); "
        "y = torch.add(a, b, alpha=-2.5); y.backward(torch.randn(37)); out = [y, a.grad, b.grad]"
    ),
    "sub-alpha-int": "out = torch.sub(torch.arange(5), torch.arange(5) * 3, alpha=-2)",
    "sub-alpha-grads": (
        "a = torch.randn(37, requires_grad=True); b = torch.randn(37, requires_grad=True); "
        "y = a.sub(b, alpha=3); y.backward(torch.randn(37)); out = [y, a.grad, b.grad, grad_fn_name(y)]"
    ),
    "div-int-promotes": "out = torch.div(torch.arange(7), torch.tensor(2))",
    "div-out-int": oracle.raises(RuntimeError, "out = torch.div(torch.arange(7), 2, out=torch.empty(7, dtype=torch.long))"),
    "add-float-alpha-int": oracle.raises(RuntimeError, "out = torch.add(torch.arange(3), torch.arange(3), alpha=0.5)"),
    "add-bool-alpha": oracle.raises(RuntimeError, "out = torch.add(torch.ones(3), torch.ones(3), alpha=True)"),
    "sub-bools": oracle.raises(NotImplementedError, "out = torch.ones(3, dtype=torch.bool) - torch.ones(3, dtype=torch.bool)"),
    # sub_check runs before the iterator is built: its error, not the shape error.
    "sub-bool-bad-shape": oracle.raises(NotImplementedError, "out = torch.sub(torch.ones(3), torch.ones(4, dtype=torch.bool))"),
    "mul-out-requires-grad": oracle.raises(
        RuntimeError, "x = special().requires_grad_(); out = torch.mul(x, x, out=torch.empty(37))"),
    "maximum-bool": "out = torch.maximum(torch.tensor([True, False]), torch.tensor([False, False]))",
}


# neg, abs, relu: unary rows with torch's dtype checks, aliases (negative, absolute) and saved state (abs saves
# self, so its in-place form saves a copy; relu saves its result).
INT_DTYPES = ["uint8", "int8", "int16", "int32", "int64"]
UNARY = {
    **{f"{op}-{d}": f"out = torch.{op}(special(torch.{d}))" for op in ("neg", "abs", "relu") for d in DTYPES},
    **{f"{op}-{d}": f"out = torch.{op}((torch.arange(-40, 40) * 3).to(torch.{d}))"
       for op in ("neg", "abs", "relu") for d in INT_DTYPES},
    "neg-bool": oracle.raises(NotImplementedError, "out = -torch.ones(3, dtype=torch.bool)"),
    "abs-bool": oracle.raises(NotImplementedError, "out = torch.abs(torch.ones(3, dtype=torch.bool))"),
    "relu-bool": oracle.raises(NotImplementedError, "out = torch.relu(torch.ones(3, dtype=torch.bool))"),
    "relu-no-out": oracle.raises(TypeError, "out = torch.relu(special(), out=torch.empty(37))",
                                 message=r"relu\(\) got an unexpected keyword argument 'out'"
                                         r"|relu\(\): incompatible function arguments.*"),  # nanobind's wording
    "aliases": (
        "x = special(); o = torch.empty(37); y = x.clone(); y.negative_(); z = x.clone(); z.absolute_(); "
        "out = [torch.negative(x), x.negative(), torch.absolute(x, out=o), x.absolute(), y, z, o]"
    ),
    "strided-out": "o = torch.empty(37, 3).t(); torch.neg(special().expand(3, 37), out=o); out = [o, o.stride()]",
    **{f"{op}-backward": (
        f"x = special().requires_grad_(); y = x.{op}(); y.backward(torch.randn(37)); "
        "out = [y, x.grad, grad_fn_name(y)]"
    ) for op in ("neg", "abs", "relu")},
    **{f"{op}-inplace-backward": (
        f"x = special().requires_grad_(); y = x * 1; y.{op}_(); y.backward(torch.randn(37)); "
        "out = [y, x.grad, grad_fn_name(y)]"
    ) for op in ("neg", "abs", "relu")},
    # abs's backward is grad * self.sgn(): sign's whole-vector selects in the body, its scalar form in the tail
    # (NaN and -0.0 give +0, so grad's NaN passes and 0 * -grad is +0 or -0), every floating dtype; NaN gradients
    # and random bit patterns for self (5003: 18 NaNs, one in the tail).
    **{f"abs-backward-{d}": (
        f"x = special(torch.{d}).requires_grad_(); y = x.abs(); "
        f"y.backward(torch.tensor([float('nan'), -1.5, 2.0, -0.0] * 9 + [-3.0]).to(torch.{d})); out = [y, x.grad]"
    ) for d in DTYPES},
    "abs-backward-random-bits": (
        "import random; r = random.Random(7); "
        "x = torch.tensor([r.getrandbits(32) - (1 << 31) for _ in range(5003)], dtype=torch.int32).view(torch.float32); "
        "g = torch.tensor([r.getrandbits(32) - (1 << 31) for _ in range(5003)], dtype=torch.int32).view(torch.float32); "
        "x.requires_grad_(); y = x.abs(); y.backward(g); out = [y, x.grad]"
    ),
    # relu saves its result: an in-place edit of it afterwards breaks the backward; abs saves self.
    "relu-result-edited": oracle.raises(
        RuntimeError, "x = special().requires_grad_(); y = x.relu(); y.add_(1); y.sum().backward()"),
    "abs-self-edited": oracle.raises(
        RuntimeError, "x = special().requires_grad_(); a = x * 1; y = a.abs(); a.add_(1); y.sum().backward()"),
    "neg-self-edited": "x = special().requires_grad_(); a = x * 1; y = a.neg(); a.add_(1); y.sum().backward(); out = x.grad",
    "functional-relu": (
        "x = special(); y = x.clone(); torch.nn.functional.relu(y, inplace=True); "
        "out = [torch.nn.functional.relu(x), y, torch.nn.ReLU()(x)]"
    ),
}

# The binary rows' generated Python forms: numbers for add's, sub's and mul's tensors (wrapped, so they rank
# below tensors in promotion), aliases, keyword-only alpha, and torch's argument messages with positions.
PYTHON_FORMS = {
    "numbers-as-tensors": (
        "x = torch.arange(3, dtype=torch.float16); "
        "out = [torch.add(2, torch.arange(3)), torch.add(x, 2.5), torch.mul(3, 4), torch.sub(5, torch.ones(2), alpha=2), "
        "x.mul(1e5), x.add(True), torch.arange(3).add(2.5), torch.mul(x, other=2)]"
    ),
    "aliases": (
        "a = torch.randn(5); b = torch.randn(5); c = a.clone(); c.multiply_(b); d = a.clone(); d.subtract_(b, alpha=3); "
        "o = torch.empty(5); "
        "out = [torch.subtract(a, b, alpha=2), a.subtract(2), torch.multiply(a, 3), a.multiply(b), c, d, "
        "torch.multiply(a, b, out=o), o]"
    ),
    "inplace-returns-self": "a = torch.randn(5); r = a.add_(1, alpha=2); s = a.mul_(a); out = [a, r is a, s is a]",
    "out-returns-out": "a = torch.randn(5); o = torch.empty(5); r = torch.maximum(a, -a, out=o); out = [o, r is o]",
    "maximum-number": oracle.raises(TypeError, "out = torch.maximum(special(), 2.5)"),
    "maximum-method-number": oracle.raises(TypeError, "out = special().maximum(0)"),
    "mul-method-str": oracle.raises(TypeError, "out = special().mul('a')"),
    "mul-function-str": oracle.raises(TypeError, "out = torch.mul('a', special())"),
    "neg-not-a-tensor": oracle.raises(TypeError, "out = torch.neg(2.5)"),
    # alpha is keyword-only; torch's other overloads make its message list them all (nanobind's differs).
    "add-positional-alpha": oracle.raises(TypeError, "out = torch.add(special(), special(), 2)",
                                          message=r"add\(\).*"),
    "add-alpha-str": oracle.raises(TypeError, "out = torch.add(special(), special(), alpha='a')",
                                   message=r"add\(\).*"),
}


# The composite rows: their values are test_matmul.py's and test_creation.py's; here the recording. Each product
# operand is saved only for the other's gradient (torch's save guard), which decides what a later in-place edit
# breaks; tril/triu save nothing but the diagonal.
PRODUCTS = {"mm": ("torch.randn(3, 4)", "torch.randn(4, 5)"), "bmm": ("torch.randn(2, 3, 4)", "torch.randn(2, 4, 5)"),
            "mv": ("torch.randn(3, 4)", "torch.randn(4)"), "dot": ("torch.randn(37)", "torch.randn(37)")}
COMPOSITE = {
    **{f"{op}-{which}-edited-{grads}": oracle.may_raise(
        RuntimeError,
        f"la = {a}.requires_grad_({grads in ('self', 'both')}); lb = {b}.requires_grad_({grads in ('other', 'both')}); "
        f"x = la * 1; y = lb * 1; r = torch.{op}(x, y); {'x' if which == 'self' else 'y'}.add_(1); "
        "r.sum().backward(); out = [r, la.grad, lb.grad, grad_fn_name(r)]",
    ) for op, (a, b) in PRODUCTS.items() for which in ("self", "other") for grads in ("self", "other", "both")},
    **{f"{op}-methods": f"out = [{a}.{op}({b}), torch.{op}(input={a}, **{{{repr(k)}: {b}}})]"
       for (op, (a, b)), k in zip(PRODUCTS.items(), ("mat2", "mat2", "vec", "tensor"))},
    # mm/addmm save an operand's sizes and strides, not the operand, for its own gradient: the backward's branch
    # follows the forward strides (a transposed operand), and addmm's self is never saved.
    **{f"addmm-{name}-backward": (
        f"b = torch.randn({bias}, requires_grad=True); m1 = {m1}.requires_grad_(); m2 = {m2}.requires_grad_(); "
        f"y = torch.addmm(b, m1, m2, beta={beta}, alpha={alpha}); y.backward(torch.randn(y.shape)); "
        "out = [y, b.grad, m1.grad, m2.grad, grad_fn_name(y)]"
    ) for name, bias, m1, m2, beta, alpha in (
        ("plain", "5", "torch.randn(3, 4)", "torch.randn(4, 5)", 1, 1),
        ("scaled", "3, 5", "torch.randn(3, 4)", "torch.randn(4, 5)", 0.5, -2),
        ("transposed", "1, 5", "torch.randn(4, 3).t()", "torch.randn(5, 4).t()", 2, 1),
        ("int-scalars", "5", "torch.randn(3, 4)", "torch.randn(5, 4).t()", 0, 3))},
    "mm-transposed-backward": (
        "a = torch.randn(4, 3, requires_grad=True); b = torch.randn(5, 4, requires_grad=True); y = a.t().mm(b.t()); "
        "y.backward(torch.randn(3, 5)); out = [y, a.grad, b.grad]"
    ),
    "addmm-self-edited": (
        "b = torch.randn(5, requires_grad=True); c = b * 1; m1 = torch.randn(3, 4, requires_grad=True); "
        "y = torch.addmm(c, m1, torch.randn(4, 5)); c.add_(1); y.sum().backward(); out = [y, b.grad, m1.grad]"
    ),
    "addmm-method-keywords": "out = torch.randn(5).addmm(torch.randn(3, 4), torch.randn(4, 5), beta=2, alpha=torch.tensor(0.5))",
    "addmm-positional-beta": oracle.raises(
        TypeError, "out = torch.addmm(torch.randn(5), torch.randn(3, 4), torch.randn(4, 5), 2)", message=r"addmm\(\).*"),
    "mm-shapes": oracle.raises(RuntimeError, "out = torch.mm(torch.randn(3, 4), torch.randn(5, 4))"),
    "dot-not-a-tensor": oracle.raises(TypeError, "out = torch.dot(torch.randn(3), [1.0, 2.0, 3.0])"),
    **{f"{op}-backward-{k}": (
        f"x = torch.randn(2, 5, 6, requires_grad=True); y = torch.{op}(x, {k}); y.backward(torch.randn(2, 5, 6)); "
        "out = [y, x.grad, grad_fn_name(y)]"
    ) for op in ("tril", "triu") for k in (-1, 0, 2)},
    "tril-diagonal-keyword": "x = torch.randn(4, 4); out = [x.tril(diagonal=-1), torch.triu(x, diagonal=1)]",
    # Row ranges: every diagonal from beyond one corner to beyond the other (and int64's ends), a
    # transposed and an expanded source (last-dim stride != 1 and 0), batches, non-square shapes, other
    # dtypes, and special values (NaN, -0.0) kept bit for bit.
    **{f"{op}-diagonals": (
        f"x = special().reshape(1, 37)[:, :35].reshape(5, 7); "
        f"out = [torch.{op}(x, k) for k in (-2**63, -9, -5, -4, -1, 0, 1, 3, 6, 7, 8, 2**63 - 1)]"
    ) for op in ("tril", "triu")},
    **{f"{op}-layouts": (
        f"x = torch.randn(3, 6, 4); out = [torch.{op}(x, 1), torch.{op}(x.transpose(1, 2), -1), "
        f"torch.{op}(torch.randn(5).expand(4, 5)), torch.{op}(torch.randn(2, 3, 2, 5)[:, :, :, 1:4], 0), "
        f"torch.{op}(torch.arange(30).reshape(5, 6), 2), torch.{op}(torch.ones(4, 4, dtype=torch.bool), -1), "
        f"torch.{op}(torch.randn(6, 6).to(torch.float16), 1), torch.{op}(torch.empty(0, 3)), torch.{op}(torch.empty(3, 0, 2))]"
    ) for op in ("tril", "triu")},
    "tril-diagonal-float": oracle.raises(TypeError, "out = torch.tril(torch.randn(3, 3), 1.5)"),
    # gelu saves its approximate string (a str argument) beside self.
    **{f"gelu-{approx}-{layout}-backward": (
        f"x = {src}.requires_grad_(); y = torch.nn.functional.gelu(x, approximate='{approx}'); "
        "y.backward(torch.randn(y.shape)); out = [y, x.grad, grad_fn_name(y)]"
    ) for approx in ("none", "tanh") for layout, src in (("contiguous", "torch.randn(37, 5)"),
                                                           ("strided", "torch.randn(5, 37).t()"))},
    "gelu-self-edited": oracle.raises(
        RuntimeError, "x = torch.randn(37, requires_grad=True); a = x * 1; y = torch.nn.functional.gelu(a); "
                      "a.mul_(2); y.sum().backward()"),
    "gelu-bad-approximate": oracle.raises(RuntimeError, "out = torch.nn.functional.gelu(torch.randn(3), approximate='exact')"),
    # amax/amin: an int list whose default is empty (None too: every dim), ties sharing the gradient evenly.
    **{f"{op}-{name}-backward": (
        f"x = torch.tensor([[1.0, 3.0, 3.0], [2.0, -1.0, 2.0]]).requires_grad_(); y = {call.replace('OP', op)}; "
        "y.backward(torch.ones_like(y)); out = [y, x.grad, grad_fn_name(y)]"
    ) for op in ("amax", "amin") for name, call in (
        ("all", "torch.OP(x)"), ("none", "x.OP(dim=None)"), ("dim", "torch.OP(x, 1)"), ("keepdim", "x.OP((0, 1), True)"),
        ("negative-dim", "torch.OP(x, dim=[-1], keepdim=True)"))},
    "amax-float-dim": oracle.raises(TypeError, "out = torch.amax(torch.randn(2, 3), 1.5)"),
    "amax-int-keepdim": oracle.raises(TypeError, "out = torch.randn(2, 3).amax(0, 1)"),
    "amax-bad-dim": oracle.raises(IndexError, "out = torch.amax(torch.randn(2, 3), 2)"),
}


# The optimizer's pointwise rows (values: test_unary.py): torch's dtype errors, the save guard (addcmul saves each
# tensor only for the other's gradient; addcdiv saves tensor2 for both), Scalar values given as 0-dim tensors.
TERNARY_EDITS = {"tensor1": "t1", "tensor2": "t2"}
POINTWISE = {
    **{f"{op}-{edited}-edited-{grads}": oracle.may_raise(
        RuntimeError,
        f"s = torch.randn(37, requires_grad=True); l1 = torch.randn(37).requires_grad_({grads != 'tensor2'}); "
        f"l2 = (torch.rand(37) + 1).requires_grad_({grads != 'tensor1'}); t1 = l1 * 1; t2 = l2 * 1; "
        f"y = torch.{op}(s, t1, t2, value=-0.5); {TERNARY_EDITS[edited]}.add_(1); y.sum().backward(); "
        "out = [y, s.grad, l1.grad, l2.grad, grad_fn_name(y)]",
    ) for op in ("addcmul", "addcdiv") for edited in TERNARY_EDITS for grads in ("tensor1", "tensor2", "both")},
    "addcmul-bool": oracle.raises(NotImplementedError, "t = torch.ones(3, dtype=torch.bool); out = torch.addcmul(t, t, t)"),
    "addcmul-int": "t = torch.arange(5); out = [torch.addcmul(t, t, t, value=3), t.addcmul(t, t * 2)]",
    "addcdiv-ints": oracle.raises(RuntimeError, "t = torch.arange(5); out = torch.addcdiv(t.float(), t, t)"),
    "addcdiv-int-self": "t = torch.arange(1, 6); out = torch.addcdiv(t, t.float(), t, value=2)",
    "lerp-int": oracle.raises(NotImplementedError, "t = torch.arange(5); out = torch.lerp(t, t, 0.5)"),
    "lerp-dtypes": oracle.raises(RuntimeError, "out = torch.lerp(torch.randn(3), torch.randn(3).double(), 0.5)"),
    "lerp-backward": (
        "a = torch.randn(37, requires_grad=True); b = torch.randn(37, requires_grad=True); y = torch.lerp(a, b, 0.3); "
        "y.backward(torch.randn(37)); out = [y, a.grad, b.grad, grad_fn_name(y)]"
    ),
    "value-as-tensor": (
        "s = torch.randn(37); t1 = torch.randn(37); t2 = torch.rand(37) + 1; v = torch.tensor(-0.25); o = torch.empty(37); "
        "r = torch.addcdiv(s, t1, t2, value=v, out=o); c = s.clone(); c.addcmul_(t1, t2, value=torch.tensor(3)); "
        "out = [torch.addcmul(s, t1, t2, value=v), o, r is o, c, torch.add(s, t1, alpha=torch.tensor(2.0))]"
    ),
    "value-as-grad-tensor": oracle.raises(
        TypeError, "t = torch.randn(3); out = torch.addcmul(t, t, t, value=torch.tensor(2.0, requires_grad=True))",
        message=r"addcmul\(\).*"),  # torch lists its overloads; DenseCore names the argument
    "value-positional": oracle.raises(TypeError, "t = torch.randn(3); out = torch.addcmul(t, t, t, 2)",
                                      message=r"addcmul\(\).*"),
}


# softmax and log_softmax (rows _softmax, _log_softmax; values: test_softmax.py) and mse_loss: the graph torch
# builds (softmax with dtype= converts first: ToCopyBackward0 under SoftmaxBackward0) and what each saves.
def _chain(y):
    return f"[{y}.grad_fn.name()] + [f.name() if f is not None else None for f, _ in {y}.grad_fn.next_functions]"


SOFTMAX_LOSS = {
    **{f"{fn}-dtype-graph": (
        f"x = torch.randn(4, 37, requires_grad=True); y = torch.nn.functional.{fn}(x, 1, dtype=torch.float64); "
        f"y.backward(torch.randn(4, 37, dtype=torch.float64)); out = [y, x.grad, {_chain('y')}]"
    ) for fn in ("softmax", "log_softmax")},
    **{f"{fn}-same-dtype-graph": (
        f"x = torch.randn(4, 37, requires_grad=True); y = torch.{fn}(x, 0, dtype=torch.float32); "
        f"y.backward(torch.randn(4, 37)); out = [y, x.grad, {_chain('y')}]"
    ) for fn in ("softmax", "log_softmax")},
    "softmax-result-edited": oracle.raises(
        RuntimeError, "x = torch.randn(5, requires_grad=True); y = x.softmax(0); y.mul_(2); y.sum().backward()"),
    "log-softmax-input-edited": (
        "x = torch.randn(5, requires_grad=True); a = x * 1; y = a.log_softmax(0); a.mul_(2); "
        "y.backward(torch.randn(5)); out = [y, x.grad]"
    ),
    **{f"mse-{reduction}-backward": (
        "a = torch.randn(37, requires_grad=True); b = torch.randn(37, requires_grad=True); "
        f"y = torch.nn.functional.mse_loss(a, b, reduction='{reduction}'); y.backward(torch.ones_like(y)); "
        f"out = [y, a.grad, b.grad, {_chain('y')}]"
    ) for reduction in ("mean", "sum", "none")},
    "mse-target-edited": oracle.raises(
        RuntimeError, "a = torch.randn(5, requires_grad=True); b = torch.randn(5); y = torch.nn.functional.mse_loss(a, b); "
                      "b.add_(1); y.backward()"),
}


# The view rows: each records its node over self and saves the call's own arguments (negative dims and
# None bounds as given), which its formula wraps against the gradient; an in-place edit of the view goes
# through CopySlices onto the base (autograd tracks the result as a view), except for _unsafe_view.
def _view_case(expr, shape="2, 3, 4"):
    return (f"x = torch.randn({shape}, dtype=torch.float64).requires_grad_(); y = {expr}; "
            "g = torch.randn(y.shape, dtype=torch.float64); y.backward(g); "
            "out = [y, x.grad, grad_fn_name(y), y._version]")


VIEWS = {
    "view": _view_case("x.view(4, -1)"),
    "view-neg-shape": _view_case("x.view(-1)"),
    "reshape-copy": _view_case("x.transpose(0, 2).reshape(-1)"),  # CloneBackward0 + UnsafeViewBackward0
    "transpose-neg": _view_case("x.transpose(-1, -3)"),
    "t": _view_case("x.t()", "3, 4"),
    "t-1d": _view_case("x.t()", "5"),
    "t-3d": oracle.raises(RuntimeError, "out = torch.randn(2, 3, 4).t()"),
    "permute-neg": _view_case("x.permute(-1, 0, -2)"),
    "permute-bad": oracle.raises(RuntimeError, "out = torch.randn(2, 3).permute(0, 0)"),
    "expand": _view_case("x.expand(5, 2, 3, 4)"),
    "expand-1": _view_case("x.expand(3, -1, 5)", "3, 1, 1"),
    "squeeze": _view_case("x.squeeze()", "1, 3, 1, 4"),
    "squeeze-dim-neg": _view_case("x.squeeze(-2)", "3, 1, 4"),
    "squeeze-dim-not-1": _view_case("x.squeeze(-1)", "3, 1, 4"),
    "squeeze-dims-neg": _view_case("x.squeeze((0, -2))", "1, 3, 1, 4"),
    "unsqueeze-neg": _view_case("x.unsqueeze(-1)"),
    "unsqueeze-neg-first": _view_case("x.unsqueeze(-4)"),
    "slice-none": _view_case("x[:, 1:]"),
    "slice-neg-step": _view_case("x[..., -3::2]"),
    "slice-neg-end": _view_case("x[:-1, :, 1:-1]"),
    "slice-past-end": _view_case("x[:, 2:100]"),
    "narrow-neg": _view_case("x.narrow(-1, -3, 2)"),
    "select-neg": _view_case("x[:, -1]"),
    "select-neg-dim": _view_case("x.select(-1, -2)"),
    "select-out-of-range": oracle.raises(IndexError, "out = torch.randn(2, 3).select(1, 3)"),
    "unbind-then-view": _view_case("x.unbind(-1)[2].t()"),
    "movedim-0d": _view_case("x.movedim(0, 0)", "()"),
    "alias-0d": _view_case("x.T", "()"),
    "as-strided": _view_case("x.as_strided((3, 2), (1, 3))"),
    "as-strided-offset": _view_case("x.as_strided((2, 2), (4, 1), 5)"),
    "as-strided-bad": oracle.raises(RuntimeError, "out = torch.randn(4).as_strided((2, 2), (2, 1), 3)"),
    "as-strided-neg": oracle.raises(RuntimeError, "out = torch.randn(4).as_strided((2,), (-1,))"),
    # In place on the view: CopySlices onto the base, the view's grad_fn becomes AsStridedBackward0.
    "inplace-on-transpose": (
        "x = torch.randn(3, 4, dtype=torch.float64).requires_grad_(); b = x * 1; v = b.transpose(-1, 0); "
        "v.mul_(2); v.backward(torch.randn(4, 3, dtype=torch.float64)); "
        "out = [b, x.grad, grad_fn_name(v), grad_fn_name(b)]"
    ),
    "inplace-on-slice-none": (
        "x = torch.randn(3, 4, dtype=torch.float64).requires_grad_(); b = x * 1; v = b[:, -2:]; "
        "v.exp_(); (b * torch.arange(12.).view(3, 4)).sum().backward(); out = [b, x.grad, grad_fn_name(b)]"
    ),
    "inplace-on-base-refreshes-view": (
        "x = torch.randn(3, 4, dtype=torch.float64).requires_grad_(); b = x * 1; v = b.select(-1, -1); "
        "b.add_(1); out = [grad_fn_name(v)]; v.sum().backward(); out += [x.grad]"
    ),
    "inplace-on-unsafe-view": (
        "x = torch.randn(3, 4, dtype=torch.float64).requires_grad_(); b = x.t().reshape(-1); "
        "b.mul_(3); b.backward(torch.arange(12.)); out = [b, x.grad, grad_fn_name(b)]"
    ),
    "view-made-in-no-grad-then-inplace": oracle.raises(RuntimeError, (
        "x = torch.randn(3, 4).requires_grad_(); b = x * 1\n"
        "with torch.no_grad():\n    v = b.unsqueeze(-1)\n"
        "v.mul_(2)"
    )),
    "failing-view-records-nothing": (
        "x = torch.randn(2, 3).requires_grad_(); y = x * 1\n"
        "try:\n    y.view(4)\nexcept RuntimeError as e:\n    err = str(e)\n"
        "out = [err, grad_fn_name(y), y._version]"
    ),
}


# The selection rows: index_select, gather, masked_fill (both values), where, max/min of all elements. A tensor
# input without a derivative (an index, a mask, a condition) gets no edge; gather saves self itself (an in-place
# edit of it breaks backward) where index_select saves only its sizes.
def _selection_case(expr, src="torch.randn(4, 5, dtype=torch.float64)"):
    return (f"x = {src}.requires_grad_(); y = {expr}; g = torch.randn(y.shape, dtype=y.dtype); y.backward(g); "
            "out = [y, x.grad, grad_fn_name(y), len(y.grad_fn.next_functions)]")


TIES = "torch.tensor([[1.0, 3.0, 3.0], [2.0, -1.0, 3.0]], dtype=torch.float64)"
SELECTION = {
    "index-select": _selection_case("torch.index_select(x, 1, torch.tensor([4, 0, 4]))"),
    "index-select-neg-dim-method": _selection_case("x.index_select(-2, torch.tensor([3, 3, 1], dtype=torch.int32))"),
    "index-select-keywords": "out = torch.index_select(input=torch.arange(6.).view(2, 3), index=torch.tensor([2]), dim=1)",
    "index-select-self-edited": (
        "x = torch.randn(4, 5, requires_grad=True); a = x * 1; y = a.index_select(0, torch.tensor([1, 2])); "
        "a.add_(1); y.sum().backward(); out = [y, x.grad]"
    ),
    "index-select-float-dim": oracle.raises(TypeError, "out = torch.index_select(torch.randn(3), 0.5, torch.tensor([0]))"),
    "index-select-out-of-range": oracle.raises(IndexError, "out = torch.randn(3).index_select(0, torch.tensor([3]))"),
    "gather": _selection_case("torch.gather(x, 1, torch.tensor([[0, 4], [1, 1], [3, 2], [0, 0]]))"),
    "gather-neg-dim-method": _selection_case("x.gather(-2, torch.tensor([[3, 0, 1, 1, 2]]))"),
    "gather-sparse-grad-false": "out = torch.gather(torch.arange(4.), 0, torch.tensor([2, 2]), sparse_grad=False)",
    "gather-positional-sparse-grad": oracle.raises(
        TypeError, "out = torch.gather(torch.arange(4.), 0, torch.tensor([2]), False)", message=r"gather\(\).*"),
    "gather-self-edited": oracle.raises(RuntimeError, (
        "x = torch.randn(4, 5, requires_grad=True); a = x * 1; y = a.gather(1, torch.tensor([[0], [1], [2], [3]])); "
        "a.add_(1); y.sum().backward()"
    )),
    "gather-index-out-of-range": oracle.raises(RuntimeError, "out = torch.randn(3).gather(0, torch.tensor([3]))"),
    "masked-fill-scalar": _selection_case("x.masked_fill(torch.tensor([True, False, True, False, False]), 2.5)"),
    "masked-fill-broadcast": _selection_case("torch.masked_fill(x, torch.tensor([[True], [False]]), -1)", "torch.randn(5)"),
    "masked-fill-tensor-value": (
        "x = torch.randn(4, 5, dtype=torch.float64, requires_grad=True); v = torch.tensor(3.0, dtype=torch.float64, requires_grad=True); "
        "m = torch.randn(4, 5) > 0; y = x.masked_fill(m, v); y.backward(torch.randn(4, 5, dtype=torch.float64)); "
        "out = [y, x.grad, v.grad, grad_fn_name(y), len(y.grad_fn.next_functions)]"
    ),
    "masked-fill-inplace-tensor-value": (
        "x = torch.randn(4, 5, requires_grad=True); v = torch.tensor(-2.0, requires_grad=True); a = x * 1; "
        "a.masked_fill_(torch.randn(5) > 0, v); a.backward(torch.randn(4, 5)); out = [a, x.grad, v.grad, grad_fn_name(a)]"
    ),
    # 37 elements (the specials in the vector body and the tail) for float32/float64, with a fill of -0.0 or NaN:
    # contiguous rows blend whole vectors, a strided self or a broadcast mask runs the scalar loop.
    **{f"masked-fill-special-{d}-{k}": (
        f"x = special(torch.{d}).requires_grad_(); m = (special().abs() <= 2) != True; "
        f"y = {e}; y.backward(torch.randn(y.shape, dtype=y.dtype)); out = [y, x.grad]"
    ) for d in ("float32", "float64") for k, e in (
        ("zero", "x.masked_fill(m, -0.0)"), ("nan", "x.masked_fill(m, float('nan'))"),
        ("value-tensor", "x.masked_fill(m, torch.tensor(-2.5))"),
        ("strided", "x.reshape(1, 37).expand(3, 37).t().masked_fill(m.view(37, 1), 1e30)"),
        ("bcast-mask", "x.reshape(1, 37).expand(2, 37).masked_fill(m[:2].view(2, 1), -0.0)"),
        ("inplace", "(x * 1).masked_fill_(m, float('-inf'))"))},
    "masked-fill-value-1d": oracle.raises(RuntimeError, "out = torch.randn(3).masked_fill(torch.ones(3, dtype=torch.bool), torch.ones(1))"),
    "where": (
        "a = torch.randn(4, 5, requires_grad=True); b = torch.randn(5, dtype=torch.float64, requires_grad=True); "
        "c = torch.randn(4, 5) > 0; y = torch.where(c, a, b); y.backward(torch.randn(4, 5, dtype=torch.float64)); "
        "out = [y, a.grad, b.grad, grad_fn_name(y), len(y.grad_fn.next_functions)]"
    ),
    "where-one-grad": (
        "a = torch.randn(3); b = torch.randn(3, requires_grad=True); y = torch.where(a > 0, a, b); y.sum().backward(); "
        "out = [y, b.grad, [f[0] is None for f in y.grad_fn.next_functions]]"
    ),
    "where-condition-edited": oracle.raises(RuntimeError, (
        "a = torch.randn(3, requires_grad=True); c = torch.tensor([True, False, True]); y = a.where(c, 0.5); "
        "c.zero_(); y.sum().backward()"
    )),
    **{f"{op}-all-ties": _selection_case(f"torch.{op}(x)" if op == "max" else "x.min()", TIES) for op in ("max", "min")},
    "max-all-nan": _selection_case("x.max()", "torch.tensor([1.0, float('nan'), 2.0, float('nan')])"),
    # torch's messages name a tensor type by ATen's CPU<T>Type, which its Python layer rewrites to torch.<T>Tensor
    # for eight legacy types only: Bool and BFloat16 keep the ATen name.
    **{f"saved-{d}-edited": oracle.raises(RuntimeError, (
        f"x = torch.randn(3, dtype=torch.{d}, requires_grad=True); a = x * 1; y = a.max(); a.add_(1); y.backward()"
    )) for d in ("bfloat16", "float16", "float32")},
    **{f"embedding-{d}-indices": oracle.raises(
        RuntimeError, f"out = torch.nn.functional.embedding(torch.zeros(2, dtype=torch.{d}), torch.randn(3, 2))"
    ) for d in ("bool", "uint8", "float32", "bfloat16")},
    # scatter / scatter_add (the src forms) and their in-place forms: the index has no edge; scatter_add saves the
    # index only for src's gradient (torch's save guard), so editing it in place breaks nothing when src needs none.
    **{f"{op}-backward": (
        "x = torch.randn(3, 5, dtype=torch.float64, requires_grad=True); s = torch.randn(2, 5, dtype=torch.float64, requires_grad=True); "
        f"i = torch.tensor([[0, 1, 2, 0, 0], [2, 2, 1, 1, 0]]); y = {call}; y.backward(torch.randn(3, 5, dtype=torch.float64)); "
        "out = [y, x.grad, s.grad, grad_fn_name(y), len(y.grad_fn.next_functions)]"
    ) for op, call in (("scatter", "torch.scatter(x, 0, i, s)"), ("scatter-add", "x.scatter_add(-2, i, s)"),
                       ("scatter-inplace", "(x * 1).scatter_(0, i, s)"), ("scatter-add-inplace", "(x * 1).scatter_add_(0, i, s)"))},
    "scatter-add-index-edited": (
        "x = torch.randn(3, requires_grad=True); i = torch.tensor([0, 0]); y = x.scatter_add(0, i, torch.ones(2)); "
        "i.add_(1); y.sum().backward(); out = [y, x.grad]"
    ),
    "scatter-add-index-edited-src-grad": oracle.raises(RuntimeError, (
        "x = torch.randn(3); i = torch.tensor([0, 0]); s = torch.ones(2, requires_grad=True); y = x.scatter_add(0, i, s); "
        "i.add_(1); y.sum().backward()"
    )),
    "scatter-keywords": "out = torch.scatter(input=torch.zeros(4), dim=0, index=torch.tensor([3, 1]), src=torch.ones(2))",
    "scatter-float-index": oracle.raises(RuntimeError, "out = torch.zeros(4).scatter(0, torch.tensor([1.0]), torch.ones(1))"),
    "scatter-add-float-dim": oracle.raises(TypeError, "out = torch.zeros(4).scatter_add(0.0, torch.tensor([1]), torch.ones(1))"),
    # embedding: the weight's gradient summed per row, padding_idx's row left at zero, scale_grad_by_freq.
    **{f"embedding-{name}": (
        "w = torch.randn(6, 4, dtype=torch.float64, requires_grad=True); i = torch.tensor([[1, 5, 1], [0, 1, 3]]); "
        f"y = {call}; y.backward(torch.randn(y.shape, dtype=torch.float64)); "
        "out = [y, w.grad, grad_fn_name(y), len(y.grad_fn.next_functions)]"
    ) for name, call in (("plain", "torch.embedding(w, i)"), ("padding", "torch.embedding(w, i, 1)"),
                         ("functional-padding-neg", "torch.nn.functional.embedding(i, w, padding_idx=-1)"),
                         ("scale-by-freq", "torch.embedding(w, i, scale_grad_by_freq=True)"),
                         ("1d-keywords", "torch.embedding(indices=i[0], weight=w)"))},
    "embedding-weight-edited": (
        "w = torch.randn(6, 4, requires_grad=True); a = w * 1; y = torch.embedding(a, torch.tensor([2, 2])); "
        "a.add_(1); y.sum().backward(); out = [y, w.grad]"
    ),
    "embedding-1d-weight": oracle.raises(RuntimeError, "out = torch.embedding(torch.randn(6), torch.tensor([1]))"),
    "min-all-self-edited": oracle.raises(RuntimeError, (
        "x = torch.randn(4, requires_grad=True); a = x * 1; y = a.min(); a.add_(1); y.backward()"
    )),
}


# The rows with two outputs: max.dim, min.dim and topk return (values, indices); only values is differentiable,
# and the node saves indices as its own output (an in-place edit of them breaks backward). Dims are saved as
# given (negative ones too) and a 0-dim input keeps its shape.
def _select_dim_case(expr, src="torch.randn(4, 5, dtype=torch.float64)"):
    return (f"x = {src}.requires_grad_(); v, i = {expr}; g = torch.randn(v.shape, dtype=v.dtype); v.backward(g); "
            "out = [v, i, x.grad, grad_fn_name(v), len(v.grad_fn.next_functions), i.requires_grad, i.grad_fn is None]")


SELECTION_DIM = {
    **{f"{op}-dim{d}-keepdim{k}": _select_dim_case(f"torch.{op}(x, {d}, {k})", TIES)
       for op in ("max", "min") for d in (0, 1, -1) for k in (False, True)},
    "max-dim-keywords-method": _select_dim_case("x.max(dim=-2, keepdim=True)"),
    "min-dim-nan": _select_dim_case("x.min(0)", "torch.tensor([[1.0, float('nan')], [float('nan'), 2.0]])"),
    **{f"{op}-0dim-{d}": _select_dim_case(f"x.{op}({d})", "torch.tensor(2.5)") for op in ("max", "min") for d in (0, -1)},
    "max-0dim-keepdim": _select_dim_case("x.max(0, keepdim=True)", "torch.tensor(2.5)"),
    "max-dim-empty": oracle.raises(IndexError, "out = torch.zeros(0, 3).max(0)"),
    "max-dim-out-of-range": oracle.raises(IndexError, "out = torch.zeros(2, 3).max(2)"),
    "max-dim-indices-edited": oracle.raises(RuntimeError, (
        "x = torch.randn(4, 5, requires_grad=True); v, i = x.max(1); i.add_(1); v.sum().backward()"
    )),
    **{f"topk-{name}": _select_dim_case(call, src) for name, call, src in (
        ("default-dim", "torch.topk(x, 2)", "torch.randn(4, 5, dtype=torch.float64)"),
        ("dim0-smallest", "x.topk(3, 0, largest=False)", "torch.randn(4, 5, dtype=torch.float64)"),
        ("neg-dim-ties", "x.topk(2, -2)", TIES),
        ("keywords", "x.topk(k=1, dim=1, largest=True, sorted=True)", "torch.randn(4, 5)"),
        ("k0", "torch.topk(x, 0, 1)", "torch.randn(4, 5)"),
        ("transposed", "x.t().topk(2, 1)", "torch.randn(4, 5)"),
        ("0dim", "x.topk(1)", "torch.tensor(-1.5)"),
        ("0dim-k0", "x.topk(0)", "torch.tensor(-1.5)"),
    )},
    "topk-k-too-large": oracle.raises(RuntimeError, "out = torch.randn(3).topk(4)"),
    "topk-bool": oracle.raises(RuntimeError, "out = torch.ones(3, dtype=torch.bool).topk(1)"),
    "topk-indices-edited": oracle.raises(RuntimeError, (
        "x = torch.randn(4, 5, requires_grad=True); v, i = x.topk(2); i.zero_(); v.sum().backward()"
    )),
    "topk-values-reused": (
        "x = torch.randn(6, dtype=torch.float64, requires_grad=True); v, i = x.topk(3); y = (v * v).sum() + v[0]; "
        "y.backward(); out = [y, x.grad, i]"
    ),
}


# sum and mean: two rows each, as torch's overloads. No dim is SumBackward0 (its gradient grad.expand(sizes)); a dim,
# even None or (), is SumBackward1 (sum_backward); both reduce every dim then. keepdim needs the dim overload.
def _reduce_case(expr, src="torch.randn(3, 4, dtype=torch.float64)"):
    return (f"x = {src}.requires_grad_(); y = {expr}; g = torch.randn(y.shape, dtype=y.dtype); y.backward(g); "
            "out = [y, x.grad, grad_fn_name(y)]")


SUM_MEAN = {
    **{f"{op}-{name}": _reduce_case(call.format(op=op)) for op in ("sum", "mean") for name, call in (
        ("all", "x.{op}()"), ("dim-none", "x.{op}(dim=None)"), ("dim-none-keepdim", "torch.{op}(x, None, True)"),
        ("empty-tuple", "x.{op}(())"), ("empty-list-keepdim", "x.{op}([], keepdim=True)"), ("dim0", "x.{op}(0)"),
        ("neg-dims-keepdim", "torch.{op}(x, (-1, 0), keepdim=True)"), ("dtype", "x.{op}(dtype=torch.float32)"),
        ("dim-dtype", "x.{op}(1, dtype=torch.float32)"))},
    **{f"{op}-0dim-{name}": _reduce_case(call.format(op=op), "torch.tensor(1.5)") for op in ("sum", "mean")
       for name, call in (("all", "x.{op}()"), ("dim0", "x.{op}(0)"), ("none-keepdim", "x.{op}(None, True)"))},
    "mean-half": _reduce_case("x.mean((0,))", "torch.randn(5, 3).to(torch.float16)"),
    "sum-int": "out = [torch.arange(6).view(2, 3).sum(), torch.arange(6).view(2, 3).sum(None), torch.ones(3, dtype=torch.bool).sum(0)]",
    "mean-int": oracle.raises(RuntimeError, "out = torch.arange(6).mean(None)"),
    **{f"{op}-keepdim-without-dim": oracle.raises(TypeError, f"out = torch.randn(2).{op}(keepdim=True)",
                                                   message=rf"{op}\(\) received an invalid combination of arguments.*")
       for op in ("sum", "mean")},
    "sum-keepdim-none": oracle.raises(TypeError, "out = torch.randn(2).sum(0, None)"),
    "sum-dim-out-of-range": oracle.raises(IndexError, "out = torch.randn(2, 3).sum((0, 2))"),
    "sum-dim-repeated": oracle.raises(RuntimeError, "out = torch.randn(2, 3).sum((1, -1))"),
}


# Composite rows with out= and in-place forms (div.Tensor_mode, pow.Tensor_Scalar, clamp) and linalg_vector_norm.
# torch.div with rounding_mode given, None included, is div.Tensor_mode: DivBackward2, whose gradients are zeros
# for a rounded quotient and true division's for None; it saves self only for other's gradient.
def _grad_case(setup, expr, grads=("x",)):
    return (f"{setup}; y = {expr}; g = torch.randn(y.shape, dtype=y.dtype); y.backward(g); "
            f"out = [y, {', '.join(n + '.grad' for n in grads)}, grad_fn_name(y)]")


_DIV_SETUP = ("x = (torch.randn(5, 4) * 4).requires_grad_(); o = (torch.randn(4) + 0.5).requires_grad_(); "
              "o2 = o.detach().clone()")
WITH_OUT = {
    **{f"div-{m}": _grad_case(_DIV_SETUP, f"torch.div(x, o, rounding_mode={m!r})", ("x", "o"))
       for m in (None, "floor", "trunc")},
    "div-method-none": _grad_case(_DIV_SETUP, "x.div(o2, rounding_mode=None)"),
    "div-no-mode": _grad_case(_DIV_SETUP, "torch.div(x, o)", ("x", "o")),
    "div-inplace-floor": ("x = torch.randn(5, 4).requires_grad_(); o = torch.randn(4).requires_grad_(); "
                          "y = x * 2; y.div_(o, rounding_mode='floor'); y.backward(torch.randn(5, 4)); "
                          "out = [y, x.grad, o.grad, grad_fn_name(y)]"),
    "div-inplace-none": ("x = torch.randn(5, 4).requires_grad_(); o = torch.randn(4) + 3; "
                         "y = x * 2; y.div_(o, rounding_mode=None); y.backward(torch.randn(5, 4)); "
                         "out = [y, x.grad, grad_fn_name(y)]"),
    "div-int-floor": "out = [torch.div(torch.arange(-7, 7), 3, rounding_mode='floor'), torch.arange(-7, 7).div(-3, rounding_mode='trunc')]",
    "div-out-floor": "o = torch.empty(4); r = torch.div(torch.randn(4) * 5, 2.0, rounding_mode='floor', out=o); out = [o, r is o]",
    # self is saved for other's gradient only (torch's guard): editing it breaks the backward when other needs one.
    "div-self-edited-other-needs-grad": oracle.raises(RuntimeError, (
        "x = torch.randn(4); o = torch.randn(4).requires_grad_(); y = torch.div(x, o, rounding_mode='floor'); "
        "x.add_(1); y.sum().backward(); out = o.grad")),
    "div-self-edited-other-no-grad": ("x = torch.randn(4).requires_grad_(); o = torch.randn(4); a = x * 1; "
                                      "y = torch.div(a, o, rounding_mode='floor'); a.add_(1); y.sum().backward(); out = x.grad"),
    "floor-divide-forms": ("x = torch.randn(5, 4) * 4; o = torch.randn(4) + 0.5; y = x.clone(); r = y.floor_divide_(o); "
                           "e = torch.empty(5, 4); "
                           "out = [torch.floor_divide(x, o), x.floor_divide(2.5), torch.floor_divide(7, o), y, r is y, "
                           "torch.floor_divide(x, o, out=e) is e, e, torch.arange(-7, 7).floor_divide(3)]"),
    "floor-divide-grad-fn": ("x = torch.randn(4).requires_grad_(); y = torch.floor_divide(x, 2.0); "
                             "out = [grad_fn_name(y), y.requires_grad]"),
    "floor-divide-backward": oracle.raises(RuntimeError, (
        "x = torch.randn(4).requires_grad_(); torch.floor_divide(x, 2.0).sum().backward(); out = x.grad")),
    "floor-divide-inplace-backward": oracle.raises(RuntimeError, (
        "x = torch.randn(4).requires_grad_(); y = x * 1; y.floor_divide_(2.0); y.sum().backward(); out = x.grad")),
    # clamp with tensor bounds (ClampBackward0): elements equal to a bound, crossed bounds (min > max), one bound.
    **{f"clamp-tensor-{k}": _grad_case(
        "x = torch.tensor([[-2.0, -1.0, 0.0, 0.5], [1.0, 2.0, 3.0, -0.5]]).requires_grad_(); "
        "lo = torch.tensor([-1.0, 0.0, 1.0, 0.5]).requires_grad_(); hi = torch.tensor([[1.0], [0.25]]).requires_grad_()",
        e, g) for k, e, g in (("both", "torch.clamp(x, lo, hi)", ("x", "lo", "hi")),
                              ("min", "torch.clamp(x, min=lo)", ("x", "lo")),
                              ("max", "x.clamp(max=hi)", ("x", "hi")),
                              ("clip", "torch.clip(x, lo.detach(), hi)", ("x", "hi")),
                              ("only-bounds", "torch.clamp(x.detach(), lo, hi)", ("lo", "hi")))},
    # Every order of self against two bounds (ties, equal bounds, crossed bounds), NaN and signed zeros.
    "clamp-tensor-grid": _grad_case(
        "v = [0.0, 1.0, 2.0, float('nan'), -0.0]; import itertools; t = list(itertools.product(v, v, v)); "
        "x = torch.tensor([a for a, _, _ in t], dtype=torch.float64).requires_grad_(); "
        "lo = torch.tensor([b for _, b, _ in t], dtype=torch.float64).requires_grad_(); "
        "hi = torch.tensor([c for _, _, c in t], dtype=torch.float64).requires_grad_()",
        "torch.clamp(x, lo, hi)", ("x", "lo", "hi")),
    "clamp-tensor-grid-one-bound": _grad_case(
        "x = torch.tensor([0.0, 1.0, 2.0, float('nan'), 1.0, -0.0, float('nan')]).requires_grad_(); "
        "lo = torch.tensor([1.0, 1.0, 1.0, 1.0, float('nan'), 0.0, float('nan')]).requires_grad_()",
        "torch.clamp(x, lo) + torch.clamp(x, max=lo)", ("x", "lo")),
    "clamp-tensor-inplace": ("x = torch.randn(3, 4).requires_grad_(); lo = torch.randn(4).requires_grad_(); y = x * 1; "
                             "y.clamp_(lo, None); y.backward(torch.randn(3, 4)); out = [y, x.grad, lo.grad, grad_fn_name(y)]"),
    "clamp-tensor-next": ("x = torch.randn(3).requires_grad_(); y = torch.clamp(x, max=torch.zeros(3)); "
                          "out = [len(y.grad_fn.next_functions), y.grad_fn.next_functions[1][0]]"),
    "clamp-tensor-self-edited": oracle.raises(RuntimeError, (
        "x = torch.randn(3).requires_grad_(); a = x * 1; y = torch.clamp(a, torch.zeros(3)); a.add_(1); "
        "y.sum().backward(); out = x.grad")),
    "div-bad-mode": oracle.raises(RuntimeError, "out = torch.div(torch.ones(2), 2, rounding_mode='round')"),
    "div-out-requires-grad": oracle.raises(RuntimeError, (
        "x = torch.randn(3).requires_grad_(); out = torch.div(x, 2.0, rounding_mode='floor', out=torch.empty(3))")),
    **{f"pow-{e}": _grad_case("x = (torch.randn(37) * 2).requires_grad_()", f"x.pow({e})")
       for e in (0, 1, 2, 3, -1, 0.5)},
    "pow-inplace": ("x = torch.randn(9).requires_grad_(); y = x * 1; y.pow_(3); y.backward(torch.randn(9)); "
                    "out = [y, x.grad, grad_fn_name(y)]"),
    "pow-out": "o = torch.empty(5); r = torch.pow(torch.arange(5.0), 2, out=o); out = [o, r is o]",
    "pow-int-negative": oracle.raises(RuntimeError, "out = torch.arange(5).pow(-1)"),
    **{f"clamp-{n}": _grad_case("x = special().requires_grad_()", e) for n, e in (
        ("both", "x.clamp(-2.5, 3.0)"), ("min", "torch.clamp(x, min=0.5)"), ("max", "x.clamp(max=-0.5)"),
        ("clip", "x.clip(-1, 1)"), ("int-bounds", "x.clamp(-1, 2)"))},
    "clamp-nan-bound": "out = torch.clamp(special(), float('nan'), 1.0)",
    "clamp-inplace": ("x = special().requires_grad_(); y = x * 1; y.clamp_(min=-0.5, max=2.5); y.backward(torch.randn(37)); "
                      "out = [y, x.grad, grad_fn_name(y)]"),
    "clamp-int": "out = [torch.arange(-3, 4).clamp(-1, 2), torch.arange(-3, 4).clamp(min=0.5)]",
    "clamp-none": oracle.raises(RuntimeError, "out = torch.ones(2).clamp()"),
    "clamp-int-inplace-float-bound": oracle.raises(RuntimeError, "x = torch.arange(3); x.clamp_(min=0.5); out = x"),
    "clamp-leaf-inplace": oracle.raises(RuntimeError, "x = torch.ones(2).requires_grad_(); x.clamp_(min=0); out = x"),
    **{f"vector-norm-{n}": _grad_case("x = torch.randn(4, 5, dtype=torch.float64).requires_grad_()", e) for n, e in (
        ("default", "torch.linalg.vector_norm(x)"), ("dim-none", "torch.linalg.vector_norm(x, dim=None)"),
        ("dim1", "torch.linalg.vector_norm(x, 2, 1)"), ("dims-keepdim", "torch.linalg.vector_norm(x, 3, (0, 1), True)"),
        ("ord1", "torch.linalg.vector_norm(x, 1, -1)"), ("inf", "torch.linalg.vector_norm(x, float('inf'), 0)"),
        ("half-ord", "torch.linalg.vector_norm(x, 0.5)"), ("dtype", "torch.linalg.vector_norm(x.float(), dtype=torch.float64)"))},
    "vector-norm-zero-row": _grad_case("x = torch.zeros(3, 4).requires_grad_()", "torch.linalg.vector_norm(x, dim=1)"),
    "vector-norm-int": oracle.raises(RuntimeError, "out = torch.linalg.vector_norm(torch.arange(4))"),
    "vector-norm-saved-edited": oracle.raises(RuntimeError, (
        "x = torch.randn(4).requires_grad_(); a = x * 1; y = torch.linalg.vector_norm(a); a.mul_(2); y.backward(); "
        "out = x.grad")),
}


# Rows with several outputs of which the node tracks only the first (output_differentiability): native_layer_norm
# (its statistics), nll_loss_forward (total_weight), _scaled_dot_product_flash_attention_for_cpu (logsumexp); their
# one formula for several inputs (grad_input_mask).
_LN = "x = torch.randn(6, 10).requires_grad_(); w = torch.randn(10).requires_grad_(); b = torch.randn(10).requires_grad_()"
_QKV = ("q = torch.randn(2, 3, 9, 16).requires_grad_(); k = torch.randn(2, 3, 9, 16).requires_grad_(); "
        "v = torch.randn(2, 3, 9, 16).requires_grad_()")  # head size 16: (1, 2, 9, 8) is a known 1-ulp gap (docs/exactness.md)
MULTI_TRACKED = {
    "layer-norm": _grad_case(_LN, "F.layer_norm(x, (10,), w, b)", ("x", "w", "b")),
    "layer-norm-weight-only": _grad_case(_LN, "F.layer_norm(x, (10,), w)", ("x", "w")),
    "layer-norm-no-affine": _grad_case(_LN, "F.layer_norm(x, (10,))", ("x",)),
    "layer-norm-only-weight-needs-grad": _grad_case(_LN, "F.layer_norm(x.detach(), (10,), w, b.detach())", ("w",)),
    "layer-norm-only-bias-needs-grad": _grad_case(_LN, "F.layer_norm(x.detach(), (10,), w.detach(), b)", ("b",)),
    "layer-norm-two-dims": _grad_case("x = torch.randn(3, 4, 5, dtype=torch.float64).requires_grad_()",
                                      "F.layer_norm(x, (4, 5))"),
    "layer-norm-module": ("torch.manual_seed(3); m = torch.nn.LayerNorm(10); x = torch.randn(4, 10).requires_grad_(); "
                          "y = m(x); y.backward(torch.randn(4, 10)); out = [y, x.grad, m.weight.grad, m.bias.grad, grad_fn_name(y)]"),
    "native-layer-norm-outputs": (_LN + "; o, m, r = torch.native_layer_norm(x, [10], w, b, 1e-5); "
                                  "out = [o, m, r, grad_fn_name(o), grad_fn_name(m), grad_fn_name(r), m.requires_grad]"),
    # The statistics are saved untracked (torch saves a leaf): the message names no node.
    "native-layer-norm-rstd-edited": oracle.raises(RuntimeError, (
        _LN + "; o, m, r = torch.native_layer_norm(x, [10], w, b, 1e-5); r.mul_(2); o.sum().backward(); out = x.grad")),
    "layer-norm-input-edited": oracle.raises(RuntimeError, (
        _LN + "; a = x * 1; y = F.layer_norm(a, (10,), w, b); a.add_(1); y.sum().backward(); out = x.grad")),
    "nll-loss": _grad_case("x = torch.randn(5, 7).log_softmax(1).detach().requires_grad_(); t = torch.tensor([0, 6, 3, 3, 1])",
                           "F.nll_loss(x, t)"),
    "nll-loss-weight-sum": _grad_case("x = torch.randn(5, 7).requires_grad_(); t = torch.tensor([0, 6, 3, 3, 1])",
                                      "F.nll_loss(x, t, weight=torch.rand(7), reduction='sum')"),
    "nll-loss-none-ignore": _grad_case("x = torch.randn(5, 7).requires_grad_(); t = torch.tensor([0, 6, -100, 3, 1])",
                                       "F.nll_loss(x, t, reduction='none')"),
    "cross-entropy": _grad_case("x = torch.randn(8, 65).requires_grad_(); t = torch.randint(0, 65, (8,))",
                                "F.cross_entropy(x, t)"),
    "nll-loss-input-edited": oracle.raises(RuntimeError, (
        "x = torch.randn(5, 7).requires_grad_(); a = x * 1; y = F.nll_loss(a, torch.tensor([0, 6, 3, 3, 1])); "
        "a.add_(1); y.backward(); out = x.grad")),
    "sdpa-flash": _grad_case(_QKV, "F.scaled_dot_product_attention(q, k, v)", ("q", "k", "v")),
    "sdpa-flash-causal": _grad_case(_QKV, "F.scaled_dot_product_attention(q, k, v, is_causal=True)", ("q", "k", "v")),
    "sdpa-flash-scale": _grad_case(_QKV, "F.scaled_dot_product_attention(q, k, v, scale=0.3)", ("q", "k", "v")),
    "sdpa-flash-only-v": _grad_case(_QKV, "F.scaled_dot_product_attention(q.detach(), k.detach(), v)", ("v",)),
    "sdpa-flash-float-mask": _grad_case(_QKV + "; m = torch.randn(9, 9)",
                                        "F.scaled_dot_product_attention(q, k, v, attn_mask=m)", ("q", "k", "v")),
    "sdpa-flash-query-edited": oracle.raises(RuntimeError, (
        _QKV + "; a = q * 1; y = F.scaled_dot_product_attention(a, k, v); a.add_(1); y.sum().backward(); out = q.grad")),
}


# The in-place rows (copy_, fill_, zero_ and the random fills) and torch.bernoulli: the node torch names for each
# overload, self's zero gradient, the other input's (fill_'s value: grad.sum(); copy_'s src: grad in src's dtype,
# summed to its shape), CopySlices through a view, and the refusals (a leaf, a value with dims, bernoulli.p).
def _fill_case(op, setup="", grads=("x",)):
    return (f"x = torch.randn(3, 4).requires_grad_(); {setup}y = x * 1; r = y.{op}; g = torch.randn(3, 4); "
            f"(y * g).sum().backward(); out = [r is y, y, {', '.join(n + '.grad' for n in grads)}, grad_fn_name(y), "
            "len(y.grad_fn.next_functions)]")


IN_PLACE = {
    "fill-scalar": _fill_case("fill_(2.5)"),
    "fill-int": _fill_case("fill_(3)"),
    "fill-tensor": _fill_case("fill_(v)", "v = torch.tensor(1.5, dtype=torch.float64).requires_grad_(); ", ("x", "v")),
    "fill-tensor-no-grad-value": _fill_case("fill_(torch.tensor(-2.0))"),
    "fill-tensor-dims": oracle.raises(RuntimeError, "out = torch.zeros(3).fill_(torch.ones(2))"),
    "fill-leaf": oracle.raises(RuntimeError, "out = torch.zeros(3, requires_grad=True).fill_(1.0)"),
    "fill-leaf-tensor-dims": oracle.raises(RuntimeError, "out = torch.zeros(3, requires_grad=True).fill_(torch.ones(2))"),
    "fill-leaf-no-grad": ("x = torch.zeros(3, requires_grad=True)\nwith torch.no_grad():\n    x.fill_(2.0)\n"
                          "out = [x, x.grad_fn, x.requires_grad]"),
    "fill-view": ("x = torch.randn(3, 4).requires_grad_(); y = x * 1; y[1].fill_(7.0); y.backward(torch.randn(3, 4)); "
                  "out = [y, x.grad, grad_fn_name(y), [f[0].name() for f in y.grad_fn.next_functions if f[0]]]"),
    "zero": _fill_case("zero_()"),
    "zero-int": "x = torch.arange(6); r = x.zero_(); out = [x, r is x]",
    "copy": _fill_case("copy_(s)", "s = torch.randn(3, 4, dtype=torch.float64).requires_grad_(); ", ("x", "s")),
    "copy-broadcast": _fill_case("copy_(s)", "s = torch.randn(4).requires_grad_(); ", ("x", "s")),
    "copy-non-blocking": _fill_case("copy_(s, non_blocking=True)", "s = torch.randn(3, 4).requires_grad_(); ", ("x", "s")),
    "copy-from-int": _fill_case("copy_(torch.arange(12).view(3, 4))"),
    "copy-leaf": oracle.raises(RuntimeError, "out = torch.zeros(3, requires_grad=True).copy_(torch.ones(3))"),
    "normal": _fill_case("normal_()"),
    "normal-args": _fill_case("normal_(2.0, 0.5)"),
    "normal-generator": _fill_case("normal_(generator=gen)", "gen = torch.Generator().manual_seed(5); "),
    "normal-bad-std": oracle.raises(RuntimeError, "out = torch.zeros(3).normal_(0.0, -1.0)"),
    "uniform": _fill_case("uniform_(-1.0, 2.0)"),
    "exponential": _fill_case("exponential_(3.0)"),
    "random": _fill_case("random_()"),
    "random-to": _fill_case("random_(5)"),
    "random-from-to": _fill_case("random_(1, 5)"),
    "random-from-none": "x = torch.zeros(6, dtype=torch.int16); x.random_(-3, None); out = x",
    "bernoulli-float": _fill_case("bernoulli_(0.3)"),
    "bernoulli-default": _fill_case("bernoulli_()"),
    "bernoulli-tensor": _fill_case("bernoulli_(p)", "p = torch.rand(4).requires_grad_(); ", ("x", "p")),
    "bernoulli-leaf": oracle.raises(RuntimeError, "out = torch.zeros(3, requires_grad=True).bernoulli_(0.5)"),
    "bernoulli-functional": ("p = torch.rand(3, 4).requires_grad_(); y = torch.bernoulli(p); y.backward(torch.randn(3, 4)); "
                             "out = [y, p.grad, grad_fn_name(y)]"),
    "bernoulli-functional-p": ("x = torch.rand(3, 4).requires_grad_(); y = torch.bernoulli(x, 0.25); "
                               "out = [y, grad_fn_name(y), y.requires_grad]"),
    "bernoulli-functional-p-backward": oracle.raises(RuntimeError, (
        "x = torch.rand(3, 4).requires_grad_(); y = torch.bernoulli(x, 0.25); y.sum().backward(); out = x.grad")),
}


# cat and stack: one edge per tensor of the list (none for one that needs no gradient), each gradient in its input's
# dtype and shape; dim saved as given and wrapped by the backward, past cat's legacy skip of 1-D empty tensors.
def _join_case(expr, setup="", grads=("a", "b")):
    return (f"a = torch.randn(2, 3).requires_grad_(); b = torch.randn(2, 3, dtype=torch.float64).requires_grad_(); "
            f"{setup}y = {expr}; g = torch.randn(y.shape, dtype=y.dtype); y.backward(g); "
            f"out = [y, {', '.join(n + '.grad' for n in grads)}, grad_fn_name(y), "
            "[f[0].name() if f[0] else None for f in y.grad_fn.next_functions]]")


JOIN = {
    "cat-0": _join_case("torch.cat([a, b])"),
    "cat-neg": _join_case("torch.cat((a, b, a), -1)"),
    "cat-skip-empty": _join_case("torch.cat([e, a, e, b], dim=-2)", "e = torch.empty(0).requires_grad_(); ", ("a", "b", "e")),
    "cat-one-needs-grad": _join_case("torch.cat([a, c, b], 1)", "c = torch.randn(2, 5); "),
    "cat-all-empty": ("e = torch.empty(0).requires_grad_(); f = torch.empty(0).requires_grad_(); y = torch.cat([e, f]); "
                      "y.backward(torch.empty(0)); out = [y, e.grad, f.grad, grad_fn_name(y)]"),
    "cat-method-forms": _join_case("torch.concat([a, b], dim=1) + torch.concatenate([b, a], 1)"),
    "cat-empty-list": oracle.raises(ValueError, "out = torch.cat([])"),
    "cat-bad-shape": oracle.raises(RuntimeError, "out = torch.cat([torch.randn(2, 3), torch.randn(3, 3)], 1)"),
    "stack-0": _join_case("torch.stack([a, b])"),
    "stack-neg": _join_case("torch.stack([a, b, b], -1)"),
    "stack-bad-shape": oracle.raises(RuntimeError, "out = torch.stack([torch.randn(2, 3), torch.randn(3, 2)])"),
}


# split, split_with_sizes, unbind (and chunk over them): one node for all the views; a view whose gradient is never
# made gets zeros of its own shape (the last of split's chunks is the rest of the dim); dim saved as given.
def _views_case(expr, use, dtype="float64", shape="4, 5, 3"):
    return (f"x = torch.randn({shape}, dtype=torch.{dtype}).requires_grad_(); vs = {expr}; y = {use}; "
            "y.backward(torch.randn(y.shape, dtype=y.dtype)); "
            "out = [len(vs), [grad_fn_name(v) for v in vs], x.grad]")


MULTI_VIEWS = {
    "split-last-only": _views_case("x.split(2, 1)", "vs[-1] * 2"),
    "split-neg-dim": _views_case("x.split(2, -2)", "vs[0] * vs[1]"),
    "split-float32": _views_case("torch.split(x, 3)", "vs[1].sum() * 3", "float32"),
    "split-bfloat16": _views_case("x.split(1, -1)", "vs[2] + vs[0]", "bfloat16"),
    "split-zero-size": _views_case("x.split(0, 1)", "vs[0].sum()", shape="4, 0, 3"),
    "split-sizes": _views_case("x.split([1, 0, 3], 0)", "vs[2] * 3"),
    "split-with-sizes-neg": _views_case("torch.split_with_sizes(x, [2, 1], -1)", "vs[1] * 1"),
    "unbind-middle": _views_case("x.unbind(1)", "vs[3] * vs[1]"),
    "unbind-neg": _views_case("torch.unbind(x, -1)", "vs[0] * 2", "float32"),
    "chunk": _views_case("x.chunk(3, -2)", "vs[1] * 2"),
    "chunk-empty-dim": _views_case("x.chunk(3, 1)", "vs[2].sum() + vs[0].sum()", shape="4, 0, 3"),
    # A split_size near INT64_MAX is one chunk; an empty dim of 2**62 splits into two.
    "split-huge-size": "out = [[v.shape for v in torch.empty(5).split(2**63 - 1)], "
                       "[v.shape for v in torch.empty(0, 2**62).split(2**62 - 1, 1)]]",
    "split-edited-in-place": oracle.raises(RuntimeError, (
        "x = torch.randn(4, requires_grad=True); a, b = (x * 1).split(2); b.mul_(2); out = a")),
}


# Advanced indexing: index.Tensor (x[tensor]), index_put_ (x[tensor] = v, Tensor.index_put_) and torch.index_put. The
# indices are non_differentiable and saved, so editing one in place breaks the backward, as in torch.
_IDX = ("x = torch.randn(4, 5, dtype=torch.float64).requires_grad_(); v = torch.randn(3, 5, dtype=torch.float64)"
        ".requires_grad_(); i = torch.tensor([2, 0, 2])")
INDEXING = {
    "index-rows": _grad_case(_IDX, "x[i]"),
    "index-dup-cols": _grad_case(_IDX, "x[:, i]"),
    "index-two": _grad_case(_IDX, "x[i, torch.tensor([1, 4, 1])]"),
    "index-mask": _grad_case(_IDX, "x[x > 0]"),
    "index-method": _grad_case(_IDX, "x.index_select(0, i) + x[i]"),
    "index-edited-index": oracle.raises(RuntimeError, _IDX + "; y = x[i]; i.add_(1); y.sum().backward(); out = x.grad"),
    "index-put-accumulate": ("%s; y = x * 1; y.index_put_((i,), v, accumulate=True); y.backward(torch.randn(4, 5, dtype=torch.float64)); "
                             "out = [y, x.grad, v.grad, grad_fn_name(y)]" % _IDX),
    "index-put-last-wins": ("%s; y = x * 1; y.index_put_((i,), v); y.backward(torch.randn(4, 5, dtype=torch.float64)); "
                            "out = [y, x.grad, v.grad, grad_fn_name(y)]" % _IDX),
    "index-put-functional": _grad_case(_IDX, "torch.index_put(x, (i,), v, True)", ("x", "v")),
    # torch's parser takes no None in a Python list of indices (x[:, idx] makes it internally).
    "index-put-none-index": oracle.raises(TypeError, _IDX + "; out = torch.index_put(x, (None, i), v)"),
    "index-put-method-none-index": oracle.raises(TypeError, _IDX + "; out = x.detach().index_put_((None, i), v)"),
    "index-put-method-int-index": oracle.raises(TypeError, _IDX + "; out = x.detach().index_put([i, 3], v)"),
    "index-put-not-a-tuple": oracle.raises(TypeError, _IDX + "; out = torch.index_put(x, i, v)"),
    "index-put-method-not-a-tuple": oracle.raises(TypeError, _IDX + "; out = x.detach().index_put_(5, v)"),
    "setitem-tensor": ("%s; y = x * 1; y[i] = v; y.backward(torch.randn(4, 5, dtype=torch.float64)); "
                       "out = [y, x.grad, v.grad, grad_fn_name(y)]" % _IDX),
    "setitem-mask-scalar": ("%s; y = x * 1; y[y > 0] = 2.0; y.backward(torch.randn(4, 5, dtype=torch.float64)); "
                            "out = [y, x.grad, grad_fn_name(y)]" % _IDX),
    "index-put-leaf": oracle.raises(RuntimeError, _IDX + "; out = x.index_put_((i,), v)"),
    "index-put-edited-index": oracle.raises(RuntimeError, _IDX + "; y = x * 1; y.index_put_((i,), v); i.add_(1); "
                                            "y.sum().backward(); out = v.grad"),
}


# clone and _to_copy: preserve_format by default (a transposed or sliced input keeps its stride order), the
# gradient through CloneBackward0 / ToCopyBackward0 (cast back to the input's dtype).
_T = "x = torch.randn(3, 4, dtype=torch.float64).requires_grad_(); xt = x.t(); xs = x[:, ::2]"
COPIES = {
    "clone-preserve": _grad_case(_T, "xt.clone()") + "; out += [y.stride(), y.is_contiguous()]",
    "clone-contiguous": _grad_case(_T, "torch.clone(xt, memory_format=torch.contiguous_format)") + "; out += [y.stride()]",
    "clone-sliced": _grad_case(_T, "xs.clone()") + "; out += [y.stride()]",
    "to-float32-preserve": _grad_case(_T, "xt.to(torch.float32)") + "; out += [y.stride(), y.dtype]",
    "to-bfloat16-sliced": _grad_case(_T, "xs.to(torch.bfloat16)") + "; out += [y.stride(), y.dtype]",
    "float-method": _grad_case(_T, "xt.float() * 2") + "; out += [y.grad_fn.next_functions[0][0].name()]",
    "contiguous": _grad_case(_T, "xt.contiguous()") + "; out += [y.stride()]",
}


# isnan, isinf, isfinite, isposinf, isneginf: bool results with no node, whatever the input requires; the
# layout of the comparison they are written as (a transposed input stays transposed); integers and bool are
# never NaN or infinite. Only isposinf and isneginf take out= (bool only).
_CLASSIFY = ["isnan", "isinf", "isfinite", "isposinf", "isneginf"]
_BIG = "x = torch.randn(40000); x[::7] = float('inf'); x[3::11] = float('-inf'); x[5::13] = float('nan')"
CLASSIFY = {
    **{f"{f}-{d}": f"out = torch.{f}(special(torch.{d}))" for f in _CLASSIFY for d in DTYPES},
    **{f"{f}-method-transposed": f"y = special()[:36].reshape(4, 9).t().{f}(); out = [y, y.stride()]" for f in _CLASSIFY},
    **{f"{f}-expanded": f"y = special().reshape(1, 37).expand(3, 37).{f}(); out = [y, y.stride()]" for f in _CLASSIFY},
    **{f"{f}-sliced-int": f"y = torch.arange(24).reshape(4, 6)[:, ::2].t().{f}(); out = [y, y.stride()]" for f in _CLASSIFY},
    **{f"{f}-bool-0dim-empty": f"out = [torch.{f}(torch.tensor([True, False])), torch.{f}(torch.tensor(float('inf'))), "
                               f"torch.{f}(torch.empty(0, 3))]" for f in _CLASSIFY},
    **{f"{f}-two-threads": f"{_BIG}; out = torch.{f}(x)" for f in _CLASSIFY},
    **{f"{f}-requires-grad": f"x = special().requires_grad_(); y = x.{f}(); out = [y, y.requires_grad, grad_fn_name(y)]"
       for f in _CLASSIFY},
    **{f"{f}-not-a-tensor": oracle.raises(TypeError, f"out = torch.{f}(1.5)") for f in _CLASSIFY},
    **{f"{f}-no-out": oracle.raises(TypeError, f"out = torch.{f}(special(), out=torch.empty(37, dtype=torch.bool))",
                                    message=rf"{f}\(\) got an unexpected keyword argument 'out'"
                                            rf"|{f}\(\): incompatible function arguments.*")  # nanobind's wording
       for f in ["isnan", "isinf", "isfinite"]},
    **{f"{f}-out": f"o = torch.empty(37, dtype=torch.bool); r = torch.{f}(special(), out=o); out = [o, r is o]"
       for f in ["isposinf", "isneginf"]},
    **{f"{f}-out-int": f"o = torch.ones(24, dtype=torch.bool); r = torch.{f}(torch.arange(24), out=o); out = [o, r is o]"
       for f in ["isposinf", "isneginf"]},
    **{f"{f}-out-float": oracle.raises(RuntimeError, f"out = torch.{f}(special(), out=torch.empty(37))")
       for f in ["isposinf", "isneginf"]},
    # clip_grad_norm_ checks the total norm with isnan/isinf when error_if_nonfinite is set.
    "clip-nonfinite-raises": oracle.raises(RuntimeError, (
        "p = torch.ones(3, requires_grad=True); p.grad = torch.tensor([1.0, float('nan'), 2.0]); "
        "out = torch.nn.utils.clip_grad_norm_([p], 1.0, error_if_nonfinite=True)")),
    "clip-finite-checked": (
        "p = torch.ones(3, requires_grad=True); p.grad = torch.tensor([1.0, 3.0, 2.0]); "
        "n = torch.nn.utils.clip_grad_norm_([p], 1.0, error_if_nonfinite=True); out = [n, p.grad]"),
}

# F.one_hot: int64 zeros with a 1 per index (a contiguous result whatever the input's layout); the class count
# from the largest index; torch's checks before anything is allocated, the largest int64 wrapping to a negative
# size as in torch, and a size product that overflows.
ONE_HOT = {
    "one-hot": "out = F.one_hot(torch.tensor([0, 2, 1, 2]))",
    "one-hot-classes": "out = F.one_hot(torch.tensor([[0], [2]]), 4)",
    "one-hot-keyword": "out = F.one_hot(torch.tensor([1, 0]), num_classes=3)",
    "one-hot-0dim": "out = F.one_hot(torch.tensor(2), 3)",
    "one-hot-empty": "out = F.one_hot(torch.empty(0, 2, dtype=torch.long), 3)",
    "one-hot-transposed": "y = F.one_hot(torch.tensor([1, 0, 2]).expand(2, 3).t(), 3); out = [y, y.stride()]",
    "one-hot-big": "out = F.one_hot(torch.randint(0, 50, (40000,)))",
    "one-hot-float": oracle.raises(RuntimeError, "out = F.one_hot(torch.tensor([1.0]))"),
    "one-hot-int32": oracle.raises(RuntimeError, "out = F.one_hot(torch.tensor([0, 1], dtype=torch.int32))"),
    "one-hot-empty-infer": oracle.raises(RuntimeError, "out = F.one_hot(torch.empty(0, dtype=torch.long))"),
    "one-hot-empty-zero": oracle.raises(RuntimeError, "out = F.one_hot(torch.empty(0, dtype=torch.long), 0)"),
    "one-hot-negative": oracle.raises(RuntimeError, "out = F.one_hot(torch.tensor([1, -1]))"),
    "one-hot-too-small": oracle.raises(RuntimeError, "out = F.one_hot(torch.tensor([3]), 3)"),
    "one-hot-minus-two": oracle.raises(RuntimeError, "out = F.one_hot(torch.tensor([3]), -2)"),
    "one-hot-int64-max": oracle.raises(RuntimeError, "out = F.one_hot(torch.tensor([2**63 - 1]))"),
    "one-hot-overflow": oracle.raises(RuntimeError, "out = F.one_hot(torch.tensor([0, 1]), 2**62)"),
    "one-hot-not-a-tensor": oracle.raises(TypeError, "out = F.one_hot([1, 2])"),
    "one-hot-float-classes": oracle.raises(TypeError, "out = F.one_hot(torch.tensor([1]), 2.5)"),
    "one-hot-bool-classes": oracle.raises(TypeError, "out = F.one_hot(torch.tensor([1]), True)"),
}

# Tensor.repeat (a row, RepeatBackward0) and torch.tile / Tensor.tile (its leading 1s, then repeat): a contiguous copy
# at version 0 whatever self's layout; repeat_backward's sums in torch's order (the leading dims one by one, then the
# repeated dims at once), which float32 sizes that are not powers of two would show when wrong; the size product
# wrapping as torch's int64 product does, then at::empty's checks (a SymInt, negative, the byte count).
_RX = "g = torch.Generator().manual_seed(3); x = torch.randn(5, 7, generator=g)"
_RB = "g = torch.Generator().manual_seed(3); x = torch.randn(37, 33, generator=g).requires_grad_()"
def _repeat_grad(x_setup, expr):
    return (f"{x_setup}; y = {expr}; v = torch.randn(y.shape, dtype=y.dtype, generator=g); y.backward(v); "
            "out = [y, x.grad, grad_fn_name(y), y.stride()]")
REPEAT = {
    **{f"repeat-{d}": f"{_RX}; y = (x * 3).to(torch.{d}).repeat(3, 1, 4); out = [y, y.stride(), y.is_contiguous(), y._version]"
       for d in ["float32", "float64", "int64", "bool", "float16", "bfloat16"]},
    "repeat-int32": "y = torch.arange(-6, 9, dtype=torch.int32).reshape(3, 5).repeat(2, 3); out = [y, y.stride()]",
    "repeat-forms": (f"{_RX}; out = [x.repeat(2, 3), x.repeat((2, 3)), x.repeat([2, 3]), x.repeat(torch.Size([2, 3])), "
                     "x.repeat(repeats=(2, 3)), x.repeat(repeats=[2, 3]), torch.Tensor.repeat(x, 2, 3), "
                     "x.repeat(torch.tensor(2), 3), x.repeat([2, torch.tensor(3)]), x.repeat(2, True), x.repeat((2, True))]"),
    "repeat-ones": f"{_RX}; y = x.repeat(1, 1); out = [y, y.stride(), y.data_ptr() != x.data_ptr(), x._version]",
    "repeat-more-dims": f"{_RX}; y = x.repeat(2, 1, 3, 2); out = [y, y.stride()]",
    "repeat-0dim": "x = torch.tensor(2.5); out = [x.repeat(()), x.repeat(3), x.repeat(2, 3), x.repeat(torch.Size([])), x.repeat(2, 3).stride()]",
    "repeat-empty-input": "y = torch.empty(0, 3).repeat(2, 2); out = [y, y.stride(), torch.empty(0).repeat(-1), torch.empty(0, 3).repeat(-1, 1)]",
    "repeat-zero": f"{_RX}; y = x.repeat(0, 2); z = x.repeat(2, 0, 1); out = [y, y.stride(), z, z.stride()]",
    "repeat-transposed": "x = torch.arange(15.).reshape(5, 3).t(); y = x.repeat(2, 3); out = [y, y.stride()]",
    "repeat-expanded": "x = torch.arange(3.).reshape(3, 1).expand(3, 4); y = x.repeat(2, 1, 2); out = [y, y.stride()]",
    "repeat-sliced": "x = torch.arange(35.).reshape(7, 5)[1::2, 1:]; y = x.repeat(2, 3); out = [y, y.stride()]",
    "repeat-two-threads": "x = torch.randn(200, 37); y = x.repeat(3, 5); out = [y, y.stride()]",
    "repeat-one-element-long": "x = torch.tensor([1.5]); out = x.repeat(40000)",
    "repeat-many-dims": "y = torch.tensor(1.0).repeat(*([1] * 40 + [2])); out = [y.shape, y.stride(), y]",
    "repeat-requires-grad-no-grad": "x = torch.ones(2, requires_grad=True)\nwith torch.no_grad():\n    y = x.repeat(2)\nout = [y, y.requires_grad, grad_fn_name(y)]",
    "repeat-backward": _repeat_grad(_RB, "x.repeat(3, 1, 4)"),
    "repeat-backward-interleaved": _repeat_grad(_RB, "x.repeat(7, 9)"),
    "repeat-backward-leading": _repeat_grad(_RB, "x.repeat(5, 3, 1, 1)"),
    "repeat-backward-ones": _repeat_grad(_RB, "x.repeat(1, 1)"),
    "repeat-backward-leading-ones": _repeat_grad(_RB, "x.repeat(1, 1, 1, 1)"),
    "repeat-backward-zero": _repeat_grad(_RB, "x.repeat(2, 0, 3)"),
    "repeat-backward-float64": _repeat_grad(
        "g = torch.Generator().manual_seed(3); x = torch.randn(13, 11, dtype=torch.float64, generator=g).requires_grad_()",
        "x.repeat(6, 5, 3)"),
    "repeat-backward-0dim": _repeat_grad("g = torch.Generator().manual_seed(3); x = torch.tensor(0.3, requires_grad=True)",
                                         "x.repeat(7, 5)"),
    "repeat-backward-transposed": _repeat_grad(
        "g = torch.Generator().manual_seed(3); x = torch.randn(33, 37, generator=g).requires_grad_()", "x.t().repeat(3, 1, 4)"),
    "repeat-backward-empty": _repeat_grad(
        "g = torch.Generator().manual_seed(3); x = torch.randn(0, 3, generator=g).requires_grad_()", "x.repeat(2, 2)"),
    "repeat-backward-two-threads": _repeat_grad(
        "g = torch.Generator().manual_seed(3); x = torch.randn(300, 37, generator=g).requires_grad_()", "x.repeat(4, 3, 2)"),
    # repeat saves no tensor: self edited in place afterwards breaks no backward.
    "repeat-self-edited": (
        f"{_RB}; a = x * 1; y = a.repeat(2, 2); a.add_(1); y.backward(torch.ones(y.shape)); out = [y, x.grad]"),
    "repeat-result-edited": f"{_RB}; y = x.repeat(2, 1); y.mul_(2); y.backward(torch.ones(y.shape)); out = [y, x.grad, grad_fn_name(y)]",
    "repeat-fewer-dims": oracle.raises(RuntimeError, f"{_RX}; out = x.repeat(2)"),
    "repeat-empty-list": oracle.raises(RuntimeError, f"{_RX}; out = x.repeat(())"),
    "repeat-negative": oracle.raises(RuntimeError, f"{_RX}; out = x.repeat(-1, 2)"),
    "repeat-negative-last": oracle.raises(RuntimeError, f"{_RX}; out = x.repeat(2, -1)"),
    "repeat-negative-empty": oracle.raises(RuntimeError, "out = torch.zeros(0, 3).repeat(-2, -1)"),
    "repeat-too-large": oracle.raises(RuntimeError, f"{_RX}; out = x.repeat(2**40, 2**40)"),
    "repeat-too-large-31": oracle.raises(RuntimeError, f"{_RX}; out = x.repeat(2**31, 2**31)"),
    "repeat-empty-too-large": oracle.raises(RuntimeError, "out = torch.zeros(0).repeat(2**62, 2**62, 4)"),
    "repeat-empty-huge": "y = torch.zeros(0).repeat(2**62, 2**62); out = [y.shape, y.stride()]",
    # the int64 product wraps: to -2**62 (a negative size), or below it (no SymInt)
    "repeat-wraps-negative": oracle.raises(RuntimeError, "out = torch.zeros(3).repeat(2**62)"),
    "repeat-wraps-negative-2": oracle.raises(RuntimeError, f"{_RX}; out = x.repeat(1, 2**62)"),
    "repeat-wraps-symint": oracle.raises(RuntimeError, f"{_RX}; out = x.repeat(2**62, 2**62)"),
    # to 0: refused where torch unfolds the result, so no backward meets a wrapped shape
    "repeat-wraps-zero": oracle.raises(RuntimeError, "out = torch.ones(4, requires_grad=True).repeat(2**62)"),
    "repeat-wraps-zero-2d": oracle.raises(RuntimeError, "out = torch.ones(4, 8).repeat(1, 2**61)"),
    "repeat-wraps-symint-first": oracle.raises(RuntimeError, f"{_RX}; out = x.repeat(-1, -2**62, 0)"),
    "repeat-int64-max": oracle.raises(RuntimeError, f"{_RX}; out = x.repeat(2**63 - 1)"),
    "repeat-symbolic-range": oracle.raises(RuntimeError, f"{_RX}; out = x.repeat(3, -2**62 - 1)"),
    "repeat-symbolic-range-fewer": oracle.raises(RuntimeError, f"{_RX}; out = x.repeat(-2**63)"),
    "repeat-no-args": oracle.raises(TypeError, f"{_RX}; out = x.repeat()"),
    "repeat-str": oracle.raises(TypeError, f"{_RX}; out = x.repeat('a')"),
    "repeat-none": oracle.raises(TypeError, f"{_RX}; out = x.repeat(None)"),
    "repeat-tensor-list": oracle.raises(TypeError, f"{_RX}; out = x.repeat(torch.tensor([2, 3]))"),
    "repeat-keyword-int": oracle.raises(TypeError, f"{_RX}; out = x.repeat(repeats=2)"),
    # the *sizes helper (python/src/int_args.h varargs, view's too) words these its own way
    "repeat-wrong-keyword": oracle.raises(TypeError, f"{_RX}; out = x.repeat(sizes=(2, 3))",
                                          message=r"repeat\(\) (missing 1 required positional arguments: \"repeats\""
                                                  r"|got an unexpected keyword argument)"),
    "repeat-float-item": oracle.raises(TypeError, f"{_RX}; out = x.repeat(2, 3.0)",
                                       message=r"repeat\(\): argument 'repeats' (failed to unpack the object at pos 2 with "
                                               r"error \"type must be tuple of ints,but got float\"|\(position 1\) must be tuple "
                                               r"of ints, but found element of type float at pos 1)"),
    "repeat-tuple-and-int": oracle.raises(TypeError, f"{_RX}; out = x.repeat((2, 3), 4)",
                                          message=r"repeat\(\) takes 1 positional argument but 2 were given"
                                                  r"|repeat\(\): argument 'repeats' \(position 1\) must be tuple of ints, "
                                                  r"but found element of type tuple at pos 0"),
    "repeat-out": oracle.raises(TypeError, f"{_RX}; out = x.repeat(2, 3, out=x)",
                                message=r"repeat\(\) got an unexpected keyword argument( 'out')?"),
    "no-torch-repeat": oracle.raises(AttributeError, "out = torch.repeat",
                                     message=r"module '(torch|densecore)' has no attribute 'repeat'"),
    # tile: a tuple for torch.tile, *sizes for the method; fewer dims than self get leading 1s
    "tile-forms": (f"{_RX}; out = [torch.tile(x, (2,)), torch.tile(x, [2, 3]), torch.tile(x, torch.Size([2])), "
                   "torch.tile(x, dims=(2,)), torch.tile(input=x, dims=(2, 1)), x.tile(2), x.tile(2, 2), x.tile((2, 2)), "
                   "x.tile(dims=(3,)), x.tile(()), torch.tile(x, ()), x.tile(1, 2, 3, 0), torch.tile(x, (torch.tensor(2),))]"),
    "tile-fewer-dims": "x = torch.arange(24.).reshape(2, 3, 4); y = x.tile((2, 2)); out = [y, y.stride()]",
    "tile-0dim": "x = torch.tensor(True); out = [x.tile(()), x.tile(3), torch.tile(x, (2, 2))]",
    "tile-int64-transposed": "x = torch.arange(12).reshape(3, 4).t(); y = torch.tile(x, (3,)); out = [y, y.stride()]",
    "tile-backward": _repeat_grad(_RB, "torch.tile(x, (5,))"),
    "tile-backward-more": _repeat_grad(_RB, "x.tile(3, 1, 4)"),
    "tile-backward-3d": _repeat_grad(
        "g = torch.Generator().manual_seed(3); x = torch.randn(5, 7, 3, generator=g).requires_grad_()", "x.tile(3, 2)"),
    "tile-backward-empty-dims": _repeat_grad(_RB, "torch.tile(x, ())"),
    "tile-negative": oracle.raises(RuntimeError, f"{_RX}; out = x.tile(-1)"),
    "tile-negative-2": oracle.raises(RuntimeError, f"{_RX}; out = x.tile(1, -1)"),
    "tile-too-large": oracle.raises(RuntimeError, f"{_RX}; out = torch.tile(x, (2**40, 2**40))"),
    "tile-symbolic-range": oracle.raises(RuntimeError, f"{_RX}; out = x.tile(-2**62 - 1)"),
    "tile-int": oracle.raises(TypeError, f"{_RX}; out = torch.tile(x, 2)"),
    "tile-none": oracle.raises(TypeError, f"{_RX}; out = torch.tile(x, None)"),
    "tile-str": oracle.raises(TypeError, f"{_RX}; out = torch.tile(x, 'a')"),
    "tile-float-item": oracle.raises(TypeError, f"{_RX}; out = torch.tile(x, [2.5])"),
    "tile-bool-item": oracle.raises(TypeError, f"{_RX}; out = torch.tile(x, [True])"),
    "tile-not-a-tensor": oracle.raises(TypeError, "out = torch.tile(2, (2,))"),
    "tile-method-float": oracle.raises(TypeError, f"{_RX}; out = x.tile(2.0)"),
    "tile-method-keyword-int": oracle.raises(TypeError, f"{_RX}; out = x.tile(dims=2)"),
    "tile-method-no-args": oracle.raises(TypeError, f"{_RX}; out = x.tile()"),
    "tile-no-dims": oracle.raises(TypeError, f"{_RX}; out = torch.tile(x)",
                                  message=r"tile\(\) missing 1 required positional arguments: \"dims\""
                                          r"|tile\(\): incompatible function arguments.*"),  # nanobind's wording
    "tile-three-args": oracle.raises(TypeError, f"{_RX}; out = torch.tile(x, 2, 2)",
                                     message=r"tile\(\) takes 2 positional arguments but 3 were given"
                                             r"|tile\(\): incompatible function arguments.*"),  # nanobind's wording
    "tile-out": oracle.raises(TypeError, f"{_RX}; out = torch.tile(x, (2,), out=x)",
                              message=r"tile\(\) got an unexpected keyword argument 'out'"
                                      r"|tile\(\): incompatible function arguments.*"),  # nanobind's wording
}

def _seeded(cases):
    return {name: oracle.map_code(case, lambda c: "torch.manual_seed(11); " + c) for name, case in cases.items()}


ROWS = {"frac": FRAC, "rounding": ROUNDING, "sign": SIGN, "hardshrink": HARDSHRINK, "threshold_backward": THRESHOLD, "logsumexp": LOGSUMEXP,
        "binary": BINARY, "unary": UNARY, "python_forms": PYTHON_FORMS, "composite": COMPOSITE,
        "pointwise": POINTWISE, "softmax_loss": SOFTMAX_LOSS, "views": VIEWS,
        "selection": SELECTION, "selection_dim": SELECTION_DIM, "sum_mean": SUM_MEAN, "with_out": WITH_OUT,
        "multi_tracked": MULTI_TRACKED, "in_place": IN_PLACE, "join": JOIN, "multi_views": MULTI_VIEWS, "indexing": INDEXING, "copies": COPIES,
        "classify": CLASSIFY, "one_hot": ONE_HOT, "repeat": REPEAT}


def test_rounding_and_sign_at_default_capability():
    # The DEFAULT build's scalar std::trunc is not roundss: signalling NaNs are where it could differ.
    oracle.assert_cases_equal(_seeded({**ROUNDING, **SIGN}), setup=SETUP, env={"ATEN_CPU_CAPABILITY": "default"})


@pytest.mark.parametrize("env", CAPS, ids=CAP_IDS)
@pytest.mark.parametrize("row", sorted(ROWS))
def test_row_against_torch(row, env):
    oracle.assert_cases_equal(_seeded(ROWS[row]), setup=SETUP, env=env)
