// The transposed-matrix copy of aten/src/ATen/native/Copy.cpp (copy_transpose_valid /
// copy_same_type_transpose_): a contiguous matrix filled from a column-major one of the same dtype,
// in square tiles, before the generic copy kernel would walk the source with a large stride.
#pragma once

#include "densecore/core/tensor.h"

namespace dc {

/// When torch's copy_ takes its transpose path for (dst, src) (dst contiguous; src 2-d with strides
/// (1, size(0)); same dtype and sizes; at least 60 * 60 elements), performs that copy and returns
/// true; otherwise touches nothing and returns false. Only bits move, so the values are the generic
/// kernel's; only the walk differs. Call after the copy's TensorIter checked sizes and overlap.
bool copy_transposed_matrix(const Tensor& dst, const Tensor& src);

}  // namespace dc
