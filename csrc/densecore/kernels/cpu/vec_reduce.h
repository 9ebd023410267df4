// vec::reduce_all / map_reduce_all / vec_reduce_all / map and Vec::set / partial loads, as
// aten/src/ATen/cpu/vec/functional_base.h (torch 2.14.1 wheel headers) defines them. The horizontal
// reduction of a float vector is the SIMD butterfly on AVX2/AVX-512 (VecReduceAllSIMD: lane i meets
// lane i^4, i^2, i^1 — plus i^8 first on AVX-512) and the sequential lane walk otherwise (double,
// DEFAULT). Only include from kernels/cpu/.
#pragma once

#include <cstring>
#include <utility>

#include "densecore/kernels/vec/vec.h"

namespace dc::vec {
inline namespace DC_CPU_CAPABILITY {

#if defined(DC_VEC_X86)
/// The lane mask of the first `count` (< size) lanes, for masked loads and stores of native lanes.
template <class T>
inline auto first_lanes_mask(int64_t count) {
  if constexpr (kVecBytes == 64) {
    return std::conditional_t<std::is_same_v<T, float>, __mmask16, __mmask8>((1u << count) - 1);
  } else if constexpr (std::is_same_v<T, float>) {
    return _mm256_cmpgt_epi32(_mm256_set1_epi32(int(count)), _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7));
  } else {
    return _mm256_cmpgt_epi64(_mm256_set1_epi64x(count), _mm256_setr_epi64x(0, 1, 2, 3));
  }
}
#endif

/// Vectorized::loadu(ptr, count): the first `count` lanes, the rest zero. torch copies into a zeroed
/// buffer; native lanes use a masked load instead (the same bits, no memcpy call).
template <class T>
inline Vec<T> loadu_partial(const T* p, int64_t count) {
  Vec<T> r(T(0));
#if defined(DC_VEC_X86)
  if constexpr (is_native_v<T>) {
    if (count < Vec<T>::size()) {
      using N = typename Vec<T>::native_t;
      const auto m = first_lanes_mask<T>(count);
      if constexpr (kVecBytes == 64) {
        if constexpr (std::is_same_v<T, float>) r.v = (N)_mm512_maskz_loadu_ps(m, p);
        else r.v = (N)_mm512_maskz_loadu_pd(m, p);
      } else {
        if constexpr (std::is_same_v<T, float>) r.v = (N)_mm256_maskload_ps(p, m);
        else r.v = (N)_mm256_maskload_pd(p, m);
      }
      return r;
    }
  }
#endif
  std::memcpy(&r.v, p, size_t(count) * sizeof(T));
  return r;
}
/// Vectorized::store(ptr, count); native lanes as a masked store.
template <class T>
inline void store_partial(const Vec<T>& v, T* p, int64_t count) {
#if defined(DC_VEC_X86)
  if constexpr (is_native_v<T>) {
    if (count < Vec<T>::size()) {
      const auto m = first_lanes_mask<T>(count);
      if constexpr (kVecBytes == 64) {
        if constexpr (std::is_same_v<T, float>) _mm512_mask_storeu_ps(p, m, (__m512)v.v);
        else _mm512_mask_storeu_pd(p, m, (__m512d)v.v);
      } else {
        if constexpr (std::is_same_v<T, float>) _mm256_maskstore_ps(p, m, (__m256)v.v);
        else _mm256_maskstore_pd(p, m, (__m256d)v.v);
      }
      return;
    }
  }
#endif
  std::memcpy(p, &v.v, size_t(count) * sizeof(T));
}
/// Vectorized::set(a, b, count): the first `count` lanes from b, the rest from a.
template <class T>
inline Vec<T> set(const Vec<T>& a, const Vec<T>& b, int64_t count) {
  Vec<T> r = a;
  for (int64_t i = 0; i < count; ++i) r.v[i] = b.v[i];
  return r;
}

/// The generic vec_reduce_all(f, acc, size): lane 0 folded with lanes 1..size-1 one at a time.
template <class T, class F>
inline T vec_reduce_all_seq(const F& f, Vec<T> acc, int64_t size) {
  const Vec<T> lanes = acc;
  for (int64_t i = 1; i < size; ++i) {
    Vec<T> next(T(0));
    next.v[0] = lanes.v[i];
    acc = f(acc, next);
  }
  return acc.v[0];
}

#if defined(DC_VEC_X86)
/// The float vector whose lane i is v's lane i ^ D, as one shuffle: a lane-by-lane copy compiled to
/// sixteen broadcasts through memory per step, which was most of a short row's softmax or attention.
template <int D, size_t... Is>
inline Vec<float> lanes_xor(const Vec<float>& v, std::index_sequence<Is...>) {
  typedef int32_t Index __attribute__((vector_size(kVecBytes)));
  Vec<float> r;
  r.v = __builtin_shuffle(v.v, Index{int32_t(Is ^ D)...});
  return r;
}
/// VecReduceAllSIMD's butterfly: lane i meets lane i ^ D for D = size/2, ..., 1.
template <int D, class F>
inline Vec<float> butterfly(const F& f, const Vec<float>& v) {
  const Vec<float> r = f(v, lanes_xor<D>(v, std::make_index_sequence<Vec<float>::size()>{}));
  if constexpr (D > 1) return butterfly<D / 2>(f, r);
  else return r;
}
#endif

/// vec_reduce_all(f, acc): VecReduceAllSIMD for float on AVX2/AVX-512, sequential otherwise.
template <class T, class F>
inline T vec_reduce_all(const F& f, const Vec<T>& acc) {
#if defined(DC_VEC_X86)
  if constexpr (std::is_same_v<T, float>) return butterfly<Vec<float>::size() / 2>(f, acc).v[0];
#endif
  return vec_reduce_all_seq<T>(f, acc, Vec<T>::size());
}

/// vec::map_reduce_all(map, red, data, size); reduce_all is map = identity.
template <class T, class M, class R>
inline T map_reduce_all(const M& map, const R& red, const T* data, int64_t size) {
  constexpr int64_t V = Vec<T>::size();
  if (size < V) return vec_reduce_all_seq<T>(red, map(loadu_partial(data, size)), size);
  int64_t d = V;
  Vec<T> acc = map(Vec<T>::loadu(data));
  for (; d < size - (size % V); d += V) acc = red(acc, map(Vec<T>::loadu(data + d)));
  if (size - d > 0) acc = set(acc, red(acc, map(loadu_partial(data + d, size - d))), size - d);
  return vec_reduce_all<T>(red, acc);
}
template <class T, class R>
inline T reduce_all(const R& red, const T* data, int64_t size) {
  return map_reduce_all(
      [](const Vec<T>& x) { return x; }, red, data, size);
}

/// vec::map(f, out, in, size): full vectors, then one zero-padded partial vector.
template <class T, class F>
inline void map(const F& f, T* out, const T* in, int64_t size) {
  constexpr int64_t V = Vec<T>::size();
  int64_t d = 0;
  for (; d < size - (size % V); d += V) f(Vec<T>::loadu(in + d)).store(out + d);
  if (size - d > 0) store_partial(f(loadu_partial(in + d, size - d)), out + d, size - d);
}

}  // namespace DC_CPU_CAPABILITY
}  // namespace dc::vec
