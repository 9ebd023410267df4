// neg and abs kernels, mirroring aten/src/ATen/native/cpu/UnaryOpsKernel.cpp (REGISTER_DISPATCH,
// so AVX-512 machines run the AVX2 build). Scalar lambdas are c10's operators (Half/BFloat16
// through float and the scalar converter); vector ones are Vectorized::neg()/abs() (bit operations
// on x86, see kernels/vec/vec.h).
#include <cmath>

#include "densecore/kernels/stubs/elementwise_stubs.h"
#include "densecore/kernels/iter/loops.h"

namespace dc {
inline namespace DC_CPU_CAPABILITY {
namespace {

using vec::scalar_from_float;
using vec::Vec;

void neg_kernel(TensorIter& iter) {
  dispatch_dtype(iter.dtype(0), [&]<class T>() {
    if constexpr (!std::is_same_v<T, bool>)
      cpu_kernel_vec(
          iter,
          [](T a) -> T {
            if constexpr (is_reduced_float_v<T>) return scalar_from_float<T>(-float(a));
            else return vec::wrap_neg(a);
          },
          [](Vec<T> a) { return vec::neg(a); });
  });
}

/// UnaryOpsKernel.cpp abs_impl: std::abs, identity for uint8.
template <class T>
inline T abs_scalar(T a) {
  if constexpr (is_reduced_float_v<T>) return scalar_from_float<T>(std::abs(float(a)));
  else if constexpr (std::is_floating_point_v<T>) return std::abs(a);
  else if constexpr (std::is_unsigned_v<T>) return a;
  else return a < 0 ? vec::wrap_neg(a) : a;
}

void abs_kernel(TensorIter& iter) {
  dispatch_dtype(iter.dtype(0), [&]<class T>() {
    if constexpr (!std::is_same_v<T, bool>)
      cpu_kernel_vec(iter, [](T a) -> T { return abs_scalar(a); }, [](Vec<T> a) { return vec::abs(a); });
  });
}

}  // namespace
}  // namespace DC_CPU_CAPABILITY

DC_REGISTER_DISPATCH(neg_stub, &neg_kernel);
DC_REGISTER_DISPATCH(abs_stub, &abs_kernel);

}  // namespace dc
