// linalg.vector_norm (LinearAlgebra.cpp). The optimizer's pointwise ops (lerp, addcmul, addcdiv) are op rows:
// an undefined `out` allocates; `out` == self is the in-place form (lerp_, addcmul_, addcdiv_).
#pragma once

#include <optional>
#include <span>

#include "densecore/core/scalar.h"
#include "densecore/core/tensor.h"
#include "densecore/generated/ops.h"

namespace dc {

// lerp(self, end, weight, out) (self + weight * (end - self), torch's two-branch formula), addcmul(self,
// tensor1, tensor2, value = 1, out) and addcdiv are op rows (csrc/op_rows.toml), declared in
// densecore/generated/ops.h.
/// torch.linalg.vector_norm(x, ord, dim, keepdim, dtype); `dims` empty = all dims.
Tensor vector_norm(const Tensor& x, double ord, std::span<const int64_t> dims = {}, bool keepdim = false,
                   std::optional<DType> dtype = std::nullopt);

}  // namespace dc
