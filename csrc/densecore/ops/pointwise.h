// The optimizer's pointwise ops and the vector norm: lerp (scalar weight), addcmul, addcdiv
// (aten/src/ATen/native/Lerp.cpp, PointwiseOps.cpp) and linalg.vector_norm (LinearAlgebra.cpp).
// An undefined `out` allocates; `out` == self is the in-place form (lerp_, addcmul_, addcdiv_).
#pragma once

#include <optional>
#include <span>

#include "densecore/core/scalar.h"
#include "densecore/core/tensor.h"

namespace dc {

/// self + weight * (end - self), torch's two-branch formula; self and end must share a dtype.
Tensor lerp(const Tensor& self, const Tensor& end, const Scalar& weight, const Tensor& out = {});
/// self + value * t1 * t2 (broadcast, promoted).
Tensor addcmul(const Tensor& self, const Tensor& t1, const Tensor& t2, const Scalar& value, const Tensor& out = {});
/// self + value * t1 / t2; integer t1 and t2 are rejected as torch does.
Tensor addcdiv(const Tensor& self, const Tensor& t1, const Tensor& t2, const Scalar& value, const Tensor& out = {});
/// torch.linalg.vector_norm(x, ord, dim, keepdim, dtype); `dims` empty = all dims.
Tensor vector_norm(const Tensor& x, double ord, std::span<const int64_t> dims = {}, bool keepdim = false,
                   std::optional<DType> dtype = std::nullopt);

}  // namespace dc
