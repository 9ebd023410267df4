// GELU forward and backward, mirroring aten/src/ATen/native/cpu/Activation.cpp (GeluKernelImpl,
// GeluBackwardKernelImpl) and Gelu.h, torch 2.14.1: ALSO_REGISTER_AVX512_DISPATCH, so AVX-512
// machines run 16 lanes. cpu_kernel_vec: the vector body uses Vectorized<float>::erf() (torch's own
// A&S polynomial around Sleef_expf*_u10, vec256_float.h / vec512_float.h) or Vectorized<double>::erf()
// (Sleef_erfd4/8_u10, vec256_double.h / vec512_double.h), the scalar tail glibc erff / erf.
#include <cmath>

#include "densecore/kernels/iter/loops.h"
#include "densecore/kernels/stubs/nn_stubs.h"
#include "densecore/kernels/vec/lane_math.h"
#if defined(DC_VEC_X86)
#include "densecore/kernels/cpu/sleef_erf.h"
#endif

namespace dc {
inline namespace DC_CPU_CAPABILITY {
namespace {

using vec::Vec;

#if defined(DC_VEC_X86)
using vec::FLanes;
using vec::ILanes;
using vec::fma_lanes;
using vec::splat;

/// Vectorized<float>::erf() (vec256_float.h / vec512_float.h): Abramowitz-Stegun, t = 1 / (1 + p|x|),
/// the degree-5 polynomial in explicit FMAs, exp(-x*x) through Sleef_expf*_u10, the sign put back.
inline FLanes erf_lanes(FLanes x) {
  const ILanes sign = ILanes(x) & int32_t(0x80000000u);
  const FLanes ax = FLanes(ILanes(x) & 0x7fffffff);
  const FLanes t = splat(1.0f) / fma_lanes(splat(0.3275911f), ax, splat(1.0f));
  FLanes r = fma_lanes(splat(1.061405429f), t, splat(-1.453152027f));
  r = fma_lanes(r, t, splat(1.421413741f));
  r = fma_lanes(r, t, splat(-0.284496736f));
  r = fma_lanes(r, t, splat(0.254829592f));
  const FLanes e = -vec::expf_u10_lanes(-(x * x));
  const FLanes y = fma_lanes(e * t, r, splat(1.0f));
  return FLanes(ILanes(y) ^ sign);
}
template <class T>
using Lanes = typename vec::VecLanes<T>::native_t;
template <class T>
inline Lanes<T> splat_as(T c) { return Vec<T>(c).v; }
/// Vectorized<T>::erf(): torch's A&S for float (erf_lanes), SLEEF's xerf_u1 for double (sleef_erf.h).
inline FLanes vectorized_erf(FLanes x) { return erf_lanes(x); }
inline vec::DLanes vectorized_erf(vec::DLanes x) { return sleef::erf_u10_lanes(x); }
/// Vectorized<T>::exp(): Sleef_expf8/16_u10 as whole vectors, Sleef_expd4/8_u10 lane by lane (sleef_port.h).
inline FLanes vectorized_exp(FLanes x) { return vec::expf_u10_lanes(x); }
inline vec::DLanes vectorized_exp(vec::DLanes x) { return vec::exp_lanes(Vec<double>::native(x)).v; }

/// gelu_scalar's formula on every float or double lane, with Vectorized<T>::erf: x * 0.5 * (1 + erf(x *
/// sqrt(1/2))), left to right. Where x is NaN, torch's machine code has x * 0.5 as the first operand of the
/// last product (x's NaN wins over erf's): pinned (Note [NaN operand order]).
template <class T>
inline Vec<T> gelu_lanes(const Vec<T>& x) {
  const Lanes<T> erf = vectorized_erf(x.v * splat_as(T(M_SQRT1_2)));
  return vec::mul_ordered(Vec<T>::native(x.v * splat_as(T(0.5))), Vec<T>::native(splat_as(T(1)) + erf));
}
/// gelu_bw_lane on every float or double lane: dy * fma(x, pdf, cdf), the derivative first in the product
/// with dy as in torch's machine code (pinned, Note [NaN operand order]).
template <class T>
inline Vec<T> gelu_bw_lanes(const Vec<T>& dy, const Vec<T>& x) {
  const Lanes<T> cdf = splat_as(T(0.5)) * (splat_as(T(1)) + vectorized_erf(x.v * splat_as(T(M_SQRT1_2))));
  const Lanes<T> pdf = splat_as(T(M_2_SQRTPI * M_SQRT1_2 * 0.5)) * vectorized_exp((x.v * x.v) * splat_as(T(-0.5)));
  return vec::mul_ordered(Vec<T>::native(fma_lanes(x.v, pdf, cdf)), dy);
}

/// Vectorized<T>::tanh(): Sleef_tanhf8/16_u10 for float, Sleef_tanhd4/8_u10 for double (sleef_tanh.h).
inline FLanes sleef_tanh(FLanes x) { return sleef::tanhf_u10_lanes(x); }
inline vec::DLanes sleef_tanh(vec::DLanes x) { return sleef::tanh_u10_lanes(x); }

template <class T>
constexpr T kTanhBeta = T(M_SQRT2 * M_2_SQRTPI * 0.5);
template <class T>
constexpr T kTanhKappa = T(0.044715);
/// gelu_tanh_scalar's operations on every float or double lane, with Sleef's tanh as whole vectors. A NaN x
/// meets tanh's all-ones NaN in the last product, where torch's machine code has 0.5 * x as the first operand
/// (x's NaN wins): pinned (Note [NaN operand order]), since GCC swaps the operands of the plain vector product.
template <class T>
inline Vec<T> gelu_tanh_lanes(const Vec<T>& x) {
  const Lanes<T> x_cube = x.v * x.v * x.v;
  const Lanes<T> inner = splat_as(kTanhBeta<T>) * fma_lanes(splat_as(kTanhKappa<T>), x_cube, x.v);
  const Vec<T> left = Vec<T>::native(splat_as(T(0.5)) * x.v);
  return vec::mul_ordered(left, Vec<T>::native(splat_as(T(1)) + sleef_tanh(inner)));
}
/// gelu_tanh_bw_scalar's operations on every float or double lane, the same FMAs. Where two NaNs meet, torch's
/// machine code keeps left_d first in the sum and the derivative first in the product with dy (a NaN x gives
/// tanh's all-ones NaN, whatever dy is): both pinned (Note [NaN operand order]).
template <class T>
inline Vec<T> gelu_tanh_bw_lanes(const Vec<T>& dy, const Vec<T>& x) {
  const Lanes<T> x_sq = x.v * x.v;
  const Lanes<T> x_cube = x_sq * x.v;
  const Lanes<T> inner = splat_as(kTanhBeta<T>) * fma_lanes(splat_as(kTanhKappa<T>), x_cube, x.v);
  const Lanes<T> t = sleef_tanh(inner);
  const Lanes<T> left = splat_as(T(0.5)) * x.v;
  const Lanes<T> right = splat_as(T(1)) + t;
  const Lanes<T> left_d = splat_as(T(0.5)) * right;
  const Lanes<T> tanh_d = fma_lanes(-t, t, splat_as(T(1)));
  const Lanes<T> inner_d = splat_as(kTanhBeta<T>) * fma_lanes(splat_as(T(3) * kTanhKappa<T>), x_sq, splat_as(T(1)));
  const Vec<T> derivative = vec::add_ordered(Vec<T>::native(left_d), Vec<T>::native(left * tanh_d * inner_d));
  return vec::mul_ordered(derivative, dy);
}
#endif

template <class T>
inline Vec<T> lanes(const Vec<T>& x, T (*f)(T)) {
  Vec<T> r;
  for (int i = 0; i < Vec<T>::kSize; ++i) r.v[i] = f(x.v[i]);
  return r;
}

// x * 0.5 * (1 + erf(x * sqrt(1/2))), left to right.
template <class T>
T gelu_scalar(T x) { return x * T(0.5) * (T(1) + std::erf(x * T(M_SQRT1_2))); }

// tanh form: inner = kBeta * fma(kKappa, x^3, x) (contracted in the -mfma builds); std::tanh (glibc, as torch's
// scalar lambda) in the scalar tail, Sleef's in the vector body (gelu_tanh_lanes; per lane on DEFAULT).
template <class T>
T gelu_tanh_scalar(T x) {
  const T x_cube = x * x * x;
  const T inner = T(M_SQRT2 * M_2_SQRTPI * 0.5) * vec::fmadd_contracted(T(0.044715), x_cube, x);
  return T(0.5) * x * (T(1) + std::tanh(inner));
}

// backward, approximate='none': dy * (cdf + x * pdf). GCC contracted x * pdf + cdf in the vector
// lambda but not in the scalar one (both checked bitwise against the wheel).
template <class T>
T gelu_bw_scalar(T dy, T x) {
  const T cdf = T(0.5) * (T(1) + std::erf(x * T(M_SQRT1_2)));
  const T pdf = T(M_2_SQRTPI * M_SQRT1_2 * 0.5) * std::exp(x * x * T(-0.5));
  return dy * (cdf + x * pdf);
}
template <class T>
T gelu_bw_lane(T dy, T x) {  // the DEFAULT build's vector body: vec_base.h's erf and exp are std::erf / std::exp
  const T cdf = T(0.5) * (T(1) + std::erf(x * T(M_SQRT1_2)));
  const T pdf = T(M_2_SQRTPI * M_SQRT1_2 * 0.5) * vec::exp_lane(x * x * T(-0.5));
  return dy * vec::fmadd_contracted(x, pdf, cdf);
}

// backward, approximate='tanh' (Activation.cpp), contractions as GCC makes them.
template <class T>
T gelu_tanh_bw_scalar(T dy, T x) {
  const T kBeta = T(M_SQRT2 * M_2_SQRTPI * 0.5), kKappa = T(0.044715);
  const T x_sq = x * x;
  const T x_cube = x_sq * x;
  const T inner = kBeta * vec::fmadd_contracted(kKappa, x_cube, x);
  const T t = std::tanh(inner);
  const T left = T(0.5) * x;
  const T right = T(1) + t;
  const T left_d = T(0.5) * right;
  const T tanh_d = vec::fmadd_contracted(-t, t, T(1));
  const T inner_d = kBeta * vec::fmadd_contracted(T(3) * kKappa, x_sq, T(1));
  // GCC fused 0.5 * right + right_d, which equals left_d + right_d (the product by 0.5 is exact).
  return dy * (left_d + left * tanh_d * inner_d);
}

void gelu_kernel(TensorIter& iter, bool tanh) {
  int64_t grain = kGrainSize;
  if (iter.numel() > 16384) grain = iter.numel() / get_num_threads();  // GELU_MIN_ELEMENTS_FOR_MULTI_THREADING
  dispatch_dtype(iter.dtype(0), [&]<class T>() {
    if constexpr (std::is_same_v<T, float> || std::is_same_v<T, double>) {
      if (tanh) {
        cpu_kernel_vec(iter, [](T x) -> T { return gelu_tanh_scalar(x); },
                       [](Vec<T> x) {
#if defined(DC_VEC_X86)
                         return gelu_tanh_lanes(x);
#else
                         return lanes<T>(x, &gelu_tanh_scalar<T>);  // vec_base.h's tanh: std::tanh per lane
#endif
                       }, grain);
      } else {
        cpu_kernel_vec(iter, [](T x) -> T { return gelu_scalar(x); },
                       [](Vec<T> x) {
#if defined(DC_VEC_X86)
                         return gelu_lanes(x);
#else
                         return lanes<T>(x, &gelu_scalar<T>);  // vec_base.h's erf: std::erf per lane
#endif
                       }, grain);
      }
    }
  });
}

void gelu_backward_kernel(TensorIter& iter, bool tanh) {
  dispatch_dtype(iter.dtype(0), [&]<class T>() {
    if constexpr (std::is_same_v<T, float> || std::is_same_v<T, double>) {
      if (tanh) {
        cpu_kernel_vec(iter, [](T dy, T x) -> T { return gelu_tanh_bw_scalar(dy, x); },
                       [](Vec<T> dy, Vec<T> x) {
#if defined(DC_VEC_X86)
                         return gelu_tanh_bw_lanes(dy, x);
#else
                         return Vec<T>::zip(dy, x, [](T a, T b) { return gelu_tanh_bw_scalar(a, b); });
#endif
                       });
      } else {
        cpu_kernel_vec(iter, [](T dy, T x) -> T { return gelu_bw_scalar(dy, x); },
                       [](Vec<T> dy, Vec<T> x) {
#if defined(DC_VEC_X86)
                         return gelu_bw_lanes(dy, x);
#else
                         return Vec<T>::zip(dy, x, [](T a, T b) { return gelu_bw_lane(a, b); });
#endif
                       });
      }
    }
  });
}

}  // namespace
}  // namespace DC_CPU_CAPABILITY

DC_ALSO_REGISTER_AVX512_DISPATCH(gelu_stub, &gelu_kernel);
DC_ALSO_REGISTER_AVX512_DISPATCH(gelu_backward_stub, &gelu_backward_kernel);

}  // namespace dc
