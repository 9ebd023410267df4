"""Autograd of views, indexing, joins, matmul, copies and elementwise selection against torch, bitwise.

Each case builds leaves, runs the op, seeds backward with a deterministic non-trivial gradient and
compares the output, every input's .grad and grad_fn.name() (node names are torch's). Also: the
engine's accumulation order (>= 3 contributions, tied weights), retain_graph, the errors torch
raises (second backward, modified saved tensor, leaf in-place, out= with grad), grad-mode switches,
torch.autograd.grad, retain_grad, detach, backward(inputs=), factories' requires_grad. The matmul
cases run at the native capability, ATEN_CPU_CAPABILITY=avx2 and OMP_NUM_THREADS=1.
"""
import oracle
import pytest

pytestmark = pytest.mark.oracle

SETUP = r"""
import random
def vals(shape, seed, dtype="float32", lo=-3.0, hi=3.0):
    r = random.Random(seed)
    n = 1
    for s in shape:
        n *= s
    xs = [r.uniform(lo, hi) for _ in range(n)]
    return torch.tensor(xs, dtype=getattr(torch, dtype)).reshape(tuple(shape))
def leaf(shape, seed, dtype="float32"):
    return vals(shape, seed, dtype).clone().requires_grad_()  # clone: not a view (torch's leaf messages)
def bw(y, seed=99):
    y.backward(vals(tuple(y.shape), seed, str(y.dtype).replace("torch.", "")))
    return y
def name(y):
    return y.grad_fn.name() if y.grad_fn is not None else None
"""

