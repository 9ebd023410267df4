// Backward helpers of the reductions (torch/csrc/autograd/FunctionsManual.cpp sum_backward,
// mean_backward, unsqueeze_multiple), used by the sum and mean rows (csrc/op_rows.toml).
#pragma once

#include <span>

#include "densecore/core/int_list.h"
#include "densecore/core/tensor.h"

namespace dc {

/// grad with the reduced dims put back (unless keepdim) and expanded to `sizes` (a stride-0 view).
Tensor sum_backward(const Tensor& grad, std::span<const int64_t> sizes, OptionalIntList dims, bool keepdim);
/// sum_backward(...) / n, n = product of the reduced sizes (numel for a full reduction), a true
/// division by the integer as a wrapped scalar.
Tensor mean_backward(const Tensor& grad, std::span<const int64_t> sizes, OptionalIntList dims, bool keepdim);

/// AmaxBackward0 / AminBackward0: scale_grad_by_count(restore_reduced_dims(grad), restore_reduced_dims(result)
/// == self, dim) = (grad / mask.sum(dim, true)) * mask, the gradient shared evenly among the ties.
Tensor amax_backward(const Tensor& grad, const Tensor& self, const Tensor& result, std::span<const int64_t> dims,
                     bool keepdim);

}  // namespace dc
