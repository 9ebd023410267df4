// Indexing: Python's x[...] / x[...] = v as torch's (ATen/TensorIndexing.h get_item/set_item),
// advanced indexing (index / index_put_, ATen/native/TensorAdvancedIndexing.cpp), index_select,
// masked_fill, gather. Basic indices give views; tensor indices give copies.
#pragma once

#include <optional>
#include <span>
#include <vector>

#include "densecore/core/scalar.h"
#include "densecore/core/tensor.h"
#include "densecore/generated/ops.h"

namespace dc {

/// One element of an index tuple after Python parsing (torch's at::indexing::TensorIndex).
struct TensorIndex {
  enum class Kind : uint8_t { None, Ellipsis, Integer, Boolean, Slice, Tensor };
  Kind kind = Kind::None;
  int64_t integer = 0;  // Integer
  bool boolean = false;  // Boolean
  int64_t start = 0, stop = 0, step = 1;  // Slice, already unpacked like PySlice_Unpack
  Tensor tensor;  // Tensor

  static TensorIndex none() { return {}; }
  static TensorIndex ellipsis() { TensorIndex i; i.kind = Kind::Ellipsis; return i; }
  static TensorIndex of_int(int64_t v) { TensorIndex i; i.kind = Kind::Integer; i.integer = v; return i; }
  static TensorIndex of_bool(bool v) { TensorIndex i; i.kind = Kind::Boolean; i.boolean = v; return i; }
  static TensorIndex of_slice(int64_t start, int64_t stop, int64_t step) {
    TensorIndex i; i.kind = Kind::Slice; i.start = start; i.stop = stop; i.step = step; return i;
  }
  static TensorIndex of_tensor(Tensor t) { TensorIndex i; i.kind = Kind::Tensor; i.tensor = std::move(t); return i; }
};

/// x[indices]: a view for ints/slices/None/Ellipsis, a copy when any tensor or bool index is present.
Tensor get_item(const Tensor& self, std::span<const TensorIndex> indices);
/// x[indices] = value (value already a tensor; Python scalars become 0-dim tensors of self's dtype).
void set_item(const Tensor& self, std::span<const TensorIndex> indices, const Tensor& value);

// index(self, indices) (torch.Tensor.index: optional, undefined = ':', index tensors of long/int/byte/bool),
// index_put_(self, indices, values, accumulate = false) and index_put(...) are rows (generated/ops.h). Without
// accumulate, with duplicate indices the last write (in row-major order) wins; with it, duplicates are added one
// after another in index order.
/// self.index_add_(dim, index, source): slices of source added in index order (index_add_cpu_).
const Tensor& index_add_(const Tensor& self, int64_t dim, const Tensor& index, const Tensor& source);
// self.scatter_add_(dim, index, src) (src[i] added at index[i] along dim, in index order) and self.scatter_(dim,
// index, src) (src[i] written at index[i] along dim; with duplicates the last wins) are rows, and so are
// torch.scatter (scatter.src) and torch.scatter_add, the in-place forms applied to a copy of self.

// index_select, gather and masked_fill (both values) are op rows (csrc/op_rows.toml), declared in
// densecore/generated/ops.h; their forwards impl::<name>_forward are in index.cpp.
// masked_fill_ (a Scalar or a 0-dim Tensor value) is a row too.
/// The (n, ndim) int64 coordinates of the nonzero elements, row-major (torch.nonzero).
Tensor nonzero(const Tensor& self);

/// A 0-dim tensor of `dtype` holding s converted as c10::Scalar::to<T> does (torch's scalarToTensor).
Tensor value_to_tensor(const Scalar& s, DType dtype);
/// The value of a one-element tensor as a Scalar of its kind (torch's item()).
Scalar item(const Tensor& t);

}  // namespace dc
