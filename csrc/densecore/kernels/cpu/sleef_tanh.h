// Whole-vector ports of SLEEF 3.8's u10 tanh, which torch's Vectorized<float/double>::tanh() call: xtanhf
// (Sleef_tanhf8_u10 / tanhf16_u10, src/libm/sleefsimdsp.c @ 5a1d179d, with expk2f and the ENABLE_FMA_SP
// double-float helpers of src/common/df.h) and xtanh (Sleef_tanhd4_u10 / tanhd8_u10, src/libm/sleefsimddp.c,
// with expk2, POLY10 of src/common/estrin.h and the ENABLE_FMA_DP double-double helpers of src/common/dd.h).
// SLEEF's own operations in its order, on every lane at once (GCC vector types at the capability's width), so
// GCC emits vector code; every FMA of SLEEF's AVX2/AVX-512 build is written out. AVX2/AVX-512 builds only.
// The double-double helpers, estrin and exp_reduce are also sleef_erf.h's (xerf_u1 and its expk).
#pragma once

#include <bit>

#include "densecore/kernels/vec/lane_math.h"

namespace dc::sleef {
inline namespace DC_CPU_CAPABILITY {

using vec::FLanes;
using vec::ILanes;

/// A double-float on every lane: the value is hi + lo.
struct F2Lanes {
  FLanes hi, lo;
};

inline FLanes fma_l(FLanes a, FLanes b, FLanes c) { return vec::fma_lanes(a, b, c); }

inline F2Lanes df_add2(F2Lanes x, FLanes y) {  // dfadd2_vf2_vf2_vf
  const FLanes s = x.hi + y, v = s - x.hi;
  const FLanes t = (x.hi - (s - v)) + (y - v);
  return {s, t + x.lo};
}
inline F2Lanes df_add2(F2Lanes x, F2Lanes y) {  // dfadd2_vf2_vf2_vf2
  const FLanes s = x.hi + y.hi, v = s - x.hi;
  const FLanes t = (x.hi - (s - v)) + (y.hi - v);
  return {s, t + (x.lo + y.lo)};
}
inline F2Lanes df_add(FLanes x, F2Lanes y) {  // dfadd_vf2_vf_vf2
  const FLanes s = x + y.hi;
  return {s, ((x - s) + y.hi) + y.lo};
}
inline F2Lanes df_add(F2Lanes x, F2Lanes y) {  // dfadd_vf2_vf2_vf2 (|x| >= |y|)
  const FLanes s = x.hi + y.hi;
  return {s, (((x.hi - s) + y.hi) + x.lo) + y.lo};
}
inline F2Lanes df_mul(F2Lanes x, FLanes y) {  // dfmul_vf2_vf2_vf (FMA)
  const FLanes s = x.hi * y;
  return {s, fma_l(x.lo, y, fma_l(x.hi, y, -s))};
}
inline F2Lanes df_mul(F2Lanes x, F2Lanes y) {  // dfmul_vf2_vf2_vf2 (FMA)
  const FLanes s = x.hi * y.hi;
  return {s, fma_l(x.hi, y.lo, fma_l(x.lo, y.hi, fma_l(x.hi, y.hi, -s)))};
}
inline F2Lanes df_squ(F2Lanes x) {  // dfsqu_vf2_vf2 (FMA)
  const FLanes s = x.hi * x.hi;
  return {s, fma_l(x.hi + x.hi, x.lo, fma_l(x.hi, x.hi, -s))};
}
inline F2Lanes df_rec(F2Lanes d) {  // dfrec_vf2_vf2 (FMA)
  const FLanes s = vec::splat(1.0f) / d.hi;
  return {s, s * fma_l(-d.lo, s, fma_l(-d.hi, s, vec::splat(1.0f)))};
}
inline F2Lanes df_div(F2Lanes n, F2Lanes d) {  // dfdiv_vf2_vf2_vf2 (FMA)
  const FLanes t = vec::splat(1.0f) / d.hi;
  const FLanes s = n.hi * t;
  const FLanes u = fma_l(t, n.hi, -s);
  const FLanes v = fma_l(-d.lo, t, fma_l(-d.hi, t, vec::splat(1.0f)));
  return {s, fma_l(s, v, fma_l(n.lo, t, u))};
}
inline FLanes ldexp2_lanes(FLanes d, ILanes e) {  // vldexp2_vf_vf_vi2: two steps, so 2^e may overflow one
  return d * vec::pow2i_lanes(e >> 1) * vec::pow2i_lanes(e - (e >> 1));
}

/// expk2f: exp of a double-float, as a double-float (0 below -104).
inline F2Lanes expk2f_lanes(F2Lanes d) {
  const FLanes u0 = (d.hi + d.lo) * vec::splat(1.442695040888963407359924681001892137426645954152985934135449406931f);
  const ILanes q = vec::rint_lanes(u0);
  const FLanes qf = __builtin_convertvector(q, FLanes);
  F2Lanes s = df_add2(d, qf * vec::splat(-0.693145751953125f));
  s = df_add2(s, qf * vec::splat(-1.428606765330187045e-06f));
  FLanes u = vec::splat(0.1980960224e-3f);
  u = fma_l(u, s.hi, vec::splat(0.1394256484e-2f));
  u = fma_l(u, s.hi, vec::splat(0.8333456703e-2f));
  u = fma_l(u, s.hi, vec::splat(0.4166637361e-1f));
  F2Lanes t = df_add2(df_mul(s, u), vec::splat(0.166666659414234244790680580464e+0f));
  t = df_add2(df_mul(s, t), vec::splat(0.5f));
  t = df_add2(s, df_mul(df_squ(s), t));
  t = df_add(vec::splat(1.0f), t);
  t = {ldexp2_lanes(t.hi, q), ldexp2_lanes(t.lo, q)};
  const auto underflow = d.hi < vec::splat(-104.0f);
  return {underflow ? vec::splat(0.0f) : t.hi, underflow ? vec::splat(0.0f) : t.lo};
}

/// xtanhf (u10) on every lane: (e^|x| - e^-|x|) / (e^|x| + e^-|x|) in double-floats, 1 beyond 8.66 or where
/// that is NaN, x's sign xor'ed in (vmulsign), and all ones for a NaN x (vor with the NaN mask).
inline FLanes tanhf_u10_lanes(FLanes x) {
  const ILanes sign = ILanes(x) & int32_t(0x80000000u);
  const FLanes ax = FLanes(ILanes(x) & 0x7fffffff);
  F2Lanes d = expk2f_lanes({ax, vec::splat(0.0f)});
  const F2Lanes e = df_rec(d);
  d = df_div(df_add(d, F2Lanes{-e.hi, -e.lo}), df_add(d, e));
  FLanes y = d.hi + d.lo;
  y = (ax > vec::splat(8.664339742f)) | (y != y) ? vec::splat(1.0f) : y;
  y = FLanes(ILanes(y) ^ sign);
  return FLanes(ILanes(y) | ILanes(x != x));
}

// ---- double ------------------------------------------------------------------------------------

using vec::DLanes;
using vec::LLanes;
using vec::splat_d;

/// A double-double on every lane: the value is hi + lo.
struct D2Lanes {
  DLanes hi, lo;
};

inline DLanes fma_d(DLanes a, DLanes b, DLanes c) { return vec::fma_lanes(a, b, c); }

inline D2Lanes dd_neg(D2Lanes x) { return {-x.hi, -x.lo}; }  // ddneg_vd2_vd2
inline D2Lanes dd_add2(D2Lanes x, DLanes y) {  // ddadd2_vd2_vd2_vd
  const DLanes s = x.hi + y, v = s - x.hi;
  const DLanes w = (x.hi - (s - v)) + (y - v);
  return {s, w + x.lo};
}
inline D2Lanes dd_add2(D2Lanes x, D2Lanes y) {  // ddadd2_vd2_vd2_vd2
  const DLanes s = x.hi + y.hi, v = s - x.hi;
  const DLanes t = (x.hi - (s - v)) + (y.hi - v);
  return {s, t + (x.lo + y.lo)};
}
inline D2Lanes dd_add(DLanes x, D2Lanes y) {  // ddadd_vd2_vd_vd2 (|x| >= |y|)
  const DLanes s = x + y.hi;
  return {s, ((x - s) + y.hi) + y.lo};
}
inline D2Lanes dd_add(D2Lanes x, D2Lanes y) {  // ddadd_vd2_vd2_vd2 (|x| >= |y|)
  const DLanes s = x.hi + y.hi;
  return {s, (((x.hi - s) + y.hi) + x.lo) + y.lo};
}
inline D2Lanes dd_mul(D2Lanes x, DLanes y) {  // ddmul_vd2_vd2_vd (FMA)
  const DLanes s = x.hi * y;
  return {s, fma_d(x.lo, y, fma_d(x.hi, y, -s))};
}
inline D2Lanes dd_mul(D2Lanes x, D2Lanes y) {  // ddmul_vd2_vd2_vd2 (FMA)
  const DLanes s = x.hi * y.hi;
  return {s, fma_d(x.hi, y.lo, fma_d(x.lo, y.hi, fma_d(x.hi, y.hi, -s)))};
}
inline D2Lanes dd_squ(D2Lanes x) {  // ddsqu_vd2_vd2 (FMA)
  const DLanes s = x.hi * x.hi;
  return {s, fma_d(x.hi + x.hi, x.lo, fma_d(x.hi, x.hi, -s))};
}
inline D2Lanes dd_rec(D2Lanes d) {  // ddrec_vd2_vd2 (FMA)
  const DLanes s = splat_d(1.0) / d.hi;
  return {s, s * fma_d(-d.lo, s, fma_d(-d.hi, s, splat_d(1.0)))};
}
inline D2Lanes dd_div(D2Lanes n, D2Lanes d) {  // dddiv_vd2_vd2_vd2 (FMA)
  const DLanes t = splat_d(1.0) / d.hi;
  const DLanes s = n.hi * t;
  const DLanes u = fma_d(t, n.hi, -s);
  const DLanes v = fma_d(-d.lo, t, fma_d(-d.hi, t, splat_d(1.0)));
  return {s, fma_d(s, v, fma_d(n.lo, t, u))};
}
inline DLanes ldexp2_lanes(DLanes d, LLanes e) {  // vldexp2_vd_vd_vi: two steps, so 2^e may overflow one
  return d * vec::pow2i_lanes(e >> 1) * vec::pow2i_lanes(e - (e >> 1));
}

inline D2Lanes dd_normalize(D2Lanes t) {  // ddnormalize_vd2_vd2
  const DLanes s = t.hi + t.lo;
  return {s, (t.hi - s) + t.lo};
}

/// POLYn of estrin.h for any n: c holds the n coefficients, highest degree first, and pw the powers x, x^2,
/// x^4, ... SLEEF's grouping: the low half is POLYm over the largest power of two m below n, the rest
/// POLY(n-m) times x^m, added in one FMA (POLY4 = fma(x2, fma(x, c3, c2), fma(x, c1, c0)), POLY21 =
/// fma(x16, POLY5, POLY16), ...).
template <int N>
inline DLanes estrin(const DLanes* pw, const DLanes* c) {
  if constexpr (N == 1) {
    return c[0];
  } else {
    constexpr unsigned m = std::bit_floor(unsigned(N - 1));
    return fma_d(pw[std::countr_zero(m)], estrin<N - int(m)>(pw, c), estrin<int(m)>(pw, c + (N - int(m))));
  }
}

/// The argument reduction shared by expk and expk2: q = rint(d / ln2) (q's low 32 bits, for ldexp2_lanes)
/// and s = d - q ln2 in a double-double, ln2 split in two (L2U, L2L of SLEEF's misc.h).
inline D2Lanes exp_reduce(D2Lanes d, LLanes& q) {
  const DLanes dq = vec::rint_lanes_d((d.hi + d.lo) * splat_d(1.442695040888963407359924681001892137426645954152985934135449406931));
  q = vec::rint_i32_lanes(dq);
  const D2Lanes s = dd_add2(d, dq * splat_d(-.69314718055966295651160180568695068359375));
  return dd_add2(s, dq * splat_d(-.28235290563031577122588448175013436025525412068e-12));
}

/// expk2: exp of a double-double, as a double-double (0 below -1000).
inline D2Lanes expk2_lanes(D2Lanes d) {
  LLanes q;
  const D2Lanes s = exp_reduce(d, q);
  const D2Lanes s2 = dd_squ(s), s4 = dd_squ(s2);
  const DLanes pw[] = {s.hi, s2.hi, s4.hi, s4.hi * s4.hi};
  const DLanes c[] = {splat_d(+0.1602472219709932072e-9), splat_d(+0.2092255183563157007e-8),
                      splat_d(+0.2505230023782644465e-7), splat_d(+0.2755724800902135303e-6),
                      splat_d(+0.2755731892386044373e-5), splat_d(+0.2480158735605815065e-4),
                      splat_d(+0.1984126984148071858e-3), splat_d(+0.1388888888886763255e-2),
                      splat_d(+0.8333333333333347095e-2), splat_d(+0.4166666666666669905e-1)};
  const DLanes u = estrin<10>(pw, c);
  D2Lanes t = dd_add(splat_d(0.5), dd_mul(s, splat_d(+0.1666666666666666574e+0)));
  t = dd_add(splat_d(1.0), dd_mul(t, s));
  t = dd_add(splat_d(1.0), dd_mul(t, s));
  t = dd_add(t, dd_mul(s4, u));
  t = {ldexp2_lanes(t.hi, q), ldexp2_lanes(t.lo, q)};
  const auto underflow = d.hi < splat_d(-1000.0);
  return {underflow ? splat_d(0.0) : t.hi, underflow ? splat_d(0.0) : t.lo};
}

/// xtanh (u10) on every lane: (e^|x| - e^-|x|) / (e^|x| + e^-|x|) in double-doubles, 1 beyond 18.714973875
/// or where that is NaN, x's sign xor'ed in (vmulsign), and all ones for a NaN x (vor with the NaN mask).
inline DLanes tanh_u10_lanes(DLanes x) {
  const LLanes sign = LLanes(x) & int64_t(0x8000000000000000ull);
  const DLanes ax = DLanes(LLanes(x) & int64_t(0x7fffffffffffffffll));
  D2Lanes d = expk2_lanes({ax, splat_d(0.0)});
  const D2Lanes e = dd_rec(d);
  d = dd_div(dd_add2(d, dd_neg(e)), dd_add2(d, e));
  DLanes y = d.hi + d.lo;
  y = (ax > splat_d(18.714973875)) | (y != y) ? splat_d(1.0) : y;
  y = DLanes(LLanes(y) ^ sign);
  return DLanes(LLanes(y) | LLanes(x != x));
}

}  // namespace DC_CPU_CAPABILITY
}  // namespace dc::sleef
