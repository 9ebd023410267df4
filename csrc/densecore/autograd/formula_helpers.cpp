// Backward helpers mirrored from torch/csrc/autograd/FunctionsManual.cpp (mm_mat1_backward,
// mm_mat2_backward, unsqueeze_to, slice_backward, select_backward, split_with_sizes_backward,
// unbind_backward, cat_tensors_backward, stack_tensors_backward, index_backward,
// index_select_backward, gather_backward, masked_fill_backward, clamp_backward) and the
// maximum/minimum/abs rows of tools/autograd/derivatives.yaml, in torch's operation order.
#include "densecore/autograd/formula_helpers.h"

#include <algorithm>

#include "densecore/core/error.h"
#include "densecore/ops/copy.h"
#include "densecore/ops/creation.h"
#include "densecore/ops/elementwise.h"
#include "densecore/ops/index.h"
#include "densecore/ops/join.h"
#include "densecore/ops/linalg.h"
#include "densecore/ops/reduce.h"
#include "densecore/ops/view.h"

namespace dc {
namespace {

Tensor zero_scalar(DType dtype) { return value_to_tensor(Scalar::from_int(0), dtype); }

}  // namespace

Tensor maybe_multiply_grad(const Tensor& g, const Scalar& s) {
  const bool is_one = s.is_floating() ? s.to_double() == 1.0 : s.to_int() == 1;
  return is_one ? g : mul(g, wrapped_scalar_tensor(s));
}

Tensor mm_mat1_backward(const Tensor& grad, const Tensor& mat2, std::span<const int64_t> sizes,
                        std::span<const int64_t> strides, const Scalar& alpha) {
  // mat1 was column-major in forward: compute (mat2 @ grad^T)^T so the result is column-major too.
  if (strides[0] == 1 && strides[1] == sizes[0])
    return maybe_multiply_grad(t_(mm(mat2, t_(grad))), alpha);
  return maybe_multiply_grad(mm(grad, t_(mat2)), alpha);
}

Tensor mm_mat2_backward(const Tensor& grad, const Tensor& mat1, std::span<const int64_t> sizes,
                        std::span<const int64_t> strides, const Scalar& alpha) {
  if (strides[0] == 1 && strides[1] == sizes[0])
    return maybe_multiply_grad(t_(mm(t_(grad), mat1)), alpha);
  return maybe_multiply_grad(mm(t_(mat1), grad), alpha);
}

Tensor unsqueeze_to(const Tensor& grad, std::span<const int64_t> sizes,
                    std::optional<std::span<const int64_t>> dims) {
  const int64_t n = static_cast<int64_t>(sizes.size());
  std::vector<bool> mask(std::max<int64_t>(n, 1), !dims.has_value());
  if (dims)
    for (int64_t d : *dims) mask[wrap_dim(d, n)] = true;
  Tensor r = grad;
  for (int64_t d = 0; d < n; ++d)
    if (mask[d] && sizes[d] == 1) r = unsqueeze(r, d);
  return r;
}

Tensor slice_backward(const Tensor& grad, std::span<const int64_t> sizes, int64_t dim, int64_t start,
                      int64_t end, int64_t step) {
  Tensor gi = zeros(sizes, grad.dtype());
  copy_(slice(gi, dim, start, end, step), grad);
  return gi;
}

Tensor select_backward(const Tensor& grad, std::span<const int64_t> sizes, int64_t dim, int64_t index) {
  Tensor gi = zeros(sizes, grad.dtype());
  copy_(select(gi, dim, index), grad);
  return gi;
}

Tensor split_backward(const std::vector<Tensor>& grads, std::span<const int64_t> split_sizes, int64_t dim,
                      std::span<const int64_t> sizes, DType dtype) {
  std::vector<Tensor> all;
  for (size_t j = 0; j < grads.size(); ++j) {
    if (grads[j].defined()) {
      all.push_back(grads[j]);
    } else {
      Shape s(sizes.begin(), sizes.end());
      s[dim] = split_sizes[j];
      all.push_back(zeros(s, dtype));
    }
  }
  return cat(all, dim);
}

Tensor unbind_backward(const std::vector<Tensor>& grads, int64_t dim, std::span<const int64_t> sizes,
                       DType dtype) {
  Shape s(sizes.begin(), sizes.end());
  s.erase(s.begin() + dim);
  std::vector<Tensor> all;
  for (const Tensor& g : grads) all.push_back(g.defined() ? g : zeros(s, dtype));
  return stack(all, dim);
}

std::vector<Tensor> cat_backward(const Tensor& grad, const std::vector<std::vector<int64_t>>& sizes, int64_t dim) {
  std::vector<Tensor> out;
  int64_t at = 0;
  for (const auto& shape : sizes) {
    if (shape.size() == 1 && shape[0] == 0) {  // legacy-skipped 1-D empty input
      out.push_back(zeros(Shape{0}, grad.dtype()));
      continue;
    }
    out.push_back(narrow(grad, dim, at, shape[dim]));
    at += shape[dim];
  }
  return out;
}

std::vector<Tensor> stack_backward(const Tensor& grad, int64_t dim) { return unbind(grad, dim); }

Tensor index_backward(const Tensor& grad, std::span<const int64_t> sizes, DType dtype,
                      std::span<const Tensor> indices) {
  Tensor z = zeros(sizes, dtype);
  index_put_(z, indices, grad, /*accumulate=*/true);
  return z;
}

Tensor index_select_backward(const Tensor& grad, std::span<const int64_t> sizes, int64_t dim,
                             const Tensor& index) {
  Tensor z = zeros(sizes, grad.dtype());
  index_add_(z, dim, index, grad);
  return z;
}

Tensor gather_backward(const Tensor& grad, std::span<const int64_t> sizes, int64_t dim, const Tensor& index) {
  Tensor z = zeros(sizes, grad.dtype());
  scatter_add_(z, dim, index, grad);
  return z;
}

Tensor value_selecting_reduction_backward(const Tensor& grad, int64_t dim, const Tensor& indices,
                                          std::span<const int64_t> sizes) {
  Tensor z = zeros(sizes, grad.dtype());
  scatter_(z, dim, indices, grad);
  return z;
}

Tensor masked_fill_value_backward(const Tensor& grad, const Tensor& mask) {
  const Tensor m[] = {mask.sizes() == grad.sizes() ? mask : expand(mask, grad.sizes())};
  return sum(index(grad, m));
}

Tensor clamp_backward(const Tensor& grad, const Tensor& self, const std::optional<Scalar>& min,
                      const std::optional<Scalar>& max) {
  const Tensor zero = zero_scalar(grad.dtype());
  const auto ge = [&] { return compare(CompareOp::Ge, self, wrapped_scalar_tensor(*min)); };
  const auto le = [&] { return compare(CompareOp::Le, self, wrapped_scalar_tensor(*max)); };
  if (min && max) return where(ge(), where(le(), grad, zero), zero);  // (self >= min) & (self <= max)
  if (min) return where(ge(), grad, zero);
  return where(le(), grad, zero);
}

Tensor max_min_backward(const Tensor& grad, const Tensor& self, const Tensor& other, bool self_side, bool is_max) {
  Tensor r = where(compare(CompareOp::Eq, self, other), div(grad, wrapped_scalar_tensor(Scalar::from_int(2))), grad);
  // self side of maximum zeroes where self < other; other side where self > other (swapped for minimum).
  const CompareOp zero_where = (self_side == is_max) ? CompareOp::Lt : CompareOp::Gt;
  masked_fill_(r, compare(zero_where, self, other), Scalar::from_int(0));
  return r;
}

Tensor abs_backward(const Tensor& grad, const Tensor& self) {
  const Tensor zero = zero_scalar(self.dtype());
  const Tensor sign = where(compare(CompareOp::Gt, self, zero), value_to_tensor(Scalar::from_int(1), self.dtype()),
                            where(compare(CompareOp::Lt, self, zero), value_to_tensor(Scalar::from_int(-1), self.dtype()), zero));
  return mul(grad, sign);
}

}  // namespace dc
