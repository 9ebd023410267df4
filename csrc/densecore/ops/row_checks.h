// The argument checks op rows name in their `checks` field (csrc/op_rows.toml), as ATen's meta functions
// run them (BinaryOps.h alpha_check / sub_check). The generated ops.cpp includes this header.
#pragma once

#include "densecore/core/scalar.h"
#include "densecore/core/tensor.h"

namespace dc {

/// add/sub: a bool alpha only for bool results; a float alpha only for floating results.
void alpha_check(DType dtype, const Scalar& alpha);
/// neg: torch refuses a bool tensor (NotImplementedError), pointing at `~` and logical_not().
void neg_check(const Tensor& self);
/// relu: torch refuses a bool tensor (NotImplementedError) before clamp_min's dtype check.
void relu_check(const Tensor& self);
/// lerp: self and end share a dtype (Lerp.cpp lerp_Scalar meta).
void lerp_check(const Tensor& self, const Tensor& end);
/// addcdiv: torch refuses integer tensor1 and tensor2 together (PointwiseOps.cpp addcdiv meta).
void addcdiv_check(const Tensor& tensor1, const Tensor& tensor2);
/// sub: torch refuses bool operands (NotImplementedError), pointing at `^` and `~`.
void sub_check(const Tensor& self, const Tensor& other);

}  // namespace dc
