// 8-lane logf and sincosf of aten/src/ATen/native/cpu/avx_mathfun.h (Pommier's port of Cephes),
// written with the exact FMA contractions GCC made in torch 2.14.1's AVX2 build: read from
// libtorch_cpu.so (NormalFill16<float, true>::operator()), see the comments. Include only from
// kernels/cpu/ files built with DC_CPU_CAPABILITY_AVX2; we compile with -ffp-contract=off.
#pragma once

#include <immintrin.h>

#include <cstdint>

namespace dc {
inline namespace DC_CPU_CAPABILITY {
namespace {

inline __m256 ps_bits(uint32_t bits) { return _mm256_castsi256_ps(_mm256_set1_epi32(int(bits))); }

// Cephes constants as the float bit patterns torch's binary holds.
constexpr uint32_t kMinNormPos = 0x00800000, kInvMantMask = 0x807fffff, kSqrtHf = 0x3f3504f3;
constexpr uint32_t kLogP[9] = {0x3d9021bb, 0xbdebd1b8, 0x3def251a, 0xbdfe5d4f, 0x3e11e9bf,
                               0xbe2aae50, 0x3e4cceac, 0xbe7ffffc, 0x3eaaaaaa};
constexpr uint32_t kLogQ1 = 0xb95e8083, kLogQ2 = 0x3f318000;
constexpr uint32_t kMinusDp1 = 0xbf490000, kMinusDp2 = 0xb97da000, kMinusDp3 = 0xb3222169;
constexpr uint32_t kCosP0 = 0x37ccf5ce, kCosP1 = 0xbab6061a, kCosP2 = 0x3d2aaaa5;
constexpr uint32_t kSinP0 = 0xb94ca1f9, kSinP1 = 0x3c08839e, kSinP2 = 0xbe2aaaa3;
constexpr uint32_t kFourOverPi = 0x3fa2f983, kSignMask = 0x80000000, kInvSignMask = 0x7fffffff;

/// log256_ps: NaN for x <= 0.
inline __m256 log256(__m256 x) {
  const __m256 one = _mm256_set1_ps(1.0f);
  const __m256 invalid = _mm256_cmp_ps(x, _mm256_setzero_ps(), _CMP_LE_OS);
  x = _mm256_max_ps(x, ps_bits(kMinNormPos));
  __m256i imm0 = _mm256_srli_epi32(_mm256_castps_si256(x), 23);
  x = _mm256_or_ps(_mm256_and_ps(x, ps_bits(kInvMantMask)), _mm256_set1_ps(0.5f));
  imm0 = _mm256_sub_epi32(imm0, _mm256_set1_epi32(0x7f));
  __m256 e = _mm256_add_ps(_mm256_cvtepi32_ps(imm0), one);
  const __m256 mask = _mm256_cmp_ps(x, ps_bits(kSqrtHf), _CMP_LT_OS);
  const __m256 tmp = _mm256_and_ps(x, mask);
  x = _mm256_sub_ps(x, one);
  e = _mm256_sub_ps(e, _mm256_and_ps(one, mask));
  x = _mm256_add_ps(x, tmp);
  const __m256 z = _mm256_mul_ps(x, x);
  // Horner steps y = y*x + p[k]: GCC fused each into one vfmadd.
  __m256 y = ps_bits(kLogP[0]);
  for (int k = 1; k < 9; ++k) y = _mm256_fmadd_ps(y, x, ps_bits(kLogP[k]));
  y = _mm256_mul_ps(y, x);
  // y = y*z + e*q1 (fused, e*q1 rounded), y = y - z*0.5 (fused), x = (x + y) + e*q2 (fused).
  y = _mm256_fmadd_ps(y, z, _mm256_mul_ps(e, ps_bits(kLogQ1)));
  y = _mm256_fnmadd_ps(z, _mm256_set1_ps(0.5f), y);
  x = _mm256_add_ps(x, y);
  x = _mm256_fmadd_ps(e, ps_bits(kLogQ2), x);
  return _mm256_or_ps(x, invalid);
}

/// sincos256_ps.
inline void sincos256(__m256 x, __m256* s, __m256* c) {
  __m256 sign_sin = _mm256_and_ps(x, ps_bits(kSignMask));
  x = _mm256_and_ps(x, ps_bits(kInvSignMask));
  __m256 y = _mm256_mul_ps(x, ps_bits(kFourOverPi));
  __m256i j = _mm256_cvttps_epi32(y);
  j = _mm256_and_si256(_mm256_add_epi32(j, _mm256_set1_epi32(1)), _mm256_set1_epi32(~1));
  y = _mm256_cvtepi32_ps(j);
  const __m256i swap_sin = _mm256_slli_epi32(_mm256_and_si256(j, _mm256_set1_epi32(4)), 29);
  const __m256 poly_mask = _mm256_castsi256_ps(
      _mm256_cmpeq_epi32(_mm256_and_si256(j, _mm256_set1_epi32(2)), _mm256_setzero_si256()));
  // x = ((x - y*DP1) - y*DP2) - y*DP3: each step fused.
  x = _mm256_fmadd_ps(y, ps_bits(kMinusDp1), x);
  x = _mm256_fmadd_ps(y, ps_bits(kMinusDp2), x);
  x = _mm256_fmadd_ps(y, ps_bits(kMinusDp3), x);
  const __m256i jc = _mm256_sub_epi32(j, _mm256_set1_epi32(2));
  const __m256 sign_cos =
      _mm256_castsi256_ps(_mm256_slli_epi32(_mm256_andnot_si256(jc, _mm256_set1_epi32(4)), 29));
  sign_sin = _mm256_xor_ps(sign_sin, _mm256_castsi256_ps(swap_sin));
  const __m256 z = _mm256_mul_ps(x, x);
  // cos polynomial: two fused Horner steps, a plain y*z, then y*z - z*0.5 fused (z*0.5 rounded).
  __m256 yc = _mm256_fmadd_ps(ps_bits(kCosP0), z, ps_bits(kCosP1));
  yc = _mm256_fmadd_ps(yc, z, ps_bits(kCosP2));
  yc = _mm256_mul_ps(yc, z);
  yc = _mm256_fmsub_ps(yc, z, _mm256_mul_ps(z, _mm256_set1_ps(0.5f)));
  yc = _mm256_add_ps(yc, _mm256_set1_ps(1.0f));
  // sin polynomial: two fused Horner steps, a plain y2*z, then y2*x + x fused.
  __m256 ys = _mm256_fmadd_ps(ps_bits(kSinP0), z, ps_bits(kSinP1));
  ys = _mm256_fmadd_ps(ys, z, ps_bits(kSinP2));
  ys = _mm256_mul_ps(ys, z);
  ys = _mm256_fmadd_ps(ys, x, x);
  const __m256 ysin2 = _mm256_and_ps(poly_mask, ys);
  const __m256 ysin1 = _mm256_andnot_ps(poly_mask, yc);
  ys = _mm256_sub_ps(ys, ysin2);
  yc = _mm256_sub_ps(yc, ysin1);
  *s = _mm256_xor_ps(_mm256_add_ps(ysin1, ysin2), sign_sin);
  *c = _mm256_xor_ps(_mm256_add_ps(yc, ys), sign_cos);
}

}  // namespace
}  // namespace DC_CPU_CAPABILITY
}  // namespace dc
