"""In-place ops through views under autograd, against torch, bitwise (issue 7, item 4).

Torch's semantics: an in-place op on a view makes its base's history a CopySlices node and the
view's grad_fn an AsStridedBackward0; a view whose storage was changed by anyone gets a new
AsStridedBackward0 the next time its grad_fn is read. Every case compares the gradients, the node
names torch reports and, where torch refuses (multi-output views, views made in no_grad mode, views
of leaves, saved tensors modified in place), the exception class and message.
"""
import oracle
import pytest
from test_autograd import SETUP

pytestmark = pytest.mark.oracle

# In-place ops through every kind of view, then backward through the base.
THROUGH_VIEWS = {
    "slice_mul": "a = leaf((3,), 1); b = a * 2; v = b[0:2]; v.mul_(3); bw(b); "
                 "out = [a.grad, name(b), name(v), v.grad_fn.next_functions[0][0].name()]",
    "column_mul": "a = leaf((3, 3), 1); b = a * 2; b[:, 1].mul_(vals((3,), 2)); bw(b); out = [a.grad, name(b)]",
    "row_add_tensor_requiring_grad": "a = leaf((3, 4), 1); c = leaf((4,), 2); b = a * 2; b[1].add_(c); bw(b); "
                                     "out = [a.grad, c.grad, name(b)]",
    "view_fill": "a = leaf((3, 3), 1); b = a * 2; b.view(9)[2:5].fill_(0); bw(b); out = [a.grad, name(b)]",
    "t_mul": "a = leaf((3, 4), 1); b = a * 2; b.t().mul_(vals((4, 3), 3)); bw(b); out = [a.grad]",
    "unsqueeze_mul": "a = leaf((3,), 1); b = a * 2; b.unsqueeze(0).mul_(3); bw(b); out = [a.grad]",
    "reshape_row": "a = leaf((2, 3), 1); b = a * 2; b.reshape(3, 2)[0].mul_(3); bw(b); out = [a.grad]",
    "narrow_fill": "a = leaf((3, 3), 1); b = a * 2; b.narrow(0, 1, 1).fill_(7); bw(b * b); out = [a.grad]",
    "clamp_rows": "a = leaf((3, 3), 1); b = a * 2; b[1:].clamp_(max=1.5); bw(b * b); out = [a.grad, name(b)]",
    "clamp_at_bounds": "a = torch.arange(9.).reshape(3, 3).requires_grad_(); b = a * 2; b[1:].clamp_(max=10); "
                       "(b * b).sum().backward(); out = [a.grad]",
    "view_of_view": "a = leaf((6,), 1); b = a * 2; v = b[1:]; w = v[1:]; w.mul_(5); bw(b); "
                    "out = [a.grad, name(w), name(v)]",
    "view_of_view_backward_through_view": "a = leaf((6,), 1); b = a * 2; v = b[1:]; w = v[1:]; w.mul_(5); bw(v); "
                                          "out = [a.grad]",
    "view_row_of_view": "a = leaf((4,), 1); b = a * 2; v = b.view(2, 2); v[0].mul_(3); "
                        "out = [name(b), name(v), [f[0].name() if f[0] else None for f in b.grad_fn.next_functions]]",
    "view_used_after_base_modified": "a = leaf((3,), 1); b = a * 2; v = b[0:2]; b.mul_(3); bw(v); "
                                     "out = [a.grad, name(v)]",
    "sibling_view_modified": "a = leaf((5, 4), 1); b = a.sigmoid(); v = b[2:]; b[0].mul_(3); bw(v * v); out = [a.grad]",
    "several_writes": "a = leaf((5, 4), 1); b = a * 1.5; b[1:4, 1:3].mul_(vals((3, 2), 2)); b.t()[0].add_(2.5); "
                      "c = b.view(20); c[3:9].sub_(0.25); bw(b * b); out = [a.grad]",
    "base_without_grad_gets_history": "b = torch.zeros(3); x = leaf((2,), 1); b[0:2].mul_(x); "
                                      "out = [b.requires_grad, name(b), b.is_leaf]",
    "view_of_base_without_grad_later": "b = torch.zeros(3); v = b[0:2]; x = leaf((3,), 1); b.copy_(x * 3); "
                                       "out = [v.requires_grad, name(v)]",
    "sin_saved_input_untouched": "a = leaf((3,), 1); b = a.sin(); b[0:1].add_(1); bw(b); out = [a.grad]",
    "exp_then_mul_": "a = leaf((3,), 1); b = a.exp(); b.mul_(2); bw(b); "
                     "out = [a.grad, name(b), [f[0].name() if f[0] else None for f in b.grad_fn.next_functions]]",
    "as_strided_view_mul": "a = leaf((4, 3), 1); b = a.exp(); v = b.as_strided((2, 3), (3, 1), 3); v.mul_(2); bw(b); "
                           "out = [a.grad, name(v)]",
    "as_strided_out_of_place": "a = leaf((4, 3), 1); y = a.as_strided((2, 3), (3, 1), 3); bw(y * y); "
                               "out = [a.grad, name(y)]",
    "as_strided_expanded": "a = leaf((4,), 1); y = a.as_strided((3, 4), (0, 1)); bw(y); out = [a.grad]",
    "detach_then_inplace": "a = leaf((3,), 1); c = a * 1; s = c.exp(); c.detach().mul_(2); bw(s); out = [a.grad]",
    "iteration_rows": "a = leaf((2, 3), 1); b = a * 1; rows = list(b); bw(rows[1]); out = [a.grad, name(rows[0])]",
}

