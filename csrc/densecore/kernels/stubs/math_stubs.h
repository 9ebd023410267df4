// Dispatch stubs of pow (the unary math, tanh/sigmoid backward and optimizer pointwise kernels' stubs are
// generated from csrc/op_rows.toml into densecore/generated/stubs.h) and the vector norm (kernels/cpu/vector_norm.cpp). Each is
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
// ReduceOpsKernel.cpp norm_kernel_tensor_iterator_impl: (out, in), p.
using NormFn = void (*)(ReduceIter& iter, double p);
DC_DECLARE_DISPATCH(NormFn, norm_stub);

}  // namespace dc
