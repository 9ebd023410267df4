// softmax / log_softmax backward kernels, float and double: aten/src/ATen/native/cpu/SoftMaxKernel.cpp
// (_vec_host_softmax_backward_lastdim, _vec_softmax_backward, _vec_log_softmax_backward), registered
// with ALSO_REGISTER_AVX512_DISPATCH as torch's. See Note [Softmax backward FMAs] for where torch's
// build contracted a*b+c.
#include <cmath>
#include <memory>

#include "densecore/kernels/cpu/vec_reduce.h"
#include "densecore/kernels/stubs/loss_stubs.h"
#include "densecore/kernels/iter/parallel.h"
#include "densecore/kernels/vec/lane_math.h"

namespace dc {
inline namespace DC_CPU_CAPABILITY {
namespace {

using vec::Vec;

// Note [Softmax backward FMAs]: read from torch 2.14.1's libtorch_cpu.so (objdump of the AVX2 and
// AVX-512 builds, both the OpenMP bodies and the serial path inlined into *_kernel_impl):
//  - log_softmax, last dim: grad - exp(out) * sum is one vfnmadd (full and partial vectors);
//  - softmax, last dim: map2_reduce_all(grad * out, +) multiplies and adds separately in the main
//    loop, but the partial last vector is ONE vfmadd in the float serial path (one row, or one
//    thread) and two roundings in the OpenMP body and for double; then (grad - sum) * out;
//  - dim != last: softmax's tmp_sum += grad * out and log_softmax's grad - exp(out) * sum are FMAs in
//    the vector loop and in the scalar tail (std::exp there).
// The DEFAULT build has no FMA instructions.
#if defined(DC_VEC_X86)
constexpr bool kFma = true;
#else
constexpr bool kFma = false;
#endif


template <class T>
inline Vec<T> vadd(const Vec<T>& a, const Vec<T>& b) {
  return a + b;
}

/// map2_reduce_all(x * y, +) over one row; `fuse_tail`: the partial last vector as one FMA.
template <class T>
T dot_row(const T* g, const T* o, int64_t n, bool fuse_tail) {
  constexpr int64_t V = Vec<T>::size();
  if (n < V) return vec::vec_reduce_all_seq<T>(vadd<T>, vec::loadu_partial(g, n) * vec::loadu_partial(o, n), n);
  Vec<T> acc = Vec<T>::loadu(g) * Vec<T>::loadu(o);
  int64_t d = V;
  for (; d < n - (n % V); d += V) acc = acc + Vec<T>::loadu(g + d) * Vec<T>::loadu(o + d);
  if (n - d > 0) {
    const Vec<T> x = vec::loadu_partial(g + d, n - d), y = vec::loadu_partial(o + d, n - d);
    Vec<T> r;
    for (int64_t i = 0; i < V; ++i) r.v[i] = fuse_tail ? std::fma(x.v[i], y.v[i], acc.v[i]) : acc.v[i] + x.v[i] * y.v[i];
    acc = vec::set(acc, r, n - d);
  }
  return vec::vec_reduce_all<T>(vadd<T>, acc);
}

/// vec::map2 over one row: full vectors, then one zero-padded partial vector.
template <class T, class F>
void map2_row(const F& f, T* out, const T* a, const T* b, int64_t n) {
  constexpr int64_t V = Vec<T>::size();
  int64_t d = 0;
  for (; d < n - (n % V); d += V) f(Vec<T>::loadu(a + d), Vec<T>::loadu(b + d)).store(out + d);
  if (n - d > 0) vec::store_partial(f(vec::loadu_partial(a + d, n - d), vec::loadu_partial(b + d, n - d)), out + d, n - d);
}

/// _vec_host_softmax_backward_lastdim: rows of `dim`, parallel over rows (grain 0).
template <class T>
void backward_lastdim(const T* grad, const T* out, T* gin, int64_t outer, int64_t dim, bool log) {
  // parallel_for runs f inline for one row, one thread or inside a parallel region (Parallel-inl.h),
  // and only that inlined copy fuses softmax's tail (Note [Softmax backward FMAs]).
  const bool serial = outer == 1 || get_num_threads() == 1 || in_parallel_region();
  const bool fuse_tail = kFma && serial && std::is_same_v<T, float>;
  parallel_for(0, outer, 0, [&](int64_t b, int64_t e) {
    for (int64_t i = b; i < e; ++i) {
      const T* g = grad + i * dim;
      const T* o = out + i * dim;
      T* gi = gin + i * dim;
      if (log) {
        const T sum = vec::reduce_all<T>(vadd<T>, g, dim);
        // exp as whole vectors (exp_lanes: the per-lane port's operations, eight or sixteen at a time, as
        // Vectorized<float>::exp runs): lane by lane it was 15x torch's kernel (perf, 113k GPT, Zen 3).
        map2_row<T>([sum](const Vec<T>& x, const Vec<T>& y) {
          const Vec<T> e = vec::exp_lanes(y);
          Vec<T> r;
          for (int l = 0; l < Vec<T>::size(); ++l) r.v[l] = vec::fnmadd_contracted(e.v[l], sum, x.v[l]);
          return r;
        }, gi, g, o, dim);
      } else {
        const T sum = dot_row(g, o, dim, fuse_tail);
        map2_row<T>([sum](const Vec<T>& x, const Vec<T>& y) { return (x - Vec<T>(sum)) * y; }, gi, g, o, dim);
      }
    }
  });
}

/// _vec_softmax_backward / _vec_log_softmax_backward (dim != last): inner blocked into chunks of
/// CHUNK_SIZE, a vertical sum down the dim, then the elementwise formula; vector lanes and scalar
/// tails differ only in exp (SLEEF vs std::exp).
template <class T>
void backward_inner(const T* grad, const T* out, T* gin, int64_t outer, int64_t dim, int64_t inner, bool log) {
  constexpr int64_t V = Vec<T>::size();
  int64_t max_chunk = std::max<int64_t>(128 * 1024 / dim / int64_t(sizeof(T)), V);
  max_chunk = max_chunk / V * V;
  const int64_t chunk = std::min<int64_t>(max_chunk, inner);
  const int64_t num_chunks = divup(inner, chunk);
  const int64_t outer_stride = dim * inner;
  parallel_for(0, outer * num_chunks, 0, [&](int64_t begin, int64_t end) {
    auto buffer = std::make_unique<T[]>(size_t(chunk));
    T* sum = buffer.get();
    for (int64_t i = begin; i < end; ++i) {
      const int64_t base = (i / num_chunks) * outer_stride + (i % num_chunks) * chunk;
      const int64_t size = std::min(chunk, inner - (i % num_chunks) * chunk);
      const int64_t vend = size - (size % V);
      for (int64_t j = 0; j < size; ++j) sum[j] = T(0);
      for (int64_t d = 0; d < dim; ++d) {
        const T* g = grad + base + d * inner;
        const T* o = out + base + d * inner;
        for (int64_t j = 0; j < size; ++j)
          sum[j] = log ? sum[j] + g[j] : vec::fmadd_contracted(g[j], o[j], sum[j]);
      }
      for (int64_t d = 0; d < dim; ++d) {
        const T* g = grad + base + d * inner;
        const T* o = out + base + d * inner;
        T* gi = gin + base + d * inner;
        for (int64_t j = 0; j < size; ++j) {
          if (!log) {
            gi[j] = o[j] * (g[j] - sum[j]);
          } else {
            const T e = j < vend ? vec::exp_lane(o[j]) : std::exp(o[j]);  // vector body, scalar tail
            gi[j] = vec::fnmadd_contracted(e, sum[j], g[j]);
          }
        }
      }
    }
  });
}

void softmax_backward_kernel(DType t, const void* grad, const void* out, void* gin, int64_t outer, int64_t dim,
                             int64_t inner, bool log) {
  auto run = [&]<class T>() {
    const T* g = static_cast<const T*>(grad);
    const T* o = static_cast<const T*>(out);
    T* gi = static_cast<T*>(gin);
    if (inner == 1) backward_lastdim<T>(g, o, gi, outer, dim, log);
    else backward_inner<T>(g, o, gi, outer, dim, inner, log);
  };
  if (t == DType::Float32) run.template operator()<float>();
  else if (t == DType::Float64) run.template operator()<double>();
  else
    throw NotImplementedError(dc::format("\"{}softmax_backward_kernel_impl\" not implemented for '{}' in densecore",
                                         log ? "log_" : "", scalar_type_name(t)));
}

}  // namespace

DC_ALSO_REGISTER_AVX512_DISPATCH(softmax_backward_stub, &softmax_backward_kernel);

}  // namespace DC_CPU_CAPABILITY
}  // namespace dc
