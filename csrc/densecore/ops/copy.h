// Copies with dtype conversion (torch's copy_ / to / contiguous / clone).
#pragma once

#include "densecore/core/tensor.h"

namespace dc {

/// dst[...] = src[...] converted to dst's dtype, src broadcast to dst's shape (torch's copy_).
/// Bumps dst's version.
const Tensor& copy_(const Tensor& dst, const Tensor& src);
/// A new contiguous tensor of dtype `dtype` holding src's values.
Tensor to_dtype_copy(const Tensor& src, DType dtype);
/// src itself if already contiguous, else a contiguous copy.
Tensor contiguous(const Tensor& src);
/// A contiguous copy with new storage (torch's clone with the default memory format).
Tensor clone(const Tensor& src);

}  // namespace dc
