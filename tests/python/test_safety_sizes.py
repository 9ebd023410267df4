"""Sizes from a user are overflow-checked, with torch's exception class and message (issue 7, item 1).

Each case crashed, or read and wrote outside its allocation, before the checks existed. Both
libraries run in their own process (oracle.py), so a crash fails the test instead of killing it.
"""
import oracle
import pytest

pytestmark = pytest.mark.oracle

HUGE = {
    "empty_2_62": "out = torch.empty(2**62)",
    "empty_2_62_fill": "t = torch.empty(2**62); t.fill_(1)",
    "empty_2_63_minus_1": "out = torch.empty(2**63 - 1)",
    "empty_2_32_squared_index": "out = torch.empty(2**32, 2**32)[5]",
    "zeros_2_62_sum": "out = torch.zeros(2**62).sum()",
    "zeros_bool_2_62": "out = torch.zeros(2**62, dtype=torch.bool)",
    "ones_2_61_f64": "out = torch.ones(2**61, dtype=torch.float64)",
    "full_2_62": "out = torch.full((2**62,), 1.0)",
    "rand_2_62": "out = torch.rand(2**62)",
    "randn_2_62": "out = torch.randn(2**62)",
    "randint_2_62": "out = torch.randint(0, 5, (2**62,))",
    "arange_2_62": "out = torch.arange(0, 2**62)",
    "linspace_2_62": "out = torch.linspace(0, 1, 2**62)",
    "eye_2_32": "out = torch.eye(2**32)",
    "negative": "out = torch.empty(-1)",
    "negative_second": "out = torch.zeros(3, -2)",
    "out_of_memory": "out = torch.empty(2**40)",
    "out_of_memory_sum": "out = torch.ones(2**40).sum()",
}

LAYOUTS = {
    # the last dim of an expanded 0-d tensor has no next dim to take its stride from (read past the end
    # before; ASan found it): torch's strides are 0
    "expand_0d_strides": "s = torch.tensor(5.); out = [list(s.expand(1).stride()), list(s.expand(1, 1).stride()), "
                         "list(s.expand(3, 1).stride()), s.expand(2, 1)]",
    "as_strided_overflow": "out = torch.zeros(4).as_strided((2**62 + 1,), (4,))",
    "as_strided_out_of_bounds": "out = torch.zeros(4).as_strided((5,), (1,))",
    "as_strided_offset_out_of_bounds": "out = torch.zeros(4).as_strided((2,), (1,), 3)",
    "as_strided_negative_stride": "out = torch.zeros(4).as_strided((2,), (-1,), 3)",
    "as_strided_negative_offset": "out = torch.zeros(4).as_strided((2,), (1,), -1)",
    "as_strided_empty_anywhere": "t = torch.zeros(4).as_strided((0, 2**40), (2**40, 1), 2); out = [t.shape, t.stride()]",
    "expand_numel_overflow": "out = torch.ones(3).expand(2**62 + 1, 3)",
    "expand_then_mul": "out = torch.ones(3).expand(2**62 + 1, 3) * 2",
    "expand_square": "out = torch.ones(1).expand(2**62, 2**62)",
    "expand_result_too_big": "out = torch.ones(1).expand(2**62) * 2",
    "broadcast_result_too_big": "out = torch.ones(1).expand(2**40)[:, None] + torch.ones(1).expand(2**40)",
    "view_infer_overflow": "out = torch.zeros(4).view(-1, 2**62)",
    "reshape_empty_overflow": "out = torch.zeros(0).reshape(2**62, 2**62, 0)",
    "reshape_empty_fits": "out = torch.zeros(2**31, 2**31, 0).reshape(-1).shape",
    "reshape_copy_too_big": "out = torch.ones(3).unsqueeze(0).expand(2**61, 3).reshape(-1)",
    "contiguous_too_big": "out = torch.ones(3).unsqueeze(0).expand(2**61, 3).contiguous()",
    "clone_too_big": "out = torch.ones(3).unsqueeze(0).expand(2**61, 3).clone()",
    "cat_overflow": "out = torch.cat([torch.ones(3).expand(2**62, 3), torch.ones(3).expand(2**62, 3)])",
    "index_result_too_big": "out = torch.ones(5)[torch.zeros(1, dtype=torch.long).expand(2**62)]",
    "zeros_like_expanded": "out = torch.zeros_like(torch.ones(1).expand(2**62))",
    "empty_like_expanded": "out = torch.empty_like(torch.ones(1).expand(2**62))",
    # split sizes whose sum overflows int64 (found by UBSan in the bad-argument walk): refused with torch's
    # message, the sum taken without undefined behaviour.
    "split_sizes_overflow": "out = torch.ones(4).split([2**62, 2**62])",
}

