// Views: ops whose result shares storage and version counter with the input (torch's view ops,
// aten/src/ATen/native/TensorShape.cpp). Each has a pure layout function (sizes/strides/offset in,
// layout out, no storage) so layouts can be tested alone, and a Tensor function that applies it.
#pragma once

#include <optional>
#include <span>
#include <vector>

#include "densecore/core/tensor.h"
#include "densecore/generated/ops.h"

namespace dc {

Layout layout_of(const Tensor& t);
/// A view of `t` with layout `l` (same storage, dtype and version counter).
Tensor make_view(const Tensor& t, const Layout& l);
/// "torch.FloatTensor{[2, 3]}" as torch's messages print a tensor's type and sizes, written only when a
/// message is made (as ShapeText, core/layout.h). Use it inside the check that prints it.
struct TypeAndSizes {
  DType dtype;
  std::span<const int64_t> sizes;
};
std::ostream& operator<<(std::ostream& os, const TypeAndSizes& t);
inline TypeAndSizes type_and_sizes(const Tensor& t) { return {t.dtype(), t.sizes()}; }

// ---- pure layout functions (torch's geometry helpers) ----

/// Resolves one -1 in `shape` against numel (at::infer_size); RuntimeError as torch's.
Shape infer_size(std::span<const int64_t> shape, int64_t numel);
/// Strides viewing (sizes, strides) as new_sizes without a copy, or nullopt (at::detail::computeStride).
std::optional<Strides> compute_stride(std::span<const int64_t> sizes, std::span<const int64_t> strides,
                                      std::span<const int64_t> new_sizes);
Layout view_layout(const Layout& l, std::span<const int64_t> shape);
Layout transpose_layout(const Layout& l, int64_t dim0, int64_t dim1);
Layout permute_layout(const Layout& l, std::span<const int64_t> dims);
/// at::inferExpandGeometry; `dtype` names the tensor in the "number of sizes" message.
Layout expand_layout(const Layout& l, std::span<const int64_t> sizes, DType dtype);
Layout squeeze_layout(const Layout& l);  // every size-1 dim
Layout squeeze_layout(const Layout& l, std::span<const int64_t> dims);
Layout unsqueeze_layout(const Layout& l, int64_t dim);
/// at::slice with steps > 0: start/end wrapped once, then clamped into [0, size].
Layout slice_layout(const Layout& l, int64_t dim, std::optional<int64_t> start,
                    std::optional<int64_t> end, int64_t step);
Layout narrow_layout(const Layout& l, int64_t dim, int64_t start, int64_t length);
Layout select_layout(const Layout& l, int64_t dim, int64_t index);
Layout movedim_layout(const Layout& l, std::span<const int64_t> src, std::span<const int64_t> dst);
/// The permutation movedim applies (src dims to dst positions, the rest in order).
std::vector<int64_t> movedim_order(int64_t ndim, std::span<const int64_t> src, std::span<const int64_t> dst);

// ---- views of tensors ----
// These are op rows (csrc/op_rows.toml), declared in densecore/generated/ops.h with their torch names'
// arguments: view(self, size), unsafe_view(self, size) (torch's _unsafe_view: reshape's and matmul's
// copies, not a view for autograd), alias, transpose(self, dim0, dim1), t_ (Tensor.t(): <= 2-D only),
// permute(self, dims), expand(self, size), squeeze(self), squeeze_dim(self, dim), squeeze_dims(self, dim),
// unsqueeze(self, dim), slice(self, dim = 0, start = nullopt, end = nullopt, step = 1), select(self, dim,
// index), as_strided(self, size, stride, storage_offset = nullopt: self's).

/// Reinterprets the bytes as another dtype (same itemsize, or torch's last-dim rule).
Tensor view_dtype(const Tensor& t, DType dtype);
Tensor view_as(const Tensor& t, const Tensor& other);
/// A view when compute_stride allows, else a contiguous copy (torch's reshape).
Tensor reshape(const Tensor& t, std::span<const int64_t> shape);
Tensor T(const Tensor& t);         // Tensor.T: all dims reversed
Tensor mT(const Tensor& t);        // Tensor.mT: last two dims swapped, >= 2-D
Tensor expand_as(const Tensor& t, const Tensor& other);
Tensor flatten(const Tensor& t, int64_t start_dim = 0, int64_t end_dim = -1);
Tensor unflatten(const Tensor& t, int64_t dim, std::span<const int64_t> sizes);
Tensor narrow(const Tensor& t, int64_t dim, int64_t start, int64_t length);
// split(self, split_size, dim = 0), split_with_sizes(self, split_sizes, dim = 0) and unbind(self, dim = 0) are rows
// too (several views, one node).
/// torch.chunk: split into `chunks` views (one split_size, or split_with_sizes for an empty dim).
std::vector<Tensor> chunk(const Tensor& t, int64_t chunks, int64_t dim = 0);
/// Same layout and storage, a new TensorImpl that shares the version counter (torch's detach).
Tensor detach(const Tensor& t);
Tensor movedim(const Tensor& t, std::span<const int64_t> src, std::span<const int64_t> dst);

/// Sets a freshly made tensor's version back to 0 (filling it through copy_ bumped it; torch's
/// results of out-of-place ops start at 0). Never use on a tensor the caller already holds.
void reset_version(const Tensor& t);

}  // namespace dc
