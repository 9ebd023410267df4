// The vector norm kernel: aten/src/ATen/native/cpu/ReduceOpsKernel.cpp norm_kernel_tensor_iterator_impl
// (REGISTER_DISPATCH: AVX-512 machines run the AVX2 build). p = 2 over a contiguous innermost reduced
// dim takes the row kernel of binary_kernel_reduce_lastdim; everything else binary_kernel_reduce
// (cpu/Reduce.h) with the SharedReduceOps.h Norm*Ops and a float accumulator for float.
#include <cmath>
#include <limits>
#include <vector>

#include "densecore/kernels/iter/loops.h"
#include "densecore/kernels/stubs/math_stubs.h"

namespace dc {
inline namespace DC_CPU_CAPABILITY {
namespace {

using vec::Vec;

/// One row of the p = 2 fast path, as torch's AVX2 build compiled it (objdump of the float/double
/// lambdas of norm_kernel_tensor_iterator_impl in libtorch_cpu.so): lanes accumulate acc + x*x
/// (vmulps + vaddps, two roundings); lanes are summed in order into lane 0; then the n mod V tail:
/// GCC vectorised its first 4 elements for float (vmulps, then four sequential vaddss of the rounded
/// squares) and fused the rest (vfmadd231ss); for double (tail <= 3) every tail element is fused.
template <class T>
T norm_two_row(const T* x, int64_t n) {
  constexpr int kV = Vec<T>::size();
  T acc[kV] = {};
  int64_t d = 0;
  for (; d < n - (n % kV); d += kV)
    for (int j = 0; j < kV; ++j) acc[j] = acc[j] + x[d + j] * x[d + j];
  T b0 = acc[0];
  for (int j = 1; j < kV; ++j) b0 = b0 + acc[j];
#if defined(DC_VEC_X86)
  if (std::is_same_v<T, float> && n - d >= 4) {
    for (int j = 0; j < 4; ++j) b0 = b0 + x[d + j] * x[d + j];
    d += 4;
  }
  for (; d < n; ++d) b0 = std::fma(x[d], x[d], b0);
#else
  for (; d < n; ++d) b0 = b0 + x[d] * x[d];
#endif
  return std::sqrt(b0);
}

/// is_reduce_lastdim: one reduced dim, the innermost, contiguous in the input.
bool is_reduce_lastdim(const ReduceIter& it) {
  return it.num_reduce_dims() == 1 && it.is_dim_reduced(0) && it.ntensors() == 2 &&
         it.strides(1)[0] == it.element_size(1);
}

/// binary_kernel_reduce_lastdim: one row call per output, parallel over outputs (grain
/// GRAIN_SIZE / dim_size); each output is computed alone, so the split does not change bits.
template <class T>
void norm_two_lastdim(ReduceIter& iter) {
  const int64_t dim_size = iter.shape()[0];
  ReduceIter sub = iter;
  sub.narrow(0, 0, 1);
  sub.for_each(
      [&](char** data, const int64_t* strides, int64_t size0, int64_t size1) {
        for (int64_t j = 0; j < size1; ++j) {
          char* out = data[0] + j * strides[2];
          char* in = data[1] + j * strides[3];
          for (int64_t i = 0; i < size0; ++i)
            *reinterpret_cast<T*>(out + i * strides[0]) = norm_two_row(reinterpret_cast<const T*>(in + i * strides[1]), dim_size);
        }
      },
      std::max<int64_t>(1, kGrainSize / dim_size));
}

/// SharedReduceOps.h: NormZeroOps / NormOneOps / NormTwoOps / AbsMaxOps / AbsMinOps / NormOps.
template <class A>
struct NormOps {
  double p;
  A reduce(A acc, A x) const {
    if (p == 0) return acc + (x == A(0) ? A(0) : A(1));
    if (p == 1) return acc + std::abs(x);
    if (p == 2) return acc + x * x;
    if (std::isinf(p)) return combine(acc, std::abs(x));
    return acc + std::pow(std::abs(x), A(p));
  }
  A combine(A a, A b) const {
    if (std::isinf(p)) {  // max_propagate_nan / min_propagate_nan
      if (std::isnan(a)) return a;
      if (std::isnan(b)) return b;
      return p > 0 ? (a > b ? a : b) : (a < b ? a : b);
    }
    return a + b;
  }
  A project(A acc) const {
    if (p == 2) return std::sqrt(acc);
    if (p == 0 || p == 1 || std::isinf(p)) return acc;
    return std::pow(acc, A(1.0) / A(p));
  }
  A init() const { return p == -INFINITY ? std::numeric_limits<A>::infinity() : A(0); }
};

/// binary_kernel_reduce: per output, the elements in iteration order into one accumulator; with
/// >= GRAIN_SIZE elements and several threads, per-thread accumulators combined in thread order.
template <class T>
void norm_generic(ReduceIter& iter, double p) {
  const NormOps<T> ops{p};
  iter.foreach_reduced_elt([&](ReduceIter& sub) {
    auto body = [&](T acc, int64_t begin, int64_t end) {
      sub.serial_for_each(
          [&](char** data, const int64_t* strides, int64_t size0, int64_t size1) {
            for (int64_t j = 0; j < size1; ++j) {
              const char* in = data[1] + j * strides[3];
              for (int64_t i = 0; i < size0; ++i) acc = ops.reduce(acc, *reinterpret_cast<const T*>(in + i * strides[1]));
            }
          },
          begin, end);
      return acc;
    };
    const int64_t numel = sub.numel();
    T total = ops.init();
    if (numel < kGrainSize || get_num_threads() == 1 || in_parallel_region()) {
      total = body(total, 0, numel);
    } else {
      std::vector<T> buffer(size_t(get_num_threads()), ops.init());
      parallel_for(0, numel, kGrainSize, [&](int64_t b, int64_t e) { buffer[omp_get_thread_num()] = body(buffer[omp_get_thread_num()], b, e); });
      for (T v : buffer) total = ops.combine(total, v);
    }
    *reinterpret_cast<T*>(sub.data_ptr(0)) = ops.project(total);
  });
}

void norm_kernel(ReduceIter& iter, double p) {
  const DType t = iter.dtype(1);
  check<NotImplementedError>(t == DType::Float32 || t == DType::Float64,
                             "\"norm_cpu\" not implemented for '{}' in densecore yet", scalar_type_name(t));
  dispatch_dtype(t, [&]<class T>() {
    if constexpr (std::is_floating_point_v<T>) {
      if (p == 2.0 && is_reduce_lastdim(iter) && iter.dtype(0) == t) return norm_two_lastdim<T>(iter);
      norm_generic<T>(iter, p);
    }
  });
}

}  // namespace
}  // namespace DC_CPU_CAPABILITY

DC_REGISTER_DISPATCH(norm_stub, &norm_kernel);

}  // namespace dc
