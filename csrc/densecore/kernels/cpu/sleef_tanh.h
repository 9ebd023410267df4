// Per-lane port of SLEEF 3.8's xtanhf (Sleef_tanhf8_u10 / tanhf16_u10, src/libm/sleefsimdsp.c @
// 5a1d179d, with expk2f and the ENABLE_FMA_SP double-float helpers of src/common/df.h), which torch's
// Vectorized<float>::tanh() calls. Builds on the helpers of sleef_port.h. AVX2/AVX-512 builds only.
#pragma once

#include "densecore/kernels/cpu/sleef_port.h"

namespace dc::sleef {
inline namespace DC_CPU_CAPABILITY {

inline F2 df_add2(F2 x, float y) {  // dfadd2_vf2_vf2_vf
  const float s = x.x + y, v = s - x.x;
  const float t = (x.x - (s - v)) + (y - v);
  return {s, t + x.y};
}
inline F2 df_add2(F2 x, F2 y) {  // dfadd2_vf2_vf2_vf2
  const float s = x.x + y.x, v = s - x.x;
  const float t = (x.x - (s - v)) + (y.x - v);
  return {s, t + (x.y + y.y)};
}
inline F2 df_add(float x, F2 y) {  // dfadd_vf2_vf_vf2
  const float s = x + y.x;
  return {s, ((x - s) + y.x) + y.y};
}
inline F2 df_mul(F2 x, F2 y) {  // dfmul_vf2_vf2_vf2 (FMA)
  const float s = x.x * y.x;
  return {s, std::fma(x.x, y.y, std::fma(x.y, y.x, std::fma(x.x, y.x, -s)))};
}
inline F2 df_squ(F2 x) {  // dfsqu_vf2_vf2 (FMA)
  const float s = x.x * x.x;
  return {s, std::fma(x.x + x.x, x.y, std::fma(x.x, x.x, -s))};
}
inline F2 df_rec(F2 d) {  // dfrec_vf2_vf2 (FMA)
  const float s = 1.0f / d.x;
  return {s, s * std::fma(-d.y, s, std::fma(-d.x, s, 1.0f))};
}

inline F2 expk2f(F2 d) {
  const float u0 = (d.x + d.y) * 1.442695040888963407359924681001892137426645954152985934135449406931f;
  const int32_t q = rint_i32(u0);
  F2 s = df_add2(d, float(q) * -0.693145751953125f);
  s = df_add2(s, float(q) * -1.428606765330187045e-06f);
  float u = 0.1980960224e-3f;
  u = std::fma(u, s.x, 0.1394256484e-2f);
  u = std::fma(u, s.x, 0.8333456703e-2f);
  u = std::fma(u, s.x, 0.4166637361e-1f);
  F2 t = df_add2(dfmul(s, u), 0.166666659414234244790680580464e+0f);
  t = df_add2(df_mul(s, t), 0.5f);
  t = df_add2(s, df_mul(df_squ(s), t));
  t = df_add(1.0f, t);
  t = {ldexp2(t.x, q), ldexp2(t.y, q)};
  if (d.x < -104) t = {0.0f, 0.0f};
  return t;
}

/// xtanhf (u10).
inline float tanhf_u10(float x) {
  float y = std::abs(x);
  F2 d = expk2f({y, 0.0f});
  const F2 e = df_rec(d);
  d = dfdiv(dfadd(d, F2{-e.x, -e.y}), dfadd(d, e));
  y = d.x + d.y;
  if (std::abs(x) > 8.664339742f || std::isnan(y)) y = 1.0f;
  y = std::copysign(y, x);  // vmulsign: sign of x xor'ed into y (y >= 0 here)
  if (std::isnan(x)) y = std::bit_cast<float>(0xffffffffu);  // vor with the NaN mask
  return y;
}

}  // namespace DC_CPU_CAPABILITY
}  // namespace dc::sleef
