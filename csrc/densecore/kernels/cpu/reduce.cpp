// Reduction kernels: sum (aten/src/ATen/native/cpu/SumKernel.cpp cascade_sum), amax/amin
// (ReduceOpsKernel.cpp via cpu/Reduce.h binary_kernel_reduce_vec), max_all/min_all
// (ReduceAllOpsKernel.cpp), max/min(dim) (TensorCompareKernel.cpp) and argmax/argmin
// (ReduceOpsKernel.cpp). All REGISTER_DISPATCH in torch: AVX-512 machines run the AVX2 build.
// Kernels see pointers, byte strides and counts; outputs are pre-filled by ops/reduce.cpp
// (ATen's iter.output_base().fill_ at the top of cascade_sum / binary_kernel_reduce_vec).
#include <array>
#include <cmath>
#include <cstring>
#include <limits>
#include <vector>

#include <omp.h>

#include "densecore/kernels/cpu/vec_reduce.h"
#include "densecore/kernels/stubs/reduce_stubs.h"

namespace dc {
inline namespace DC_CPU_CAPABILITY {
namespace {

using vec::Vec;

template <class T>
inline T ld(const char* p) {
  T v;
  std::memcpy(&v, p, sizeof(T));
  return v;
}
template <class T>
inline void st(char* p, T v) {
  std::memcpy(p, &v, sizeof(T));
}

// ---- SumKernel.cpp: load policies ------------------------------------------------------------

/// CastLoadPolicy<T, acc_t>: one element widened to the accumulator type.
template <class T>
struct ScalarLoad {
  using A = opmath_t<T>;
  static constexpr int64_t memsize = sizeof(T);
  static A load(const char* d, int64_t stride, int64_t i) { return A(ld<T>(d + i * stride)); }
};

/// InnerSumCastLoadPolicy<Vectorized<T>, Vectorized<acc_t>>: a full Vec<T>, folded down to the
/// accumulator's lane count (Half: load_reduce_vec pairs neighbours; BFloat16: first + second half).
template <class T>
struct InnerVecLoad {
  using A = Vec<opmath_t<T>>;
  static constexpr int64_t memsize = int64_t(sizeof(T)) * Vec<T>::size();
  static A load(const char* d, int64_t stride, int64_t i) {
    const char* p = d + stride * i;
    if constexpr (std::is_same_v<T, float> || std::is_same_v<T, double>) {
      return A::loadu(p);
    } else {
      const Vec<T> v = Vec<T>::loadu(p);
      constexpr int kAcc = A::size(), kStride = Vec<T>::size() / A::size();
      A acc(0.f);
      if constexpr (std::is_same_v<T, BFloat16>) {
        for (int l = 0; l < kAcc; ++l) acc.v[l] = float(v.v[l]) + float(v.v[l + kAcc]);
      } else {
        for (int k = 0; k < kStride; ++k)
          for (int l = 0; l < kAcc; ++l) acc.v[l] = acc.v[l] + float(v.v[l * kStride + k]);
      }
      return acc;
    }
  }
};

/// OuterSumCastLoadPolicy: as many T as the accumulator has lanes, widened.
template <class T>
struct OuterVecLoad {
  using A = Vec<opmath_t<T>>;
  static constexpr int64_t memsize = int64_t(sizeof(T)) * A::size();
  static A load(const char* d, int64_t stride, int64_t i) {
    const char* p = d + stride * i;
    A r;
    for (int l = 0; l < A::size(); ++l) r.v[l] = opmath_t<T>(ld<T>(p + l * int64_t(sizeof(T))));
    return r;
  }
};

/// c10's T(float) inside a kernel TU (F16C for Half on AVX2).
template <class T>
inline T to_scalar(opmath_t<T> v) {
  if constexpr (is_reduced_float_v<T>) return vec::scalar_from_float<T>(v);
  else return v;
}

/// CastStoreAccumulate: *out += value (Half/BFloat16: the value is rounded to T first, then added
/// in float and rounded again, as c10's T& operator+=(T&, const T&)).
template <class T>
inline void store_acc(char* data, int64_t stride, int64_t i, opmath_t<T> value) {
  char* p = data + i * stride;
  if constexpr (is_reduced_float_v<T>) st<T>(p, to_scalar<T>(float(ld<T>(p)) + float(to_scalar<T>(value))));
  else st<T>(p, ld<T>(p) + value);
}
template <class T, class A>
inline void store_acc_vec(char* data, int64_t stride, int64_t i, const A& values) {
  char* base = data + stride * i;
  for (int k = 0; k < A::size(); ++k) store_acc<T>(base, stride, k, values.v[k]);
}

// ---- SumKernel.cpp: the cascade ----------------------------------------------------------------

inline int64_t ceil_log2(int64_t x) {  // c10::utils::CeilLog2
  if (x <= 2) return 1;
  return 64 - __builtin_clzll(uint64_t(x - 1));
}

/// multi_row_sum: nrows columns summed over `size` rows with a 4-level cascade of accumulators.
template <class A, int64_t nrows, class L>
std::array<A, nrows> multi_row_sum(const char* in, int64_t row_stride, int64_t col_stride, int64_t size) {
  constexpr int64_t num_levels = 4;
  const int64_t level_power = std::max(int64_t(4), ceil_log2(size) / num_levels);
  const int64_t level_step = int64_t(1) << level_power;
  const int64_t level_mask = level_step - 1;
  A acc[num_levels][nrows];
  for (auto& lvl : acc)
    for (auto& a : lvl) a = A(0);
  int64_t i = 0;
  for (; i + level_step <= size;) {
    for (int64_t j = 0; j < level_step; ++j, ++i) {
      const char* base = in + i * row_stride;
      for (int64_t k = 0; k < nrows; ++k) acc[0][k] = acc[0][k] + L::load(base, col_stride, k);
    }
    for (int64_t j = 1; j < num_levels; ++j) {
      for (int64_t k = 0; k < nrows; ++k) {
        acc[j][k] = acc[j][k] + acc[j - 1][k];
        acc[j - 1][k] = A(0);
      }
      if ((i & (level_mask << (j * level_power))) != 0) break;
    }
  }
  for (; i < size; ++i) {
    const char* base = in + i * row_stride;
    for (int64_t k = 0; k < nrows; ++k) acc[0][k] = acc[0][k] + L::load(base, col_stride, k);
  }
  for (int64_t j = 1; j < num_levels; ++j)
    for (int64_t k = 0; k < nrows; ++k) acc[0][k] = acc[0][k] + acc[j][k];
  std::array<A, nrows> ret;
  for (int64_t k = 0; k < nrows; ++k) ret[k] = acc[0][k];
  return ret;
}

/// row_sum: the row as (-1, 4) for four interleaved partial sums, leftovers into partial 0.
template <class A, class L>
A row_sum(const char* in, int64_t stride, int64_t size) {
  constexpr int64_t ilp = 4;
  const int64_t size_ilp = size / ilp;
  auto partial = multi_row_sum<A, ilp, L>(in, stride * ilp, stride, size_ilp);
  for (int64_t i = size_ilp * ilp; i < size; ++i) partial[0] = partial[0] + L::load(in, stride, i);
  for (int64_t k = 1; k < ilp; ++k) partial[0] = partial[0] + partial[k];
  return partial[0];
}

template <class T>
void vectorized_inner_sum(char** data, int64_t outer_stride, int64_t out_stride, int64_t size0, int64_t size1) {
  using VL = InnerVecLoad<T>;
  using SL = ScalarLoad<T>;
  using acc_t = opmath_t<T>;
  constexpr int64_t vec_numel = VL::memsize / SL::memsize;
  const int64_t vec_size = size0 / vec_numel;
  for (int64_t j = 0; j < size1; ++j) {
    const char* row = data[1] + j * outer_stride;
    const auto vacc = row_sum<typename VL::A, VL>(row, VL::memsize, vec_size);
    acc_t final_acc = 0;  // the scalar tail is summed first, then the lanes in order
    for (int64_t k = vec_size * vec_numel; k < size0; ++k) final_acc = final_acc + SL::load(row, SL::memsize, k);
    for (int l = 0; l < VL::A::size(); ++l) final_acc = final_acc + vacc.v[l];
    store_acc<T>(data[0], out_stride, j, final_acc);
  }
}

template <class T>
void scalar_inner_sum(char** data, const int64_t* in_strides, int64_t out_stride, int64_t size0, int64_t size1) {
  for (int64_t j = 0; j < size1; ++j) {
    const char* row = data[1] + j * in_strides[1];
    store_acc<T>(data[0], out_stride, j, row_sum<opmath_t<T>, ScalarLoad<T>>(row, in_strides[0], size0));
  }
}

template <class T>
void vectorized_outer_sum(char** data, int64_t inner_stride, int64_t out_stride, int64_t size0, int64_t size1) {
  using VL = OuterVecLoad<T>;
  using SL = ScalarLoad<T>;
  using A = typename VL::A;
  constexpr int64_t nrows = 4;
  int64_t j = 0;
  for (; j + nrows * A::size() <= size1; j += nrows * A::size()) {
    const auto sums = multi_row_sum<A, nrows, VL>(data[1] + j * SL::memsize, inner_stride, VL::memsize, size0);
    for (int64_t i = 0; i < nrows; ++i) store_acc_vec<T>(data[0], out_stride, j + i * A::size(), sums[i]);
  }
  for (; j + A::size() <= size1; j += A::size())
    store_acc_vec<T>(data[0], out_stride, j, row_sum<A, VL>(data[1] + j * SL::memsize, inner_stride, size0));
  for (; j < size1; ++j)
    store_acc<T>(data[0], out_stride, j, row_sum<opmath_t<T>, SL>(data[1] + j * SL::memsize, inner_stride, size0));
}

template <class T>
void scalar_outer_sum(char** data, const int64_t* in_strides, int64_t out_stride, int64_t size0, int64_t size1) {
  constexpr int64_t nrows = 4;
  int64_t j = 0;
  for (; j + (nrows - 1) < size1; j += nrows) {
    const auto sums = multi_row_sum<opmath_t<T>, nrows, ScalarLoad<T>>(data[1] + j * in_strides[1], in_strides[0],
                                                                      in_strides[1], size0);
    for (int64_t k = 0; k < nrows; ++k) store_acc<T>(data[0], out_stride, j + k, sums[k]);
  }
  for (; j < size1; ++j)
    store_acc<T>(data[0], out_stride, j,
                 row_sum<opmath_t<T>, ScalarLoad<T>>(data[1] + j * in_strides[1], in_strides[0], size0));
}

/// cascade_sum's loop2d: pick the inner/outer, vectorised/scalar variant from strides and sizes.
template <class T>
void cascade_sum(ReduceIter& iter) {
  iter.parallel_reduce([](char** data_in, const int64_t* strides, int64_t size0, int64_t size1) {
    char* data[2] = {data_in[0], data_in[1]};
    int64_t in_strides[2] = {strides[1], strides[3]};
    int64_t out_strides[2] = {strides[0], strides[2]};
    if (out_strides[0] != 0 && out_strides[1] == 0) {  // move the reduction to the first dim
      std::swap(in_strides[0], in_strides[1]);
      std::swap(out_strides[0], out_strides[1]);
      std::swap(size0, size1);
    }
    if (out_strides[0] != 0 && out_strides[1] != 0) {  // not a true reduction: out = out + in
      for (int64_t j = 0; j < size1; ++j) {
        for (int64_t i = 0; i < size0; ++i) {
          char* o = data[0] + i * strides[0];
          const T r = to_scalar<T>(opmath_t<T>(ld<T>(o)) + opmath_t<T>(ld<T>(data[1] + i * strides[1])));
          st<T>(o, r);
        }
        data[0] += strides[2];
        data[1] += strides[3];
      }
      return;
    }
    const int64_t out_stride = out_strides[1];
    if (in_strides[0] == int64_t(sizeof(T)) && size0 >= Vec<T>::size())
      vectorized_inner_sum<T>(data, in_strides[1], out_stride, size0, size1);
    else if (in_strides[1] == int64_t(sizeof(T)) && size1 >= Vec<T>::size())
      vectorized_outer_sum<T>(data, in_strides[0], out_stride, size0, size1);
    else if (in_strides[0] < in_strides[1])
      scalar_inner_sum<T>(data, in_strides, out_stride, size0, size1);
    else
      scalar_outer_sum<T>(data, in_strides, out_stride, size0, size1);
  });
}

// ---- cpu/Reduce.h: binary_kernel_reduce_vec ---------------------------------------------------

template <class T, class Op, class VOp>
void vectorized_reduction(char** data, int64_t n, int64_t stride, const Op& op, const VOp& vop, bool reduce) {
  constexpr int V = Vec<T>::size();
  const char* in = data[1];
  Vec<T> acc[4];
  for (int j = 0; j < 4; ++j) acc[j] = Vec<T>::loadu(in + j * V * sizeof(T));
  for (int64_t i = 1; i < n; ++i) {
    const char* p = in + stride * i;
    for (int j = 0; j < 4; ++j) acc[j] = vop(acc[j], Vec<T>::loadu(p + j * V * sizeof(T)));
  }
  if (reduce) {
    acc[0] = vop(vop(acc[0], acc[1]), vop(acc[2], acc[3]));
    T b0 = acc[0].v[0];
    for (int j = 1; j < V; ++j) b0 = op(b0, acc[0].v[j]);
    st<T>(data[0], op(ld<T>(data[0]), b0));
  } else {
    for (int j = 0; j < 4; ++j) {
      char* dst = data[0] + j * V * sizeof(T);
      vop(acc[j], Vec<T>::loadu(dst)).store(dst);
    }
  }
}

/// basic_loop over {out, out, in}: out = op(out, in) element by element.
template <class T, class Op>
inline void reduce_basic_loop(char* out, int64_t out_stride, const char* in, int64_t in_stride, int64_t begin,
                              int64_t n, const Op& op) {
  for (int64_t i = begin; i < n; ++i) {
    char* o = out + i * out_stride;
    st<T>(o, op(ld<T>(o), ld<T>(in + i * in_stride)));
  }
}

template <class T, class Op, class VOp>
void binary_kernel_reduce_vec(ReduceIter& iter, Op op, VOp vop) {
  iter.parallel_reduce([&](char** d, const int64_t* strides, int64_t size0, int64_t size1) {
    char* data[2] = {d[0], d[1]};
    constexpr int64_t V = Vec<T>::size(), sz = sizeof(T);
    if (strides[0] == 0 && strides[1] == sz) {  // is_contiguous_reduction
      for (int64_t j = 0; j < size1; ++j) {
        const int64_t count = size0 / (4 * V);
        if (count > 0) vectorized_reduction<T>(data, count, 4 * V * sz, op, vop, true);
        reduce_basic_loop<T>(data[0], 0, data[1], sz, count * 4 * V, size0, op);
        data[0] += strides[2];
        data[1] += strides[3];
      }
    } else if (strides[0] == 0 && strides[2] == sz && strides[3] == sz) {  // is_outer_reduction
      const int64_t inner_stride = strides[1];
      for (int64_t j = 0; j < size1 / (4 * V); ++j) {
        vectorized_reduction<T>(data, size0, inner_stride, op, vop, false);
        data[0] += 4 * V * sz;
        data[1] += 4 * V * sz;
      }
      for (int64_t j = 0; j < size1 % (4 * V); ++j) {
        reduce_basic_loop<T>(data[0], 0, data[1], inner_stride, 0, size0, op);
        data[0] += sz;
        data[1] += sz;
      }
    } else {
      for (int64_t j = 0; j < size1; ++j) {
        reduce_basic_loop<T>(data[0], strides[0], data[1], strides[1], 0, size0, op);
        data[0] += strides[2];
        data[1] += strides[3];
      }
    }
  });
}

// ---- zmath.h max_impl / min_impl and the vector maximum / minimum ------------------------------

template <class T>
inline bool is_nan(T x) {
  if constexpr (std::is_integral_v<T>) return false;
  else return opmath_t<T>(x) != opmath_t<T>(x);
}
template <class T>
inline T quiet_nan() {
  if constexpr (std::is_same_v<T, Half>) return Half::from_bits(0x7E00);
  else if constexpr (std::is_same_v<T, BFloat16>) return BFloat16::from_bits(0x7FC0);
  else return std::numeric_limits<T>::quiet_NaN();
}
template <class T, bool kMax>
inline T minmax_impl(T a, T b) {
  if constexpr (!std::is_integral_v<T>)
    if (is_nan(a) || is_nan(b)) return quiet_nan<T>();
  if constexpr (std::is_same_v<T, bool>) return kMax ? (a || b) : (a && b);
  else if constexpr (kMax) return opmath_t<T>(a) < opmath_t<T>(b) ? b : a;  // std::max
  else return opmath_t<T>(b) < opmath_t<T>(a) ? b : a;                      // std::min
}

template <class T, bool kMax>
void minmax_values_typed(ReduceIter& iter) {
  binary_kernel_reduce_vec<T>(
      iter, [](T a, T b) { return minmax_impl<T, kMax>(a, b); },
      [](const Vec<T>& a, const Vec<T>& b) { return kMax ? vec::maximum(a, b) : vec::minimum(a, b); });
}

// ---- ReduceAllOpsKernel.cpp: reduce_all_impl_vec -----------------------------------------------

template <class T, bool kMax>
void minmax_all(const void* in_v, int64_t n, void* out) {
  const T* in = static_cast<const T*>(in_v);
  auto op = [](T a, T b) { return minmax_impl<T, kMax>(a, b); };
  auto vop = [](const Vec<T>& a, const Vec<T>& b) { return kMax ? vec::maximum(a, b) : vec::minimum(a, b); };
  using L = std::numeric_limits<opmath_t<T>>;
  const T ident = T(kMax ? (L::has_infinity ? -L::infinity() : L::lowest())
                         : (L::has_infinity ? L::infinity() : L::max()));
  auto chunk = [&](int64_t b, int64_t e) -> T {
    if constexpr (std::is_same_v<T, float> || std::is_same_v<T, double>) {
      return vec::reduce_all<T>(vop, in + b, e - b);
    } else {  // integers (and int64's scalar path): exact, any order gives the same value
      T r = ident;
      for (int64_t i = b; i < e; ++i) r = op(r, in[i]);
      return r;
    }
  };
  T result;
  // at::parallel_reduce: serial f(begin, end, ident) or per-thread results combined from ident.
  if (n <= kGrainSize || in_parallel_region() || get_num_threads() == 1) {
    result = chunk(0, n);
  } else {
    std::vector<T> results(get_num_threads(), ident);
    parallel_for(0, n, kGrainSize, [&](int64_t b, int64_t e) { results[omp_get_thread_num()] = chunk(b, e); });
    result = ident;
    for (const T& r : results) result = op(result, r);
  }
  st<T>(static_cast<char*>(out), result);
}

template <bool kMax>
void minmax_all_kernel(DType t, const void* in, int64_t n, void* out) {
  dispatch_dtype(t, [&]<class T>() { minmax_all<T, kMax>(in, n, out); });
}

// ---- TensorCompareKernel.cpp max/min(dim) and ReduceOpsKernel.cpp argmax/argmin --------------

template <class T>
void select_row(SelectKind k, const T* x, int64_t n, T* val, int64_t* idx) {
  using O = opmath_t<T>;
  if (k == SelectKind::Max || k == SelectKind::Min) {
    T best = x[0];
    int64_t index = 0;
    for (int64_t i = 0; i < n; ++i) {
      const T v = x[i];
      const bool take = k == SelectKind::Max ? !(O(v) <= O(best)) : !(O(v) >= O(best));
      if (take) {
        best = v;
        index = i;
        if (is_nan(v)) break;
      }
    }
    if (val) *val = best;
    *idx = index;
    return;
  }
  // ArgMaxOps / ArgMinOps: GreaterOrNan / LessOrNan, ties to the lower index.
  const bool is_max = k == SelectKind::ArgMax;
  using L = std::numeric_limits<O>;
  O acc = is_max ? (L::has_infinity ? -L::infinity() : L::lowest()) : (L::has_infinity ? L::infinity() : L::max());
  int64_t acc_i = 0;
  for (int64_t i = 0; i < n; ++i) {
    const O b = O(x[i]);
    bool keep;
    if (is_nan(acc)) keep = is_nan(b) ? acc_i < i : true;
    else keep = acc == b ? acc_i < i : (is_max ? acc > b : acc < b);
    if (!keep) {
      acc = b;
      acc_i = i;
    }
  }
  *idx = acc_i;
}

void select_rows_kernel(SelectKind k, DType t, const void* in, int64_t n, int64_t rows, void* vals, int64_t* idx) {
  dispatch_dtype(t, [&]<class T>() {
    const T* x = static_cast<const T*>(in);
    T* v = static_cast<T*>(vals);
    for (int64_t r = 0; r < rows; ++r) select_row<T>(k, x + r * n, n, v ? v + r : nullptr, idx + r);
  });
}

// ---- registration -------------------------------------------------------------------------------

void sum_kernel(ReduceIter& iter) {
  dispatch_dtype(iter.dtype(0), [&]<class T>() {
    if constexpr (std::is_integral_v<T>)
      binary_kernel_reduce_vec<T>(
          iter, [](T a, T b) { return vec::wrap_add(a, b); }, [](const Vec<T>& a, const Vec<T>& b) { return a + b; });
    else
      cascade_sum<T>(iter);
  });
}

template <bool kMax>
void minmax_values_kernel(ReduceIter& iter) {
  dispatch_dtype(iter.dtype(0), [&]<class T>() { minmax_values_typed<T, kMax>(iter); });
}

}  // namespace

DC_REGISTER_DISPATCH(sum_stub, &sum_kernel);
DC_REGISTER_DISPATCH(max_values_stub, &minmax_values_kernel<true>);
DC_REGISTER_DISPATCH(min_values_stub, &minmax_values_kernel<false>);
DC_REGISTER_DISPATCH(max_all_stub, &minmax_all_kernel<true>);
DC_REGISTER_DISPATCH(min_all_stub, &minmax_all_kernel<false>);
DC_REGISTER_DISPATCH(select_rows_stub, &select_rows_kernel);

}  // namespace DC_CPU_CAPABILITY
}  // namespace dc
