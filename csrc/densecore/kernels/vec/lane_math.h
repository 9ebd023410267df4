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

#include <bit>
#include <cmath>
#include <cstdint>
#include <limits>
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

#if defined(DC_VEC_X86)
// Whole-vector float lanes at the capability's width (GCC vector extensions), for functions written once
// per lane above: the same operations in the same order give the same bits, eight or sixteen at a time.
using FLanes = VecLanes<float>::native_t;
typedef int32_t ILanes __attribute__((vector_size(kVecBytes)));

inline FLanes splat(float c) { return Vec<float>(c).v; }
inline FLanes splat_bits(uint32_t b) { return splat(std::bit_cast<float>(b)); }
inline FLanes floor_lanes(FLanes x) {
#if defined(DC_CPU_CAPABILITY_AVX512)
  return FLanes(_mm512_roundscale_ps(__m512(x), _MM_FROUND_TO_NEG_INF | _MM_FROUND_NO_EXC));
#else
  return FLanes(_mm256_floor_ps(__m256(x)));
#endif
}
inline ILanes rint_lanes(FLanes x) {  // cvtps2dq, round to nearest even
#if defined(DC_CPU_CAPABILITY_AVX512)
  return ILanes(_mm512_cvtps_epi32(__m512(x)));
#else
  return ILanes(_mm256_cvtps_epi32(__m256(x)));
#endif
}
inline FLanes fma_lanes(FLanes a, FLanes b, FLanes c) { return native_fmadd(a, b, c); }
inline FLanes pow2i_lanes(ILanes q) { return FLanes((q + 0x7f) << 23); }

// Whole-vector double lanes (4 on AVX2, 8 on AVX-512); 32-bit integer results (SLEEF's vint) widened to
// 64-bit lanes, which keeps their low bits, all that pow2i_lanes uses.
using DLanes = VecLanes<double>::native_t;
typedef int64_t LLanes __attribute__((vector_size(kVecBytes)));

inline DLanes splat_d(double c) { return Vec<double>(c).v; }
inline DLanes fma_lanes(DLanes a, DLanes b, DLanes c) { return native_fmadd(a, b, c); }
inline DLanes rint_lanes_d(DLanes x) {  // vroundpd / vrndscalepd to nearest even, an integral double
#if defined(DC_CPU_CAPABILITY_AVX512)
  return DLanes(_mm512_roundscale_pd(__m512d(x), _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC));
#else
  return DLanes(_mm256_round_pd(__m256d(x), _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC));
#endif
}
inline LLanes rint_i32_lanes(DLanes x) {  // vcvtpd2dq (0x80000000 for NaN and out of range), sign-extended
#if defined(DC_CPU_CAPABILITY_AVX512)
  return LLanes(_mm512_cvtepi32_epi64(_mm512_cvt_roundpd_epi32(__m512d(x), _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC)));
#else
  return LLanes(_mm256_cvtepi32_epi64(_mm256_cvtpd_epi32(__m256d(x))));
#endif
}
/// 2^q as a double: (q + 0x3ff) in the exponent field, keeping only the field's 11 bits and the sign bit's
/// (as SLEEF's 32-bit shift into the upper half does).
inline DLanes pow2i_lanes(LLanes q) {
  typedef uint64_t ULanes __attribute__((vector_size(kVecBytes)));
  return DLanes(ULanes(q + 0x3ff) << 52);
}

/// Whether every lane of a compare mask (all ones or zero per lane) is set: SLEEF's vtestallones_i_vo64.
inline bool all_lanes(LLanes mask) {
#if defined(DC_CPU_CAPABILITY_AVX512)
  return _mm512_cmpneq_epi64_mask(__m512i(mask), _mm512_setzero_si512()) == 0xff;
#else
  return _mm256_movemask_pd(__m256d(mask)) == 0xf;
#endif
}

/// sleef::expf_u10 (sleef_port.h) on every lane: Sleef_expf8_u10 / expf16_u10 as torch runs them.
inline FLanes expf_u10_lanes(FLanes d) {
  const ILanes q = rint_lanes(d * splat(1.442695040888963407359924681001892137426645954152985934135449406931f));
  const FLanes qf = __builtin_convertvector(q, FLanes);
  FLanes s = fma_lanes(qf, splat(-0.693145751953125f), d);
  s = fma_lanes(qf, splat(-1.428606765330187045e-06f), s);
  FLanes u = splat(0.000198527617612853646278381f);
  u = fma_lanes(u, s, splat(0.00139304355252534151077271f));
  u = fma_lanes(u, s, splat(0.00833336077630519866943359f));
  u = fma_lanes(u, s, splat(0.0416664853692054748535156f));
  u = fma_lanes(u, s, splat(0.166666671633720397949219f));
  u = fma_lanes(u, s, splat(0.5f));
  u = splat(1.0f) + fma_lanes(s * s, u, s);
  u = u * pow2i_lanes(q >> 1) * pow2i_lanes(q - (q >> 1));  // ldexp2
  u = d < splat(-104.0f) ? splat(0.0f) : u;
  u = splat(100.0f) < d ? splat(std::numeric_limits<float>::infinity()) : u;
  return u;
}
#endif

/// Vectorized<T>::exp() / log() of a whole float or double Vec: float exp as whole vectors on
/// AVX2/AVX-512 (expf_u10_lanes), the rest lane by lane.
template <class T>
inline Vec<T> exp_lanes(const Vec<T>& x) {
  static_assert(std::is_floating_point_v<T>, "reduced floats convert per op: use Vec::map");
#if defined(DC_VEC_X86)
  if constexpr (std::is_same_v<T, float>) return Vec<float>::native(expf_u10_lanes(x.v));
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
