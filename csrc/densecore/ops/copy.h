// Copies with dtype conversion (torch's copy_ / to / contiguous / clone).
#pragma once

#include "densecore/core/tensor.h"

namespace dc {

/// dst[...] = src[...] converted to dst's dtype, src broadcast to dst's shape (torch's copy_).
/// Bumps dst's version.
const Tensor& copy_(const Tensor& dst, const Tensor& src);
/// A new tensor of dtype `dtype` holding src's values, laid out like src (torch's _to_copy:
/// preserve_format, i.e. src's strides when dense, else dense strides in src's stride order).
Tensor to_dtype_copy(const Tensor& src, DType dtype);
/// src itself if already contiguous, else a contiguous copy.
Tensor contiguous(const Tensor& src);
/// torch's memory_format argument: the strides a fresh copy gets.
enum class MemoryFormat { Contiguous, Preserve };
/// A copy with new storage: contiguous (torch's clone(memory_format=torch.contiguous_format)), or with
/// src's strides when src is dense, else dense strides in src's order (torch's default, preserve_format).
Tensor clone(const Tensor& src, MemoryFormat format = MemoryFormat::Contiguous);

}  // namespace dc