# name: code using {dt}; must set out.
VIEW_CASES = {
    "view": "a = leaf((3, 4), 1, '{dt}'); y = bw(a.view(2, 6)); out = [y, a.grad, name(y)]",
    "view_infer": "a = leaf((3, 4), 1, '{dt}'); y = bw(a.view(-1)); out = [y, a.grad, name(y)]",
    "reshape_view": "a = leaf((3, 4), 1, '{dt}'); y = bw(a.reshape(4, 3)); out = [y, a.grad, name(y)]",
    "reshape_copy": "a = leaf((4, 3), 1, '{dt}'); y = bw(a.t().reshape(12)); "
                    "out = [y, a.grad, name(y), y.grad_fn.next_functions[0][0].name()]",
    "transpose": "a = leaf((2, 3, 4), 1, '{dt}'); y = bw(a.transpose(0, 2)); out = [y, a.grad, name(y)]",
    "transpose_neg": "a = leaf((2, 3, 4), 1, '{dt}'); y = bw(a.transpose(-1, 1)); out = [y, a.grad, name(y)]",
    "t": "a = leaf((3, 4), 1, '{dt}'); y = bw(a.t()); out = [y, a.grad, name(y)]",
    "t_1d": "a = leaf((5,), 1, '{dt}'); y = bw(a.t()); out = [y, a.grad, name(y)]",
    "T": "a = leaf((2, 3, 4), 1, '{dt}'); y = bw(a.T); out = [y, a.grad, name(y)]",
    "mT": "a = leaf((2, 3, 4), 1, '{dt}'); y = bw(a.mT); out = [y, a.grad, name(y)]",
    "permute": "a = leaf((2, 3, 4), 1, '{dt}'); y = bw(a.permute(2, 0, 1)); out = [y, a.grad, name(y)]",
    "permute_neg": "a = leaf((2, 3, 4), 1, '{dt}'); y = bw(a.permute(-1, -3, -2)); out = [y, a.grad, name(y)]",
    "expand": "a = leaf((3, 1), 1, '{dt}'); y = bw(a.expand(2, 3, 5)); out = [y, a.grad, name(y)]",
    "expand_big": "a = leaf((1, 37), 1, '{dt}'); y = bw(a.expand(300, 37)); out = [y, a.grad, name(y)]",
    "expand_as": "a = leaf((4,), 1, '{dt}'); y = bw(a.expand_as(vals((3, 4), 2))); out = [y, a.grad, name(y)]",
    "squeeze_all": "a = leaf((1, 3, 1, 2), 1, '{dt}'); y = bw(a.squeeze()); out = [y, a.grad, name(y)]",
    "squeeze_dim": "a = leaf((1, 3, 1, 2), 1, '{dt}'); y = bw(a.squeeze(2)); out = [y, a.grad, name(y)]",
    "squeeze_dim_noop": "a = leaf((1, 3, 1, 2), 1, '{dt}'); y = bw(a.squeeze(1)); out = [y, a.grad, name(y)]",
    "squeeze_dims": "a = leaf((1, 3, 1, 2), 1, '{dt}'); y = bw(a.squeeze((0, 2))); out = [y, a.grad, name(y)]",
    "unsqueeze": "a = leaf((3, 2), 1, '{dt}'); y = bw(a.unsqueeze(-1)); out = [y, a.grad, name(y)]",
    "flatten": "a = leaf((2, 3, 4), 1, '{dt}'); y = bw(a.flatten(1)); out = [y, a.grad, name(y)]",
    "flatten_noncontig": "a = leaf((2, 3, 4), 1, '{dt}'); y = bw(a.transpose(0, 2).flatten()); out = [y, a.grad, name(y)]",
    "unflatten": "a = leaf((2, 12), 1, '{dt}'); y = bw(a.unflatten(1, (3, 4))); out = [y, a.grad, name(y)]",
    "narrow": "a = leaf((5, 4), 1, '{dt}'); y = bw(a.narrow(0, 1, 3)); out = [y, a.grad, name(y)]",
    "narrow_neg": "a = leaf((5, 4), 1, '{dt}'); y = bw(a.narrow(1, -3, 2)); out = [y, a.grad, name(y)]",
    "select": "a = leaf((5, 4), 1, '{dt}'); y = bw(a.select(1, -2)); out = [y, a.grad, name(y)]",
    "split": "a = leaf((4, 7), 1, '{dt}'); p, q, r = a.split(3, 1); bw(p, 5); out = [p, a.grad, name(p), name(r)]",
    "split_all": "a = leaf((4, 9), 1, '{dt}'); p, q, r = a.split(3, 1); s = p * q + r; bw(s); out = [s, a.grad]",
    "split_sizes": "a = leaf((4, 7), 1, '{dt}'); p, q = a.split([2, 5], 1); bw(q); out = [q, a.grad, name(q)]",
    "chunk": "a = leaf((7, 3), 1, '{dt}'); cs = a.chunk(3); bw(cs[1]); out = [cs[1], a.grad, name(cs[1]), len(cs)]",
    "unbind": "a = leaf((3, 4), 1, '{dt}'); us = a.unbind(1); bw(us[2]); out = [us[2], a.grad, name(us[2])]",
    "movedim": "a = leaf((2, 3, 4), 1, '{dt}'); y = bw(a.movedim(0, -1)); out = [y, a.grad, name(y)]",
    "movedim_1d": "a = leaf((4,), 1, '{dt}'); y = bw(torch.movedim(a, 0, 0)); out = [y, a.grad, name(y)]",
    "contiguous_noop": "a = leaf((3, 4), 1, '{dt}'); h = a * 2; y = h.contiguous(); out = [y.data_ptr() == h.data_ptr(), name(y)]",
    "contiguous_copy": "a = leaf((3, 4), 1, '{dt}'); y = bw(a.t().contiguous()); out = [y, a.grad, name(y)]",
    "clone": "a = leaf((3, 4), 1, '{dt}'); y = bw(a.t().clone()); out = [y, a.grad, name(y)]",
    "detach": "a = leaf((3,), 1, '{dt}'); d = (a * 2).detach(); out = [d, d.requires_grad, d.grad_fn is None, d.is_leaf]",
    "detach_shares": "a = leaf((3,), 1, '{dt}'); d = a.detach(); d.zero_() if hasattr(d, 'zero_') else d.mul_(0); out = [a, d._version, a._version]",
    "detach_": "a = leaf((3,), 1, '{dt}'); h = a * 2; h.detach_(); out = [h.requires_grad, h.is_leaf, h.grad_fn is None]",
    "chain": "a = leaf((2, 3, 4), 1, '{dt}'); y = bw(a.permute(1, 0, 2).reshape(3, 8)[1:, ::3].t()); out = [y, a.grad, name(y)]",
}

