// Per-lane ports of the SLEEF 3.8 functions torch's Vectorized<float/double>::exp()/log() call
// (Sleef_expf8_u10 / expf16_u10 = xexpf, Sleef_logf8_u10 / logf16_u10 = xlogf_u1, Sleef_expd4_u10
// / expd8_u10 = xexp, Sleef_logd4_u10 / logd8_u10 = xlog_u1; src/libm/sleefsimd{sp,dp}.c with the
// FMA helpers of src/common/df.h, dd.h). The AVX2 and AVX-512 builds of SLEEF use FMA, written here
// with std::fma; xlog* takes the getexp/getmant path on AVX-512 (helperavx512f.h), as SLEEF does.
// Only include from kernels/cpu/ AVX2/AVX-512 builds (DEFAULT torch maps std::exp/std::log).
#pragma once

#include <bit>
#include <cmath>
#include <cstdint>
#include <limits>

#include <immintrin.h>

namespace dc::sleef {
inline namespace DC_CPU_CAPABILITY {

// ---- float -------------------------------------------------------------------------------------

inline int32_t rint_i32(float x) { return _mm_cvtss_si32(_mm_set_ss(x)); }  // cvtps2dq, RNE
inline float pow2i(int32_t q) { return std::bit_cast<float>(uint32_t(q + 0x7f) << 23); }
inline float ldexp2(float d, int32_t e) { return d * pow2i(e >> 1) * pow2i(e - (e >> 1)); }

struct F2 {
  float x, y;
};
inline F2 dfadd2(float x, float y) {
  const float s = x + y, v = s - x;
  return {s, (x - (s - v)) + (y - v)};
}
inline F2 dfadd(F2 x, F2 y) {  // |x| >= |y|
  const float s = x.x + y.x;
  return {s, (((x.x - s) + y.x) + x.y) + y.y};
}
inline F2 dfadd(F2 x, float y) {
  const float s = x.x + y;
  return {s, ((x.x - s) + y) + x.y};
}
inline F2 dfmul(F2 x, float y) {
  const float s = x.x * y;
  return {s, std::fma(x.y, y, std::fma(x.x, y, -s))};
}
inline F2 dfscale(F2 d, float s) { return {d.x * s, d.y * s}; }
inline F2 dfdiv(F2 n, F2 d) {
  const float t = 1.0f / d.x;
  const float s = n.x * t;
  const float u = std::fma(t, n.x, -s);
  const float v = std::fma(-d.y, t, std::fma(-d.x, t, 1.0f));
  return {s, std::fma(s, v, std::fma(n.y, t, u))};
}

/// xexpf (u10).
inline float expf_u10(float d) {
  const int32_t q = rint_i32(d * 1.442695040888963407359924681001892137426645954152985934135449406931f);
  float s = std::fma(float(q), -0.693145751953125f, d);
  s = std::fma(float(q), -1.428606765330187045e-06f, s);
  float u = 0.000198527617612853646278381f;
  u = std::fma(u, s, 0.00139304355252534151077271f);
  u = std::fma(u, s, 0.00833336077630519866943359f);
  u = std::fma(u, s, 0.0416664853692054748535156f);
  u = std::fma(u, s, 0.166666671633720397949219f);
  u = std::fma(u, s, 0.5f);
  u = 1.0f + std::fma(s * s, u, s);
  u = ldexp2(u, q);
  if (d < -104) u = 0.0f;
  if (100 < d) u = std::numeric_limits<float>::infinity();
  return u;
}

/// xlogf_u1 (Sleef_logf*_u10).
inline float logf_u10(float d) {
  float m;
  F2 s;
#if defined(DC_CPU_CAPABILITY_AVX512)
  // vgetexp(d / 0.75) and vgetmant(d, [0.75, 1.5)) for finite positive d; fixup handles the rest.
  float e = float(std::ilogb(d * (1.0f / 0.75f)));
  if (std::isinf(d * (1.0f / 0.75f))) e = 128.0f;
  {
    int ex;
    const float fr = std::frexp(d, &ex);  // d = fr * 2^ex, fr in [0.5, 1)
    m = fr >= 0.75f ? fr : fr * 2.0f;
  }
  s = dfmul(F2{0.69314718246459960938f, -1.904654323148236017e-09f}, e);
#else
  const bool o = d < 0x1p-126f;
  if (o) d = d * (float(int64_t(1) << 32) * float(int64_t(1) << 32));
  int32_t e = int32_t((std::bit_cast<uint32_t>(d * (1.0f / 0.75f)) >> 23) & 0xff) - 0x7f;
  m = std::bit_cast<float>(std::bit_cast<uint32_t>(d) + (uint32_t(-e) << 23));
  if (o) e -= 64;
  s = dfmul(F2{0.69314718246459960938f, -1.904654323148236017e-09f}, float(e));
#endif
  const F2 x = dfdiv(dfadd2(-1.0f, m), dfadd2(1.0f, m));
  const float x2 = x.x * x.x;
  float t = 0.3027294874e+0f;
  t = std::fma(t, x2, 0.3996108174e+0f);
  t = std::fma(t, x2, 0.6666694880e+0f);
  s = dfadd(s, dfscale(x, 2.0f));
  s = dfadd(s, (x2 * x.x) * t);
  float r = s.x + s.y;
  if (std::isinf(d) && d > 0) r = std::numeric_limits<float>::infinity();
#if defined(DC_CPU_CAPABILITY_AVX512)
  // vfixupimm keeps the computed value for a NaN input, and that value is the input NaN, quieted.
  if (d < 0) r = std::numeric_limits<float>::quiet_NaN();
  if (std::isnan(d)) r = std::bit_cast<float>(std::bit_cast<uint32_t>(d) | 0x00400000u);
#else
  if (d < 0 || std::isnan(d)) r = std::numeric_limits<float>::quiet_NaN();  // SLEEF_NANf
#endif
  if (d == 0) r = -std::numeric_limits<float>::infinity();
  return r;
}

// ---- double ------------------------------------------------------------------------------------

inline double pow2i_d(int32_t q) { return std::bit_cast<double>(uint64_t(uint32_t(q + 0x3ff)) << 52); }
inline double ldexp2(double d, int32_t e) { return d * pow2i_d(e >> 1) * pow2i_d(e - (e >> 1)); }

struct D2 {
  double x, y;
};
inline D2 ddadd2(double x, double y) {
  const double s = x + y, v = s - x;
  return {s, (x - (s - v)) + (y - v)};
}
inline D2 ddadd(D2 x, D2 y) {
  const double s = x.x + y.x;
  return {s, (((x.x - s) + y.x) + x.y) + y.y};
}
inline D2 ddadd(D2 x, double y) {
  const double s = x.x + y;
  return {s, ((x.x - s) + y) + x.y};
}
inline D2 ddmul(D2 x, double y) {
  const double s = x.x * y;
  return {s, std::fma(x.y, y, std::fma(x.x, y, -s))};
}
inline D2 ddscale(D2 d, double s) { return {d.x * s, d.y * s}; }
inline D2 dddiv(D2 n, D2 d) {
  const double t = 1.0 / d.x;
  const double s = n.x * t;
  const double u = std::fma(t, n.x, -s);
  const double v = std::fma(-d.y, t, std::fma(-d.x, t, 1.0));
  return {s, std::fma(s, v, std::fma(n.y, t, u))};
}

/// xexp (u10), the FMA polynomial.
inline double exp_u10(double d) {
  const double uq = std::nearbyint(d * 1.442695040888963407359924681001892137426645954152985934135449406931);
  const int32_t q = _mm_cvtsd_si32(_mm_set_sd(uq));
  double s = std::fma(uq, -.69314718055966295651160180568695068359375, d);
  s = std::fma(uq, -.28235290563031577122588448175013436025525412068e-12, s);
  const double s2 = s * s, s4 = s2 * s2, s8 = s4 * s4;
  auto mla = [](double x, double y, double z) { return std::fma(x, y, z); };
  // POLY10(s, s2, s4, s8, c9..c0) = MLA(s8, POLY2(c9,c8), POLY8(c7..c0)) (src/common/estrin.h)
  const double p2 = mla(s, +0.2081276378237164457e-8, +0.2511210703042288022e-7);
  const double p4a = mla(s2, mla(s, +0.2755762628169491192e-6, +0.2755723402025388239e-5),
                         mla(s, +0.2480158687479686264e-4, +0.1984126989855865850e-3));
  const double p4b = mla(s2, mla(s, +0.1388888888914497797e-2, +0.8333333333314938210e-2),
                         mla(s, +0.4166666666666602598e-1, +0.1666666666666669072e+0));
  double u = mla(s8, p2, mla(s4, p4a, p4b));
  u = std::fma(u, s, 0.5);
  u = std::fma(u, s, 1.0);
  u = std::fma(u, s, 1.0);
  u = ldexp2(u, q);
  if (d > 0x1.62e42fefa39efp+9) u = std::numeric_limits<double>::infinity();
  if (d < -1000) u = 0.0;
  return u;
}

/// xlog_u1 (Sleef_logd*_u10).
inline double log_u10(double d) {
  double m;
  D2 s;
#if defined(DC_CPU_CAPABILITY_AVX512)
  double e = double(std::ilogb(d * (1.0 / 0.75)));
  if (std::isinf(d * (1.0 / 0.75))) e = 1024.0;
  {
    int ex;
    const double fr = std::frexp(d, &ex);
    m = fr >= 0.75 ? fr : fr * 2.0;
  }
  const double ef = e;
#else
  const bool o = d < 0x1p-1022;
  if (o) d = d * (double(int64_t(1) << 32) * double(int64_t(1) << 32));
  int32_t e = int32_t((std::bit_cast<uint64_t>(d * (1.0 / 0.75)) >> 52) & 0x7ff) - 0x3ff;
  m = std::bit_cast<double>(std::bit_cast<uint64_t>(d) + (uint64_t(int64_t(-e)) << 52));
  if (o) e -= 64;
  const double ef = double(e);
#endif
  const D2 x = dddiv(ddadd2(-1.0, m), ddadd2(1.0, m));
  const double x2 = x.x * x.x, x4 = x2 * x2, x8 = x4 * x4;
  auto mla = [](double a, double b, double c) { return std::fma(a, b, c); };
  // POLY7(x2, x4, x8, c6..c0) = MLA(x8, POLY3(x2, x4, c6, c5, c4), POLY4(x2, x4, c3..c0))
  const double p3 = mla(x4, 0.1532076988502701353e+0, mla(x2, 0.1525629051003428716e+0, 0.1818605932937785996e+0));
  const double p4 = mla(x4, mla(x2, 0.2222214519839380009e+0, 0.2857142932794299317e+0),
                        mla(x2, 0.3999999999635251990e+0, 0.6666666666667333541e+0));
  const double t = mla(x8, p3, p4);
  s = ddmul(D2{0.693147180559945286226764, 2.319046813846299558417771e-17}, ef);
  s = ddadd(s, ddscale(x, 2.0));
  s = ddadd(s, (x2 * x.x) * t);
  double r = s.x + s.y;
  if (std::isinf(d) && d > 0) r = std::numeric_limits<double>::infinity();
#if defined(DC_CPU_CAPABILITY_AVX512)
  if (d < 0) r = std::numeric_limits<double>::quiet_NaN();
  if (std::isnan(d)) r = std::bit_cast<double>(std::bit_cast<uint64_t>(d) | 0x0008000000000000ull);
#else
  if (d < 0 || std::isnan(d)) r = std::numeric_limits<double>::quiet_NaN();  // SLEEF_NAN
#endif
  if (d == 0) r = -std::numeric_limits<double>::infinity();
  return r;
}

}  // namespace DC_CPU_CAPABILITY
}  // namespace dc::sleef
