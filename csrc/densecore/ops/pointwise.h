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
// torch.linalg.vector_norm, linalg_vector_norm(x, ord = 2, dim = None, keepdim = false, dtype = None), is an op
// row too.

}  // namespace dc