# Retain_grad across in-place ops (the hook follows the tensor's new history, as torch's).
RETAIN = {
    "retain_then_inplace": "a = leaf((3,), 1); b = a * 2; b.retain_grad(); b.mul_(3); bw(b); out = [b.grad, a.grad]",
    "retain_view_then_inplace": "a = leaf((3,), 1); b = a * 2; v = b[0:2]; v.retain_grad(); v.mul_(3); bw(b); "
                                "out = [v.grad, a.grad]",
    "retain_base_inplace_view": "a = leaf((3,), 1); b = a * 2; b.retain_grad(); b[0:2].mul_(3); bw(b); "
                                "out = [b.grad, a.grad]",
}

# Every in-place op DenseCore has, on a view of a non-leaf: its node, and the gradients.
INPLACE_OPS = {
    "add_": "v.add_(vals((2, 4), 7), alpha=2.5)", "sub_": "v.sub_(vals((2, 4), 7))", "mul_": "v.mul_(vals((2, 4), 7))",
    "div_": "v.div_(vals((2, 4), 7, lo=1.0))", "neg_": "v.neg_()", "abs_": "v.abs_()", "pow_": "v.pow_(2)",
    "clamp_": "v.clamp_(-1, 1)", "clamp_min": "v.clamp_(min=0.5)", "lerp_": "v.lerp_(vals((2, 4), 7), 0.3)",
    "addcmul_": "v.addcmul_(vals((2, 4), 7), vals((2, 4), 8), value=0.5)",
    "addcdiv_": "v.addcdiv_(vals((2, 4), 7), vals((2, 4), 8, lo=1.0), value=0.5)",
    "copy_": "v.copy_(vals((2, 4), 7))", "copy_broadcast_f64": "v.copy_(vals((4,), 7, 'float64'))",
    "fill_": "v.fill_(2.5)", "fill_tensor": "v.fill_(torch.tensor(2.5))", "zero_": "v.zero_()",
    "masked_fill_": "v.masked_fill_(vals((2, 4), 7) > 0, 1.5)",
    "masked_fill_tensor": "v.masked_fill_(vals((2, 4), 7) > 0, torch.tensor(1.5))",
    "index_put_": "v.index_put_((torch.tensor([1, 0, 1]), torch.tensor([0, 2, 3])), vals((3,), 7))",
    "index_put_accumulate": "v.index_put_((torch.tensor([1, 1]), torch.tensor([0, 0])), vals((2,), 7), accumulate=True)",
    "scatter_": "v.scatter_(1, torch.tensor([[0, 2], [3, 1]]), vals((2, 2), 7))",
    "scatter_add_": "v.scatter_add_(1, torch.tensor([[0, 0], [3, 1]]), vals((2, 2), 7))",
    "uniform_": "torch.manual_seed(3); v.uniform_()", "normal_": "torch.manual_seed(3); v.normal_()",
    "bernoulli_": "torch.manual_seed(3); v.bernoulli_(0.4)", "exponential_": "torch.manual_seed(3); v.exponential_()",
    "random_": "torch.manual_seed(3); v.random_(5)",
}
INPLACE_CASE = "a = leaf((3, 4), 1); b = a * 1.25; v = b[1:]; {op}; bw(b * b); out = [a.grad, b, name(b), name(v)]"
DIRECT_CASE = "a = leaf((2, 4), 1); b = a * 1.25; {op}; bw(b * b); out = [a.grad, b, name(b)]"

