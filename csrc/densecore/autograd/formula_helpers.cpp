// Backward helpers mirrored from torch/csrc/autograd/FunctionsManual.cpp (mm_mat1_backward,
// mm_mat2_backward, unsqueeze_to, slice_backward, select_backward, split_with_sizes_backward,
// unbind_backward, cat_tensors_backward, stack_tensors_backward, repeat_backward, index_backward,
// index_select_backward, gather_backward, masked_fill_backward, clamp_backward) and the
// maximum/minimum/abs rows of tools/autograd/derivatives.yaml, in torch's operation order.
#include "densecore/autograd/formula_helpers.h"

#include <algorithm>
#include <cmath>
#include <numeric>

#include "densecore/autograd/grad_mode.h"
#include "densecore/core/error.h"
#include "densecore/ops/copy.h"
#include "densecore/ops/creation.h"
#include "densecore/ops/elementwise.h"
#include "densecore/ops/index.h"
#include "densecore/ops/join.h"
#include "densecore/ops/linalg.h"
#include "densecore/ops/loss.h"
#include "densecore/ops/reduce.h"
#include "densecore/ops/unary.h"
#include "densecore/ops/view.h"

namespace dc {
namespace {

Tensor zero_scalar(DType dtype) { return value_to_tensor(Scalar::from_int(0), dtype); }

// grad / 2 (a Python number 2, as derivatives.yaml writes it): the share of a tie.
Tensor halved(const Tensor& grad) { return div(grad, wrapped_scalar_tensor(Scalar::from_int(2))); }

// self.sgn() for real dtypes: torch's sign kernel, one pass (two compares and two where() ran before:
// 12x torch's time in abs's backward).
Tensor sgn(const Tensor& self) { return real_sign(self); }

// a | b for bool tensors.
Tensor logical_or(const Tensor& a, const Tensor& b) { return where(a, a, b); }

// value.isnan().item() for a one-element tensor.
bool compare_item_ne_self(const Tensor& value) { return item(compare(CompareOp::Ne, value, value)).v.b; }

// unsqueeze_multiple (FunctionsManual.cpp): puts back the reduced dims of a keepdim=False result.
Tensor unsqueeze_multiple(const Tensor& t, std::span<const int64_t> dims, int64_t ndim) {
  if (dims.empty()) return t;
  if (dims.size() == 1) return unsqueeze(t, dims[0]);
  std::vector<bool> mask(ndim, false);
  for (int64_t d : dims) mask[wrap_dim(d, ndim)] = true;
  Tensor r = t;
  for (int64_t i = 0; i < ndim; ++i)
    if (mask[i]) r = unsqueeze(r, i);
  return r;
}

}  // namespace

Tensor mse_loss_grad(const Tensor& grad, const Tensor& self, const Tensor& target, int64_t reduction) {
  return is_grad_enabled() ? mse_loss_backward(grad, self, target, reduction)
                           : mse_loss_backward_fused(grad, self, target, reduction);
}

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

Tensor unsqueeze_to(const Tensor& grad, std::span<const int64_t> sizes, int64_t dim) {
  return unsqueeze_to(grad, sizes, std::span<const int64_t>(&dim, 1));
}

Tensor permute_backwards(const Tensor& grad, std::span<const int64_t> dims) {
  const int64_t n = static_cast<int64_t>(dims.size());
  std::vector<int64_t> inverse(dims.size());
  for (int64_t i = 0; i < n; ++i) inverse[wrap_dim(dims[i], n)] = i;
  return permute(grad, inverse);
}

Tensor slice_backward(const Tensor& grad, std::span<const int64_t> sizes, int64_t dim,
                      std::optional<int64_t> start, std::optional<int64_t> end, int64_t step) {
  Tensor gi = zeros(sizes, grad.dtype());
  native::copy_(slice(gi, dim, start, end, step), grad);
  return gi;
}

Tensor select_backward(const Tensor& grad, std::span<const int64_t> sizes, int64_t dim, int64_t index) {
  Tensor gi = zeros(sizes, grad.dtype());
  native::copy_(select(gi, dim, index), grad);
  return gi;
}

Tensor split_backward(const std::vector<Tensor>& grads, int64_t split_size, int64_t dim, std::span<const int64_t> sizes,
                      DType dtype) {
  const int64_t n = int64_t(grads.size());
  Shape split_sizes(size_t(n), split_size);
  split_sizes.back() = split_size - (split_size * n - sizes[wrap_dim(dim, int64_t(sizes.size()))]);
  return split_with_sizes_backward(grads, split_sizes, dim, sizes, dtype);
}

Tensor split_with_sizes_backward(const std::vector<Tensor>& grads, std::span<const int64_t> split_sizes, int64_t dim,
                                 std::span<const int64_t> sizes, DType dtype) {
  dim = wrap_dim(dim, int64_t(sizes.size()));
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
  dim = wrap_dim(dim, int64_t(sizes.size()));
  Shape s(sizes.begin(), sizes.end());
  s.erase(s.begin() + dim);
  std::vector<Tensor> all;
  for (const Tensor& g : grads) all.push_back(g.defined() ? g : zeros(s, dtype));
  return stack(all, dim);
}

std::vector<Tensor> cat_tensors_backward(const Tensor& grad, const std::vector<Shape>& sizes, int64_t dim) {
  const auto skipped = [](const Shape& shape) { return shape.size() == 1 && shape[0] == 0; };
  for (const Shape& shape : sizes)
    if (!skipped(shape)) {
      dim = wrap_dim(dim, int64_t(shape.size()));
      break;
    }
  std::vector<Tensor> out;
  int64_t at = 0;
  for (const Shape& shape : sizes) {
    if (skipped(shape)) {  // legacy-skipped 1-D empty input
      out.push_back(zeros(Shape{0}, grad.dtype()));
      continue;
    }
    out.push_back(narrow(grad, dim, at, shape[dim]));
    at += shape[dim];
  }
  return out;
}

std::vector<Tensor> stack_tensors_backward(const Tensor& grad, int64_t dim) { return unbind(grad, dim); }

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

Tensor gather_backward(const Tensor& grad, const Tensor& self, int64_t dim, const Tensor& index) {
  Tensor z = zeros(self.sizes(), grad.dtype());
  scatter_add_(z, dim, index, grad);
  return z;
}

Tensor value_selecting_reduction_backward(const Tensor& grad, int64_t dim, const Tensor& indices,
                                          std::span<const int64_t> sizes, bool keepdim) {
  Tensor z = zeros(sizes, grad.dtype());
  if (keepdim || sizes.empty()) return scatter_(z, dim, indices, grad), z;
  scatter_(z, dim, unsqueeze(indices, dim), unsqueeze(grad, dim));
  return z;
}

Tensor evenly_distribute_backward(const Tensor& grad, const Tensor& self, const Tensor& value) {
  // mask = value.isnan() ? self.isnan() : self == value (x != x is isnan)
  const bool value_is_nan = compare_item_ne_self(value);
  const Tensor mask = value_is_nan ? compare(CompareOp::Ne, self, self) : compare(CompareOp::Eq, self, value);
  Tensor out = zeros(self.sizes(), self.dtype());
  masked_fill_(out, mask, div(grad, sum(mask)));
  return out;
}

Tensor index_put_self_backward(const Tensor& grad, std::span<const Tensor> indices,
                               std::span<const int64_t> value_sizes, bool accumulate) {
  if (accumulate) return grad;
  Tensor out = clone(grad, MemoryFormat::Contiguous);  // grad.index_put(indices, zeros_like(values), false)
  index_put_(out, indices, zeros(value_sizes, grad.dtype()), false);
  return out;
}

Tensor scatter_self_backward(const Tensor& grad, int64_t dim, const Tensor& index) {
  Tensor out = clone(grad, MemoryFormat::Contiguous);
  scatter_(out, dim, index, expand(zero_scalar(grad.dtype()), index.sizes()));
  return out;
}

Tensor masked_fill_value_backward(const Tensor& grad, const Tensor& mask) {
  const Tensor m[] = {mask.sizes() == grad.sizes() ? mask : expand(mask, grad.sizes())};
  return sum(index(grad, m));
}

Tensor clamp_backward(const Tensor& grad, const Tensor& self, const std::optional<Scalar>& min,
                      const std::optional<Scalar>& max) {
  // torch 2.14.1 lets the gradient through strictly inside the bounds: an element equal to a bound
  // gets 0 (checked against torch at both bounds, with one bound and with two).
  const Tensor zero = zero_scalar(grad.dtype());
  const auto gt = [&] { return compare(CompareOp::Gt, self, wrapped_scalar_tensor(*min)); };
  const auto lt = [&] { return compare(CompareOp::Lt, self, wrapped_scalar_tensor(*max)); };
  if (min && max) return where(gt(), where(lt(), grad, zero), zero);  // (self > min) & (self < max)
  if (min) return where(gt(), grad, zero);
  return where(lt(), grad, zero);
}

// clamp with tensor bounds in torch 2.14.1, measured against it over every order of self and the bounds (ties,
// equal and crossed bounds, NaN, signed zeros): each input gets the gradient where the result is it, half of it
// where self ties a bound the other bound is strictly beyond; crossed bounds (min > max) give max all of it. With one
// bound, self and the bound each get it unless strictly on the far side (so a NaN gives both all of it).
namespace {
Tensor both(const Tensor& a, const Tensor& b) { return where(a, b, a); }    // a & b
Tensor either(const Tensor& a, const Tensor& b) { return where(a, a, b); }  // a | b
// grad where `all`, grad / 2 where `half_of`, else 0.
Tensor share(const Tensor& grad, const Tensor& all, const Tensor& half_of) {
  return where(all, grad, where(half_of, halved(grad), zero_scalar(grad.dtype())));
}
// The one-bound rule: grad unless `beyond`, half at a tie.
Tensor share_unless(const Tensor& grad, const Tensor& beyond, const Tensor& tie) {
  return where(beyond, zero_scalar(grad.dtype()), where(tie, halved(grad), grad));
}
}  // namespace

Tensor clamp_backward(const Tensor& grad, const Tensor& self, const Tensor& min, const Tensor& max) {
  if (min.defined() && max.defined()) {
    const Tensor outside = either(compare(CompareOp::Lt, self, min), compare(CompareOp::Gt, self, max));
    const Tensor tie = either(both(compare(CompareOp::Eq, self, min), compare(CompareOp::Lt, self, max)),
                              both(compare(CompareOp::Eq, self, max), compare(CompareOp::Gt, self, min)));
    return share_unless(grad, outside, tie);
  }
  if (min.defined()) return share_unless(grad, compare(CompareOp::Lt, self, min), compare(CompareOp::Eq, self, min));
  if (max.defined()) return share_unless(grad, compare(CompareOp::Gt, self, max), compare(CompareOp::Eq, self, max));
  return grad;
}

std::tuple<Tensor, Tensor> clamp_backward_min_max(const Tensor& grad, const Tensor& self, const Tensor& min,
                                                  const Tensor& max, const std::array<bool, 2>& grad_input_mask) {
  std::tuple<Tensor, Tensor> ret;
  if (!grad.defined()) return ret;
  if (min.defined() && max.defined()) {
    const Tensor ordered = compare(CompareOp::Le, min, max);
    if (grad_input_mask[0])
      std::get<0>(ret) = share(grad, both(compare(CompareOp::Lt, self, min), ordered),
                               both(compare(CompareOp::Eq, self, min), compare(CompareOp::Lt, self, max)));
    if (grad_input_mask[1])
      std::get<1>(ret) = share(grad, either(both(compare(CompareOp::Gt, self, max), ordered), compare(CompareOp::Lt, max, min)),
                               both(compare(CompareOp::Eq, self, max), compare(CompareOp::Gt, self, min)));
  } else if (min.defined() && grad_input_mask[0]) {
    std::get<0>(ret) = share_unless(grad, compare(CompareOp::Gt, self, min), compare(CompareOp::Eq, self, min));
  } else if (max.defined() && grad_input_mask[1]) {
    std::get<1>(ret) = share_unless(grad, compare(CompareOp::Lt, self, max), compare(CompareOp::Eq, self, max));
  }
  return ret;
}

Tensor max_min_backward(const Tensor& grad, const Tensor& self, const Tensor& other, bool self_side, bool is_max) {
  Tensor r = where(compare(CompareOp::Eq, self, other), halved(grad), grad);
  // self side of maximum zeroes where self < other; other side where self > other (swapped for minimum).
  const CompareOp zero_where = (self_side == is_max) ? CompareOp::Lt : CompareOp::Gt;
  masked_fill_(r, compare(zero_where, self, other), Scalar::from_int(0));
  return r;
}

Tensor abs_backward(const Tensor& grad, const Tensor& self) { return mul(grad, sgn(self)); }

Tensor div_tensor_self_backward(const Tensor& grad, const Tensor& other, DType self_dtype,
                                const std::optional<std::string>& rounding_mode) {
  if (rounding_mode) return zeros_like(grad, self_dtype);
  return div(grad, other);
}

Tensor div_tensor_other_backward(const Tensor& grad, const Tensor& self, const Tensor& other,
                                 const std::optional<std::string>& rounding_mode) {
  if (rounding_mode) return zeros_like(grad);
  return mul(neg(grad), div(div(self, other), other));
}

Tensor linalg_vector_norm_backward(Tensor grad, const Tensor& self, const Scalar& ord, Tensor norm,
                                   OptionalIntList opt_dims, bool keepdim) {
  const double p = ord.to_double();
  const std::span<const int64_t> dims = opt_dims.or_empty();
  if (!keepdim && self.dim() != 0) {
    grad = unsqueeze_multiple(grad, dims, self.dim());
    norm = unsqueeze_multiple(norm, dims, self.dim());
  }
  const Tensor zero = zero_scalar(norm.dtype());
  const auto norm_is_zero = [&] { return compare(CompareOp::Eq, norm, zero); };
  const auto pow_scalar = [](const Tensor& t, double e) { return dc::pow(t, Scalar::from_double(e)); };
  if (p == 0.0) return Tensor();
  if (p == 1.0) return mul(sgn(self), grad);
  if (p == 2.0) return mul(grad, masked_fill(div(self, norm), norm_is_zero(), Scalar::from_int(0)));
  if (std::isinf(p)) {  // the gradient of amax(abs(self)), split evenly, NaNs included
    const Tensor self_abs = abs(self);
    const Tensor mask = logical_or(compare(CompareOp::Eq, self_abs, norm), compare(CompareOp::Ne, self_abs, self_abs));
    std::vector<int64_t> all_or_dims(dims.begin(), dims.end());
    return mul(sgn(self), mul(div(grad, sum(mask, all_or_dims, true)), mask));
  }
  if (p < 1.0) {
    const Tensor self_scaled =
        mul(sgn(self), masked_fill(pow_scalar(abs(self), p - 1), compare(CompareOp::Eq, self, zero), Scalar::from_int(0)));
    return mul(mul(self_scaled, grad), pow_scalar(norm, 1 - p));
  }
  const Tensor self_scaled = p < 2.0 ? mul(sgn(self), pow_scalar(abs(self), p - 1)) : mul(self, pow_scalar(abs(self), p - 2));
  const Tensor scale_v = masked_fill(div(grad, pow_scalar(norm, p - 1)), norm_is_zero(), Scalar::from_int(0));
  return mul(self_scaled, scale_v);
}

namespace {

// _maybe_overlapping_memory: walking dims by increasing stride, each stride must clear everything
// the smaller ones reach.
bool maybe_overlapping(std::span<const int64_t> sizes, std::span<const int64_t> strides) {
  std::vector<size_t> order(sizes.size());
  std::iota(order.begin(), order.end(), size_t{0});
  std::sort(order.begin(), order.end(), [&](size_t i, size_t j) { return strides[i] < strides[j]; });
  int64_t reach = 0;
  for (size_t i : order) {
    if (strides[i] <= reach) return true;
    reach += strides[i] * (sizes[i] - 1);
  }
  return false;
}

// _min_storage_size: one past the furthest element the geometry reaches.
int64_t min_storage_size(std::span<const int64_t> sizes, std::span<const int64_t> strides, int64_t offset) {
  int64_t n = offset + 1;
  for (size_t i = 0; i < sizes.size(); ++i) n += (sizes[i] - 1) * strides[i];
  return n;
}

}  // namespace

Tensor as_strided_backward(Tensor grad, std::span<const int64_t> input_sizes,
                           std::span<const int64_t> input_strides, int64_t input_offset,
                           std::span<const int64_t> sizes, std::span<const int64_t> strides, int64_t offset) {
  // The output side: size-1 dims squeezed away, stride-0 dims summed (they reach one element).
  std::vector<int64_t> out_sizes, out_strides;
  for (int64_t i = int64_t(sizes.size()) - 1; i >= 0; --i) {
    if (sizes[i] == 0) return zeros(input_sizes, grad.dtype());
    if (sizes[i] == 1) {
      grad = squeeze_dim(grad, i);
    } else if (strides[i] == 0) {
      const int64_t dim[] = {i};
      grad = sum(grad, dim, false);
    } else {
      out_sizes.insert(out_sizes.begin(), sizes[i]);
      out_strides.insert(out_strides.begin(), strides[i]);
    }
  }
  std::vector<int64_t> in_sizes, in_strides;
  for (int64_t i = int64_t(input_sizes.size()) - 1; i >= 0; --i) {
    if (input_sizes[i] == 0) return zeros(input_sizes, grad.dtype());
    if (input_sizes[i] == 1) continue;
    in_sizes.insert(in_sizes.begin(), input_sizes[i]);
    in_strides.insert(in_strides.begin(), input_strides[i]);
  }
  check<NotImplementedError>(!maybe_overlapping(out_sizes, out_strides) && !maybe_overlapping(in_sizes, in_strides),
                             "[as_strided backward] views whose elements overlap in memory are not supported yet");
  const int64_t shared = std::min(input_offset, offset);
  const int64_t base_size = std::max(min_storage_size(in_sizes, in_strides, input_offset - shared),
                                     min_storage_size(out_sizes, out_strides, offset - shared));
  const int64_t flat[] = {base_size};
  Tensor storage = zeros(flat, grad.dtype());
  native::copy_(storage.as_strided_view(out_sizes, out_strides, offset - shared), grad);
  return storage.as_strided_view(input_sizes, input_strides, input_offset - shared);
}

// repeat_backward (FunctionsManual.cpp). The order of the sums decides the rounding: the leading dims one by one,
// then every repeat dim of the (repeat, size) reshape in one reduction.
Tensor repeat_backward(Tensor grad, std::span<const int64_t> repeats, std::span<const int64_t> input_shape) {
  if (std::ranges::find(repeats, 0) != repeats.end()) return zeros(input_shape, grad.dtype());
  const int64_t input_dims = int64_t(input_shape.size());
  const int64_t num_unsqueezed = grad.dim() - input_dims;
  const int64_t first[] = {0};
  for (int64_t i = 0; i < num_unsqueezed; ++i) grad = sum(grad, first, false);
  Shape grad_size;
  std::vector<int64_t> sum_dims;
  for (int64_t d = 0; d < input_dims; ++d) {
    const int64_t repeat = repeats[d + num_unsqueezed];
    if (repeat != 1) {
      grad_size.push_back(repeat);
      sum_dims.push_back(int64_t(grad_size.size()) - 1);
    }
    grad_size.push_back(input_shape[d]);
  }
  // No dim repeated more than once: grad has the input's shape already (an empty dim list would sum everything).
  if (sum_dims.empty()) return grad;
  return sum(reshape(grad, grad_size), sum_dims, false);
}

// logsumexp_backward (FunctionsManual.cpp): grad * exp(self - result), the reduced dims put back first.
Tensor logsumexp_backward(Tensor grad, const Tensor& self, Tensor result, std::span<const int64_t> dim, bool keepdim) {
  if (!keepdim && self.dim() != 0) {
    grad = unsqueeze_multiple(grad, dim, self.dim());
    result = unsqueeze_multiple(result, dim, self.dim());
  }
  return mul(grad, exp(sub(self, result, Scalar::from_int(1))));
}

}  // namespace dc
