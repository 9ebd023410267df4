// SLEEF's vector fmod as torch 2.14.1's AVX2 build runs it for Vectorized<float/double>::fmod
// (Sleef_finz_fmodf8_avx2 / Sleef_finz_fmodd4_avx2 in libtorch_cpu.so), NaN bit patterns included.
// Only include from kernels/cpu/ files compiled with AVX2 + FMA (or AVX-512).
#pragma once

#include <immintrin.h>

#include <cfloat>

namespace dc::sleef {
inline namespace DC_CPU_CAPABILITY {

// Note [SLEEF fmod NaN bits]: SLEEF's xfmod (sleefsimdsp.c / sleefsimddp.c) is a loop of
// double-word (hi, lo) reductions r -= q*d that runs until EVERY lane has r < d (at most 8 rounds
// for float, 21 for double), so a lane that never converges (NaN, inf, y == 0) makes all lanes run
// the extra rounds, which can move bits between hi and lo (the double result uses hi alone).
// Its NaN outputs carry traces of the arithmetic: the quotient estimate decrements r's bit
// pattern as an integer each round (NaN 0x7FFFFFFF becomes 0x7FFFFFFE, ...), and when both
// operands of an add/mul/FMA are NaN, x86 returns the FIRST source operand's NaN. GCC treats
// those instructions as commutative and may swap their sources, so every operation whose two
// inputs can both be NaN is pinned below with inline asm to the operand order found in torch's
// machine code (objdump of the two functions; float's unrolled rounds even alternate the order).

inline __m256 add_first(__m256 first, __m256 second) {
  __m256 r;
  asm("vaddps %2, %1, %0" : "=x"(r) : "x"(first), "x"(second));
  return r;
}
inline __m256d add_first(__m256d first, __m256d second) {
  __m256d r;
  asm("vaddpd %2, %1, %0" : "=x"(r) : "x"(first), "x"(second));
  return r;
}
inline __m256 mul_first(__m256 first, __m256 second) {
  __m256 r;
  asm("vmulps %2, %1, %0" : "=x"(r) : "x"(first), "x"(second));
  return r;
}
inline __m256d mul_first(__m256d first, __m256d second) {
  __m256d r;
  asm("vmulpd %2, %1, %0" : "=x"(r) : "x"(first), "x"(second));
  return r;
}
/// vfmsub132 o1, o2, o3 = o1*o3 - o2 (one rounding), NaN priority o1, o2, o3.
inline __m256 fmsub132(__m256 o1, __m256 o2, __m256 o3) {
  asm("vfmsub132ps %2, %1, %0" : "+x"(o1) : "x"(o2), "x"(o3));
  return o1;
}
inline __m256d fmsub132(__m256d o1, __m256d o2, __m256d o3) {
  asm("vfmsub132pd %2, %1, %0" : "+x"(o1) : "x"(o2), "x"(o3));
  return o1;
}

/// The next value toward zero for positive lanes, by integer decrement (SLEEF's vtoward0);
/// 0 stays +0 and NaN bit patterns are decremented too.
inline __m256 toward_zero(__m256 v) {
  const __m256 is_zero = _mm256_cmp_ps(v, _mm256_setzero_ps(), _CMP_EQ_OQ);
  const __m256i dec = _mm256_add_epi32(_mm256_castps_si256(v), _mm256_set1_epi32(-1));
  return _mm256_andnot_ps(is_zero, _mm256_castsi256_ps(dec));
}
inline __m256d toward_zero(__m256d v) {
  const __m256d is_zero = _mm256_cmp_pd(v, _mm256_setzero_pd(), _CMP_EQ_OQ);
  const __m256i dec = _mm256_add_epi64(_mm256_castpd_si256(v), _mm256_set1_epi64x(-1));
  return _mm256_andnot_pd(is_zero, _mm256_castsi256_pd(dec));
}

inline bool all_lanes(__m256 mask) { return _mm256_movemask_ps(mask) == 0xFF; }
inline bool all_lanes(__m256d mask) { return _mm256_movemask_pd(mask) == 0xF; }

/// Sleef_fmodf8: x - trunc(x / y) * y for 8 lanes (exact for finite inputs).
inline __m256 fmodf8(__m256 x, __m256 y) {
  const __m256 sign = _mm256_set1_ps(-0.0f), zero = _mm256_setzero_ps(), one = _mm256_set1_ps(1.0f);
  // A subnormal divisor: scale both operands by 2^25, the result back by 2^-25.
  const __m256 ax = _mm256_andnot_ps(sign, x), ay = _mm256_andnot_ps(sign, y);
  const __m256 tiny = _mm256_cmp_ps(ay, _mm256_set1_ps(FLT_MIN), _CMP_LT_OQ);
  const __m256 n = _mm256_blendv_ps(ax, _mm256_mul_ps(_mm256_set1_ps(0x1p25f), ax), tiny);
  const __m256 d = _mm256_blendv_ps(ay, _mm256_mul_ps(_mm256_set1_ps(0x1p25f), ay), tiny);
  const __m256 scale = _mm256_blendv_ps(one, _mm256_set1_ps(0x1p-25f), tiny);
  const __m256 d3 = _mm256_mul_ps(d, _mm256_set1_ps(3.0f)), d2 = _mm256_add_ps(d, d);
  const __m256 rd = toward_zero(_mm256_div_ps(one, d));  // 1/d rounded down: q never overshoots
  const __m256 neg_d = _mm256_xor_ps(d, sign);
  __m256 hi = n, lo = zero;
  for (int round = 1; round <= 8; ++round) {
    const __m256 ge = _mm256_cmp_ps(hi, d, _CMP_GE_OQ);
    __m256 q = _mm256_round_ps(mul_first(toward_zero(hi), rd), _MM_FROUND_TO_ZERO | _MM_FROUND_NO_EXC);
    q = _mm256_blendv_ps(q, _mm256_set1_ps(2.0f), _mm256_and_ps(_mm256_cmp_ps(d3, hi, _CMP_GT_OQ), ge));
    q = _mm256_blendv_ps(q, one, _mm256_and_ps(_mm256_cmp_ps(d2, hi, _CMP_GT_OQ), ge));
    q = _mm256_round_ps(q, _MM_FROUND_TO_ZERO | _MM_FROUND_NO_EXC);
    // (hi, lo) += q * -d as a double-word sum; GCC's unrolled rounds 2 and 8 swap some sources.
    const bool swapped = round == 2 || round == 8;
    const __m256 m_hi = mul_first(q, neg_d);
    const __m256 s = swapped ? add_first(m_hi, hi) : add_first(hi, m_hi);
    const __m256 m_lo = fmsub132(q, m_hi, neg_d);
    const __m256 lo2 = round == 1 ? add_first(m_lo, zero) : swapped ? add_first(m_lo, lo) : add_first(lo, m_lo);
    const __m256 v = _mm256_sub_ps(s, hi);
    __m256 t = add_first(_mm256_sub_ps(hi, _mm256_sub_ps(s, v)), _mm256_sub_ps(m_hi, v));
    t = add_first(t, lo2);
    hi = round <= 2 ? add_first(t, s) : add_first(s, t);
    lo = add_first(_mm256_sub_ps(s, hi), t);
    if (round < 8 && all_lanes(_mm256_cmp_ps(hi, d, _CMP_LT_OQ))) break;
  }
  const __m256 sum = add_first(lo, hi);
  __m256 ret = _mm256_andnot_ps(_mm256_cmp_ps(sum, d, _CMP_EQ_OQ), _mm256_mul_ps(sum, scale));
  ret = _mm256_xor_ps(ret, _mm256_and_ps(x, sign));
  ret = _mm256_blendv_ps(ret, x, _mm256_cmp_ps(n, d, _CMP_LT_OQ));  // |x| < |y|: x itself
  return _mm256_blendv_ps(ret, _mm256_castsi256_ps(_mm256_set1_epi32(0x7FC00000)),
                          _mm256_cmp_ps(d, zero, _CMP_EQ_OQ));
}

/// Sleef_fmodd4: the same for 4 double lanes (no second trunc, fixed operand order, hi scaled).
inline __m256d fmodd4(__m256d x, __m256d y) {
  const __m256d sign = _mm256_set1_pd(-0.0), zero = _mm256_setzero_pd(), one = _mm256_set1_pd(1.0);
  const __m256d ax = _mm256_andnot_pd(sign, x), ay = _mm256_andnot_pd(sign, y);
  const __m256d tiny = _mm256_cmp_pd(ay, _mm256_set1_pd(DBL_MIN), _CMP_LT_OQ);
  const __m256d n = _mm256_blendv_pd(ax, _mm256_mul_pd(ax, _mm256_set1_pd(0x1p54)), tiny);
  const __m256d d = _mm256_blendv_pd(ay, _mm256_mul_pd(ay, _mm256_set1_pd(0x1p54)), tiny);
  const __m256d scale = _mm256_blendv_pd(one, _mm256_set1_pd(0x1p-54), tiny);
  const __m256d d3 = _mm256_mul_pd(d, _mm256_set1_pd(3.0)), d2 = _mm256_add_pd(d, d);
  const __m256d rd = toward_zero(_mm256_div_pd(one, d));
  const __m256d neg_d = _mm256_xor_pd(d, sign);
  __m256d hi = n, lo = zero;
  for (int round = 1; round <= 21; ++round) {
    const __m256d ge = _mm256_cmp_pd(hi, d, _CMP_GE_OQ);
    __m256d q = _mm256_round_pd(mul_first(rd, toward_zero(hi)), _MM_FROUND_TO_ZERO | _MM_FROUND_NO_EXC);
    q = _mm256_blendv_pd(q, _mm256_set1_pd(2.0), _mm256_and_pd(_mm256_cmp_pd(d3, hi, _CMP_GT_OQ), ge));
    q = _mm256_blendv_pd(q, one, _mm256_and_pd(_mm256_cmp_pd(d2, hi, _CMP_GT_OQ), ge));
    const __m256d m_hi = mul_first(neg_d, q);
    const __m256d s = add_first(m_hi, hi);
    const __m256d m_lo = add_first(fmsub132(q, m_hi, neg_d), lo);
    const __m256d v = _mm256_sub_pd(s, hi);
    __m256d t = add_first(_mm256_sub_pd(hi, _mm256_sub_pd(s, v)), _mm256_sub_pd(m_hi, v));
    t = add_first(t, m_lo);
    hi = add_first(s, t);
    lo = add_first(_mm256_sub_pd(s, hi), t);
    if (all_lanes(_mm256_cmp_pd(hi, d, _CMP_LT_OQ))) break;
  }
  const __m256d sum = add_first(lo, hi);
  __m256d ret = _mm256_andnot_pd(_mm256_cmp_pd(sum, d, _CMP_EQ_OQ), _mm256_mul_pd(hi, scale));
  ret = _mm256_xor_pd(ret, _mm256_and_pd(x, sign));
  ret = _mm256_blendv_pd(ret, x, _mm256_cmp_pd(n, d, _CMP_LT_OQ));
  return _mm256_blendv_pd(ret, _mm256_castsi256_pd(_mm256_set1_epi64x(0x7FF8000000000000)),
                          _mm256_cmp_pd(d, zero, _CMP_EQ_OQ));
}

}  // namespace DC_CPU_CAPABILITY
}  // namespace dc::sleef