INDICES = {
    "index_2_70": "t = torch.ones(3); out = t[2**70]",
    "index_2_63": "t = torch.ones(3); out = t[2**63]",
    "setitem_value_2_70": "t = torch.ones(3); t[0] = 2**70",
    "add_2_70": "out = torch.add(torch.ones(3), 2**70)",
    "fill_2_70": "out = torch.ones(3).fill_(2**70)",
    "clamp_tuple_then_ok": "t = torch.ones(3)\ntry:\n    torch.clamp(t, (4, 3))\nexcept TypeError:\n    pass\n"
                           "out = isinstance(1, (tuple, list))",
}

# The cases that raise, in torch and so in DenseCore (class; the message is compared too).
RAISES = {'add_2_70': 'OverflowError',
 'split_sizes_overflow': 'RuntimeError',
 'arange_2_62': 'RuntimeError',
 'as_strided_negative_offset': 'RuntimeError',
 'as_strided_negative_stride': 'RuntimeError',
 'as_strided_offset_out_of_bounds': 'RuntimeError',
 'as_strided_out_of_bounds': 'RuntimeError',
 'as_strided_overflow': 'RuntimeError',
 'broadcast_result_too_big': 'RuntimeError',
 'cat_overflow': 'RuntimeError',
 'clone_too_big': 'RuntimeError',
 'contiguous_too_big': 'RuntimeError',
 'empty_2_32_squared_index': 'RuntimeError',
 'empty_2_62': 'RuntimeError',
 'empty_2_62_fill': 'RuntimeError',
 'empty_2_63_minus_1': 'RuntimeError',
 'empty_like_expanded': 'RuntimeError',
 'expand_numel_overflow': 'RuntimeError',
 'expand_result_too_big': 'RuntimeError',
 'expand_square': 'RuntimeError',
 'expand_then_mul': 'RuntimeError',
 'eye_2_32': 'RuntimeError',
 'fill_2_70': 'OverflowError',
 'full_2_62': 'RuntimeError',
 'index_2_63': 'ValueError',
 'index_2_70': 'ValueError',
 'index_result_too_big': 'RuntimeError',
 'linspace_2_62': 'RuntimeError',
 'negative': 'RuntimeError',
 'negative_second': 'RuntimeError',
 'ones_2_61_f64': 'RuntimeError',
 'out_of_memory': 'RuntimeError',
 'out_of_memory_sum': 'RuntimeError',
 'rand_2_62': 'RuntimeError',
 'randint_2_62': 'RuntimeError',
 'randn_2_62': 'RuntimeError',
 'reshape_copy_too_big': 'RuntimeError',
 'reshape_empty_overflow': 'RuntimeError',
 'setitem_value_2_70': 'ValueError',
 'view_infer_overflow': 'RuntimeError',
 'zeros_2_62_sum': 'RuntimeError',
 'zeros_bool_2_62': 'RuntimeError',
 'zeros_like_expanded': 'RuntimeError'}



def test_huge_sizes_raise_like_torch():
    oracle.assert_cases_equal(oracle.declare(HUGE, {k: v for k, v in RAISES.items() if k in HUGE}))


def test_layouts_outside_storage_raise_like_torch():
    oracle.assert_cases_equal(oracle.declare(LAYOUTS, {k: v for k, v in RAISES.items() if k in LAYOUTS}))


def test_python_ints_out_of_range_raise_like_torch():
    oracle.assert_cases_equal(oracle.declare(INDICES, {k: v for k, v in RAISES.items() if k in INDICES}))
