// Whole-vector port of SLEEF 3.8's xtanhf (Sleef_tanhf8_u10 / tanhf16_u10, src/libm/sleefsimdsp.c @
// 5a1d179d, with expk2f and the ENABLE_FMA_SP double-float helpers of src/common/df.h), which torch's
// Vectorized<float>::tanh() calls: SLEEF's own operations in its order, on every lane at once (GCC vector
// types at the capability's width), so GCC emits vector code. AVX2/AVX-512 builds only.
#pragma once

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

}  // namespace DC_CPU_CAPABILITY
}  // namespace dc::sleef
