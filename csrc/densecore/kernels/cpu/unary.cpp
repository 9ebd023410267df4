// neg, abs, frac, sign and the rounding (floor, ceil, round, trunc) kernels, mirroring aten/src/ATen/native/cpu/UnaryOpsKernel.cpp (REGISTER_DISPATCH,
// so AVX-512 machines run the AVX2 build). Scalar lambdas are c10's operators (Half/BFloat16
// through float and the scalar converter); vector ones are Vectorized::neg()/abs() (bit operations
// on x86, see kernels/vec/vec.h).
#include <cmath>

#include "densecore/generated/stubs.h"
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

/// UnaryOpsKernel.cpp sign_kernel's scalar form: (0 < a) - (a < 0), so NaN and -0.0 give +0; bool is itself.
template <class T>
inline T sign_scalar(T a) {
  if constexpr (std::is_same_v<T, bool>) return a;
  else if constexpr (is_reduced_float_v<T>) return scalar_from_float<T>(float((0.0f < float(a)) - (float(a) < 0.0f)));
  else return T((T(0) < a) - (a < T(0)));
}

/// sign_kernel: the vector form blendv(0, 1, 0 < a) - blendv(0, 1, a < 0) is 1, -1 or +0 on every lane, the
/// scalar form's values, so float/double take them as two whole-vector selects (GCC leaves a lane loop with a
/// compare per lane scalar) and the other lane types the scalar form lane by lane.
void sign_kernel(TensorIter& iter) {
  dispatch_dtype(iter.dtype(0), [&]<class T>() {
    cpu_kernel_vec(iter, [](T a) -> T { return sign_scalar(a); }, [](Vec<T> a) {
      if constexpr (vec::is_native_v<T>) {
        const Vec<T> zero(T(0)), one(T(1)), minus_one(T(-1));
        return Vec<T>::native(zero.v < a.v ? one.v : (a.v < zero.v ? minus_one.v : zero.v));
      } else {
        return Vec<T>::raw_zip(a, a, [](T x, T) { return sign_scalar(x); });
      }
    });
  });
}

/// frac_kernel: a - trunc(a), exact in every floating dtype (Half/BFloat16 through float, and the
/// fraction of a Half is a Half); Vectorized::frac() is the same per lane.
void frac_kernel(TensorIter& iter) {
  dispatch_dtype(iter.dtype(0), [&]<class T>() {
    if constexpr (std::is_floating_point_v<T> || is_reduced_float_v<T>) {
      auto frac = [](auto a) { return a - std::trunc(a); };
      cpu_kernel_vec(
          iter,
          [frac](T a) -> T {
            if constexpr (is_reduced_float_v<T>) return scalar_from_float<T>(frac(float(a)));
            else return frac(a);
          },
          [frac](Vec<T> a) {
            if constexpr (vec::is_native_v<T>) return a - vec::trunc(a);  // one vroundps, not a lane loop
            else return a.map(frac);
          });
    }
  });
}

/// floor/ceil/round/trunc (UnaryOpsKernel.cpp's vml kernels over Vectorized::floor() and its kind; the
/// structured ops copy integer inputs, which the kernel does as the identity). Exact in every dtype.
template <vec::RoundMode kMode>
void rounding_kernel(TensorIter& iter) {
  dispatch_dtype(iter.dtype(0), [&]<class T>() {
    if constexpr (std::is_floating_point_v<T> || is_reduced_float_v<T>) {
      auto scalar = [](auto a) {
        if constexpr (kMode == vec::RoundMode::Floor) return std::floor(a);
        else if constexpr (kMode == vec::RoundMode::Ceil) return std::ceil(a);
        else if constexpr (kMode == vec::RoundMode::Nearest) return std::nearbyint(a);
        // GCC inlines std::trunc without SSE4.1 (the DEFAULT build) as a convert-and-back that returns a
        // signalling NaN unchanged; torch's DEFAULT kernel quiets it, as roundss and libm do (a + a).
        else return std::isnan(a) ? a + a : std::trunc(a);
      };
      cpu_kernel_vec(
          iter,
          [scalar](T a) -> T {
            if constexpr (is_reduced_float_v<T>) return scalar_from_float<T>(scalar(float(a)));
            else return scalar(a);
          },
          [scalar](Vec<T> a) { return vec::round_with_mode<kMode>(a, scalar); });
    } else if constexpr (!std::is_same_v<T, bool>) {
      cpu_kernel_vec(iter, [](T a) -> T { return a; }, [](Vec<T> a) { return a; });
    }
  });
}

}  // namespace
}  // namespace DC_CPU_CAPABILITY

DC_REGISTER_DISPATCH(neg_stub, &neg_kernel);
DC_REGISTER_DISPATCH(abs_stub, &abs_kernel);
DC_REGISTER_DISPATCH(frac_stub, &frac_kernel);
DC_REGISTER_DISPATCH(sign_stub, &sign_kernel);
DC_REGISTER_DISPATCH(floor_stub, &rounding_kernel<vec::RoundMode::Floor>);
DC_REGISTER_DISPATCH(ceil_stub, &rounding_kernel<vec::RoundMode::Ceil>);
DC_REGISTER_DISPATCH(round_stub, &rounding_kernel<vec::RoundMode::Nearest>);
DC_REGISTER_DISPATCH(trunc_stub, &rounding_kernel<vec::RoundMode::Trunc>);

}  // namespace dc