INDEX_CASES = {
    "int": "a = leaf((4, 3), 1, '{dt}'); y = bw(a[2]); out = [y, a.grad, name(y)]",
    "slice_step": "a = leaf((7, 3), 1, '{dt}'); y = bw(a[1::2]); out = [y, a.grad, name(y)]",
    "full_slice": "a = leaf((4, 3), 1, '{dt}'); y = bw(a[:]); out = [y, a.grad, name(y)]",
    "slice_int": "a = leaf((4, 3), 1, '{dt}'); y = bw(a[:, 1]); "
                 "out = [y, a.grad, name(y), y.grad_fn.next_functions[0][0].name()]",
    "slice_slice": "a = leaf((4, 5), 1, '{dt}'); y = bw(a[1:3, -3:]); out = [y, a.grad, name(y)]",
    "ellipsis": "a = leaf((4, 3), 1, '{dt}'); y = bw(a[...]); out = [y, a.grad, name(y)]",
    "ellipsis_int": "a = leaf((2, 4, 3), 1, '{dt}'); y = bw(a[..., 1]); out = [y, a.grad, name(y)]",
    "none": "a = leaf((4, 3), 1, '{dt}'); y = bw(a[None, :, None]); out = [y, a.grad, name(y)]",
    "list_dups": "a = leaf((4, 3), 1, '{dt}'); y = bw(a[[0, 2, 0, 0, 3]]); out = [y, a.grad, name(y)]",
    "tensor_idx_dups": "a = leaf((5, 3), 1, '{dt}'); i = torch.tensor([[1, 1], [4, 1]]); y = bw(a[i]); out = [y, a.grad, name(y)]",
    "tensor_and_slice": "a = leaf((5, 4), 1, '{dt}'); y = bw(a[torch.tensor([3, 3, 0]), 1:]); out = [y, a.grad, name(y)]",
    "second_dim_dups": "a = leaf((3, 4), 1, '{dt}'); y = bw(a[:, [1, 1, 1, 2]]); out = [y, a.grad, name(y)]",
    "two_tensors": "a = leaf((4, 5), 1, '{dt}'); y = bw(a[[0, 0, 3], [1, 1, 2]]); out = [y, a.grad, name(y)]",
    "mask": "a = leaf((4, 3), 1, '{dt}'); y = bw(a[a > 0]); out = [y, a.grad, name(y)]",
    "bool_true": "a = leaf((4, 3), 1, '{dt}'); y = bw(a[True]); out = [y, a.grad, name(y)]",
    "index_select": "a = leaf((5, 3), 1, '{dt}'); y = bw(a.index_select(0, torch.tensor([4, 0, 4, 4]))); out = [y, a.grad, name(y)]",
    "index_select_dim1": "a = leaf((3, 5), 1, '{dt}'); y = bw(torch.index_select(a, 1, torch.tensor([2, 2, 0]))); out = [y, a.grad, name(y)]",
    "index_select_1d": "a = leaf((6,), 1, '{dt}'); y = bw(a.index_select(0, torch.tensor([5, 1, 5]))); out = [y, a.grad, name(y)]",
    "gather": "a = leaf((3, 4), 1, '{dt}'); y = bw(a.gather(1, torch.tensor([[0, 0, 3], [1, 2, 1], [3, 3, 3]]))); out = [y, a.grad, name(y)]",
    "gather_dim0": "a = leaf((3, 4), 1, '{dt}'); y = bw(torch.gather(a, 0, torch.tensor([[0, 2], [0, 0], [2, 2]]))); out = [y, a.grad, name(y)]",
    "masked_fill": "a = leaf((4, 3), 1, '{dt}'); y = bw(a.masked_fill(a > 0.5, float('-inf'))); out = [y, a.grad, name(y)]",
    "masked_fill_bcast": "a = leaf((2, 3, 3), 1, '{dt}'); m = torch.tensor([[True, False, False], [True, True, False], [False, False, True]]); "
                         "y = bw(a.masked_fill(m, 0.0)); out = [y, a.grad, name(y)]",
    "masked_fill_tensor": "a = leaf((4, 3), 1, '{dt}'); v = leaf((), 7, '{dt}'); y = bw(a.masked_fill(a > 0, v)); "
                          "out = [y, a.grad, v.grad, name(y)]",
}

