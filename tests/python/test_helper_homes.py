"""The helpers exactness depends on, each with one home (issue 8, item 2), checked against live torch.

Where former copies of a helper disagreed, a case here decides which one was torch's:
- empty_like with preserve_format (core/tensor.h, strides from core/layout.h): one copy gave a
  contiguous tensor for an input that is neither contiguous nor dense, torch keeps its stride order.
  multinomial without replacement draws its exponential race into such a tensor, so a transposed and
  sliced probability matrix gives other samples under the wrong rule.
- broadcast shapes (core/layout.h, at::infer_size): two copies walked the dims from the front, torch
  walks from the back, so with two bad dims the message names another one.
The lane-math helpers (kernels/vec/lane_math.h: contracted FMA, per-lane exp/log) were equal copies;
the FMA-sensitive cases below pin their bits under the native capability and ATEN_CPU_CAPABILITY=avx2.
"""
import oracle
import pytest

pytestmark = pytest.mark.oracle

CAPS = [None, {"ATEN_CPU_CAPABILITY": "avx2"}]
CAP_IDS = ["native", "avx2"]

# A (5, 8) view with strides (1, 6): transposed, then sliced, so neither contiguous nor dense; torch's
# empty_like gives it strides (1, 5).
SETUP = """
def transposed_sliced(dtype=torch.float32):
    g = torch.Generator().manual_seed(3)
    return torch.rand(8, 6, generator=g, dtype=dtype).t()[:5]
"""

PRESERVE_FORMAT = {
    "multinomial-no-replacement": "torch.manual_seed(0); out = torch.multinomial(transposed_sliced(), 3)",
    "multinomial-no-replacement-f64": (
        "torch.manual_seed(5); out = torch.multinomial(transposed_sliced(torch.float64), 5)"
    ),
    "multinomial-one-sample": "torch.manual_seed(1); out = torch.multinomial(transposed_sliced(), 1)",
    "empty_like-strides": "out = torch.empty_like(transposed_sliced()).stride()",
    # A fill draws in memory order, so the values land where the layout puts them.
    "empty_like-uniform_": "torch.manual_seed(2); out = torch.empty_like(transposed_sliced()).uniform_()",
    "empty_like-normal_": "torch.manual_seed(2); out = torch.empty_like(transposed_sliced()).normal_()",
    "to-dtype": "out = transposed_sliced().to(torch.float64)",
    "clone": "out = transposed_sliced().clone()",
    "softmax-attention-like": (
        "torch.manual_seed(4); q = torch.rand(2, 5, 3, 4).transpose(1, 2)[:, :, :4]; "
        "out = torch.nn.functional.scaled_dot_product_attention(q, q, q)"
    ),
}

BROADCAST_ERRORS = {
    "add": oracle.raises(RuntimeError, "out = torch.ones(2, 3) + torch.ones(4, 5)"),
    "matmul-batch": oracle.raises(RuntimeError, "out = torch.matmul(torch.ones(2, 3, 4, 5), torch.ones(4, 5, 5, 2))"),
    "masked_fill_": oracle.raises(
        RuntimeError, "out = torch.ones(2, 3).masked_fill_(torch.ones(4, 5, dtype=torch.bool), 0.0)"
    ),
    "masked_fill": oracle.raises(
        RuntimeError, "out = torch.ones(2, 3).masked_fill(torch.ones(4, 5, dtype=torch.bool), 0.0)"
    ),
    "index-broadcast": oracle.raises(
        IndexError,
        "out = torch.ones(2, 3)[torch.zeros(2, 3, dtype=torch.long), torch.zeros(4, 5, dtype=torch.long)]",
    ),
}

BROADCAST_OK = {
    "matmul-batch-broadcast": "out = torch.matmul(torch.rand(2, 1, 4, 5), torch.rand(3, 5, 2))",
    "masked_fill-broadcast": (
        "x = torch.rand(3, 4); out = x.masked_fill(torch.tensor([True, False, True, False]), -1.0)"
    ),
    "add-broadcast": "out = torch.rand(3, 1, 4) + torch.rand(5, 1)",
}

