// Dispatch stubs of pow (the unary math and tanh/sigmoid backward kernels' stubs are generated
// from csrc/op_rows.toml into densecore/generated/stubs.h), the optimizer pointwise
// kernels (kernels/cpu/pointwise.cpp) and the vector norm (kernels/cpu/vector_norm.cpp). Each is
// registered with the macro torch's kernel file uses (see the registration lines in each file).
#pragma once

#include "densecore/core/scalar.h"
#include "densecore/kernels/dispatch/dispatch.h"
#include "densecore/kernels/iter/iter.h"
#include "densecore/kernels/iter/reduce_iter.h"

namespace dc {

using MathIterScalarFn = void (*)(TensorIter& iter, const Scalar& s);

// PowKernel.cpp: pow(tensor, scalar exponent) for the special exponents.
DC_DECLARE_DISPATCH(MathIterScalarFn, pow_tensor_scalar_stub);
// LerpKernel.cpp / PointwiseOpsKernel.cpp.
DC_DECLARE_DISPATCH(MathIterScalarFn, lerp_scalar_stub);  // (out, self, end), weight
DC_DECLARE_DISPATCH(MathIterScalarFn, addcmul_stub);      // (out, self, t1, t2), value
DC_DECLARE_DISPATCH(MathIterScalarFn, addcdiv_stub);      // (out, self, t1, t2), value
// ReduceOpsKernel.cpp norm_kernel_tensor_iterator_impl: (out, in), p.
using NormFn = void (*)(ReduceIter& iter, double p);
DC_DECLARE_DISPATCH(NormFn, norm_stub);

}  // namespace dc
