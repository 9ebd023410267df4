// Unary math ops as torch exposes them: pow(tensor, scalar), and (generated from csrc/op_rows.toml)
// sqrt, rsqrt, exp, log, tanh, erf, sin, cos, sigmoid, reciprocal, tanh_backward, sigmoid_backward.
// Integer inputs promote to the default float dtype (build_borrowing_unary_float_op). An undefined
// `out` allocates; `out` == the input is the in-place form (torch's x.exp_()).
#pragma once

#include "densecore/core/scalar.h"
#include "densecore/core/tensor.h"
#include "densecore/generated/ops.h"

namespace dc {

// torch.pow(tensor, scalar), pow(a, exponent, out) (exponent 0 fills 1, 1 copies, else the pow kernel of
// PowKernel.cpp), is an op row (pow.Tensor_Scalar), in densecore/generated/ops.h.

}  // namespace dc
