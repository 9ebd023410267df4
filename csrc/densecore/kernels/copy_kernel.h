// The copy/convert stub (ATen's copy_stub, aten/src/ATen/native/cpu/CopyKernel.cpp) and the two
// tensor-level copies the loop layer itself needs: casting inputs to the common dtype and writing
// results back to outputs of another dtype.
#pragma once

#include "densecore/kernels/dispatch.h"
#include "densecore/kernels/iter.h"

namespace dc {

using CopyFn = void (*)(TensorIter& iter);
DC_DECLARE_DISPATCH(CopyFn, copy_stub);

/// dst = src converted (src broadcast to dst), through the copy kernel; no version bump.
void copy_into(const Tensor& dst, const Tensor& src);
/// at::empty_like(src, dtype, preserve_format): src's strides when non-overlapping and dense,
/// else dense strides in src's stride order (infer_dense_strides).
Tensor empty_like_preserve(const Tensor& src, DType dtype);
/// torch's src.to(dtype): src itself when the dtype matches, else a preserve-format converted copy.
Tensor to_dtype(const Tensor& src, DType dtype);

}  // namespace dc
