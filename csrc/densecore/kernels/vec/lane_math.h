// Scalar lane math as torch's compiled CPU kernels compute it, one home for every kernel file
// (Note [Lane math]). Only include from kernels/cpu/ (it needs DC_CPU_CAPABILITY).
//
//  - fmadd_contracted / fnmadd_contracted: a scalar `a * b + c` (`c - a * b`) in torch's source that
//    GCC contracted into one vfmadd (vfnmadd) in the -mfma builds (AVX2, AVX-512), read from
//    libtorch_cpu.so's machine code site by site; torch's DEFAULT build has no FMA and rounds twice.
//    Our builds use -ffp-contract=off, so a site that torch rounds once must say so with this call,
//    and a site it rounds twice keeps the plain expression. (vec::fmadd in vec.h is the Vectorized
//    op, an explicit intrinsic in torch; these are the scalar expressions around it.)
//  - exp_lane / log_lane: one lane of Vectorized<T>::exp() / log() (aten/src/ATen/cpu/vec/vec256/
//    vec256_float.h, vec256_double.h, vec512/*): SLEEF u10 (sleef_port.h) on AVX2/AVX-512, the
//    DEFAULT build's vec_base.h maps std::exp / std::log per lane. exp_lanes / log_lanes do it to a
//    whole Vec. A scalar tail in torch calls glibc's std::exp directly, not these.
#pragma once

#include <cmath>
#include <cstring>
#include <type_traits>

#include "densecore/kernels/vec/vec.h"
#if defined(DC_VEC_X86)
#include "densecore/kernels/cpu/sleef_port.h"
#endif

namespace dc::vec {
inline namespace DC_CPU_CAPABILITY {

/// a * b + c where torch's build contracted it: one rounding on AVX2/AVX-512, two on DEFAULT.
template <class T>
inline T fmadd_contracted(T a, T b, T c) {
#if defined(DC_VEC_X86)
  return std::fma(a, b, c);
#else
  return a * b + c;
#endif
}

/// c - a * b where torch's build contracted it (vfnmadd): one rounding on AVX2/AVX-512, two on DEFAULT.
template <class T>
inline T fnmadd_contracted(T a, T b, T c) {
#if defined(DC_VEC_X86)
  return std::fma(-a, b, c);
#else
  return c - a * b;
#endif
}

/// One lane of Vectorized<T>::exp() / log(), T float or double: Sleef_expf8/16_u10 (expd4/8_u10),
/// Sleef_logf8/16_u10 (logd4/8_u10) on AVX2/AVX-512; vec_base.h's std::exp / std::log on DEFAULT.
#if defined(DC_VEC_X86)
template <class T>
inline T exp_lane(T x) {
  if constexpr (std::is_same_v<T, float>) return sleef::expf_u10(x);
  else return sleef::exp_u10(x);
}
template <class T>
inline T log_lane(T x) {
  if constexpr (std::is_same_v<T, float>) return sleef::logf_u10(x);
  else return sleef::log_u10(x);
}
#else
template <class T>
inline T exp_lane(T x) { return std::exp(x); }
template <class T>
inline T log_lane(T x) { return std::log(x); }
#endif

/// Vectorized<T>::exp() / log() of a whole float or double Vec. Float exp on AVX2/AVX-512 runs eight
/// lanes at a time (sleef::expf8_u10, the same bits as exp_lane); the rest lane by lane.
template <class T>
inline Vec<T> exp_lanes(const Vec<T>& x) {
  static_assert(std::is_floating_point_v<T>, "reduced floats convert per op: use Vec::map");
#if defined(DC_VEC_X86)
  if constexpr (std::is_same_v<T, float>) {
    static_assert(Vec<T>::size() % 8 == 0);
    Vec<T> r;
    for (int i = 0; i < Vec<T>::size(); i += 8) {
      __m256 lanes;
      std::memcpy(&lanes, reinterpret_cast<const char*>(&x.v) + i * sizeof(float), sizeof(lanes));
      lanes = sleef::expf8_u10(lanes);
      std::memcpy(reinterpret_cast<char*>(&r.v) + i * sizeof(float), &lanes, sizeof(lanes));
    }
    return r;
  }
#endif
  return x.map([](T t) { return exp_lane(t); });
}
template <class T>
inline Vec<T> log_lanes(const Vec<T>& x) {
  static_assert(std::is_floating_point_v<T>, "reduced floats convert per op: use Vec::map");
  return x.map([](T t) { return log_lane(t); });
}

}  // namespace DC_CPU_CAPABILITY
}  // namespace dc::vec
