// The copy/convert stub (ATen's copy_stub, aten/src/ATen/native/cpu/CopyKernel.cpp) and the two
// tensor-level copies the loop layer itself needs: casting inputs to the common dtype and writing
// results back to outputs of another dtype.
#pragma once

#include "densecore/kernels/dispatch/dispatch.h"
#include "densecore/kernels/iter/iter.h"

namespace dc {

using CopyFn = void (*)(TensorIter& iter);
DC_DECLARE_DISPATCH(CopyFn, copy_stub);

/// dst = src converted (src broadcast to dst), through the copy kernel; no version bump.
void copy_into(const Tensor& dst, const Tensor& src);
/// torch's src.to(dtype): src itself when the dtype matches, else a preserve-format converted copy.
Tensor to_dtype(const Tensor& src, DType dtype);

}  // namespace dc
