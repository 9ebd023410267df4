// The float16 <-> float32 copy shortcut of aten/src/ATen/native/Copy.cpp (copy_impl's USE_FBGEMM
// block), which runs before TensorIterator and so decides the bits of those copies.
#pragma once

#include "densecore/core/tensor.h"

namespace dc {

/// When torch's copy_ takes its fbgemm shortcut for (dst, src), performs that copy and returns true;
/// otherwise touches nothing and returns false (the caller goes on to the copy kernel).
bool copy_float16_float32_like_fbgemm(const Tensor& dst, const Tensor& src);

}  // namespace dc