# setitem: basic indices write through views (copy_/fill_ under CopySlices), tensor indices use index_put_.
SETITEM = {
    "int_scalar": "b[0] = 5.0", "slice_scalar": "b[0:2] = 5.0", "row_tensor": "b[1] = vals((4,), 7)",
    "row_needs_grad": "b[1] = c", "row_prefix_ones": "b[1] = vals((1, 4), 7)", "row_broadcast": "b[1] = vals((1,), 7)",
    "column": "b[:, 2] = vals((3,), 7)", "ellipsis": "b[...] = vals((4,), 7)",
    "tensor_index": "b[torch.tensor([0, 2])] = vals((2, 4), 7)", "bool_mask_scalar": "b[vals((3, 4), 7) > 0] = 0.5",
    "mixed": "b[1:, torch.tensor([0, 3])] = vals((2, 2), 7)", "zero_dim_tensor": "b[2, 1] = torch.tensor(3.5)",
}
SETITEM_CASE = ("a = leaf((3, 4), 1); c = leaf((4,), 2); b = a * 1.25; {op}; bw(b * b); "
                "out = [a.grad, c.grad, b, name(b), [f[0].name() if f[0] else None for f in b.grad_fn.next_functions]]")

# What torch refuses, with its messages.
ERRORS = {
    "view_of_leaf": "a = torch.ones(3, requires_grad=True); v = a[0:2]; v.mul_(3)",
    "view_of_leaf_view_op": "a = torch.ones(3, requires_grad=True); a.view(3).mul_(2)",
    "leaf": "a = torch.ones(3, requires_grad=True); a.mul_(2)",
    "split_of_leaf": "a = torch.ones(3, requires_grad=True); x, y = a.split(2); y.mul_(3)",
    "split_output": "a = torch.ones(3, requires_grad=True); b = a * 1; x, y = b.split(2); y.mul_(3)",
    "chunk_output": "a = torch.ones(4, requires_grad=True); b = a * 1; x, y = b.chunk(2); y.mul_(3)",
    "unbind_output": "a = torch.ones(2, 2, requires_grad=True); b = a * 1; x, y = b.unbind(); y.mul_(3)",
    "unbind_base_modified": "a = torch.ones(2, 2, requires_grad=True); b = a * 1; x, y = b.unbind(); b.mul_(3); z = x * 2",
    "split_base_modified_backward": "a = torch.ones(3, requires_grad=True); b = a * 1; s = b.split(1); c = s[0] * s[0]; "
                                    "b.add_(1); c.sum().backward()",
    "split_no_grad_base": "b = torch.zeros(4); x, y = b.split(2); y.mul_(torch.ones(2, requires_grad=True))",
    "no_grad_view_inplace": "a = torch.ones(3, requires_grad=True); b = a * 2\n"
                            "with torch.no_grad():\n    v = b[0:2]\nv.mul_(3)",
    "no_grad_view_base_modified": "a = torch.ones(3, requires_grad=True); b = a * 2\n"
                                  "with torch.no_grad():\n    v = b[0:2]\nb.mul_(3)\nout = v.grad_fn",
    "no_grad_view_of_leaf_base_modified_in_no_grad": "a = torch.ones(3, requires_grad=True)\n"
                                                     "with torch.no_grad():\n    b = a.view(3)\n    a.mul_(2)\nout = b.grad_fn",
    "saved_output_modified": "a = torch.ones(3, requires_grad=True); b = a.exp(); b.add_(1); b.sum().backward()",
    "saved_output_modified_through_view": "a = torch.ones(3, requires_grad=True); b = a.exp(); b[0:1].add_(1); "
                                          "b.sum().backward()",
    "saved_input_modified": "a = torch.ones(3, requires_grad=True); b = a * 1; c = b * b; b.add_(1); c.sum().backward()",
    "floor_divide_backward": "a = torch.ones(3, requires_grad=True); (a // 2).sum().backward()",
    "bernoulli_p_backward": "a = torch.ones(3, requires_grad=True); torch.bernoulli(a * 0.5, 0.3).sum().backward()",
}