JOIN_CASES = {
    "cat": "a = leaf((2, 3), 1, '{dt}'); b = leaf((4, 3), 2, '{dt}'); y = bw(torch.cat([a, b])); out = [y, a.grad, b.grad, name(y)]",
    "cat_dim1_nograd": "a = leaf((2, 3), 1, '{dt}'); b = vals((2, 2), 2, '{dt}'); y = bw(torch.cat((a, b, a), 1)); out = [y, a.grad, name(y)]",
    "cat_empty": "a = leaf((2, 3), 1, '{dt}'); b = leaf((0,), 2, '{dt}'); y = bw(torch.cat([a, b, a], -1)); out = [y, a.grad, b.grad, name(y)]",
    "stack": "a = leaf((2, 3), 1, '{dt}'); b = leaf((2, 3), 2, '{dt}'); y = bw(torch.stack([a, b], 1)); out = [y, a.grad, b.grad, name(y)]",
    "stack_same": "a = leaf((3,), 1, '{dt}'); y = bw(torch.stack([a, a, a])); out = [y, a.grad, name(y)]",
}

MATMUL_CASES = {
    "mm": "a = leaf((5, 7), 1, '{dt}'); b = leaf((7, 3), 2, '{dt}'); y = bw(a.mm(b)); out = [y, a.grad, b.grad, name(y)]",
    "mm_tA": "a = leaf((7, 5), 1, '{dt}'); b = leaf((7, 3), 2, '{dt}'); y = bw(torch.mm(a.t(), b)); out = [y, a.grad, b.grad, name(y)]",
    "mm_tB": "a = leaf((5, 7), 1, '{dt}'); b = leaf((3, 7), 2, '{dt}'); y = bw(a @ b.t()); out = [y, a.grad, b.grad, name(y)]",
    "mm_tAB": "a = leaf((7, 5), 1, '{dt}'); b = leaf((3, 7), 2, '{dt}'); y = bw(a.t() @ b.t()); out = [y, a.grad, b.grad, name(y)]",
    "mm_sliced": "a = leaf((9, 9), 1, '{dt}'); b = leaf((8, 6), 2, '{dt}'); y = bw(a[1:6, ::2] @ b[3:, 1:]); out = [y, a.grad, b.grad]",
    "mm_big": "a = leaf((67, 129), 1, '{dt}'); b = leaf((129, 45), 2, '{dt}'); y = bw(a @ b); out = [y, a.grad, b.grad]",
    "mm_colvec": "a = leaf((1, 5), 1, '{dt}'); b = leaf((5, 1), 2, '{dt}'); y = bw(a @ b); out = [y, a.grad, b.grad]",
    "addmm": "c = leaf((3,), 3, '{dt}'); a = leaf((5, 7), 1, '{dt}'); b = leaf((7, 3), 2, '{dt}'); y = bw(torch.addmm(c, a, b)); "
             "out = [y, a.grad, b.grad, c.grad, name(y)]",
    "addmm_scaled": "c = leaf((5, 1), 3, '{dt}'); a = leaf((5, 7), 1, '{dt}'); b = leaf((3, 7), 2, '{dt}'); "
                    "y = bw(torch.addmm(c, a, b.t(), beta=0.5, alpha=-1.25)); out = [y, a.grad, b.grad, c.grad]",
    "bmm_small": "a = leaf((2, 3, 4), 1, '{dt}'); b = leaf((2, 4, 5), 2, '{dt}'); y = bw(a.bmm(b)); out = [y, a.grad, b.grad, name(y)]",
    "bmm_big": "a = leaf((3, 17, 33), 1, '{dt}'); b = leaf((3, 33, 9), 2, '{dt}'); y = bw(torch.bmm(a, b)); out = [y, a.grad, b.grad]",
    "bmm_transposed": "a = leaf((3, 33, 17), 1, '{dt}'); b = leaf((3, 9, 33), 2, '{dt}'); y = bw(torch.bmm(a.transpose(1, 2), b.transpose(1, 2))); out = [y, a.grad, b.grad]",
    "matmul_fold": "x = leaf((4, 6, 16), 1, '{dt}'); w = leaf((10, 16), 2, '{dt}'); y = bw(x @ w.t()); "
                   "out = [y, x.grad, w.grad, name(y), y.grad_fn.next_functions[0][0].name()]",
    "matmul_fold_nograd_w": "x = leaf((4, 6, 16), 1, '{dt}'); w = vals((16, 10), 2, '{dt}'); y = bw(x @ w); out = [y, x.grad, name(y)]",
    "matmul_2d_3d": "x = leaf((6, 16), 1, '{dt}'); w = leaf((3, 16, 5), 2, '{dt}'); y = bw(x @ w); out = [y, x.grad, w.grad, name(y)]",
    "matmul_batched": "q = leaf((2, 3, 8, 16), 1, '{dt}'); k = leaf((2, 3, 8, 16), 2, '{dt}'); y = bw(q @ k.transpose(-2, -1)); "
                      "out = [y, q.grad, k.grad, name(y)]",
    "matmul_bcast": "a = leaf((2, 1, 5, 6), 1, '{dt}'); b = leaf((3, 6, 4), 2, '{dt}'); y = bw(a @ b); out = [y, a.grad, b.grad]",
    "matmul_vec": "a = leaf((5, 6), 1, '{dt}'); v = leaf((6,), 2, '{dt}'); y = bw(a @ v); out = [y, a.grad, v.grad, name(y)]",
    "matmul_dot": "a = leaf((6,), 1, '{dt}'); v = leaf((6,), 2, '{dt}'); y = bw(a @ v); out = [y, a.grad, v.grad, name(y)]",
    "matmul_3d_vec": "a = leaf((2, 5, 6), 1, '{dt}'); v = leaf((6,), 2, '{dt}'); y = bw(a @ v); out = [y, a.grad, v.grad]",
    "linear_2d": "x = leaf((5, 8), 1, '{dt}'); w = leaf((3, 8), 2, '{dt}'); b = leaf((3,), 3, '{dt}'); "
                 "y = bw(torch.nn.functional.linear(x, w, b)); out = [y, x.grad, w.grad, b.grad, name(y)]",
    "linear_3d": "x = leaf((2, 5, 8), 1, '{dt}'); w = leaf((3, 8), 2, '{dt}'); b = leaf((3,), 3, '{dt}'); "
                 "y = bw(torch.nn.functional.linear(x, w, b)); out = [y, x.grad, w.grad, b.grad, name(y)]",
    "linear_3d_nobias": "x = leaf((2, 5, 8), 1, '{dt}'); w = leaf((3, 8), 2, '{dt}'); "
                        "y = bw(torch.nn.functional.linear(x, w)); out = [y, x.grad, w.grad, name(y)]",
    "linear_noncontig": "x = leaf((5, 2, 8), 1, '{dt}'); w = leaf((3, 8), 2, '{dt}'); b = leaf((3,), 3, '{dt}'); "
                        "y = bw(torch.nn.functional.linear(x.transpose(0, 1), w, b)); out = [y, x.grad, w.grad, b.grad, name(y)]",
    "linear_big": "x = leaf((4, 64, 96), 1, '{dt}'); w = leaf((288, 96), 2, '{dt}'); b = leaf((288,), 3, '{dt}'); "
                  "y = bw(torch.nn.functional.linear(x, w, b)); out = [y, x.grad, w.grad, b.grad]",
}

