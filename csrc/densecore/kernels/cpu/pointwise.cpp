// Optimizer pointwise kernels: lerp with a scalar weight (aten/src/ATen/native/cpu/LerpKernel.cpp,
// Lerp.h) and addcmul / addcdiv (PointwiseOpsKernel.cpp). torch registers all three with
// REGISTER_DISPATCH, so AVX-512 machines run the AVX2 build (8 float lanes).
#include <cmath>

#include "densecore/core/checked_convert.h"
#include "densecore/kernels/iter/loops.h"
#include "densecore/generated/stubs.h"
#include "densecore/kernels/vec/lane_math.h"

namespace dc {
inline namespace DC_CPU_CAPABILITY {
namespace {

using vec::Vec;

// Lerp's and addcmul's scalar tails round once in torch's AVX2/AVX-512 builds, like their vector
// bodies (checked against torch): vec::fmadd_contracted.
using vec::fmadd_contracted;

// ---- lerp ----------------------------------------------------------------------------------------

/// Lerp.h lerp(): |w| < 0.5 ? self + w * (end - self) : end - (end - self) * (1 - w). Contracted,
/// the second form is fma(-(end - self), 1 - w, end) = fma(w - 1, end - self, end) (1 - w exact
/// negation of w - 1), i.e. the same as lerp_vec's fmadd(coeff, end - start, base).
template <class T>
inline T lerp_scalar(T self, T end, T w) {
  const T diff = end - self;
  if (std::abs(w) < T(0.5)) return fmadd_contracted(w, diff, self);
  return fmadd_contracted(-diff, T(1) - w, end);
}

void lerp_scalar_kernel(TensorIter& iter, const Scalar& weight) {
  dispatch_dtype(iter.common_dtype(), [&]<class T>() {
    if constexpr (std::is_floating_point_v<T>) {
      const T w = scalar_to<T>(weight);
      // LerpKernel.cpp lerp_vec: mask = |w| < 0.5; coeff = mask ? w : w - 1; base = mask ? start : end;
      // vec::fmadd(coeff, end - start, base) (an explicit FMA on AVX2/AVX-512, two roundings on DEFAULT).
      // A scalar weight's mask is the same in every lane, so it is decided once.
      const bool small = std::abs(w) < T(0.5);
      const Vec<T> coeff(small ? w : w - T(1));
      cpu_kernel_vec(
          iter, [=](T s, T e) -> T { return lerp_scalar(s, e, w); },
          [=](Vec<T> s, Vec<T> e) { return vec::fmadd(coeff, e - s, small ? s : e); });
    } else {
      throw NotImplementedError(
          dc::format("\"lerp_kernel_scalar\" not implemented for '{}' in densecore yet", scalar_type_name(iter.common_dtype())));
    }
  });
}

// ---- addcmul / addcdiv ---------------------------------------------------------------------------

/// self + value * t1 * t2, i.e. fma(value * t1, t2, self) as compiled (see fmadd_contracted).
void addcmul_kernel(TensorIter& iter, const Scalar& value) {
  dispatch_dtype(iter.common_dtype(), [&]<class T>() {
    if constexpr (std::is_floating_point_v<T>) {
      const T v = scalar_to<T>(value);
      auto op = [=](T s, T a, T b) -> T { return fmadd_contracted(v * a, b, s); };
      const Vec<T> vv(v);
      // fmadd_contracted(v * a, b, s) per lane, as whole vectors (vec::fmadd: one rounding where it does).
      cpu_kernel_vec(iter, op, [=](Vec<T> s, Vec<T> a, Vec<T> b) { return vec::fmadd(vv * a, b, s); });
    } else if constexpr (std::is_integral_v<T> && !std::is_same_v<T, bool>) {
      const T v = scalar_to<T>(value);
      cpu_kernel(iter, [=](T s, T a, T b) -> T { return vec::wrap_add(s, vec::wrap_mul(vec::wrap_mul(v, a), b)); });
    } else {
      throw NotImplementedError(
          dc::format("\"addcmul_cpu_out\" not implemented for '{}' in densecore yet", scalar_type_name(iter.common_dtype())));
    }
  });
}

/// self + value * t1 / t2: three roundings (mul, div, add), the scalar multiplies t1 first.
void addcdiv_kernel(TensorIter& iter, const Scalar& value) {
  dispatch_dtype(iter.common_dtype(), [&]<class T>() {
    if constexpr (std::is_floating_point_v<T>) {
      const T v = scalar_to<T>(value);
      const Vec<T> vv(v);
      cpu_kernel_vec(
          iter, [=](T s, T a, T b) -> T { return s + v * a / b; },
          [=](Vec<T> s, Vec<T> a, Vec<T> b) { return s + vv * a / b; });
    } else {
      throw NotImplementedError(
          dc::format("\"addcdiv_cpu_out\" not implemented for '{}' in densecore yet", scalar_type_name(iter.common_dtype())));
    }
  });
}

}  // namespace
}  // namespace DC_CPU_CAPABILITY

DC_REGISTER_DISPATCH(lerp_stub, &lerp_scalar_kernel);
DC_REGISTER_DISPATCH(addcmul_stub, &addcmul_kernel);
DC_REGISTER_DISPATCH(addcdiv_stub, &addcdiv_kernel);

}  // namespace dc
