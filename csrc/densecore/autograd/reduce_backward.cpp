// sum_backward / mean_backward as FunctionsManual.cpp writes them.
#include "densecore/autograd/reduce_backward.h"

#include <vector>

#include "densecore/core/scalar.h"
#include "densecore/ops/elementwise.h"
#include "densecore/ops/reduce.h"
#include "densecore/ops/view.h"

namespace dc {

Tensor sum_backward(const Tensor& grad, std::span<const int64_t> sizes, OptionalIntList opt_dims, bool keepdim) {
  const std::span<const int64_t> dims = opt_dims.or_empty();  // None and an empty list: every dim
  if (!keepdim && !sizes.empty() && !dims.empty()) {
    // unsqueeze_multiple: the reduced dims, ascending, as a bitset over the input's rank.
    const int64_t n = int64_t(sizes.size());
    std::vector<bool> mask(n, false);
    for (int64_t d : dims) mask[wrap_dim(d, n)] = true;
    Tensor r = grad;
    for (int64_t i = 0; i < n; ++i)
      if (mask[i]) r = unsqueeze(r, i);
    return expand(r, sizes);
  }
  return expand(grad, sizes);
}

Tensor mean_backward(const Tensor& grad, std::span<const int64_t> sizes, OptionalIntList opt_dims, bool keepdim) {
  const std::span<const int64_t> dims = opt_dims.or_empty();
  int64_t n = 1;
  if (dims.empty()) {
    for (int64_t s : sizes) n *= s;
  } else {
    for (int64_t d : dims) n *= sizes.empty() ? 1 : sizes[wrap_dim(d, int64_t(sizes.size()))];  // _safe_size
  }
  return div(sum_backward(grad, sizes, dims, keepdim), wrapped_scalar_tensor(Scalar::from_int(n)));
}

namespace {

/// restore_reduced_dims: size-1 dims put back where `dims` were reduced (a reshape).
Tensor restore_reduced_dims(const Tensor& output, std::span<const int64_t> dims, bool keepdim) {
  if (keepdim) return output;
  const int64_t total = output.dim() + int64_t(dims.size());
  Shape target(total, 0);
  for (int64_t i : dims) target[i < 0 ? total + i : i] = 1;
  int64_t j = 0;
  for (int64_t s : output.sizes()) {
    while (target[j] > 0) ++j;
    target[j++] = s;
  }
  return reshape(output, target);
}

}  // namespace

Tensor amax_backward(const Tensor& grad, const Tensor& self, const Tensor& result, std::span<const int64_t> dims,
                     bool keepdim) {
  const Tensor mask = compare(CompareOp::Eq, restore_reduced_dims(result, dims, keepdim), self);
  return mul(div(restore_reduced_dims(grad, dims, keepdim), sum(mask, dims, /*keepdim=*/true)), mask);
}

}  // namespace dc
