// Dispatch stubs of the elementwise kernels (kernels/cpu/binary.cpp, unary.cpp, compare.cpp).
// Every one is registered with DC_REGISTER_DISPATCH, as torch's BinaryOpsKernel.cpp,
// UnaryOpsKernel.cpp and TensorCompareKernel.cpp do: AVX-512 machines run the AVX2 build.
#pragma once

#include "densecore/core/scalar.h"
#include "densecore/kernels/dispatch/dispatch.h"
#include "densecore/kernels/iter/iter.h"

namespace dc {

// add, sub, mul, div (true), maximum and minimum: stubs generated from their op rows (generated/stubs.h).
using IterFn = void (*)(TensorIter& iter);
using IterScalarFn = void (*)(TensorIter& iter, const Scalar& s);
using IterScalar2Fn = void (*)(TensorIter& iter, const Scalar& a, const Scalar& b);
/// masked_fill_ over (self, mask): `value` points at one element of self's dtype.
using MaskedFillFn = void (*)(TensorIter& iter, const void* value);

DC_DECLARE_DISPATCH(IterFn, div_trunc_stub);
DC_DECLARE_DISPATCH(IterFn, div_floor_stub);
DC_DECLARE_DISPATCH(IterFn, eq_stub);
DC_DECLARE_DISPATCH(IterFn, ne_stub);
DC_DECLARE_DISPATCH(IterFn, lt_stub);
DC_DECLARE_DISPATCH(IterFn, le_stub);
DC_DECLARE_DISPATCH(IterFn, gt_stub);
DC_DECLARE_DISPATCH(IterFn, ge_stub);
DC_DECLARE_DISPATCH(IterFn, where_stub);
DC_DECLARE_DISPATCH(MaskedFillFn, masked_fill_stub);
DC_DECLARE_DISPATCH(IterFn, clamp_stub);  // clamp(a, min_tensor, max_tensor)
DC_DECLARE_DISPATCH(IterScalar2Fn, clamp_scalar_stub);
DC_DECLARE_DISPATCH(IterScalarFn, clamp_min_scalar_stub);
DC_DECLARE_DISPATCH(IterScalarFn, clamp_max_scalar_stub);

}  // namespace dc
