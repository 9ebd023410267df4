// Dispatch stubs of the fill family (ATen's FillKernel.cpp / RangeFactoriesKernel.cpp): arange and
// linspace write a contiguous 1-D buffer; their arithmetic differs per CPU capability (FMA).
#pragma once

#include <cstdint>

#include "densecore/core/dtype.h"
#include "densecore/core/scalar.h"
#include "densecore/kernels/dispatch/dispatch.h"

namespace dc {

/// out[i] = start + i * step for i in [0, n), computed as torch's arange_kernel.
using ArangeFn = void (*)(void* out, DType dtype, int64_t n, const Scalar& start, const Scalar& step);
/// torch's linspace_kernel for steps >= 2: the first half counts up from start, the rest down from end.
using LinspaceFn = void (*)(void* out, DType dtype, int64_t steps, const Scalar& start,
                            const Scalar& end);

DC_DECLARE_DISPATCH(ArangeFn, arange_stub);
DC_DECLARE_DISPATCH(LinspaceFn, linspace_stub);

}  // namespace dc
