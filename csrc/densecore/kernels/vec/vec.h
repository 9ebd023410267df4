// Vec<T>: ATen's Vectorized<T> reduced to what the elementwise kernels need, written as a lane
// array (GCC vectorises the lane loops). Lane counts follow aten/src/ATen/cpu/vec/vec_base.h:
// 32 bytes for DEFAULT (emulated) and AVX2, 64 bytes for AVX-512. Only include from kernels/cpu/.
//
// Where the ISA changes bits we write the ISA's semantics explicitly (see Note [Vec semantics]):
//  - maximum/minimum: AVX2/AVX-512 OR a NaN mask into max_ps (NaN -> all ones); DEFAULT keeps a's NaN.
//  - fmadd: one rounding on AVX2/AVX-512 (vfmadd), two on DEFAULT (vec_base.h `a * b + c`).
//  - Half/BFloat16 lanes compute in float and round back with the VECTOR converter: on AVX2/AVX-512
//    bfloat16 NaN -> 0xFFFF (vec256_16bit_float.h cvtfp32_bf16), float16 via vcvtps2ph; on DEFAULT
//    each op is the scalar c10 operator (NaN -> 0x7FC0).
#pragma once

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <type_traits>

#include "densecore/core/convert.h"
#include "densecore/core/half.h"

#if defined(DC_CPU_CAPABILITY_AVX2) || defined(DC_CPU_CAPABILITY_AVX512)
#include <immintrin.h>
#define DC_VEC_X86 1
#endif

