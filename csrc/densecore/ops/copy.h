// Copies with dtype conversion (torch's copy_ / to / contiguous / clone).
#pragma once

#include "densecore/core/tensor.h"
#include "densecore/generated/ops.h"  // copy_ (recorded) and native::copy_, from copy_'s row

namespace dc {

// native::copy_(self, src): self[...] = src[...] converted to self's dtype, src broadcast to self's
// shape (torch's copy_ without the recording); bumps self's version. Defined in ops/copy.cpp.
// to_copy(self, dtype, non_blocking, memory_format) (torch's _to_copy: a new tensor of dtype holding self's values,
// laid out by preserve_format unless told, i.e. self's strides when dense, else dense strides in self's stride
// order) and clone(self, memory_format) (None: preserve_format, as torch's) are rows (generated/ops.h).
/// src itself if already contiguous, else a contiguous copy.
Tensor contiguous(const Tensor& src);

}  // namespace dc
