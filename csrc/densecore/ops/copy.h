// Copies with dtype conversion (torch's copy_ / to / contiguous / clone).
#pragma once

#include "densecore/core/tensor.h"
#include "densecore/generated/ops.h"  // copy_ (recorded) and native::copy_, from copy_'s row

namespace dc {

// native::copy_(self, src): self[...] = src[...] converted to self's dtype, src broadcast to self's
// shape (torch's copy_ without the recording); bumps self's version. Defined in ops/copy.cpp.
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
