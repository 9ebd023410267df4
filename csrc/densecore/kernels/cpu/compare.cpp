// Comparison (bool output), where and clamp kernels: aten/src/ATen/native/cpu/BinaryOpsKernel.cpp
// (lt..ne with a bool output use cpu_kernel) and TensorCompareKernel.cpp (where, clamp*), all
// registered with REGISTER_DISPATCH.
#include <cmath>
#include <limits>

#include "densecore/core/checked_convert.h"
#include "densecore/generated/stubs.h"
#include "densecore/kernels/stubs/elementwise_stubs.h"
#include "densecore/kernels/iter/loops.h"

namespace dc {
inline namespace DC_CPU_CAPABILITY {
namespace {

using vec::Vec;

// Note [special-case bool outputs]: with a bool output torch runs the scalar comparison only.
template <class Cmp>
void compare_kernel(TensorIter& iter, Cmp cmp) {
  dispatch_dtype(iter.common_dtype(), [&]<class T>() {
    cpu_kernel(iter, [=](T a, T b) -> bool { return cmp(opmath_t<T>(a), opmath_t<T>(b)); });
  });
}

void eq_kernel(TensorIter& it) { compare_kernel(it, [](auto a, auto b) { return a == b; }); }
void ne_kernel(TensorIter& it) { compare_kernel(it, [](auto a, auto b) { return a != b; }); }
void lt_kernel(TensorIter& it) { compare_kernel(it, [](auto a, auto b) { return a < b; }); }
void le_kernel(TensorIter& it) { compare_kernel(it, [](auto a, auto b) { return a <= b; }); }
void gt_kernel(TensorIter& it) { compare_kernel(it, [](auto a, auto b) { return a > b; }); }
void ge_kernel(TensorIter& it) { compare_kernel(it, [](auto a, auto b) { return a >= b; }); }

void where_kernel(TensorIter& iter) {
  dispatch_dtype(iter.dtype(0), [&]<class T>() {
    cpu_kernel(iter, [](bool c, T x, T y) -> T { return c ? x : y; });
  });
}

template <class T>
inline T quiet_nan() {
  if constexpr (std::is_same_v<T, Half>) return Half::from_bits(0x7E00);
  else if constexpr (std::is_same_v<T, BFloat16>) return BFloat16::from_bits(0x7FC0);
  else return std::numeric_limits<T>::quiet_NaN();
}

/// std::max(a, b) / std::min(a, b) on values compared in opmath, returning the original lane.
template <class T>
inline T std_max(T a, T b) { return opmath_t<T>(a) < opmath_t<T>(b) ? b : a; }
template <class T>
inline T std_min(T a, T b) { return opmath_t<T>(b) < opmath_t<T>(a) ? b : a; }

void check_clamp_dtype(DType t) {
  check<NotImplementedError>(t != DType::Bool, "\"clamp_cpu\" not implemented for 'Bool'");
}

void clamp_kernel(TensorIter& iter) {
  check_clamp_dtype(iter.common_dtype());
  dispatch_dtype(iter.common_dtype(), [&]<class T>() {
    if constexpr (!std::is_same_v<T, bool>)
      cpu_kernel_vec(
          iter,
          [](T a, T lo, T hi) -> T {
            if constexpr (!std::is_integral_v<T>) {
              const opmath_t<T> l = lo, h = hi;
              if (l != l || h != h) return quiet_nan<T>();
            }
            return std_min(std_max(a, lo), hi);
          },
          [](Vec<T> a, Vec<T> lo, Vec<T> hi) { return vec::minimum(vec::maximum(a, lo), hi); });
  });
}

void clamp_scalar_kernel(TensorIter& iter, const Scalar& lo_s, const Scalar& hi_s) {
  check_clamp_dtype(iter.common_dtype());
  dispatch_dtype(iter.common_dtype(), [&]<class T>() {
    if constexpr (!std::is_same_v<T, bool>) {
      const T lo = scalar_to<T>(lo_s), hi = scalar_to<T>(hi_s);
      const Vec<T> vlo(lo), vhi(hi);
      cpu_kernel_vec(
          iter, [=](T a) -> T { return std_min(std_max(a, lo), hi); },
          [=](Vec<T> a) { return vec::clamp(a, vlo, vhi); });
    }
  });
}

void clamp_min_scalar_kernel(TensorIter& iter, const Scalar& lo_s) {
  check_clamp_dtype(iter.common_dtype());
  dispatch_dtype(iter.common_dtype(), [&]<class T>() {
    if constexpr (!std::is_same_v<T, bool>) {
      const T lo = scalar_to<T>(lo_s);
      const Vec<T> vlo(lo);
      cpu_kernel_vec(iter, [=](T a) -> T { return std_max(a, lo); }, [=](Vec<T> a) { return vec::clamp_min(a, vlo); });
    }
  });
}

void clamp_max_scalar_kernel(TensorIter& iter, const Scalar& hi_s) {
  check_clamp_dtype(iter.common_dtype());
  dispatch_dtype(iter.common_dtype(), [&]<class T>() {
    if constexpr (!std::is_same_v<T, bool>) {
      const T hi = scalar_to<T>(hi_s);
      const Vec<T> vhi(hi);
      cpu_kernel_vec(iter, [=](T a) -> T { return std_min(a, hi); }, [=](Vec<T> a) { return vec::clamp_max(a, vhi); });
    }
  });
}

/// relu: Activation.cpp runs clamp_min(self, 0) on CPU, so its kernel is clamp_min's with a zero bound.
void relu_kernel(TensorIter& iter) { clamp_min_scalar_kernel(iter, Scalar::from_int(0)); }

}  // namespace
}  // namespace DC_CPU_CAPABILITY

DC_REGISTER_DISPATCH(eq_stub, &eq_kernel);
DC_REGISTER_DISPATCH(ne_stub, &ne_kernel);
DC_REGISTER_DISPATCH(lt_stub, &lt_kernel);
DC_REGISTER_DISPATCH(le_stub, &le_kernel);
DC_REGISTER_DISPATCH(gt_stub, &gt_kernel);
DC_REGISTER_DISPATCH(ge_stub, &ge_kernel);
DC_REGISTER_DISPATCH(where_stub, &where_kernel);
DC_REGISTER_DISPATCH(clamp_stub, &clamp_kernel);
DC_REGISTER_DISPATCH(clamp_scalar_stub, &clamp_scalar_kernel);
DC_REGISTER_DISPATCH(clamp_min_scalar_stub, &clamp_min_scalar_kernel);
DC_REGISTER_DISPATCH(clamp_max_scalar_stub, &clamp_max_scalar_kernel);
DC_REGISTER_DISPATCH(relu_stub, &relu_kernel);

}  // namespace dc
