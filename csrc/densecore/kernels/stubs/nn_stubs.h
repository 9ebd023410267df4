// Dispatch stubs of the nn kernels (kernels/cpu/layer_norm.cpp, kernels/cpu/gelu.cpp), registered
// with the macros torch's files use: LayerNorm with REGISTER_DISPATCH (AVX-512 machines run the
// AVX2 build, layer_norm_kernel.cpp), GELU with ALSO_REGISTER_AVX512_DISPATCH (Activation.cpp).
#pragma once

#include "densecore/core/dtype.h"
#include "densecore/kernels/dispatch/dispatch.h"
#include "densecore/kernels/iter/iter.h"

namespace dc {

/// Y, mean[M], rstd[M] from contiguous X (M rows of N); gamma/beta may be null.
using LayerNormFn = void (*)(DType dtype, const void* X, const void* gamma, const void* beta, int64_t M,
                             int64_t N, double eps, void* Y, void* mean, void* rstd);
/// dX, dgamma, dbeta (each may be null = not wanted) from contiguous dY and X.
using LayerNormBackwardFn = void (*)(DType dtype, const void* dY, const void* X, const void* mean,
                                     const void* rstd, const void* gamma, int64_t M, int64_t N, void* dX,
                                     void* dgamma, void* dbeta);
/// gelu over iter (out, x); gelu backward over iter (out, dy, x). tanh: approximate='tanh'.
using GeluFn = void (*)(TensorIter& iter, bool tanh);

DC_DECLARE_DISPATCH(LayerNormFn, layer_norm_stub);
DC_DECLARE_DISPATCH(LayerNormBackwardFn, layer_norm_backward_stub);
DC_DECLARE_DISPATCH(GeluFn, gelu_stub);
DC_DECLARE_DISPATCH(GeluFn, gelu_backward_stub);

}  // namespace dc