# In-place binary ops whose other operand was computed from self: torch saves a copy of the original self
# (for other's gradient), taken before the op; x.mul_(x) saves self as other and so fails at backward.
SELF_DERIVED = {
    "mul_other_from_self": "torch.manual_seed(0); a = (torch.rand(3) + 0.5).requires_grad_(); b = a * 1; "
                           "b.mul_(b * 1); b.sum().backward(); out = [b, a.grad, name(b)]",
    "div_other_from_self": "torch.manual_seed(0); a = (torch.rand(3) + 0.5).requires_grad_(); b = a * 1; "
                           "b.div_(b * 2); b.sum().backward(); out = [b, a.grad, name(b)]",
    "mul_other_leaf": "torch.manual_seed(0); a = (torch.rand(3) + 0.5).requires_grad_(); w = torch.rand(3).requires_grad_(); "
                      "b = a * 1; b.mul_(w); b.sum().backward(); out = [b, a.grad, w.grad]",
    "mul_other_no_grad": "torch.manual_seed(0); a = (torch.rand(3) + 0.5).requires_grad_(); b = a * 1; "
                         "b.mul_(torch.rand(3)); b.sum().backward(); out = [b, a.grad]",
    "mul_self_by_self": oracle.raises(RuntimeError, "a = torch.ones(3, requires_grad=True); b = a * 1; b.mul_(b); "
                                                    "b.sum().backward()"),
    "div_self_by_self": oracle.raises(RuntimeError, "a = torch.ones(3, requires_grad=True); b = a * 1; b.div_(b); "
                                                    "b.sum().backward()"),
}

# Views made and modified inside no_grad are fine; views of leaves made in no_grad stay untracked.
ALLOWED = {
    "no_grad_view_no_grad_inplace": "a = torch.ones(3, requires_grad=True); b = a * 2\n"
                                    "with torch.no_grad():\n    v = b[0:2]\n    v.mul_(3)\nout = [name(b), b]",
    "no_grad_view_of_leaf": "a = torch.ones(3, requires_grad=True)\n"
                            "with torch.no_grad():\n    b = a.view(3)\nout = [b.grad_fn, b.requires_grad, b.is_leaf]",
    "view_after_no_grad_update": "a = torch.ones(3, requires_grad=True); b = a.view(3)\n"
                                 "with torch.no_grad():\n    a.mul_(2)\nout = [name(b)]",
}

# The cases that raise, in torch and so in DenseCore (class; the message is compared too).
RAISES = {'as_strided_view_mul': 'RuntimeError',
 'error_bernoulli_p_backward': 'RuntimeError',
 'error_chunk_output': 'RuntimeError',
 'error_floor_divide_backward': 'RuntimeError',
 'error_leaf': 'RuntimeError',
 'error_no_grad_view_base_modified': 'RuntimeError',
 'error_no_grad_view_inplace': 'RuntimeError',
 'error_no_grad_view_of_leaf_base_modified_in_no_grad': 'RuntimeError',
 'error_saved_input_modified': 'RuntimeError',
 'error_saved_output_modified': 'RuntimeError',
 'error_saved_output_modified_through_view': 'RuntimeError',
 'error_split_base_modified_backward': 'RuntimeError',
 'error_split_no_grad_base': 'RuntimeError',
 'error_split_of_leaf': 'RuntimeError',
 'error_split_output': 'RuntimeError',
 'error_unbind_base_modified': 'RuntimeError',
 'error_unbind_output': 'RuntimeError',
 'error_view_of_leaf': 'RuntimeError',
 'error_view_of_leaf_view_op': 'RuntimeError',
 'exp_then_mul_': 'RuntimeError',
 'sibling_view_modified': 'RuntimeError'}



def _cases():
    cases = dict(THROUGH_VIEWS)
    cases.update(RETAIN)
    cases.update({f"inplace_{k}": INPLACE_CASE.format(op=v) for k, v in INPLACE_OPS.items()})
    cases.update({f"direct_{k}": DIRECT_CASE.format(op=v.replace("(2, 4)", "(2, 4)").replace("v.", "b.", 1))
                  for k, v in INPLACE_OPS.items()})
    cases.update({f"setitem_{k}": SETITEM_CASE.format(op=v) for k, v in SETITEM.items()})
    cases.update({f"error_{k}": v for k, v in ERRORS.items()})
    cases.update({f"allowed_{k}": v for k, v in ALLOWED.items()})
    cases.update({f"self_derived_{k}": v for k, v in SELF_DERIVED.items()})
    return oracle.declare(cases, RAISES)


def test_inplace_through_views_matches_torch():
    oracle.assert_cases_equal(_cases(), setup=SETUP)


@pytest.mark.parametrize("env", [{"ATEN_CPU_CAPABILITY": "avx2"}, {"OMP_NUM_THREADS": "1"}], ids=["avx2", "1thread"])
def test_inplace_through_views_other_configurations(env):
    cases = {k: v for k, v in _cases().items() if k.startswith(("inplace_", "setitem_"))}
    oracle.assert_cases_equal(cases, setup=SETUP, env=env)
