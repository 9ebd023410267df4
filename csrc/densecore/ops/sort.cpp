// topk's forward: the checks and output shape of Sorting.cpp's TORCH_META_FUNC(topk) / topk_out_cpu; the rows
// are selected by kernels/cpu/sorting.cpp on a contiguous copy with the selected dim last (the
// selection copies values, so the layout it reads does not change a bit). The op itself (its recording) is the
// topk row of csrc/op_rows.toml.
#include "densecore/core/error.h"
#include "densecore/generated/ops.h"
#include "densecore/kernels/stubs/sort_stubs.h"
#include "densecore/ops/copy.h"
#include "densecore/ops/creation.h"
#include "densecore/ops/view.h"

namespace dc {
namespace {

/// Runs the kernel on rows along `dim` and returns values and indices in self's dim order, contiguous.
std::tuple<Tensor, Tensor> topk_along(const Tensor& self, int64_t k, int64_t dim, bool largest, bool sorted) {
  const int64_t last[1] = {-1}, d[1] = {dim};
  const Tensor rows = contiguous(movedim(self, d, last));
  Shape row_shape = rows.sizes();
  row_shape.back() = k;
  Tensor values = Tensor::empty(row_shape, self.dtype());
  Tensor indices = Tensor::empty(row_shape, DType::Int64);
  const int64_t n = self.size(dim);
  if (values.numel() > 0)
    topk_stub(self.dtype(), rows.data_ptr(), n, rows.numel() / n, k, largest, sorted, values.data_ptr(),
              indices.data<int64_t>());
  return {contiguous(movedim(values, last, d)), contiguous(movedim(indices, last, d))};
}

}  // namespace

// topk is an op row (csrc/op_rows.toml): this is its forward.
std::tuple<Tensor, Tensor> impl::topk_forward(const Tensor& self, int64_t k, int64_t dim_, bool largest, bool sorted) {
  const int64_t dim = wrap_dim(dim_, self.dim());
  check(k >= 0 && k <= (self.dim() > 0 ? self.size(dim) : 1), "selected index k out of range");
  check(self.dtype() != DType::Bool, "topk does not support bool dtypes on CPU");
  if (self.dim() > 0) return topk_along(self, k, dim, largest, sorted);
  // topk_out_cpu copies a 0-dim input (even for k == 0, as the meta keeps its shape).
  Tensor values = Tensor::empty(Shape{}, self.dtype());
  native::copy_(values, self);
  return {values, zeros(Shape{}, DType::Int64)};
}

}  // namespace dc
