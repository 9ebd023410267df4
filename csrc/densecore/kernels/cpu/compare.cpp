// Comparison (bool output), where, masked_fill and clamp kernels: aten/src/ATen/native/cpu/BinaryOpsKernel.cpp
// (lt..ne with a bool output use cpu_kernel), TensorCompareKernel.cpp (where, clamp*) and IndexKernel.cpp
// (masked_fill), all registered with REGISTER_DISPATCH.
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

// Note [selects as whole vectors]: a compare with a bool output, where and masked_fill round nothing, so
// any loop gives torch's bits: its scalar loops compare, or pick one operand's bits unchanged. For
// float/double on AVX2/AVX-512 we run rows whose operands are contiguous (an input may be one broadcast
// value) as whole vectors, and everything else, with the rest of each row, through the scalar op. torch's
// scalar where and masked_fill branch on the mask, which a random mask mispredicts half the time.

/// An input row of T: contiguous, or one value broadcast (inner stride 0).
template <class T>
struct RowInput {
  static bool fits(int64_t stride) { return stride == 0 || stride == int64_t(sizeof(T)); }
  RowInput(const char* p, int64_t stride) : p(p), splat(stride == 0), value(splat ? load_as<T>(p) : T(0)) {}
  Vec<T> at(int64_t i) const { return splat ? value : Vec<T>::loadu(p + i * int64_t(sizeof(T))); }
  const char* p;
  bool splat;
  Vec<T> value;
};

/// Runs `row(data, strides, n)` on each row whose inner strides pass `fits` (it returns how many leading
/// elements it did), then the scalar `op` on the rest of every row (cpu_kernel's basic_loop).
template <class Op, class Fits, class Row>
void for_each_row_vectorized(TensorIter& iter, Op op, Fits fits, Row row) {
  constexpr int kN = fn_traits<Op>::arity + 1;
  iter.for_each([&](char** base, const int64_t* strides, int64_t size0, int64_t size1) {
    std::array<char*, kN> data;
    std::copy_n(base, kN, data.data());
    const bool vectorized = fits(strides);
    for (int64_t j = 0; j < size1; ++j) {
      const int64_t done = vectorized ? row(data.data(), strides, size0) : 0;
      basic_loop(data.data(), strides, done, size0, op);
      for (int k = 0; k < kN; ++k) data[k] += strides[kN + k];
    }
  });
  iter.cast_outputs();
}

#if defined(DC_VEC_X86)
/// out = cmp(a, b) as bools for native T, one vector compare per Vec<T>::size() elements.
template <class T, class Op, class Cmp>
void compare_native(TensorIter& iter, Op op, Cmp cmp) {
  constexpr int64_t V = Vec<T>::size();
  auto fits = [](const int64_t* s) { return s[0] == 1 && RowInput<T>::fits(s[1]) && RowInput<T>::fits(s[2]); };
  auto row = [&](char** data, const int64_t* s, int64_t n) {
    const RowInput<T> a(data[1], s[1]), b(data[2], s[2]);
    bool* out = reinterpret_cast<bool*>(data[0]);
    int64_t i = 0;
    for (; i + V <= n; i += V) vec::store_mask_as_bools<T>(cmp(a.at(i).v, b.at(i).v), out + i);
    return i;
  };
  for_each_row_vectorized(iter, op, fits, row);
}
#endif

// Note [special-case bool outputs]: with a bool output torch runs the scalar comparison only; native lanes
// compare whole vectors (Note [selects as whole vectors]).
template <class Cmp>
void compare_kernel(TensorIter& iter, Cmp cmp) {
  dispatch_dtype(iter.common_dtype(), [&]<class T>() {
    auto op = [=](T a, T b) -> bool { return cmp(opmath_t<T>(a), opmath_t<T>(b)); };
#if defined(DC_VEC_X86)
    if constexpr (vec::is_native_v<T>) return compare_native<T>(iter, op, cmp);
#endif
    cpu_kernel(iter, op);
  });
}