COPY_ELEM_CASES = {
    "to_double": "a = leaf((3, 4), 1, 'float32'); y = bw(a.to(torch.float64)); out = [y, a.grad, name(y)]",
    "double": "a = leaf((3, 4), 1, 'float32'); y = bw(a.t().double()); out = [y, a.grad, name(y)]",
    "to_float": "a = leaf((3, 4), 1, 'float64'); y = bw(a.float()); out = [y, a.grad, name(y)]",
    "to_same": "a = leaf((3,), 1, '{dt}'); y = a.to(torch.{dt}); out = [y is a]",
    "where": "a = leaf((3, 4), 1, '{dt}'); b = leaf((4,), 2, '{dt}'); y = bw(torch.where(a > 0, a, b)); out = [y, a.grad, b.grad, name(y)]",
    "where_scalar": "a = leaf((3, 4), 1, '{dt}'); y = bw(torch.where(a > 0, a, 0.0)); out = [y, a.grad, name(y)]",
    "clamp": "a = leaf((5, 7), 1, '{dt}'); y = bw(a.clamp(-1, 1.5)); out = [y, a.grad, name(y)]",
    "clamp_min": "a = leaf((5, 7), 1, '{dt}'); y = bw(a.clamp(min=0)); out = [y, a.grad, name(y)]",
    "clamp_max": "a = leaf((5, 7), 1, '{dt}'); y = bw(torch.clamp(a, max=0.5)); out = [y, a.grad, name(y)]",
    "clamp_inplace": "a = leaf((5, 7), 1, '{dt}'); h = a * 1; h.clamp_(-1, 1); bw(h); out = [h, a.grad, name(h)]",
    "maximum": "a = leaf((3, 4), 1, '{dt}'); b = leaf((4,), 2, '{dt}'); y = bw(torch.maximum(a, b)); out = [y, a.grad, b.grad, name(y)]",
    "minimum": "a = leaf((3, 4), 1, '{dt}'); b = leaf((4,), 2, '{dt}'); y = bw(torch.minimum(a, b)); out = [y, a.grad, b.grad, name(y)]",
    "maximum_ties": "a = leaf((6,), 1, '{dt}'); y = bw(torch.maximum(a, a.detach().clone())); out = [y, a.grad]",
    "minimum_ties": "a = leaf((6,), 1, '{dt}'); b = leaf((6,), 2, '{dt}'); y = bw(torch.minimum(a * 0, b * 0)); out = [y, a.grad, b.grad]",
    "abs": "a = leaf((3, 4), 1, '{dt}'); y = bw(a.abs()); out = [y, a.grad, name(y)]",
    "abs_zero": "a = leaf((4,), 1, '{dt}'); h = a * 0; y = bw(h.abs()); out = [y, a.grad]",
}