# The legacy type names come from the dtype table's ScalarType column (core/dtype.h).
DTYPE_NAMES = {
    "Tensor.type": (
        "out = [torch.zeros(1, dtype=d).type() for d in (torch.bool, torch.uint8, torch.int8, torch.int16, "
        "torch.int32, torch.int64, torch.float16, torch.bfloat16, torch.float32, torch.float64)]"
    ),
    "Tensor.type-by-name": "out = torch.zeros(2).type('torch.LongTensor')",
    "embedding-index-dtype": oracle.raises(
        RuntimeError, "out = torch.nn.functional.embedding(torch.zeros(3, dtype=torch.int16), torch.ones(4, 2))"
    ),
    "saved-tensor-version": oracle.raises(
        RuntimeError,
        "x = torch.ones(3, requires_grad=True); y = x.exp(); y.add_(1); y.sum().backward()",
    ),
}

# Sizes with a vector body and a scalar tail (8 and 4 lanes on AVX2), where contracted FMAs and the
# per-lane exp/log sit.
LANE_MATH = {
    "lerp-scalar": "a = torch.randn(37); b = torch.randn(37); out = [torch.lerp(a, b, 0.3), torch.lerp(a, b, 0.7)]",
    "addcmul": "s, a, b = torch.randn(3, 29).unbind(0); out = torch.addcmul(s, a, b, value=0.37)",
    "linspace": "out = [torch.linspace(-3.1, 7.3, 101), torch.linspace(0, 1, 33, dtype=torch.float64)]",
    "arange": "out = [torch.arange(-1.7, 9.2, 0.31), torch.arange(0.1, 3.0, 0.07, dtype=torch.float64)]",
    "uniform_": "torch.manual_seed(7); out = torch.empty(41).uniform_(-0.3, 0.9)",
    "normal_": "torch.manual_seed(7); out = [torch.empty(23).normal_(0.5, 2.0), torch.empty(7).normal_(1.0, 0.1)]",
    "gelu-tanh-backward": (
        "x = torch.randn(45, requires_grad=True); "
        "y = torch.nn.functional.gelu(x, approximate='tanh'); y.backward(torch.randn(45)); out = [y, x.grad]"
    ),
    "gelu-backward": (
        "x = torch.randn(45, requires_grad=True); "
        "y = torch.nn.functional.gelu(x); y.backward(torch.randn(45)); out = [y, x.grad]"
    ),
    "layer_norm": (
        "x = torch.randn(6, 37, requires_grad=True); w = torch.randn(37, requires_grad=True); "
        "b = torch.randn(37, requires_grad=True); y = torch.nn.functional.layer_norm(x, (37,), w, b); "
        "y.backward(torch.randn(6, 37)); out = [y, x.grad, w.grad, b.grad]"
    ),
    "softmax-backward-lastdim": (
        "x = torch.randn(5, 19, requires_grad=True); y = torch.softmax(x, -1); "
        "y.backward(torch.randn(5, 19)); out = [y, x.grad]"
    ),
    "log_softmax-backward-dim0": (
        "x = torch.randn(7, 19, requires_grad=True); y = torch.log_softmax(x, 0); "
        "y.backward(torch.randn(7, 19)); out = [y, x.grad]"
    ),
    "softmax-backward-dim0": (
        "x = torch.randn(7, 19, requires_grad=True); y = torch.softmax(x, 0); "
        "y.backward(torch.randn(7, 19)); out = [y, x.grad]"
    ),
    "tanh-backward": (
        "x = torch.randn(29, requires_grad=True); y = torch.tanh(x); y.backward(torch.randn(29)); out = x.grad"
    ),
    "sigmoid": "out = torch.sigmoid(torch.randn(29) * 8)",
    "attention-backward": (
        "q, k, v = (torch.randn(2, 2, 9, 16, requires_grad=True) for _ in range(3)); "
        "y = torch.nn.functional.scaled_dot_product_attention(q, k, v, is_causal=True); "
        "y.backward(torch.randn(2, 2, 9, 16)); out = [y, q.grad, k.grad, v.grad]"
    ),
}


def _seeded(cases):
    return {name: oracle.map_code(case, lambda c: "torch.manual_seed(11); " + c) for name, case in cases.items()}


def test_preserve_format_keeps_stride_order():
    oracle.assert_cases_equal(PRESERVE_FORMAT, setup=SETUP)


def test_broadcast_reports_torchs_dim():
    oracle.assert_cases_equal({**BROADCAST_ERRORS, **_seeded(BROADCAST_OK)}, setup=SETUP)


def test_dtype_names():
    oracle.assert_cases_equal(DTYPE_NAMES)


@pytest.mark.parametrize("env", CAPS, ids=CAP_IDS)
def test_lane_math(env):
    oracle.assert_cases_equal(_seeded(LANE_MATH), setup=SETUP, env=env)
