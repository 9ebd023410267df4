// GELU (approximate='none') as torch 2.14.1 computes it for contiguous float32 CPU tensors: through
// oneDNN v3.12 (ideep eltwise_gelu_erf), not ATen's GeluKernel (Activation.cpp gelu_out_cpu /
// gelu_backward_out_cpu: `use_mkldnn(self)`). Per-lane ports of oneDNN's JIT injector
// (src/cpu/x64/injectors/jit_uni_eltwise_injector.cpp @ 80afa71049cd): on avx512_core machines the
// forward is the piecewise minimax erf polynomial, elsewhere Abramowitz-Stegun; the backward is always
// Abramowitz-Stegun around oneDNN's own exp. Every fma below is an explicit vfmadd in the JIT code.
#include "densecore/kernels/baseline/onednn_gelu.h"

#include <bit>
#include <cmath>
#include <cstdint>

#include <immintrin.h>

#include "densecore/kernels/iter/parallel.h"

namespace dc::onednn {
namespace {

inline float f(uint32_t bits) { return std::bit_cast<float>(bits); }
inline uint32_t u(float x) { return std::bit_cast<uint32_t>(x); }

// gelu_erf_minimax_pol: 6 coefficient rows (degree 0..5) of 32 entries (25 used).
constexpr uint32_t kMinimaxPol[6][32] = {
    {
     0xa6f2cb94, 0x32827792, 0x3381cc0c, 0x34523d4a, 0x351ac44d, 0x35f36d88, 0x36ee8229, 0x37b8a3bb,
     0x3867a213, 0x3940033b, 0x3a2a5a1d, 0x3ae35863, 0x3b7828f2, 0x3c08b14b, 0x3c515ed3, 0xbb503236,
     0xbd8d8e5e, 0xbe8abcd9, 0xbf0c19a2, 0xbeccb328, 0x3e176ced, 0x3f470d99, 0x3f7abb28, 0x3f800000,
     0x00000000, 0x00000000, 0x00000000, 0x00000000, 0x00000000, 0x00000000, 0x00000000, 0x00000000,
    },
    {
     0x3f4c422a, 0x3f4c421f, 0x3f4c4207, 0x3f4c41cb, 0x3f4c413b, 0x3f4c3fad, 0x3f4c3a2f, 0x3f4c2d40,
     0x3f4c146a, 0x3f4bc341, 0x3f4ad08c, 0x3f48f8cf, 0x3f45fac7, 0x3f404e07, 0x3f3b980f, 0x3f48dff3,
     0x3f78b21b, 0x3fbb0704, 0x40019c32, 0x3fe536d6, 0x3f81331e, 0x3e6c8684, 0x3c98f936, 0x00000000,
     0x3f800000, 0x00000000, 0x00000000, 0x00000000, 0x00000000, 0x00000000, 0x00000000, 0x00000000,
    },
    {
     0xb62173f4, 0x3735e4cf, 0x37f2ff89, 0x388c23be, 0x3917535c, 0x39ab2ab0, 0x3a60fadb, 0x3af9b960,
     0x3b6e5491, 0x3c0a4ec5, 0x3ca5aa8c, 0x3d2138d9, 0x3d8737d4, 0x3ddfb660, 0x3e0f27ab, 0x3d94004b,
     0xbe0efdeb, 0xbf1d96c3, 0xbf89db58, 0xbf6d9897, 0xbef69fb8, 0xbdc4f8a8, 0xbbde6422, 0x00000000,
     0x00000000, 0x00000000, 0x00000000, 0x00000000, 0x00000000, 0x00000000, 0x00000000, 0x00000000,
    },
    {
     0xbe081a19, 0xbe084570, 0xbe08639b, 0xbe089837, 0xbe08f409, 0xbe09ab95, 0xbe0b66d0, 0xbe0e400a,
     0xbe124df8, 0xbe1bde02, 0xbe2f19c9, 0xbe4931bf, 0xbe685fbc, 0xbe89c95f, 0xbe96cbca, 0xbe8044aa,
     0xbe0550f2, 0x3dcfd6a1, 0x3e94c826, 0x3e79345f, 0x3decec91, 0x3ca46568, 0x3aa1e00a, 0x00000000,
     0x00000000, 0x00000000, 0x00000000, 0x00000000, 0x00000000, 0x00000000, 0x00000000, 0x00000000,
    },
    {
     0xba3d61db, 0x39f097a3, 0x3a5845dc, 0x3ab1fa35, 0x3b0cefb8, 0x3b653ab6, 0x3bcae527, 0x3c221712,
     0x3c6c5840, 0x3cc0a703, 0x3d1dcc19, 0x3d63656d, 0x3d955907, 0x3dbf9910, 0x3dd53f69, 0x3db7dcef,
     0x3d639ebe, 0xba6ede48, 0xbd22be69, 0xbd041cf1, 0xbc64f5ab, 0xbb097a32, 0xb8ebf380, 0x00000000,
     0x00000000, 0x00000000, 0x00000000, 0x00000000, 0x00000000, 0x00000000, 0x00000000, 0x00000000,
    },
    {
     0x3cb7d80c, 0x3c9b6050, 0x3c978d11, 0x3c92e850, 0x3c8d058b, 0x3c848454, 0x3c6cd623, 0x3c4c824b,
     0x3c2a7935, 0x3be0b390, 0x3b0651ac, 0xbb232f53, 0xbbd42fa0, 0xbc2c5366, 0xbc492c9e, 0xbc2a7aa6,
     0xbbd55d04, 0xba823a76, 0x3b102aa8, 0x3ae25a7e, 0x3a31f792, 0x38b84375, 0x3689bb5a, 0x00000000,
     0x00000000, 0x00000000, 0x00000000, 0x00000000, 0x00000000, 0x00000000, 0x00000000, 0x00000000,
    },
};
constexpr uint32_t kAsApproxConst = 0x3ea7ba05, kAsOneOverSqrtTwo = 0x3f3504f3, kAsOneOverSqrtPi = 0x3f106eba;
constexpr uint32_t kAsPol[5] = {0x3e827906, 0xbe91a98e, 0x3fb5f0e3, 0xbfba00e3, 0x3f87dc22};
constexpr uint32_t kExpPol[5] = {0x3f7ffffb, 0x3efffee3, 0x3e2aad40, 0x3d2b9d0d, 0x3c07cfce};

/// exp_compute_vector_fwd: clamp to [ln FLT_MIN, ln FLT_MAX], n = floor(x*log2e + 0.5),
/// r = x - n*ln2 (fnmadd), degree-5 polynomial, times 2^(n-1) (0 below ln FLT_MIN), times 2.
float jit_exp(float x) {
  const float lo = f(0xc2aeac50), hi = f(0x42b17218);
  const bool underflow = x < lo;  // _cmp_lt_os: false for NaN
  x = x < hi ? x : hi;            // vminps(x, hi)
  x = x > lo ? x : lo;            // vmaxps(x, lo)
  float fx = x * f(0x3fb8aa3b);
  fx = fx + 0.5f;
  const float n = std::floor(fx);
  const float r = std::fma(-n, f(0x3f317218), x);
  const int32_t e = int32_t(std::nearbyint(n - 1.0f)) + 127;
  const float pow2 = underflow ? 0.0f : f(uint32_t(e) << 23);
  float p = f(kExpPol[4]);
  for (int k = 3; k >= 0; --k) p = std::fma(p, r, f(kExpPol[k]));
  p = std::fma(p, r, 1.0f);
  return p * pow2 * 2.0f;
}

/// Abramowitz-Stegun erf(xs) given q = exp(-xs*xs), with oneDNN's operation order.
float as_erf(float xs, float q) {
  const float w = 1.0f / std::fma(f(kAsApproxConst), std::abs(xs), 1.0f);
  const float nq = f(u(q) ^ 0x80000000u) * w;
  float r = f(kAsPol[4]);
  for (int k = 3; k >= 0; --k) r = std::fma(r, w, f(kAsPol[k]));
  return f(u(std::fma(nq, r, 1.0f)) ^ (u(xs) & 0x80000000u));
}
inline float neg_square_exp(float xs) { return jit_exp(f(u(xs * xs) ^ 0x80000000u)); }

float gelu_fwd_as(float x) {
  const float xs = x * f(kAsOneOverSqrtTwo);
  const float erf = as_erf(xs, neg_square_exp(xs));
  const float s = x * 0.5f;
  return std::fma(erf, s, s);
}

/// gelu_erf_compute_vector_bwd's derivative from the forward's xs = x/sqrt(2), q and erf (the backward
/// computes those three exactly as the Abramowitz-Stegun forward does).
float as_derivative(float xs, float q, float erf) {
  const float t = xs * f(kAsOneOverSqrtPi) * q;
  const float p = t + 0.5f;
  return std::fma(erf, 0.5f, p);
}

/// gelu_erf_compute_vector_bwd: the factor the kernel multiplies diff_dst by.
float gelu_derivative(float x) {
  const float r = x * f(kAsOneOverSqrtTwo);
  const float q = neg_square_exp(r);
  return as_derivative(r, q, as_erf(r, q));
}
float gelu_bwd(float dy, float x) { return gelu_derivative(x) * dy; }

/// The Abramowitz-Stegun forward, also writing the derivative gelu_bwd multiplies dy by.
void gelu_fwd_as_with_derivative(float x, float* y, float* d) {
  const float xs = x * f(kAsOneOverSqrtTwo);
  const float q = neg_square_exp(xs);
  const float erf = as_erf(xs, q);
  const float s = x * 0.5f;
  *y = std::fma(erf, s, s);
  *d = as_derivative(xs, q, erf);
}


bool has_avx512_core() {
  static const bool v = __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512bw") &&
                        __builtin_cpu_supports("avx512vl") && __builtin_cpu_supports("avx512dq");
  return v;
}

// ---- 16 lanes at a time on avx512_core, as oneDNN's JIT runs it: the minimax forward (table rows
// picked per lane by the interval index) and the backward with the same operations, in the same order,
// as the scalar functions above; tails use masks.

#define DC_AVX512 __attribute__((target("avx512f,avx512dq,avx512bw,avx512vl,fma")))

DC_AVX512 inline __m512 splat(uint32_t bits) { return _mm512_castsi512_ps(_mm512_set1_epi32(int32_t(bits))); }
DC_AVX512 inline __m512 xor_bits(__m512 a, __m512 b) {
  return _mm512_castsi512_ps(_mm512_xor_si512(_mm512_castps_si512(a), _mm512_castps_si512(b)));
}
DC_AVX512 inline __m512 sign_of(__m512 x) {
  return _mm512_castsi512_ps(_mm512_and_si512(_mm512_castps_si512(x), _mm512_set1_epi32(int32_t(0x80000000u))));
}
DC_AVX512 inline __m512 abs16(__m512 x) {
  return _mm512_castsi512_ps(_mm512_and_si512(_mm512_castps_si512(x), _mm512_set1_epi32(0x7fffffff)));
}

DC_AVX512 __m512 jit_exp16(__m512 x) {
  const __m512 lo = splat(0xc2aeac50), hi = splat(0x42b17218);
  const __mmask16 underflow = _mm512_cmp_ps_mask(x, lo, _CMP_LT_OS);
  x = _mm512_min_ps(x, hi);
  x = _mm512_max_ps(x, lo);
  __m512 fx = _mm512_mul_ps(x, splat(0x3fb8aa3b));
  fx = _mm512_add_ps(fx, _mm512_set1_ps(0.5f));
  const __m512 n = _mm512_roundscale_ps(fx, _MM_FROUND_TO_NEG_INF | _MM_FROUND_NO_EXC);
  const __m512 r = _mm512_fnmadd_ps(n, splat(0x3f317218), x);
  const __m512i e = _mm512_add_epi32(_mm512_cvtps_epi32(_mm512_sub_ps(n, _mm512_set1_ps(1.0f))), _mm512_set1_epi32(127));
  const __m512 pow2 = _mm512_mask_blend_ps(underflow, _mm512_castsi512_ps(_mm512_slli_epi32(e, 23)), _mm512_setzero_ps());
  __m512 p = splat(kExpPol[4]);
  for (int k = 3; k >= 0; --k) p = _mm512_fmadd_ps(p, r, splat(kExpPol[k]));
  p = _mm512_fmadd_ps(p, r, _mm512_set1_ps(1.0f));
  return _mm512_mul_ps(_mm512_mul_ps(p, pow2), _mm512_set1_ps(2.0f));
}

DC_AVX512 __m512 as_erf16(__m512 xs, __m512 q) {
  const __m512 w = _mm512_div_ps(_mm512_set1_ps(1.0f), _mm512_fmadd_ps(splat(kAsApproxConst), abs16(xs), _mm512_set1_ps(1.0f)));
  const __m512 nq = _mm512_mul_ps(xor_bits(q, splat(0x80000000u)), w);
  __m512 r = splat(kAsPol[4]);
  for (int k = 3; k >= 0; --k) r = _mm512_fmadd_ps(r, w, splat(kAsPol[k]));
  return xor_bits(_mm512_fmadd_ps(nq, r, _mm512_set1_ps(1.0f)), sign_of(xs));
}

/// Row d of the minimax table at each lane's interval index (a 32-entry two-register permute).
DC_AVX512 inline __m512 minimax_coeff16(int d, __m512i idx) {
  const __m512 lo16 = _mm512_loadu_ps(reinterpret_cast<const float*>(kMinimaxPol[d]));
  const __m512 hi16 = _mm512_loadu_ps(reinterpret_cast<const float*>(kMinimaxPol[d] + 16));
  return _mm512_permutex2var_ps(lo16, idx, hi16);
}

DC_AVX512 __m512 gelu_fwd_minimax16(__m512 x) {
  const __m512 xp = abs16(x);
  __m512i idx = _mm512_srai_epi32(_mm512_add_epi32(_mm512_castps_si512(xp), _mm512_set1_epi32(int32_t(0xc21fffffu))), 21);
  idx = _mm512_min_epi32(_mm512_max_epi32(idx, _mm512_set1_epi32(1)), _mm512_set1_epi32(24));
  idx = _mm512_mask_blend_epi32(_mm512_cmp_ps_mask(splat(0x40b15cee), xp, _CMP_LT_OQ), idx, _mm512_set1_epi32(23));
  __m512 pol = minimax_coeff16(5, idx);
  for (int d = 4; d >= 0; --d) pol = _mm512_fmadd_ps(pol, xp, minimax_coeff16(d, idx));
  pol = _mm512_add_ps(xor_bits(pol, sign_of(x)), _mm512_set1_ps(1.0f));
  return _mm512_mul_ps(_mm512_mul_ps(x, pol), _mm512_set1_ps(0.5f));
}

DC_AVX512 __m512 gelu_bwd16(__m512 dy, __m512 x) {
  const __m512 r = _mm512_mul_ps(x, splat(kAsOneOverSqrtTwo));
  const __m512 q = jit_exp16(xor_bits(_mm512_mul_ps(r, r), splat(0x80000000u)));
  const __m512 t = _mm512_mul_ps(_mm512_mul_ps(r, splat(kAsOneOverSqrtPi)), q);
  const __m512 erf = as_erf16(r, q);
  const __m512 p = _mm512_add_ps(t, _mm512_set1_ps(0.5f));
  return _mm512_mul_ps(dy, _mm512_fmadd_ps(erf, _mm512_set1_ps(0.5f), p));
}

inline __mmask16 tail_mask(int64_t m) { return __mmask16((1u << m) - 1u); }

DC_AVX512 void gelu_forward_avx512(const float* x, float* y, int64_t b, int64_t e) {
  int64_t i = b;
  for (; i + 16 <= e; i += 16) _mm512_storeu_ps(y + i, gelu_fwd_minimax16(_mm512_loadu_ps(x + i)));
  if (i < e) {
    const __mmask16 m = tail_mask(e - i);
    _mm512_mask_storeu_ps(y + i, m, gelu_fwd_minimax16(_mm512_maskz_loadu_ps(m, x + i)));
  }
}

DC_AVX512 void gelu_backward_avx512(const float* dy, const float* x, float* dx, int64_t b, int64_t e) {
  int64_t i = b;
  for (; i + 16 <= e; i += 16) _mm512_storeu_ps(dx + i, gelu_bwd16(_mm512_loadu_ps(dy + i), _mm512_loadu_ps(x + i)));
  if (i < e) {
    const __mmask16 m = tail_mask(e - i);
    _mm512_mask_storeu_ps(dx + i, m, gelu_bwd16(_mm512_maskz_loadu_ps(m, dy + i), _mm512_maskz_loadu_ps(m, x + i)));
  }
}

// ---- 8 lanes at a time on avx2 with FMA, as oneDNN's avx2 JIT runs it: the scalar functions above,
// operation for operation (vminps/vmaxps are the ?: clamps, vroundps floor, vcvtps2dq the nearbyint), so
// each lane has their bits; the scalar functions finish the tail.
#define DC_AVX2 __attribute__((target("avx2,fma")))

DC_AVX2 inline __m256 splat8(uint32_t bits) { return _mm256_castsi256_ps(_mm256_set1_epi32(int32_t(bits))); }
DC_AVX2 inline __m256 flip_sign8(__m256 x) { return _mm256_xor_ps(x, splat8(0x80000000u)); }

DC_AVX2 inline __m256 jit_exp8(__m256 x) {
  const __m256 lo = splat8(0xc2aeac50), hi = splat8(0x42b17218);
  const __m256 underflow = _mm256_cmp_ps(x, lo, _CMP_LT_OS);
  x = _mm256_min_ps(x, hi);
  x = _mm256_max_ps(x, lo);
  __m256 fx = _mm256_mul_ps(x, splat8(0x3fb8aa3b));
  fx = _mm256_add_ps(fx, _mm256_set1_ps(0.5f));
  const __m256 n = _mm256_floor_ps(fx);
  const __m256 r = _mm256_fnmadd_ps(n, splat8(0x3f317218), x);
  const __m256i e = _mm256_add_epi32(_mm256_cvtps_epi32(_mm256_sub_ps(n, _mm256_set1_ps(1.0f))), _mm256_set1_epi32(127));
  const __m256 pow2 = _mm256_blendv_ps(_mm256_castsi256_ps(_mm256_slli_epi32(e, 23)), _mm256_setzero_ps(), underflow);
  __m256 p = splat8(kExpPol[4]);
  for (int k = 3; k >= 0; --k) p = _mm256_fmadd_ps(p, r, splat8(kExpPol[k]));
  p = _mm256_fmadd_ps(p, r, _mm256_set1_ps(1.0f));
  return _mm256_mul_ps(_mm256_mul_ps(p, pow2), _mm256_set1_ps(2.0f));
}

DC_AVX2 inline __m256 as_erf8(__m256 xs, __m256 q) {
  const __m256 sign = _mm256_and_ps(xs, splat8(0x80000000u));
  const __m256 abs = _mm256_andnot_ps(splat8(0x80000000u), xs);
  const __m256 w = _mm256_div_ps(_mm256_set1_ps(1.0f), _mm256_fmadd_ps(splat8(kAsApproxConst), abs, _mm256_set1_ps(1.0f)));
  const __m256 nq = _mm256_mul_ps(flip_sign8(q), w);
  __m256 r = splat8(kAsPol[4]);
  for (int k = 3; k >= 0; --k) r = _mm256_fmadd_ps(r, w, splat8(kAsPol[k]));
  return _mm256_xor_ps(_mm256_fmadd_ps(nq, r, _mm256_set1_ps(1.0f)), sign);
}
DC_AVX2 inline __m256 neg_square_exp8(__m256 xs) { return jit_exp8(flip_sign8(_mm256_mul_ps(xs, xs))); }

DC_AVX2 inline __m256 gelu_fwd_as8(__m256 x) {
  const __m256 xs = _mm256_mul_ps(x, splat8(kAsOneOverSqrtTwo));
  const __m256 erf = as_erf8(xs, neg_square_exp8(xs));
  const __m256 s = _mm256_mul_ps(x, _mm256_set1_ps(0.5f));
  return _mm256_fmadd_ps(erf, s, s);
}
DC_AVX2 inline __m256 as_derivative8(__m256 xs, __m256 q, __m256 erf) {
  const __m256 t = _mm256_mul_ps(_mm256_mul_ps(xs, splat8(kAsOneOverSqrtPi)), q);
  const __m256 p = _mm256_add_ps(t, _mm256_set1_ps(0.5f));
  return _mm256_fmadd_ps(erf, _mm256_set1_ps(0.5f), p);
}
/// d * dy with the derivative as the first source operand, as oneDNN's kernel multiplies (vmulps vmm_src,
/// vmm_src, vmm_diff_dst): where both are NaN, dx is the derivative's NaN (x's payload). GCC treats vmulps
/// as commutative and may swap an intrinsic's operands, so the instruction is written out (Note [NaN operand
/// order], kernels/vec/vec.h).
DC_AVX2 inline __m256 mul_derivative_first8(__m256 d, __m256 dy) {
  __m256 r;
  asm("vmulps %2, %1, %0" : "=x"(r) : "x"(d), "x"(dy));
  return r;
}
DC_AVX2 inline float mul_derivative_first(float d, float dy) {
  float r;
  asm("vmulss %2, %1, %0" : "=x"(r) : "x"(d), "x"(dy));
  return r;
}
DC_AVX2 inline __m256 gelu_bwd8(__m256 dy, __m256 x) {
  const __m256 r = _mm256_mul_ps(x, splat8(kAsOneOverSqrtTwo));
  const __m256 q = neg_square_exp8(r);
  return mul_derivative_first8(as_derivative8(r, q, as_erf8(r, q)), dy);
}

DC_AVX2 void gelu_forward_as_fma(const float* x, float* y, int64_t b, int64_t e) {
  int64_t i = b;
  for (; i + 8 <= e; i += 8) _mm256_storeu_ps(y + i, gelu_fwd_as8(_mm256_loadu_ps(x + i)));
  for (; i < e; ++i) y[i] = gelu_fwd_as(x[i]);
}
DC_AVX2 void gelu_forward_with_derivative_fma(const float* x, float* y, float* d, int64_t b, int64_t e) {
  int64_t i = b;
  for (; i + 8 <= e; i += 8) {
    const __m256 v = _mm256_loadu_ps(x + i);
    const __m256 xs = _mm256_mul_ps(v, splat8(kAsOneOverSqrtTwo));
    const __m256 q = neg_square_exp8(xs);
    const __m256 erf = as_erf8(xs, q);
    const __m256 s = _mm256_mul_ps(v, _mm256_set1_ps(0.5f));
    _mm256_storeu_ps(y + i, _mm256_fmadd_ps(erf, s, s));
    _mm256_storeu_ps(d + i, as_derivative8(xs, q, erf));
  }
  for (; i < e; ++i) gelu_fwd_as_with_derivative(x[i], y + i, d + i);
}
DC_AVX2 void gelu_backward_fma(const float* dy, const float* x, float* dx, int64_t b, int64_t e) {
  int64_t i = b;
  for (; i + 8 <= e; i += 8) _mm256_storeu_ps(dx + i, gelu_bwd8(_mm256_loadu_ps(dy + i), _mm256_loadu_ps(x + i)));
  for (; i < e; ++i) dx[i] = mul_derivative_first(gelu_derivative(x[i]), dy[i]);
}
/// The backward from the forward's derivative: the last multiply of gelu_bwd8, operands in its order.
DC_AVX2 void scale_by_derivative_fma(const float* dy, const float* d, float* dx, int64_t b, int64_t e) {
  int64_t i = b;
  for (; i + 8 <= e; i += 8) _mm256_storeu_ps(dx + i, mul_derivative_first8(_mm256_loadu_ps(d + i), _mm256_loadu_ps(dy + i)));
  for (; i < e; ++i) dx[i] = mul_derivative_first(d[i], dy[i]);
}
bool has_avx2_fma() {
  static const bool v = __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma");
  return v;
}

}  // namespace

void gelu_forward(const float* x, float* y, int64_t n) {
  parallel_for(0, n, kGrainSize, [&](int64_t b, int64_t e) {
    if (has_avx512_core()) return gelu_forward_avx512(x, y, b, e);
    if (has_avx2_fma()) return gelu_forward_as_fma(x, y, b, e);
    for (int64_t i = b; i < e; ++i) y[i] = gelu_fwd_as(x[i]);
  });
}

bool forward_gives_derivative() { return !has_avx512_core(); }

void gelu_forward_with_derivative(const float* x, float* y, float* d, int64_t n) {
  parallel_for(0, n, kGrainSize, [&](int64_t b, int64_t e) {
    if (has_avx2_fma()) return gelu_forward_with_derivative_fma(x, y, d, b, e);
    for (int64_t i = b; i < e; ++i) gelu_fwd_as_with_derivative(x[i], y + i, d + i);
  });
}

void gelu_backward_from_derivative(const float* dy, const float* d, float* dx, int64_t n) {
  parallel_for(0, n, kGrainSize, [&](int64_t b, int64_t e) {
    if (has_avx2_fma()) return scale_by_derivative_fma(dy, d, dx, b, e);
    for (int64_t i = b; i < e; ++i) dx[i] = d[i] * dy[i];
  });
}

void gelu_backward(const float* dy, const float* x, float* dx, int64_t n) {
  parallel_for(0, n, kGrainSize, [&](int64_t b, int64_t e) {
    if (has_avx512_core()) return gelu_backward_avx512(dy, x, dx, b, e);
    if (has_avx2_fma()) return gelu_backward_fma(dy, x, dx, b, e);
    for (int64_t i = b; i < e; ++i) dx[i] = gelu_bwd(dy[i], x[i]);
  });
}

}  // namespace dc::onednn