void eq_kernel(TensorIter& it) { compare_kernel(it, [](auto a, auto b) { return a == b; }); }
void ne_kernel(TensorIter& it) { compare_kernel(it, [](auto a, auto b) { return a != b; }); }
void lt_kernel(TensorIter& it) { compare_kernel(it, [](auto a, auto b) { return a < b; }); }
void le_kernel(TensorIter& it) { compare_kernel(it, [](auto a, auto b) { return a <= b; }); }
void gt_kernel(TensorIter& it) { compare_kernel(it, [](auto a, auto b) { return a > b; }); }
void ge_kernel(TensorIter& it) { compare_kernel(it, [](auto a, auto b) { return a >= b; }); }

/// where(cond, x, y) over (out, cond, x, y); native lanes blend whole vectors.
void where_kernel(TensorIter& iter) {
  dispatch_dtype(iter.dtype(0), [&]<class T>() {
    auto op = [](bool c, T x, T y) -> T { return c ? x : y; };
#if defined(DC_VEC_X86)
    if constexpr (vec::is_native_v<T>) {
      constexpr int64_t V = Vec<T>::size(), sz = sizeof(T);
      auto fits = [](const int64_t* s) {
        return s[0] == sz && s[1] == 1 && RowInput<T>::fits(s[2]) && RowInput<T>::fits(s[3]);
      };
      auto row = [&](char** data, const int64_t* s, int64_t n) {
        const bool* cond = reinterpret_cast<const bool*>(data[1]);
        const RowInput<T> x(data[2], s[2]), y(data[3], s[3]);
        int64_t i = 0;
        for (; i + V <= n; i += V)
          Vec<T>::native(vec::load_bools_as_mask<T>(cond + i) ? x.at(i).v : y.at(i).v).store(data[0] + i * sz);
        return i;
      };
      return for_each_row_vectorized(iter, op, fits, row);
    }
#endif
    cpu_kernel(iter, op);
  });
}

/// masked_fill_ over (self, mask): self = value where mask (IndexKernel.cpp cpu_masked_fill_kernel writes
/// only those; a blend writes the others' own bits back, for a contiguous self only, which cannot overlap).
void masked_fill_kernel(TensorIter& iter, const void* value_ptr) {
  dispatch_dtype(iter.dtype(0), [&]<class T>() {
    const T value = load_as<T>(static_cast<const char*>(value_ptr));
    constexpr int64_t sz = sizeof(T);
    auto fill = [&](char** data, const int64_t* s, int64_t begin, int64_t n) {
      for (int64_t i = begin; i < n; ++i)
        if (load_as<bool>(data[1] + i * s[1])) std::memcpy(data[0] + i * s[0], &value, sz);
    };
#if defined(DC_VEC_X86)
    if constexpr (vec::is_native_v<T>) {
      constexpr int64_t V = Vec<T>::size();
      const Vec<T> fill_vec(value);
      return iter.for_each([&](char** base, const int64_t* s, int64_t size0, int64_t size1) {
        char* data[2] = {base[0], base[1]};
        const bool vectorized = s[0] == sz && s[1] == 1;
        for (int64_t j = 0; j < size1; ++j) {
          int64_t i = 0;
          for (; vectorized && i + V <= size0; i += V) {
            const auto mask = vec::load_bools_as_mask<T>(reinterpret_cast<const bool*>(data[1]) + i);
            char* p = data[0] + i * sz;
            Vec<T>::native(mask ? fill_vec.v : Vec<T>::loadu(p).v).store(p);
          }
          fill(data, s, i, size0);
          data[0] += s[2];
          data[1] += s[3];
        }
      });
    }
#endif
    iter.for_each([&](char** base, const int64_t* s, int64_t size0, int64_t size1) {
      char* data[2] = {base[0], base[1]};
      for (int64_t j = 0; j < size1; ++j, data[0] += s[2], data[1] += s[3]) fill(data, s, 0, size0);
    });
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
DC_REGISTER_DISPATCH(masked_fill_stub, &masked_fill_kernel);
DC_REGISTER_DISPATCH(clamp_stub, &clamp_kernel);
DC_REGISTER_DISPATCH(clamp_scalar_stub, &clamp_scalar_kernel);
DC_REGISTER_DISPATCH(clamp_min_scalar_stub, &clamp_min_scalar_kernel);
DC_REGISTER_DISPATCH(clamp_max_scalar_stub, &clamp_max_scalar_kernel);
DC_REGISTER_DISPATCH(relu_stub, &relu_kernel);

}  // namespace dc
