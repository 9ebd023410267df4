// Dispatch stubs of the softmax / log_softmax backward kernels (kernels/cpu/softmax_backward.cpp;
// ALSO_REGISTER_AVX512_DISPATCH in torch's SoftMaxKernel.cpp, so the AVX-512 build runs on
// AVX-512 machines), of mse_loss's forward and backward kernels (kernels/cpu/binary.cpp and pointwise.cpp,
// REGISTER_DISPATCH as torch's BinaryOpsKernel.cpp and PointwiseOpsKernel.cpp have them) and the nll_loss
// frames (kernels/baseline/nll_loss.cpp, compiled once like LossNLL.cpp).
#pragma once

#include <cstdint>

#include "densecore/core/dtype.h"
#include "densecore/kernels/dispatch/dispatch.h"
#include "densecore/kernels/iter/iter.h"

namespace dc {

/// grad_input from contiguous grad and output viewed as [outer, dim, inner] (inner == 1: the
/// last-dim kernels). `log`: log_softmax's backward.
using SoftmaxBackwardFn = void (*)(DType t, const void* grad, const void* out, void* grad_in, int64_t outer,
                                   int64_t dim, int64_t inner, bool log);
DC_DECLARE_DISPATCH(SoftmaxBackwardFn, softmax_backward_stub);

/// mse_kernel: out = (a - b) * (a - b), over a binary iterator of one floating dtype.
using MseFn = void (*)(TensorIter& iter);
DC_DECLARE_DISPATCH(MseFn, mse_stub);

/// mse_backward_cpu_kernel: out = norm * (self - target) * grad over (self, target, grad) of one floating
/// dtype, norm converted to it first.
using MseBackwardFn = void (*)(TensorIter& iter, double norm);
DC_DECLARE_DISPATCH(MseBackwardFn, mse_backward_stub);

}  // namespace dc