namespace dc::vec {
inline namespace DC_CPU_CAPABILITY {

#if defined(DC_CPU_CAPABILITY_AVX512)
inline constexpr int kVecBytes = 64;
#else
inline constexpr int kVecBytes = 32;
#endif

template <class T>
inline constexpr bool is_reduced_v = is_reduced_float_v<T>;

// ---- scalar conversions as torch's kernel TUs compile them --------------------------------------

/// float -> half as c10::Half(float) inside a kernel TU: F16C instruction on AVX2/AVX-512,
/// the software RNE on DEFAULT (torch/headeronly/util/Half.h).
inline Half half_from_float(float f) {
#if defined(DC_VEC_X86)
  return Half::from_bits(_cvtss_sh(f, _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC));
#else
  return Half(f);
#endif
}

/// c10's scalar T(float): bfloat16 NaN -> 0x7FC0.
template <class T>
inline T scalar_from_float(float f) {
  if constexpr (std::is_same_v<T, Half>) return half_from_float(f);
  else return T(f);
}

/// The vector converter's per-lane result (convert_from_float / cvtfp32_bf16 / cvtps_ph).
template <class T>
inline T vec_from_float(float f) {
#if defined(DC_VEC_X86)
  if constexpr (std::is_same_v<T, BFloat16>) {
    if (f != f) return BFloat16::from_bits(0xFFFF);
    const uint32_t bits = std::bit_cast<uint32_t>(f);
    return BFloat16::from_bits(uint16_t((bits + 0x7FFFu + ((bits >> 16) & 1u)) >> 16));
  } else {
    return half_from_float(f);
  }
#else
  return scalar_from_float<T>(f);
#endif
}

// ---- wrapping integer arithmetic (torch relies on two's-complement wrap) -----------------------

template <class T>
inline T wrap_add(T a, T b) {
  if constexpr (std::is_integral_v<T> && !std::is_same_v<T, bool>)
    return T(std::make_unsigned_t<T>(a) + std::make_unsigned_t<T>(b));
  else return a + b;
}
template <class T>
inline T wrap_sub(T a, T b) {
  if constexpr (std::is_integral_v<T> && !std::is_same_v<T, bool>)
    return T(std::make_unsigned_t<T>(a) - std::make_unsigned_t<T>(b));
  else return a - b;
}
template <class T>
inline T wrap_mul(T a, T b) {
  if constexpr (std::is_integral_v<T> && !std::is_same_v<T, bool>) {
    using U = std::conditional_t<(sizeof(T) < sizeof(unsigned)), unsigned, std::make_unsigned_t<T>>;
    return T(U(a) * U(b));
  } else {
    return a * b;
  }
}
template <class T>
inline T wrap_neg(T a) {
  if constexpr (std::is_integral_v<T>) return T(std::make_unsigned_t<T>(0) - std::make_unsigned_t<T>(a));
  else return -a;
}

// ---- Vec<T> --------------------------------------------------------------------------------------

/// Lane storage: float/double on AVX2/AVX-512 as a GCC vector type, so whole-vector arithmetic is one
/// instruction and values stay in registers; other lane types (integers, bool, Half/BFloat16) as an
/// array that the lane loops below walk. Both are written and read as `v[i]`.
template <class T>
inline constexpr bool is_native_v =
#if defined(DC_VEC_X86)
    std::is_same_v<T, float> || std::is_same_v<T, double>;
#else
    false;
#endif

#if defined(DC_VEC_X86)
/// x in every lane of a native vector (bits unchanged, -0.0 and NaN payloads included).
template <class T>
inline auto broadcast_native(T x) {
  typedef T native_t __attribute__((vector_size(kVecBytes)));
  if constexpr (kVecBytes == 64) {
    if constexpr (std::is_same_v<T, float>) return (native_t)_mm512_set1_ps(x);
    else return (native_t)_mm512_set1_pd(x);
  } else {
    if constexpr (std::is_same_v<T, float>) return (native_t)_mm256_set1_ps(x);
    else return (native_t)_mm256_set1_pd(x);
  }
}
#endif

template <class T, bool kNative = is_native_v<T>>
struct VecLanes {
  T v[kVecBytes / int(sizeof(T))];
};
template <class T>
struct VecLanes<T, true> {
  typedef T native_t __attribute__((vector_size(kVecBytes)));
  native_t v;
};

template <class T>
struct alignas(kVecBytes) Vec : VecLanes<T> {  // aligned: GCC keeps it in vector registers
  static constexpr int kSize = kVecBytes / int(sizeof(T));
  static constexpr int size() { return kSize; }
  using VecLanes<T>::v;

  Vec() = default;
  explicit Vec(T x) {
#if defined(DC_VEC_X86)
    if constexpr (is_native_v<T>) {
      v = broadcast_native(x);  // one vbroadcastss/sd; GCC rebuilt the lane loop with inserts in every loop
      return;
    }
#endif
    for (int i = 0; i < kSize; ++i) v[i] = x;
  }
  static Vec loadu(const void* p) {
    Vec r;
    std::memcpy(&r.v, p, sizeof(r.v));
    return r;
  }
  void store(void* p) const { std::memcpy(p, &v, sizeof(v)); }
  T operator[](int i) const { return v[i]; }

  /// Lane-wise f on the values (opmath for Half/BFloat16, rounded back by the vector converter).
  template <class F>
  Vec map(F f) const {
    Vec r;
    for (int i = 0; i < kSize; ++i) {
      if constexpr (is_reduced_v<T>) r.v[i] = vec_from_float<T>(f(float(v[i])));
      else r.v[i] = f(v[i]);
    }
    return r;
  }
  template <class F>
  static Vec zip(const Vec& a, const Vec& b, F f) {
    Vec r;
    for (int i = 0; i < kSize; ++i) {
      if constexpr (is_reduced_v<T>) r.v[i] = vec_from_float<T>(f(float(a.v[i]), float(b.v[i])));
      else r.v[i] = f(a.v[i], b.v[i]);
    }
    return r;
  }
  /// Lane-wise on raw lanes (no conversion): selection, bit operations.
  template <class F>
  static Vec raw_zip(const Vec& a, const Vec& b, F f) {
    Vec r;
    for (int i = 0; i < kSize; ++i) r.v[i] = f(a.v[i], b.v[i]);
    return r;
  }

  // Native lanes: one IEEE operation per lane either way, so the bits are the lane loop's.
  static Vec native(const auto& lanes) {
    Vec r;
    r.v = lanes;
    return r;
  }
  friend Vec operator+(const Vec& a, const Vec& b) {
    if constexpr (is_native_v<T>) return native(a.v + b.v);
    else return zip(a, b, [](auto x, auto y) { return wrap_add(x, y); });
  }
  friend Vec operator-(const Vec& a, const Vec& b) {
    if constexpr (is_native_v<T>) return native(a.v - b.v);
    else return zip(a, b, [](auto x, auto y) { return wrap_sub(x, y); });
  }
  friend Vec operator*(const Vec& a, const Vec& b) {
    if constexpr (is_native_v<T>) return native(a.v * b.v);
    else return zip(a, b, [](auto x, auto y) { return wrap_mul(x, y); });
  }
  friend Vec operator/(const Vec& a, const Vec& b) {
    if constexpr (is_native_v<T>) return native(a.v / b.v);
    else return zip(a, b, [](auto x, auto y) { return x / y; });
  }
};

#if defined(DC_VEC_X86)
// ---- bool lanes of native vectors: compares with a bool output, where's and masked_fill's masks ------
// A select or a compare result has no rounding, so these change no bits; they let GCC keep whole vectors
// where a lane loop over bytes compiled to one scalar compare, branch or insert per lane.

/// The integer lanes as wide as T's: a native compare's result type (all ones = true).
template <class T>
using native_mask_t __attribute__((vector_size(kVecBytes))) = std::conditional_t<sizeof(T) == 4, int32_t, int64_t>;
/// Vec<T>::size() bytes, one per lane.
template <class T>
using lane_bytes_t __attribute__((vector_size(kVecBytes / sizeof(T)))) = int8_t;

/// Vec<T>::size() bools at p as a lane mask: all ones where the byte is nonzero (`c ? x : y` on a bool).
template <class T>
inline native_mask_t<T> load_bools_as_mask(const bool* p) {
  if constexpr (kVecBytes == 32) {  // zero-extend the bytes to lanes, one compare (GCC's own was per lane)
    const __m256i zero = _mm256_setzero_si256();
    if constexpr (sizeof(T) == 4)
      return (native_mask_t<T>)_mm256_cmpgt_epi32(_mm256_cvtepu8_epi32(_mm_loadl_epi64((const __m128i*)p)), zero);
    int32_t four;
    std::memcpy(&four, p, 4);
    return (native_mask_t<T>)_mm256_cmpgt_epi64(_mm256_cvtepu8_epi64(_mm_cvtsi32_si128(four)), zero);
  } else {
    lane_bytes_t<T> bytes;
    std::memcpy(&bytes, p, sizeof(bytes));
    return __builtin_convertvector(bytes, native_mask_t<T>) != 0;
  }
}
/// Four mask bits as four bytes of 0 or 1: bit k times 2^(7k) lands on bit 8k, and no two shifted copies
/// of the four bits share a position, so the multiply has no carries.
inline uint32_t nibble_to_bools(uint32_t bits) { return (bits * 0x00204081u) & 0x01010101u; }

/// A lane mask (all ones or zero per lane) stored as Vec<T>::size() bools (1 or 0).
template <class T>
inline void store_mask_as_bools(native_mask_t<T> mask, bool* p) {
  if constexpr (kVecBytes == 32) {  // the sign bits, spread to bytes (GCC's narrowing was per lane)
    if constexpr (sizeof(T) == 4) {
      const uint32_t bits = uint32_t(_mm256_movemask_ps((__m256)mask));
      const uint64_t bytes = nibble_to_bools(bits & 15u) | uint64_t(nibble_to_bools(bits >> 4)) << 32;
      std::memcpy(p, &bytes, 8);
    } else {
      const uint32_t bytes = nibble_to_bools(uint32_t(_mm256_movemask_pd((__m256d)mask)));
      std::memcpy(p, &bytes, 4);
    }
  } else {
    const lane_bytes_t<T> bytes = __builtin_convertvector(mask & 1, lane_bytes_t<T>);
    std::memcpy(p, &bytes, sizeof(bytes));
  }
}
#endif

// Note [Vec semantics]: the functions below are where ISA behaviour shows in the bits.

#if defined(DC_VEC_X86)
/// vfmadd on native lanes (one rounding).
template <class V>
inline V native_fmadd(V a, V b, V c) {
#if defined(DC_CPU_CAPABILITY_AVX512)
  if constexpr (sizeof(a[0]) == 4) return V(_mm512_fmadd_ps(__m512(a), __m512(b), __m512(c)));
  else return V(_mm512_fmadd_pd(__m512d(a), __m512d(b), __m512d(c)));
#else
  if constexpr (sizeof(a[0]) == 4) return V(_mm256_fmadd_ps(__m256(a), __m256(b), __m256(c)));
  else return V(_mm256_fmadd_pd(__m256d(a), __m256d(b), __m256d(c)));
#endif
}
#endif

/// vec::fmadd(a, b, c) = a*b + c.
template <class T>
inline Vec<T> fmadd(const Vec<T>& a, const Vec<T>& b, const Vec<T>& c) {
#if defined(DC_VEC_X86)
  if constexpr (is_native_v<T>) return Vec<T>::native(native_fmadd(a.v, b.v, c.v));
  Vec<T> r;
  for (int i = 0; i < Vec<T>::kSize; ++i) {
    if constexpr (is_reduced_v<T>)
      r.v[i] = vec_from_float<T>(std::fma(float(a.v[i]), float(b.v[i]), float(c.v[i])));
    else if constexpr (std::is_floating_point_v<T>)
      r.v[i] = std::fma(a.v[i], b.v[i], c.v[i]);
    else
      r.v[i] = wrap_add(wrap_mul(a.v[i], b.v[i]), c.v[i]);
  }
  return r;
#else
  return a * b + c;  // vec_base.h: two Vectorized ops, two roundings
#endif
}

/// IEEE-754 maximum/minimum as vec::maximum/minimum propagate NaN.
template <class T, bool kMax>
inline T vec_minmax_lane(T a, T b) {
  if constexpr (std::is_integral_v<T>) {
    return kMax ? std::max(a, b) : std::min(a, b);
  } else {
#if defined(DC_VEC_X86)
    using F = std::conditional_t<std::is_same_v<T, double>, double, float>;
    const F x = F(a), y = F(b);
    // max_ps(x, y) = x > y ? x : y; then OR with the unordered mask (all ones = a NaN).
    F m = kMax ? (x > y ? x : y) : (x < y ? x : y);
    if (x != x || y != y) {
      using Bits = std::conditional_t<std::is_same_v<F, double>, uint64_t, uint32_t>;
      m = std::bit_cast<F>(~Bits(0));
    }
    if constexpr (is_reduced_v<T>) return vec_from_float<T>(m);
    else return m;
#else
    // vec_base.h: (a > b) ? a : b, and a's NaN wins.
    const bool take_a = kMax ? float(a) > float(b) : float(a) < float(b);
    T m = take_a ? a : b;
    if (float(a) != float(a)) m = a;
    return m;
#endif
  }
}
/// Native lanes: vec_minmax_lane as whole vectors. AVX2 as vec256's maximum/minimum are written: max_ps/min_ps
/// (`x > y ? x : y` / `x < y ? x : y`), then OR the unordered mask (all ones where either lane is NaN): two
/// instructions on a max reduction's dependency chain, where GCC's compares and blends of the generic form
/// (kept for AVX-512) were five.
template <class T, bool kMax>
inline Vec<T> minmax_native(const Vec<T>& a, const Vec<T>& b) {
  using N = typename Vec<T>::native_t;
#if defined(DC_CPU_CAPABILITY_AVX2)
  if constexpr (std::is_same_v<T, float>) {
    const __m256 x = __m256(a.v), y = __m256(b.v);
    return Vec<T>::native(
        N(_mm256_or_ps(kMax ? _mm256_max_ps(x, y) : _mm256_min_ps(x, y), _mm256_cmp_ps(x, y, _CMP_UNORD_Q))));
  } else {
    const __m256d x = __m256d(a.v), y = __m256d(b.v);
    return Vec<T>::native(
        N(_mm256_or_pd(kMax ? _mm256_max_pd(x, y) : _mm256_min_pd(x, y), _mm256_cmp_pd(x, y, _CMP_UNORD_Q))));
  }
#else
  using Bits = std::conditional_t<std::is_same_v<T, double>, int64_t, int32_t>;
  typedef Bits bits_t __attribute__((vector_size(sizeof(a.v))));
  const auto take_a = kMax ? a.v > b.v : a.v < b.v;
  const bits_t m = take_a ? (bits_t)a.v : (bits_t)b.v;
  const auto nan = (a.v != a.v) | (b.v != b.v);
  return Vec<T>::native((N)(nan ? bits_t{} - 1 : m));
#endif
}
template <class T>
inline Vec<T> maximum(const Vec<T>& a, const Vec<T>& b) {
#if defined(DC_VEC_X86)
  if constexpr (is_native_v<T>) return minmax_native<T, true>(a, b);
#endif
  return Vec<T>::raw_zip(a, b, [](T x, T y) { return vec_minmax_lane<T, true>(x, y); });
}
template <class T>
inline Vec<T> minimum(const Vec<T>& a, const Vec<T>& b) {
#if defined(DC_VEC_X86)
  if constexpr (is_native_v<T>) return minmax_native<T, false>(a, b);
#endif
  return Vec<T>::raw_zip(a, b, [](T x, T y) { return vec_minmax_lane<T, false>(x, y); });
}

// Note [NaN operand order]: when both operands of an x86 add or mul are NaN, the result is the first
// source operand's NaN (quieted). GCC treats + and * as commutative and may swap the operands of vaddps,
// so where torch's machine code keeps an order (softmax's sums and its x * (1 / sum), found against
// torch's output) add_ordered / mul_ordered keep a's NaN: for native lanes the instruction is written
// out (inline asm fixes the operand order; one instruction, as torch's), other lane types run a lane
// loop. DEFAULT builds emulate vectors with scalar C++ and have no such rule. A swapped operand order
// makes 87 of test_softmax.py's cases differ from torch (checked by mutation).
enum class OrderedOp { Add, Mul };
template <OrderedOp op, class T>
inline Vec<T> ordered(const Vec<T>& a, const Vec<T>& b) {
  constexpr bool add = op == OrderedOp::Add;
#if defined(DC_VEC_X86)
  if constexpr (is_native_v<T>) {
    Vec<T> r;  // AT&T order: "vaddps b, a, r" is r = a + b with a the first source operand
    if constexpr (std::is_same_v<T, float>) {
      if constexpr (add) asm("vaddps %2, %1, %0" : "=v"(r.v) : "v"(a.v), "v"(b.v));
      else asm("vmulps %2, %1, %0" : "=v"(r.v) : "v"(a.v), "v"(b.v));
    } else {
      if constexpr (add) asm("vaddpd %2, %1, %0" : "=v"(r.v) : "v"(a.v), "v"(b.v));
      else asm("vmulpd %2, %1, %0" : "=v"(r.v) : "v"(a.v), "v"(b.v));
    }
    return r;
  } else {
    return Vec<T>::raw_zip(a, b, [](T x, T y) {
      T r = add ? x + y : x * y;
      if (y != y) r = y + y;
      if (x != x) r = x + x;  // a NaN plus itself: that NaN, quieted
      return r;
    });
  }
#else
  return add ? a + b : a * b;
#endif
}
template <class T>
inline Vec<T> add_ordered(const Vec<T>& a, const Vec<T>& b) {
  return ordered<OrderedOp::Add>(a, b);
}
template <class T>
inline Vec<T> mul_ordered(const Vec<T>& a, const Vec<T>& b) {
  return ordered<OrderedOp::Mul>(a, b);
}

/// vec::clamp_min(a, min) / clamp_max(a, max) / clamp(a, min, max): x86 max_ps(min, a) =
/// min > a ? min : a; DEFAULT a < min ? min : a. Both keep a NaN `a`; they differ only for a NaN
/// bound, which we spell out per ISA.
template <class T>
inline T clamp_min_lane(T a, T lo) {
  using F = std::conditional_t<is_reduced_v<T>, float, T>;
#if defined(DC_VEC_X86)
  const F r = F(lo) > F(a) ? F(lo) : F(a);
#else
  const F r = F(a) < F(lo) ? F(lo) : F(a);
#endif
  if constexpr (is_reduced_v<T>) {
#if defined(DC_VEC_X86)
    return vec_from_float<T>(r);
#else
    return F(a) < F(lo) ? lo : a;
#endif
  } else {
    return r;
  }
}
template <class T>
inline T clamp_max_lane(T a, T hi) {
  using F = std::conditional_t<is_reduced_v<T>, float, T>;
#if defined(DC_VEC_X86)
  const F r = F(hi) < F(a) ? F(hi) : F(a);
#else
  const F r = F(a) > F(hi) ? F(hi) : F(a);
#endif
  if constexpr (is_reduced_v<T>) {
#if defined(DC_VEC_X86)
    return vec_from_float<T>(r);
#else
    return F(a) > F(hi) ? hi : a;
#endif
  } else {
    return r;
  }
}
// Native lanes take the x86 lane rules above as whole-vector selects, so GCC emits vector code.
template <class T>
inline Vec<T> clamp_min(const Vec<T>& a, const Vec<T>& lo) {
#if defined(DC_VEC_X86)
  if constexpr (is_native_v<T>) return Vec<T>::native(lo.v > a.v ? lo.v : a.v);  // max_ps(lo, a)
#endif
  return Vec<T>::raw_zip(a, lo, [](T x, T y) { return clamp_min_lane(x, y); });
}
template <class T>
inline Vec<T> clamp_max(const Vec<T>& a, const Vec<T>& hi) {
#if defined(DC_VEC_X86)
  if constexpr (is_native_v<T>) return Vec<T>::native(hi.v < a.v ? hi.v : a.v);  // min_ps(hi, a)
#endif
  return Vec<T>::raw_zip(a, hi, [](T x, T y) { return clamp_max_lane(x, y); });
}
/// vec::clamp: x86 min_ps(max, max_ps(min, a)) in one float pass; DEFAULT std::min(std::max(a, lo), hi).
template <class T>
inline Vec<T> clamp(const Vec<T>& a, const Vec<T>& lo, const Vec<T>& hi) {
#if defined(DC_VEC_X86)
  if constexpr (is_native_v<T>) return clamp_max(clamp_min(a, lo), hi);
#endif
  Vec<T> r;
  for (int i = 0; i < Vec<T>::kSize; ++i) {
#if defined(DC_VEC_X86)
    if constexpr (is_reduced_v<T>) {
      const float x = a.v[i], l = lo.v[i], h = hi.v[i];
      const float m = l > x ? l : x;
      r.v[i] = vec_from_float<T>(h < m ? h : m);
    } else {
      const T m = lo.v[i] > a.v[i] ? lo.v[i] : a.v[i];
      r.v[i] = hi.v[i] < m ? hi.v[i] : m;
    }
#else
    r.v[i] = std::min(std::max(a.v[i], lo.v[i], [](T x, T y) { return float(x) < float(y); }), hi.v[i],
                      [](T x, T y) { return float(x) < float(y); });
#endif
  }
  return r;
}

/// Vectorized::floor()/ceil()/round()/trunc(): rounding to an integer, exact in every dtype (native lanes:
/// vroundps/vrndscaleps with the mode, which quiets a NaN as the scalar roundss of std::floor/ceil/nearbyint/
/// trunc does; round is to nearest even, as std::nearbyint). Half/BFloat16 lanes round their float values.
/// The rounding-control values of vroundps' immediate (_MM_FROUND_TO_NEAREST_INT, _NEG_INF, _POS_INF, _ZERO).
enum class RoundMode : int { Nearest = 0, Floor = 1, Ceil = 2, Trunc = 3 };
template <RoundMode kMode, class T, class Scalar>
inline Vec<T> round_with_mode(const Vec<T>& a, Scalar scalar) {
#if defined(DC_VEC_X86)
  if constexpr (is_native_v<T>) {
    using N = typename Vec<T>::native_t;
    constexpr int kImm = int(kMode) | _MM_FROUND_NO_EXC;
#if defined(DC_CPU_CAPABILITY_AVX512)
    if constexpr (std::is_same_v<T, float>) return Vec<T>::native(N(_mm512_roundscale_ps(__m512(a.v), kImm)));
    else return Vec<T>::native(N(_mm512_roundscale_pd(__m512d(a.v), kImm)));
#else
    if constexpr (std::is_same_v<T, float>) return Vec<T>::native(N(_mm256_round_ps(__m256(a.v), kImm)));
    else return Vec<T>::native(N(_mm256_round_pd(__m256d(a.v), kImm)));
#endif
  }
#endif
  return a.map(scalar);
}
template <class T>
inline Vec<T> trunc(const Vec<T>& a) {
  return round_with_mode<RoundMode::Trunc>(a, [](auto x) { return std::trunc(x); });
}
template <class T>
inline Vec<T> floor(const Vec<T>& a) {
  return round_with_mode<RoundMode::Floor>(a, [](auto x) { return std::floor(x); });
}
template <class T>
inline Vec<T> ceil(const Vec<T>& a) {
  return round_with_mode<RoundMode::Ceil>(a, [](auto x) { return std::ceil(x); });
}
template <class T>
inline Vec<T> round(const Vec<T>& a) {
  return round_with_mode<RoundMode::Nearest>(a, [](auto x) { return std::nearbyint(x); });
}

/// Vectorized::neg(): sign-bit flip for float lanes on x86 (also Half/BFloat16: xor 0x8000);
/// DEFAULT maps -x (Half/BFloat16 through float and the scalar converter).
template <class T>
inline Vec<T> neg(const Vec<T>& a) {
  Vec<T> r;
  for (int i = 0; i < Vec<T>::kSize; ++i) {
    if constexpr (is_reduced_v<T>) {
#if defined(DC_VEC_X86)
      r.v[i] = T::from_bits(uint16_t(a.v[i].x ^ 0x8000u));
#else
      r.v[i] = scalar_from_float<T>(-float(a.v[i]));
#endif
    } else {
      r.v[i] = wrap_neg(a.v[i]);
    }
  }
  return r;
}

/// Vectorized::abs(): sign-bit clear for floats (x86 Half/BFloat16: andnot 0x8000). DEFAULT
/// (vec_base.h): std::abs for floating lanes incl. Half/BFloat16 (through float and the scalar
/// converter), `x < 0 ? -x : x` for integers.
template <class T>
inline Vec<T> abs(const Vec<T>& a) {
  Vec<T> r;
  for (int i = 0; i < Vec<T>::kSize; ++i) {
    const T x = a.v[i];
    if constexpr (is_reduced_v<T>) {
#if defined(DC_VEC_X86)
      r.v[i] = T::from_bits(uint16_t(x.x & 0x7FFFu));
#else
      r.v[i] = scalar_from_float<T>(std::abs(float(x)));
#endif
    } else if constexpr (std::is_floating_point_v<T>) {
      r.v[i] = std::abs(x);
    } else if constexpr (std::is_unsigned_v<T>) {
      r.v[i] = x;
    } else {
      r.v[i] = x < 0 ? wrap_neg(x) : x;
    }
  }
  return r;
}

}  // namespace DC_CPU_CAPABILITY
}  // namespace dc::vec
