// LayerNorm forward and backward, mirroring aten/src/ATen/native/cpu/layer_norm_kernel.cpp and
// moments_utils.h (torch 2.14.1 wheel). REGISTER_DISPATCH: AVX-512 machines run the AVX2 build.
// Where GCC contracted a*b+c in torch's AVX2 build (read from libtorch_cpu.so) we write fmadd_contracted().
#include <array>
#include <cmath>
#include <new>
#include <type_traits>
#include <vector>

#include "densecore/kernels/cpu/vec_reduce.h"
#include "densecore/kernels/stubs/nn_stubs.h"
#include "densecore/kernels/iter/parallel.h"
#include "densecore/kernels/vec/lane_math.h"

namespace dc {
inline namespace DC_CPU_CAPABILITY {
namespace {

using vec::Vec;

using vec::fmadd_contracted;

/// fmadd_contracted on every lane: a scalar expression GCC vectorised inside torch's loop.
template <class T>
inline Vec<T> fmadd_contracted_lanes(const Vec<T>& a, const Vec<T>& b, const Vec<T>& c) {
  Vec<T> r;
  for (int i = 0; i < Vec<T>::kSize; ++i) r.v[i] = fmadd_contracted(a.v[i], b.v[i], c.v[i]);
  return r;
}

// ---- RowwiseMoments (moments_utils.h) ------------------------------------------------------------

constexpr int64_t kChunkSize = 16;

inline int64_t ceil_log2(int64_t x) {  // utils.h CeilLog2
  if (x <= 2) return 1;
  int64_t r = 0, v = x - 1;
  while (v > 0) { ++r; v >>= 1; }
  return r;
}

template <class T>
struct Moments {
  int64_t m0 = 0;
  Vec<T> m1{T(0)}, m2{T(0)};
};

/// AddMomentsVec: explicit fmadd for m2 only (m1 + c*delta stays two roundings: its product has two uses).
template <class T>
inline void add_moments_vec(int64_t m0_add, const Vec<T>& m1_add, const Vec<T>& m2_add, Moments<T>& acc) {
  const int64_t n = acc.m0 + m0_add;
  const T c = n == 0 ? T(0) : T(m0_add) / T(n);
  const Vec<T> delta = m1_add - acc.m1;
  const Vec<T> m2_tmp = acc.m2 + m2_add;
  const Vec<T> c_delta = Vec<T>(c) * delta;
  const Vec<T> m0_delta = delta * Vec<T>(T(acc.m0));
  acc.m1 = acc.m1 + c_delta;
  acc.m2 = vec::fmadd(m0_delta, c_delta, m2_tmp);
  acc.m0 = n;
}

/// AddMoments (scalar): GCC fused m1 += c*delta and m2_add + ((delta*delta)*c)*m0.
template <class T>
inline void add_moments(int64_t m0_add, T m1_add, T m2_add, int64_t& m0, T& m1, T& m2) {
  const int64_t n = m0 + m0_add;
  const T c = n == 0 ? T(0) : T(m0_add) / T(n);
  const T delta = m1_add - m1;
  m1 = fmadd_contracted(c, delta, m1);
  m2 = m2 + fmadd_contracted(delta * delta * c, T(m0), m2_add);
  m0 = n;
}

/// 1 / (j + 1) for j < kChunkSize, correctly rounded at compile time: moments_utils.h's c_vecs table.
template <class T>
constexpr std::array<T, kChunkSize> kReciprocals = [] {
  std::array<T, kChunkSize> r{};
  for (int64_t j = 0; j < kChunkSize; ++j) r[size_t(j)] = T(1) / T(j + 1);
  return r;
}();

/// The cascade's stack of `depth` zeroed entries: on the stack for rows up to 2^kInlineDepth chunks (torch's
/// SmallVector), on the heap beyond. A heap vector per row, or zeroing all inline entries, was a third of
/// layer norm's forward time at 64 columns, where depth is 1 (issue 10).
template <class T>
class MomentsStack {
 public:
  static constexpr int64_t kInlineDepth = 8;
  explicit MomentsStack(int64_t depth) {
    if (depth > kInlineDepth) {
      heap_.resize(size_t(depth));
      data_ = heap_.data();
    } else {
      for (int64_t i = 0; i < depth; ++i) new (&inline_[i]) Moments<T>();
    }
  }
  MomentsStack(const MomentsStack&) = delete;
  MomentsStack& operator=(const MomentsStack&) = delete;
  Moments<T>& operator[](int64_t i) { return data_[i]; }

 private:
  static_assert(std::is_trivially_destructible_v<Moments<T>>);
  union {
    Moments<T> inline_[kInlineDepth];  // only the first `depth` are constructed
  };
  std::vector<Moments<T>> heap_;
  Moments<T>* data_ = inline_;
};

template <class T>
std::pair<T, T> rowwise_moments(const T* X, int64_t N) {
  constexpr int64_t V = Vec<T>::size();
  const int64_t n = N / V;
  const int64_t m = divup(n, kChunkSize);
  const int64_t depth = ceil_log2(m);
  MomentsStack<T> stk(depth);
  for (int64_t i = 0; i < m; ++i) {
    const T* X_ptr = X + i * kChunkSize * V;
    const int64_t m0 = std::min(kChunkSize, n - i * kChunkSize);
    Vec<T> m1(T(0)), m2(T(0));
    for (int64_t j = 0; j < m0; ++j) {  // UpdateMomentsVec
      const Vec<T> x = Vec<T>::loadu(X_ptr + j * V);
      const Vec<T> c(kReciprocals<T>[size_t(j)]);
      const Vec<T> delta = x - m1;
      m1 = vec::fmadd(c, delta, m1);
      m2 = vec::fmadd(delta, x - m1, m2);
    }
    add_moments_vec(m0, m1, m2, stk[0]);
    int64_t mask = i + 1;
    for (int64_t j = 1; j < depth && (mask & 1) == 0; ++j) {
      add_moments_vec(stk[j - 1].m0, stk[j - 1].m1, stk[j - 1].m2, stk[j]);
      stk[j - 1] = Moments<T>{};
      mask >>= 1;
    }
  }
  for (int64_t i = 1; i < depth; ++i) add_moments_vec(stk[i].m0, stk[i].m1, stk[i].m2, stk[0]);

  int64_t m0 = 0;
  T m1 = 0, m2 = 0;
  for (int64_t i = n * V; i < N; ++i) {  // scalar tail: not contracted in torch's build
    const T x = X[i];
    const T delta = x - m1;
    ++m0;
    m1 += delta / T(m0);
    m2 += delta * (x - m1);
  }
  for (int64_t i = 0; i < V; ++i) add_moments(n, stk[0].m1.v[i], stk[0].m2.v[i], m0, m1, m2);
  return {m1, m2 / T(N)};
}

// ---- forward ---------------------------------------------------------------------------------------

/// LayerNormSecondPass: y = ((x - mean) * rstd) * gamma + beta with GCC's contractions (the product
/// by an absent gamma folds away, so beta-only rows are fma(x - mean, rstd, beta)).
template <class T>
void second_pass(const T* X, const T* gamma, const T* beta, T* Y, int64_t N, T rstd, T mean) {
  for (int64_t j = 0; j < N; ++j) {
    const T d = X[j] - mean;
    if (gamma) Y[j] = fmadd_contracted(d * rstd, gamma[j], beta ? beta[j] : T(0));
    else Y[j] = fmadd_contracted(d, rstd, beta ? beta[j] : T(0));
  }
}

template <class T>
void layer_norm_impl(const T* X, const T* gamma, const T* beta, int64_t M, int64_t N, T eps, T* Y, T* mean,
                     T* rstd) {
  parallel_for(0, M, 1, [&](int64_t start, int64_t end) {
    for (int64_t i = start; i < end; ++i) {
      auto [mean_val, var] = rowwise_moments(X + i * N, N);
      const T rstd_val = T(1) / std::sqrt(var + eps);
      second_pass(X + i * N, gamma, beta, Y + i * N, N, rstd_val, mean_val);
      if (mean) mean[i] = mean_val;
      if (rstd) rstd[i] = rstd_val;
    }
  });
}

void layer_norm_kernel(DType dtype, const void* X, const void* gamma, const void* beta, int64_t M, int64_t N,
                       double eps, void* Y, void* mean, void* rstd) {
  dispatch_dtype(dtype, [&]<class T>() {
    if constexpr (std::is_same_v<T, float> || std::is_same_v<T, double>)
      layer_norm_impl<T>(static_cast<const T*>(X), static_cast<const T*>(gamma), static_cast<const T*>(beta), M,
                         N, T(eps), static_cast<T*>(Y), static_cast<T*>(mean), static_cast<T*>(rstd));
  });
}

// ---- backward --------------------------------------------------------------------------------------

// Vector reductions of layer_norm_backward_frame (vec::map2_reduce_all / map3_reduce_all /
// reduce_all). `prod(d, count)` returns the two factors of the map's last product (reduce_all: x, 1).
// torch's AVX2 build adds acc + x*y with two roundings in the main loop, but GCC contracted the
// partial-vector tail's acc + x*y into one FMA (checked bitwise against the wheel).
template <class T, class Prod>
T map_reduce(const Prod& prod, int64_t N) {
  constexpr int64_t V = Vec<T>::size();
  auto red = [](const Vec<T>& a, const Vec<T>& b) { return a + b; };
  auto mapped = [&](int64_t d, int64_t c) { auto [x, y] = prod(d, c); return x * y; };
  if (N < V) return vec::vec_reduce_all_seq<T>(red, mapped(int64_t(0), N), N);
  Vec<T> acc = mapped(int64_t(0), V);
  int64_t d = V;
  for (; d < N - (N % V); d += V) acc = acc + mapped(d, V);
  if (N - d > 0) {
    auto [x, y] = prod(d, N - d);
    acc = vec::set(acc, fmadd_contracted_lanes(x, y, acc), N - d);
  }
  return vec::vec_reduce_all<T>(red, acc);
}

template <class T>
struct BackwardRow {
  const T *dY, *X, *gamma;
  int64_t N;
  Vec<T> load(const T* p, int64_t d, int64_t cnt) const {
    return cnt == Vec<T>::size() ? Vec<T>::loadu(p + d) : vec::loadu_partial(p + d, cnt);
  }
};

template <class T>
void backward_row(const T* dY, const T* X, T mean, T a, const T* gamma, int64_t N, T scale, T* dX,
                  T* dgamma_buf, T* dbeta_buf) {
  const BackwardRow<T> r{dY, X, gamma, N};
  if (dgamma_buf) {
    const T b = -a * mean;
    for (int64_t j = 0; j < N; ++j)
      dgamma_buf[j] = fmadd_contracted(dY[j], fmadd_contracted(a, X[j], b), dgamma_buf[j]);
  }
  if (dbeta_buf)
    for (int64_t j = 0; j < N; ++j) dbeta_buf[j] = dbeta_buf[j] + dY[j];
  if (!dX) return;
  T ds, db;
  using P = std::pair<Vec<T>, Vec<T>>;
  if (!gamma) {
    ds = map_reduce<T>([&](int64_t d, int64_t c) { return P{r.load(dY, d, c), r.load(X, d, c)}; }, N);
    db = map_reduce<T>([&](int64_t d, int64_t c) { return P{r.load(dY, d, c), Vec<T>(T(1))}; }, N);
  } else {
    ds = map_reduce<T>(
        [&](int64_t d, int64_t c) { return P{r.load(dY, d, c) * r.load(X, d, c), r.load(gamma, d, c)}; }, N);
    db = map_reduce<T>([&](int64_t d, int64_t c) { return P{r.load(dY, d, c), r.load(gamma, d, c)}; }, N);
  }
  const T b = fmadd_contracted(db, mean, -ds) * a * a * a * scale;
  const T c = fmadd_contracted(-b, mean, -(db * a * scale));
  for (int64_t j = 0; j < N; ++j) {
    const T ady = gamma ? a * dY[j] * gamma[j] : a * dY[j];
    dX[j] = fmadd_contracted(b, X[j], ady) + c;
  }
}

template <class T>
void layer_norm_backward_impl(const T* dY, const T* X, const T* mean, const T* rstd, const T* gamma, int64_t M,
                              int64_t N, T* dX, T* dgamma, T* dbeta) {
  const T scale = T(1) / T(N);
  const int num_threads = get_num_threads();
  std::vector<T> buffer;
  if (dgamma || dbeta) buffer.assign(size_t(2 * num_threads * N), T(0));
  parallel_for(0, M, 1, [&](int64_t start, int64_t end) {
    const int tid = in_parallel_region() ? omp_get_thread_num() : 0;
    T* dgamma_buf = dgamma ? buffer.data() + tid * N : nullptr;
    T* dbeta_buf = dbeta ? buffer.data() + (num_threads + tid) * N : nullptr;
    for (int64_t i = start; i < end; ++i)
      backward_row(dY + i * N, X + i * N, mean[i], rstd[i], gamma, N, scale, dX ? dX + i * N : nullptr,
                   dgamma_buf, dbeta_buf);
  });
  if (buffer.empty()) return;
  parallel_for(0, N, 1, [&](int64_t start, int64_t end) {
    for (int64_t j = start; j < end; ++j) {
      T g = T(0), bsum = T(0);
      for (int t = 0; t < num_threads; ++t) {
        g += buffer[t * N + j];
        bsum += buffer[(num_threads + t) * N + j];
      }
      if (dgamma) dgamma[j] = g;
      if (dbeta) dbeta[j] = bsum;
    }
  });
}

void layer_norm_backward_kernel(DType dtype, const void* dY, const void* X, const void* mean, const void* rstd,
                                const void* gamma, int64_t M, int64_t N, void* dX, void* dgamma, void* dbeta) {
  dispatch_dtype(dtype, [&]<class T>() {
    if constexpr (std::is_same_v<T, float> || std::is_same_v<T, double>)
      layer_norm_backward_impl<T>(static_cast<const T*>(dY), static_cast<const T*>(X),
                                  static_cast<const T*>(mean), static_cast<const T*>(rstd),
                                  static_cast<const T*>(gamma), M, N, static_cast<T*>(dX),
                                  static_cast<T*>(dgamma), static_cast<T*>(dbeta));
  });
}

}  // namespace
}  // namespace DC_CPU_CAPABILITY

DC_REGISTER_DISPATCH(layer_norm_stub, &layer_norm_kernel);
DC_REGISTER_DISPATCH(layer_norm_backward_stub, &layer_norm_backward_kernel);

}  // namespace dc
