// Copies with dtype conversion (torch's copy_ / to / contiguous / clone).
#pragma once

#include "densecore/core/tensor.h"

namespace dc {

/// dst[...] = src[...] converted to dst's dtype, src broadcast to dst's shape (torch's copy_).
/// Bumps dst's version.
const Tensor& copy_(const Tensor& dst, const Tensor& src);
/// Tensor.copy_'s autograd rules at the Python entry: torch's leaf error for a leaf that requires
/// grad; NotImplementedError when dst or src requires grad (torch's CopyBackwards / CopySlices are
/// not recorded, since densecore does not track view bases). Nothing when grad mode is off.
void check_copy_autograd(const Tensor& dst, const Tensor& src);
/// A new tensor of dtype `dtype` holding src's values, laid out like src (torch's _to_copy:
/// preserve_format, i.e. src's strides when dense, else dense strides in src's stride order).
Tensor to_dtype_copy(const Tensor& src, DType dtype);
/// src itself if already contiguous, else a contiguous copy.
Tensor contiguous(const Tensor& src);
/// A contiguous copy with new storage (torch's clone(memory_format=torch.contiguous_format)).
Tensor clone(const Tensor& src);
/// A copy with new storage laid out like src (torch's clone() with its default preserve_format: src's
/// strides when dense, else dense strides in src's stride order).
Tensor clone_preserve_format(const Tensor& src);

}  // namespace dc
