// Recorded forms of the in-place writes that ops also use internally on fresh tensors (copy_,
// fill_, zero_): the ops-layer functions stay pure, these record torch's node around them. The
// binding and composite ops written in terms of user-visible ops (setitem) call these.
#pragma once

#include "densecore/core/scalar.h"
#include "densecore/core/tensor.h"

namespace dc::autograd {

/// self.copy_(src): torch::autograd::CopyBackwards (self: zeros, src: grad cast to src's dtype).
const Tensor& copy_(const Tensor& self, const Tensor& src);
/// self.fill_(value): FillBackward2 (self: zeros).
const Tensor& fill_(const Tensor& self, const Scalar& value);
/// self.fill_(value) with a 0-dim tensor value: FillBackward3 (self: zeros, value: grad.sum()).
const Tensor& fill_(const Tensor& self, const Tensor& value);
/// self.zero_(): ZeroBackward0 (self: zeros).
const Tensor& zero_(const Tensor& self);

}  // namespace dc::autograd