ENGINE_CASES = {
    # >= 3 contributions to one leaf: summed in the order their producer nodes run (latest first).
    "three_uses": "a = leaf((40,), 1); b = vals((40,), 2); c = vals((40,), 3); d = vals((40,), 4); "
                  "y = bw(a * b + a * c + a * d + a); out = [y, a.grad]",
    "four_uses_views": "a = leaf((4, 6), 1); y = bw(a.t().reshape(24) * 1.7 + a.reshape(24) * 0.3 + a[:, [0, 1, 2, 3, 4, 5]].reshape(24) + a.view(24) * 2.9); out = [y, a.grad]",
    "tied_weights": "W = leaf((11, 8), 1); idx = torch.tensor([[3, 7, 3, 0], [10, 3, 3, 1]]); x = W[idx]; "
                    "h = x * vals((2, 4, 8), 5); y = bw(h @ W.t()); out = [y, W.grad]",
    "tied_weights_linear": "W = leaf((11, 8), 1); idx = torch.tensor([[3, 7, 3, 0], [10, 3, 3, 1]]); x = W.index_select(0, idx.reshape(-1)).view(2, 4, 8); "
                           "y = bw(torch.nn.functional.linear(x * 1.5, W)); out = [y, W.grad]",
    # nanoGPT's CausalSelfAttention (non-flash path) + residual: split, view, transpose, batched
    # matmul, masked_fill, softmax, contiguous, linear with and without bias.
    "attention_block": "B, T, C, H = 2, 5, 8, 2\nF = torch.nn.functional\n"
                       "x = leaf((B, T, C), 1); Wa = leaf((3 * C, C), 2); ba = leaf((3 * C,), 3); Wp = leaf((C, C), 4)\n"
                       "q, k, v = F.linear(x, Wa, ba).split(C, dim=2)\n"
                       "k = k.view(B, T, H, C // H).transpose(1, 2)\nq = q.view(B, T, H, C // H).transpose(1, 2)\n"
                       "v = v.view(B, T, H, C // H).transpose(1, 2)\n"
                       "att = (q @ k.transpose(-2, -1)) * (1.0 / math.sqrt(k.size(-1)))\n"
                       "mask = torch.tril(torch.ones(T, T)).view(1, 1, T, T)\n"
                       "att = att.masked_fill(mask[:, :, :T, :T] == 0, float('-inf'))\n"
                       "att = F.softmax(att, dim=-1)\n"
                       "y = (att @ v).transpose(1, 2).contiguous().view(B, T, C)\n"
                       "y = bw(F.linear(y, Wp) + x)\nout = [y, x.grad, Wa.grad, ba.grad, Wp.grad]",
    # The engine sums a second contribution into the first one's memory only when nothing else can see it
    # (torch's can_accumulate_inplace): a seed the caller holds, or a view of it, stays as it was.
    "accumulate_inplace_seed": "a = leaf((5,), 1); h = a * 2; keep = vals((5,), 2); "
                               "torch.autograd.backward([h * 3, h.clone()], [vals((5,), 3), keep]); out = [keep, a.grad]",
    "accumulate_inplace_seed_view": "a = leaf((6,), 1); h = a * 2; keep = vals((2, 3), 2); "
                                    "torch.autograd.backward([h * 3, h.view(2, 3)], [vals((6,), 3), keep]); out = [keep, a.grad]",
    "accumulate_inplace_transposed": "a = leaf((3, 4), 1); h = a * 2; y = bw(h.t() * vals((4, 3), 2) + h.t() * 3); "
                                     "out = [y, a.grad, a.grad.stride()]",
    "accumulate_twice": "a = leaf((5,), 1); y = a * vals((5,), 2); bw(y, 3); y2 = a * vals((5,), 4) + a; bw(y2, 6); out = [a.grad]",
    "retain_graph": "a = leaf((5,), 1); y = a * a; y.backward(vals((5,), 3), retain_graph=True); y.backward(vals((5,), 4)); out = [a.grad]",
    "second_backward_error": oracle.raises(RuntimeError, "a = leaf((5,), 1); y = a * a; y.sum().backward(); y.sum().backward()"),
    "modified_saved_error": oracle.raises(RuntimeError, "a = leaf((5,), 1); h = a * 1; y = h * h; h.add_(1); y.sum().backward()"),
    "leaf_inplace_error": oracle.raises(RuntimeError, "a = leaf((5,), 1); a.add_(1)"),
    "leaf_setitem_error": oracle.raises(RuntimeError, "a = leaf((5,), 1); a[0] = 1.0"),
    "leaf_copy_error": oracle.raises(RuntimeError, "a = leaf((5,), 1); a.copy_(vals((5,), 2))"),
    "leaf_masked_fill_error": oracle.raises(RuntimeError, "a = leaf((5,), 1); a.masked_fill_(a > 0, 0.0)"),
    "copy_no_grad_ok": "a = leaf((5,), 1)\nwith torch.no_grad():\n    a.copy_(vals((5,), 2))\nout = [a, a.requires_grad, a.is_leaf]",
    "out_error": oracle.raises(RuntimeError, "a = leaf((5,), 1); o = torch.empty(5); torch.add(a, a, out=o)"),
    "no_grad": "a = leaf((5,), 1)\nwith torch.no_grad():\n    y = a * 2\n    z = a + 1\nout = [y.requires_grad, z.requires_grad, y.grad_fn is None, torch.is_grad_enabled()]",
    "enable_grad": "a = leaf((5,), 1)\nwith torch.no_grad():\n    with torch.enable_grad():\n        y = a * 2\n    z = a - 1\nout = [y.requires_grad, name(y), z.requires_grad]",
    "set_grad_enabled": "a = leaf((5,), 1)\nwith torch.set_grad_enabled(False):\n    y = a * 1\nwith torch.set_grad_enabled(True):\n    z = a.view(5)\nout = [y.requires_grad, z.requires_grad, torch.is_grad_enabled()]",
    "inference_mode": "a = leaf((5,), 1)\nwith torch.inference_mode():\n    y = a @ a\nout = [y.requires_grad, y]",
    "no_grad_decorator": "a = leaf((5,), 1)\n@torch.no_grad()\ndef f(x):\n    return x * 3\nout = [f(a).requires_grad, torch.autograd.grad is not None]",
    "autograd_grad": "a = leaf((3, 4), 1); b = leaf((4, 2), 2); y = a @ b; ga, = torch.autograd.grad(y, [a], vals((3, 2), 3)); "
                     "out = [ga, a.grad, b.grad]",
    "autograd_grad_two": "a = leaf((3, 4), 1); b = leaf((4, 2), 2); y = (a @ b).sum(); ga, gb = torch.autograd.grad(y, (a, b)); out = [ga, gb, a.grad]",
    "autograd_grad_nonleaf": "a = leaf((6,), 1); h = a * 3; y = (h * h * a).sum(); gh, = torch.autograd.grad(y, h, retain_graph=True); "
                             "ga, = torch.autograd.grad(y, [a]); out = [gh, ga]",
    "autograd_grad_unused": oracle.raises(RuntimeError, "a = leaf((3,), 1); b = leaf((3,), 2); y = (a * 2).sum(); torch.autograd.grad(y, [a, b])"),
    "autograd_grad_allow_unused": "a = leaf((3,), 1); b = leaf((3,), 2); y = (a * 2).sum(); out = list(torch.autograd.grad(y, [a, b], allow_unused=True))",
    "autograd_grad_nograd_input": oracle.raises(RuntimeError, "a = leaf((3,), 1); b = vals((3,), 2); y = (a * b).sum(); torch.autograd.grad(y, [b])"),
    "retain_grad": "a = leaf((4,), 1); h = a * 2; h.retain_grad(); y = bw(h * h + h); out = [h.grad, h.retains_grad, a.grad, a.retains_grad]",
    "backward_inputs": "a = leaf((4,), 1); b = leaf((4,), 2); y = (a * b).sum(); y.backward(inputs=[a]); out = [a.grad, b.grad]",
    "requires_grad_factories": "out = [torch.zeros(3, requires_grad=True).requires_grad, torch.ones(2, 2, requires_grad=True).requires_grad, "
                               "torch.tensor([1., 2.], requires_grad=True).requires_grad, torch.full((2,), 1.5, requires_grad=True).requires_grad, "
                               "torch.empty(3, requires_grad=True).requires_grad, torch.rand(3, requires_grad=True).requires_grad, "
                               "torch.randn(3, requires_grad=True).is_leaf, torch.zeros(3).requires_grad]",
    "grad_fn_chain": "a = leaf((2, 3), 1); y = (a.t() @ a).view(9)[::2]; out = [name(y), [f[0].name() if f[0] is not None else None for f in y.grad_fn.next_functions]]",
    # In-place writes into tensors that take part in autograd (CopySlices, CopyBackwards) and as_strided's
    # backward; test_inplace_views.py has many more.
    "setitem_nonleaf": "a = leaf((4,), 1); h = a * 2; h[1] = 5.0; bw(h); out = [h, a.grad, name(h)]",
    "setitem_value_grad": "a = leaf((2,), 1); h = torch.zeros(4); h[1:3] = a; bw(h); out = [h, a.grad]",
    "copy_nonleaf": "a = leaf((4,), 1); h = a * 2; h.copy_(vals((4,), 3)); bw(h); out = [h, a.grad]",
    "view_in_no_grad": "a = leaf((4,), 1)\nwith torch.no_grad():\n    z = a[1:]\nout = [z.requires_grad, z.is_leaf]",
    "as_strided": "a = leaf((6,), 1); y = bw(a.as_strided((2, 2), (1, 2))); out = [y, a.grad, name(y)]",
    # A seed of another dtype is cast to the output's before any formula runs (validate_outputs on the root
    # edges): a float32 seed into a float64 graph must not round the gradients to float32.
    "seed_float32_into_float64": "a = leaf((7,), 1, 'float64'); y = a * 1.1; y.backward(vals((7,), 2)); out = [a.grad]",
    "seed_float64_into_float32": "a = leaf((7,), 1); y = a * 1.1; y.backward(vals((7,), 2, 'float64')); out = [a.grad]",
    "seed_int_into_float32": "a = leaf((3,), 1); y = a * 1.1; y.backward(torch.tensor([1, -2, 3])); out = [a.grad]",
    "seed_cast_two_roots": "a = leaf((7,), 1, 'float64'); y = a * 1.1; z = a * a; "
                           "torch.autograd.backward([y, z], [vals((7,), 2), vals((7,), 3)]); out = [a.grad]",
    "seed_cast_grad": "a = leaf((7,), 1, 'float64'); y = a.exp(); g, = torch.autograd.grad(y, a, vals((7,), 2)); out = [g]",
    "seed_cast_leaf_root": "a = leaf((7,), 1, 'float64'); a.backward(vals((7,), 2)); out = [a.grad]",
}

DTYPES = ["float32", "float64"]


def _expand(cases, dtypes=DTYPES):
    return {f"{k}[{dt}]": v.replace("{dt}", dt) for k, v in cases.items() for dt in dtypes}


@pytest.mark.parametrize("group", ["view", "index", "join", "copy_elem"])
def test_ops_gradients(group):
    cases = {"view": VIEW_CASES, "index": INDEX_CASES, "join": JOIN_CASES, "copy_elem": COPY_ELEM_CASES}[group]
    oracle.assert_cases_equal(_expand(cases), setup=SETUP)


@pytest.mark.parametrize("env", [None, {"ATEN_CPU_CAPABILITY": "avx2"}, {"OMP_NUM_THREADS": "1"}],
                         ids=["native", "avx2", "1thread"])
def test_matmul_gradients(env):
    oracle.assert_cases_equal(_expand(MATMUL_CASES), setup=SETUP, env=env)


def test_engine():
    oracle.assert_cases_equal(ENGINE_CASES, setup=SETUP)
