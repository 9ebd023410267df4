"""torch.cat / concat / concatenate / stack against torch: values, dtype promotion, layout of the
result, the legacy skip of 1-D empty inputs, strided inputs, and torch's errors."""
import oracle
import pytest

from test_views import SETUP

JOIN_SETUP = SETUP + """
def res(y):
    return [y, list(y.stride()), y.storage_offset(), y.is_contiguous(), y._version]
a = torch.arange(6).view(2, 3)
"""

CASES = [
    "torch.cat([a, a])", "torch.cat([a, a], 1)", "torch.cat((a, a), -1)", "torch.cat([a, a.to(torch.float16)])",
    "torch.cat([a.to(torch.uint8), a.to(torch.int8)])", "torch.cat([a.to(torch.bool), a.to(torch.bool)])",
    "torch.cat([a.to(torch.bfloat16), a.to(torch.float16)], 1)", "torch.cat([a.t(), a.t()])",
    "torch.cat([a.t(), a.t()[:, 1:]], 1)", "torch.cat([a[:, ::2], a[:, 1:]], dim=1)",
    "torch.cat([a, torch.arange(0)])", "torch.cat([torch.arange(0).to(torch.float64), a])",
    "torch.cat([torch.arange(0), torch.arange(0)])", "torch.cat([a, a[:0]])", "torch.cat([a[:, :0], a[:, :0]], 1)",
    "torch.cat([a])", "torch.cat([a.expand(2, 2, 3), a.unsqueeze(0)])", "torch.concat([a, a], 1)",
    "torch.concatenate([a, a])", "torch.cat([a.to(torch.float32)[:, None], a.to(torch.float64)[:, None]], 1)",
    "torch.stack([a, a])", "torch.stack([a, a], 1)", "torch.stack([a, a.t().t()], -1)", "torch.stack((a[0], a[1]))",
    "torch.stack([a.to(torch.float16), a.to(torch.float32)], 2)", "torch.stack([torch.tensor(1.), torch.tensor(2)])",
    "torch.stack([a.t(), a.t()])", "torch.stack([a[:0], a[:0]], 1)",
]
BAD = [
    (ValueError, "torch.cat([])"), (RuntimeError, "torch.cat([a, torch.tensor(1)])"),
    (RuntimeError, "torch.cat([a, a[0]])"), (RuntimeError, "torch.cat([a, a.t()])"), (IndexError, "torch.cat([a, a], 2)"),
    (TypeError, "torch.cat([a, 1])"), (TypeError, "torch.cat(a)"), (RuntimeError, "torch.cat([a, a[:, :0]], 0)"),
    (RuntimeError, "torch.stack([])"), (RuntimeError, "torch.stack([a, a[0]])"), (IndexError, "torch.stack([a], 3)"),
    (IndexError, "torch.stack([a, a], -4)"),
]


@pytest.mark.oracle
def test_cat_and_stack_match_torch():
    cases = {c: f"out = res({c})" for c in CASES}
    oracle.assert_cases_equal(cases, setup=JOIN_SETUP)


@pytest.mark.oracle
def test_cat_and_stack_bad_inputs_raise_like_torch():
    cases = {c: oracle.raises(error, f"out = res({c})") for error, c in BAD}
    oracle.assert_cases_equal(cases, setup=JOIN_SETUP)
