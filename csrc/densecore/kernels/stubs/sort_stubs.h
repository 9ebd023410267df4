// Dispatch stub of the sorting kernels (kernels/cpu/sorting.cpp). torch registers topk with
// REGISTER_DISPATCH (native/cpu/SortingKernel.cpp); the selection does not depend on the capability.
#pragma once

#include <cstdint>

#include "densecore/core/dtype.h"
#include "densecore/kernels/dispatch/dispatch.h"

namespace dc {

/// topk over `rows` contiguous rows of n elements: k values and int64 indices per row, written
/// contiguously (rows x k).
using TopkFn = void (*)(DType t, const void* in, int64_t n, int64_t rows, int64_t k, bool largest, bool sorted,
                        void* values, int64_t* indices);
DC_DECLARE_DISPATCH(TopkFn, topk_stub);

}  // namespace dc
