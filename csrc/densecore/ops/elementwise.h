// Elementwise ops as torch exposes them: add/sub/mul/div (+ in-place and out= forms), neg, abs,
// comparisons, where, clamp, maximum, minimum, result_type. Each checks its arguments like ATen,
// builds a TensorIter (broadcast, promote, allocate) and calls the kernel stub.
// An undefined `out` means "allocate"; Python numbers come in as wrapped 0-dim tensors.
#pragma once

#include <optional>
#include <string_view>

#include "densecore/core/scalar.h"
#include "densecore/core/tensor.h"
#include "densecore/generated/ops.h"

namespace dc {

/// A Python number as torch's arg parser wraps it: a 0-dim float64/int64/bool tensor flagged
/// is_wrapped_number (it then ranks below tensors in type promotion).
Tensor wrapped_scalar_tensor(const Scalar& s);

// add(a, b, alpha = 1, out), sub, mul, div(a, b, out) (true division), maximum, minimum, neg and abs are op
// rows (csrc/op_rows.toml), declared in densecore/generated/ops.h.

// div(a, b, rounding_mode, out) (torch's div.Tensor_mode: None, "trunc" or "floor") is an op row too.

enum class CompareOp { Eq, Ne, Lt, Le, Gt, Ge };
Tensor compare(CompareOp op, const Tensor& a, const Tensor& b, const Tensor& out = {});
/// torch.equal: same sizes and every element equal after promotion (NaN is unequal to itself).
bool equal(const Tensor& a, const Tensor& b);

// where(condition, self, other) is an op row (where.self), in densecore/generated/ops.h.
// clamp(self, min, max, out) with scalar bounds (clamp) and tensor bounds (clamp.Tensor, undefined = None) are op
// rows, in densecore/generated/ops.h.

/// self.sign() for a real dtype (sign_stub, as torch's sgn runs for real tensors): 1, -1 or +0 (NaN and -0.0
/// give +0), in self's dtype. Not recorded: a formula's helper (abs_backward's self.sgn()).
Tensor real_sign(const Tensor& self);

/// torch.result_type(a, b) (wrapped numbers rank below tensors).
DType result_type(const Tensor& a, const Tensor& b);

}  // namespace dc
