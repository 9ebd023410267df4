// float16 <-> float32 copies as torch 2.14.1 does them in Copy.cpp's USE_FBGEMM shortcut:
// fbgemm::Float16ToFloat_simd / FloatToFloat16_simd (fbgemm's FbgemmFloat16Convert*.cc) per
// at::parallel_for chunk. Not a per-capability kernel: fbgemm picks its path from the CPU (cpuinfo).
#include "densecore/kernels/baseline/copy_fbgemm.h"

#include <algorithm>
#include <bit>
#include <cstdint>
#include <vector>

#include "densecore/core/half.h"
#include "densecore/kernels/iter/parallel.h"

namespace dc {
namespace {

/// Copy.cpp's test: one side float32, the other float16, equal sizes, and both contiguous or dst
/// non-overlapping-and-dense with exactly src's strides (then both are walked in memory order).
bool fbgemm_eligible(const Tensor& dst, const Tensor& src) {
  const DType d = dst.dtype(), s = src.dtype();
  const bool pair = (d == DType::Float32 && s == DType::Float16) || (d == DType::Float16 && s == DType::Float32);
  if (!pair || dst.sizes() != src.sizes()) return false;
  return (dst.is_contiguous() && src.is_contiguous()) ||
         (dst.is_non_overlapping_and_dense() && dst.strides() == src.strides());
}

/// fbgemm's vector blocks (16 on AVX-512, then 8 on AVX2) need cpuinfo's AVX2; without it every
/// element goes through the reference loop.
bool fbgemm_has_avx2() {
  static const bool v = __builtin_cpu_supports("avx2");
  return v;
}

/// vcvtps2ph with round-to-nearest-even: NaN keeps its sign and top payload bits, quiet bit set.
/// fbgemm's FloatToFloat16_ref gives the same bits for all 2^32 inputs (checked against the wheel).
inline uint16_t float_to_half_like_vcvtps2ph(uint32_t w) {
  if ((w & 0x7FFFFFFFu) > 0x7F800000u) return uint16_t(((w >> 16) & 0x8000u) | 0x7E00u | ((w >> 13) & 0x3FFu));
  return float_to_fp16_bits(std::bit_cast<float>(w));
}

/// fbgemm::Float16ToFloat_ref (cpu_half2float): exact for every non-NaN; every NaN -> 0x7FFFFFFF
/// (sign dropped, payload replaced). The vector blocks (vcvtph2ps) keep NaN payloads instead.
inline uint32_t half_to_float_like_fbgemm_ref(uint16_t h) {
  if ((h & 0x7C00u) == 0x7C00u && (h & 0x3FFu) != 0) return 0x7FFFFFFFu;
  return std::bit_cast<uint32_t>(fp16_bits_to_float(h));
}

/// One Float16ToFloat_simd call: n / 8 * 8 elements as vcvtph2ps, the last n % 8 as the ref loop.
void float16_to_float_simd(const uint16_t* src, uint32_t* dst, int64_t n) {
  const int64_t body = fbgemm_has_avx2() ? n / 8 * 8 : 0;
  for (int64_t i = 0; i < body; ++i) dst[i] = std::bit_cast<uint32_t>(fp16_bits_to_float(src[i]));
  for (int64_t i = body; i < n; ++i) dst[i] = half_to_float_like_fbgemm_ref(src[i]);
}

/// One FloatToFloat16_simd call (do_clip = false): vector blocks and ref tail give the same bits.
void float_to_float16_simd(const uint32_t* src, uint16_t* dst, int64_t n) {
  for (int64_t i = 0; i < n; ++i) dst[i] = float_to_half_like_vcvtps2ph(src[i]);
}

}  // namespace

bool copy_float16_float32_like_fbgemm(const Tensor& dst, const Tensor& src) {
  if (!fbgemm_eligible(dst, src)) return false;
  const int64_t n = dst.numel();
  if (n == 0) return true;
  // Copy.cpp: one call below GRAIN_SIZE, else at::parallel_for chunks of [0, numel).
  auto run = [&](int64_t begin, int64_t end) {
    if (src.dtype() == DType::Float32)
      float_to_float16_simd(src.data<uint32_t>() + begin, dst.data<uint16_t>() + begin, end - begin);
    else
      float16_to_float_simd(src.data<uint16_t>() + begin, dst.data<uint32_t>() + begin, end - begin);
  };
  if (n < kGrainSize) run(0, n);
  else parallel_for(0, n, kGrainSize, run);
  return true;
}

}  // namespace dc
