// Binary arithmetic kernels: add/sub with alpha, mul, div (true, trunc, floor), maximum, minimum, and
// mse_loss's squared difference. Mirrors aten/src/ATen/native/cpu/BinaryOpsKernel.cpp and the ufunc add
// kernel (ufunc/add.h).
// torch registers all of them with REGISTER_DISPATCH, so AVX-512 machines run the AVX2 build.
#include <cmath>
#include <limits>

#include "densecore/core/checked_convert.h"
#include "densecore/generated/stubs.h"
#include "densecore/kernels/stubs/elementwise_stubs.h"
#include "densecore/kernels/stubs/loss_stubs.h"
#include "densecore/kernels/cpu/pointwise_forms.h"
#include "densecore/kernels/iter/loops.h"
#if defined(DC_VEC_X86)
#include "densecore/kernels/cpu/sleef_fmod.h"
#endif

namespace dc {
inline namespace DC_CPU_CAPABILITY {
namespace {

using vec::scalar_from_float;
using vec::Vec;

template <class T>
constexpr bool kReduced = is_reduced_float_v<T>;

/// c10's scalar operator: Half/BFloat16 compute in float and round with the scalar converter.
template <class T, class F>
inline T scalar_op(T a, T b, F f) {
  if constexpr (kReduced<T>) return scalar_from_float<T>(f(float(a), float(b)));
  else return f(a, b);
}

// ---- add / sub -------------------------------------------------------------------------------

// add_scalar and AddAlpha (self + alpha * other in both forms, Note [add scalar tail]): pointwise_forms.h.

// Note [add alpha tail]: in vectorized_loop's scalar tail (the last m = n mod 2V elements of a row
// or chunk) with `other` the broadcast scalar (S == 2), GCC auto-vectorised torch's AVX2 basic_loop
// (objdump of the float/double add kernels): an alignment peel of one element (scalar FMA), then
// blocks of 2W and W lanes (ymm, xmm; W = 4 floats or 2 doubles) computing `a + round(b * alpha)`
// with the product hoisted out of the loop (two roundings), entered only if at least W elements
// follow the peel, then a scalar FMA epilogue. Alignment plays no part (checked at every offset).
template <class T>
inline void add_alpha_tail_like_gcc(const T* a, T b, T alpha, T* out, int64_t m) {
  constexpr int64_t kW = 16 / int64_t(sizeof(T));
  int64_t i = 0;
  if (m > 0) {
    out[0] = std::fma(b, alpha, a[0]);
    i = 1;
  }
  if (m - 1 >= kW) {
    const T prod = b * alpha;
    for (; i + 2 * kW <= m; i += 2 * kW)
      for (int64_t j = 0; j < 2 * kW; ++j) out[i + j] = prod + a[i + j];
    if (m - i >= kW) {
      for (int64_t j = 0; j < kW; ++j) out[i + j] = prod + a[i + j];
      i += kW;
    }
  }
  for (; i < m; ++i) out[i] = std::fma(b, alpha, a[i]);
}

/// cpu_kernel_vec (loops.h) for float/double add with alpha in the AVX2 build, except that rows
/// whose `other` is the broadcast scalar end with add_alpha_tail_like_gcc.
template <class T, class Op, class VOp>
void add_alpha_loop_avx2(TensorIter& iter, T alpha, Op op, VOp vop) {
  constexpr int64_t kSz = sizeof(T);
  iter.for_each([&](char** base, const int64_t* strides, int64_t size0, int64_t size1) {
    char* data[3] = {base[0], base[1], base[2]};
    const int64_t* outer = strides + 3;
    const bool out_a_contig = strides[0] == kSz && strides[1] == kSz;
    int S = -1;
    if (out_a_contig && strides[2] == kSz) S = 0;
    else if (out_a_contig && strides[2] == 0) S = 2;
    else if (strides[0] == kSz && strides[1] == 0 && strides[2] == kSz) S = 1;
    for (int64_t j = 0; j < size1; ++j) {
      if (S == 2) {
        const int64_t body = size0 - size0 % (2 * Vec<T>::size());
        vectorized_loop_impl(data, body, S, op, vop, op, std::make_index_sequence<2>{});
        add_alpha_tail_like_gcc(reinterpret_cast<const T*>(data[1]) + body, load_as<T>(data[2]), alpha,
                                reinterpret_cast<T*>(data[0]) + body, size0 - body);
      } else if (S >= 0) {
        vectorized_loop_impl(data, size0, S, op, vop, op, std::make_index_sequence<2>{});
      } else {
        basic_loop(data, strides, 0, size0, op);
      }
      for (int k = 0; k < 3; ++k) data[k] += outer[k];
    }
  });
  iter.cast_outputs();
}

void add_kernel(TensorIter& iter, const Scalar& alpha_s) {
  dispatch_dtype(iter.common_dtype(), [&]<class T>() {
    const T alpha = scalar_to<T>(alpha_s);
    if constexpr (std::is_same_v<T, bool>) {
      cpu_kernel(iter, [=](bool a, bool b) -> bool { return add_scalar(a, b, alpha); });
    } else {
      const AddAlpha<T> add(alpha);
      auto op = [=](T a, T b) -> T { return add.scalar(a, b); };
      auto vop = [=](Vec<T> a, Vec<T> b) { return add.vector(a, b); };
#if !defined(DC_CPU_CAPABILITY_DEFAULT)
      if constexpr (std::is_floating_point_v<T>) return add_alpha_loop_avx2(iter, alpha, op, vop);
#endif
      cpu_kernel_vec(iter, op, vop);
    }
  });
}

// ---- Half/BFloat16 with a scalar right operand ----------------------------------------------------

// BinaryOpsKernel.cpp: when input 2 is a scalar and the dtype is Half/BFloat16, the op runs in
// float against the ORIGINAL scalar value (before its cast to the reduced type).
template <class F>
void reduced_scalar_rhs(TensorIter& iter, F f) {
  dispatch_dtype(iter.common_dtype(), [&]<class T>() {
    if constexpr (kReduced<T>) {
      const float b = iter.original_scalar_value<float>(2);
      iter.remove_operand(2);
      cpu_kernel_vec(
          iter, [=](T a) -> T { return scalar_from_float<T>(f(float(a), b)); },
          [=](Vec<T> a) { return a.map([=](float x) { return f(x, b); }); });
    }
  });
}

bool reduced_with_scalar_rhs(const TensorIter& iter) {
  const DType t = iter.common_dtype();
  return iter.ntensors() == 3 && iter.is_scalar(2) && (t == DType::Float16 || t == DType::BFloat16);
}

// ---- mul / div -----------------------------------------------------------------------------------

void mul_kernel(TensorIter& iter) {
  if (iter.common_dtype() == DType::Bool) {
    cpu_kernel(iter, [](bool a, bool b) -> bool { return a && b; });
  } else if (reduced_with_scalar_rhs(iter)) {
    reduced_scalar_rhs(iter, [](float x, float y) { return x * y; });
  } else {
    dispatch_dtype(iter.common_dtype(), [&]<class T>() {
      if constexpr (!std::is_same_v<T, bool>)
        cpu_kernel_vec(
            iter, [](T a, T b) -> T { return scalar_op(a, b, [](auto x, auto y) { return vec::wrap_mul(x, y); }); },
            [](Vec<T> a, Vec<T> b) { return a * b; });
    });
  }
}

// BinaryOps.cpp's sub_out runs add_stub with -alpha: the same kernel, the same roundings.
void sub_kernel(TensorIter& iter, const Scalar& alpha) { add_kernel(iter, -alpha); }

void div_true_kernel(TensorIter& iter) {
  if (reduced_with_scalar_rhs(iter)) return reduced_scalar_rhs(iter, [](float x, float y) { return x / y; });
  dispatch_dtype(iter.common_dtype(), [&]<class T>() {
    if constexpr (std::is_floating_point_v<T> || kReduced<T>)
      cpu_kernel_vec(
          iter, [](T a, T b) -> T { return scalar_op(a, b, [](auto x, auto y) { return x / y; }); },
          [](Vec<T> a, Vec<T> b) { return a / b; });
  });
}

void check_not_bool(const TensorIter& iter, const char* name) {
  check<NotImplementedError>(iter.common_dtype() != DType::Bool, "\"{}\" not implemented for 'Bool'", name);
}

/// Integer a / b; b == -1 wraps (x86 idiv would trap on INT_MIN / -1).
template <class T>
inline T int_div_trunc(T a, T b) {
  check(b != 0, "ZeroDivisionError");
  if constexpr (std::is_signed_v<T>)
    if (b == T(-1)) return vec::wrap_neg(a);
  return T(a / b);
}

/// c10::div_floor_integer.
template <class T>
inline T int_div_floor(T a, T b) {
  check(b != 0, "ZeroDivisionError");
  if constexpr (std::is_signed_v<T>) {
    if (b == T(-1)) return vec::wrap_neg(a);
    if ((a < 0) != (b < 0)) {
      const T quot = T(a / b);
      const T rem = T(a % b);
      return rem ? T(quot - 1) : quot;
    }
  }
  return T(a / b);
}

void div_trunc_kernel(TensorIter& iter) {
  check_not_bool(iter, "div_trunc_cpu");
  const DType t = iter.common_dtype();
  if (is_integral(t, false)) {
    dispatch_dtype(t, [&]<class T>() {
      if constexpr (std::is_integral_v<T> && !std::is_same_v<T, bool>)
        cpu_kernel(iter, [](T a, T b) -> T { return int_div_trunc(a, b); });
    });
  } else if (reduced_with_scalar_rhs(iter)) {
    reduced_scalar_rhs(iter, [](float x, float y) { return std::trunc(x / y); });
  } else {
    dispatch_dtype(t, [&]<class T>() {
      if constexpr (std::is_floating_point_v<T> || kReduced<T>)
        cpu_kernel_vec(
            iter,
            [](T a, T b) -> T {
              const T q = scalar_op(a, b, [](auto x, auto y) { return x / y; });
              if constexpr (kReduced<T>) return scalar_from_float<T>(std::trunc(float(q)));
              else return std::trunc(q);
            },
            [](Vec<T> a, Vec<T> b) { return vec::trunc(a / b); });  // one vroundps, not a lane loop
    });
  }
}

// Note [floor division]: c10::div_floor_floating (scalar op) and div_floor_floating_vec (vector op,
// BinaryOpsKernel.cpp) both start from fmod(a, b); which fmod torch's binary runs decides NaN bits:
//  - scalar ops, and every lane of the DEFAULT build's Vectorized::fmod (a std::fmod per lane): GCC
//    inlined std::fmod (-fno-math-errno) as the x87 `fprem` loop, so NaNs follow x87 rules (fmod_x87);
//  - AVX2 build's Vectorized<float/double/Half/BFloat16>::fmod: SLEEF's vector fmod
//    (kernels/cpu/sleef_fmod.h), 8 float or 4 double lanes at a time; Half/BFloat16 through float.

/// std::fmod as torch's kernels run it: the x87 `fprem` loop GCC inlines (objdump of the
/// div_floor kernels, DEFAULT and AVX2). Exact for finite operands like glibc's fmod, but its NaNs
/// differ: of two NaNs the one with the larger significand wins, and inf % y is the default NaN.
/// Our own build calls glibc instead, so the instruction is written out.
template <class F>
inline F fmod_x87(F a, F b) {
#if defined(__x86_64__) || defined(__i386__)
  F r;
  if constexpr (sizeof(F) == 4)
    asm("flds %2\n\tflds %1\n1:\n\tfprem\n\tfnstsw %%ax\n\ttestb $4, %%ah\n\tjne 1b\n\tfstp %%st(1)\n\tfstps %0"
        : "=m"(r) : "m"(a), "m"(b) : "ax", "cc", "st", "st(1)");
  else
    asm("fldl %2\n\tfldl %1\n1:\n\tfprem\n\tfnstsw %%ax\n\ttestb $4, %%ah\n\tjne 1b\n\tfstp %%st(1)\n\tfstpl %0"
        : "=m"(r) : "m"(a), "m"(b) : "ax", "cc", "st", "st(1)");
  return r;
#else
  return std::fmod(a, b);
#endif
}

/// c10::div_floor_floating with every operation rounded to T by `rnd` (c10's Half/BFloat16
/// operators round each step; float/double pass through).
template <class T, class Round>
inline T div_floor_chain(T a, T b, Round rnd) {
  using F = opmath_t<T>;
  if (F(b) == 0) return rnd(F(a) / F(b));
  const T mod = rnd(fmod_x87(F(a), F(b)));
  T div = rnd(F(rnd(F(a) - F(mod))) / F(b));
  if ((F(mod) != 0) && (F(b) < 0) != (F(mod) < 0)) div = rnd(F(div) - F(1));
  T floordiv;
  if (F(div) != 0) {
    floordiv = rnd(std::floor(F(div)));
    if (F(rnd(F(div) - F(floordiv))) > F(0.5)) floordiv = rnd(F(floordiv) + F(1));
  } else {
    floordiv = rnd(std::copysign(F(0), F(rnd(F(a) / F(b)))));
  }
  return floordiv;
}

/// Vectorized<F>::fmod over N lanes (F float/double, N a multiple of the SLEEF width). On x86
/// vector builds SLEEF runs per 8 floats / 4 doubles (the AVX-512 build is never registered for
/// these ops, see the file comment, and reuses the AVX2 code); DEFAULT maps fmod_x87.
template <class F, int N>
inline void vec_fmod(const F* x, const F* y, F* out) {
#if defined(DC_VEC_X86)
  if constexpr (std::is_same_v<F, float>) {
    static_assert(N % 8 == 0);
    for (int i = 0; i < N; i += 8)
      _mm256_storeu_ps(out + i, sleef::fmodf8(_mm256_loadu_ps(x + i), _mm256_loadu_ps(y + i)));
  } else {
    static_assert(N % 4 == 0);
    for (int i = 0; i < N; i += 4)
      _mm256_storeu_pd(out + i, sleef::fmodd4(_mm256_loadu_pd(x + i), _mm256_loadu_pd(y + i)));
  }
#else
  for (int i = 0; i < N; ++i) out[i] = fmod_x87(x[i], y[i]);
#endif
}

/// div_floor_floating_vec for one lane given Vectorized::fmod's lane, every op rounded by `rnd` as
/// Vectorized<T> does (identity for float/double; Half/BFloat16 round each op back to T). Blend
/// order kept: the Sleef fixup (a/b overflows but a is finite: keep a), then div == 0, then b == 0.
template <class F, class Round>
inline F div_floor_vec_lane(F a, F b, F mod, Round rnd) {
  constexpr F kInf = std::numeric_limits<F>::infinity();
  const F basic = rnd(a / b);
  const F floor_in = (std::abs(basic) == kInf && std::abs(a) != kInf) ? a : rnd(a - mod);
  F div = rnd(floor_in / b);
  if ((mod != 0) && ((b < 0) != (mod < 0))) div = rnd(div - F(1));
  F floordiv = rnd(std::floor(div));
  if (rnd(div - floordiv) > F(0.5)) floordiv = rnd(floordiv + F(1));
  if (div == 0) floordiv = std::copysign(F(0), basic);
  if (b == 0) floordiv = basic;
  return floordiv;
}

/// div_floor_floating_vec on a whole Vec<T>: lanes in opmath, Vectorized::fmod on all of them at
/// once, then the per-lane fix-ups; Half/BFloat16 round every op back with the vector converter.
template <class T>
inline Vec<T> div_floor_vec(const Vec<T>& a, const Vec<T>& b) {
  using F = opmath_t<T>;
  constexpr int N = Vec<T>::kSize;
  F fa[N], fb[N], mod[N];
  for (int i = 0; i < N; ++i) {
    fa[i] = F(a.v[i]);
    fb[i] = F(b.v[i]);
  }
  vec_fmod<F, N>(fa, fb, mod);
  Vec<T> r;
  for (int i = 0; i < N; ++i) {
    if constexpr (kReduced<T>) {
      auto rnd = [](float v) { return float(vec::vec_from_float<T>(v)); };
      r.v[i] = vec::vec_from_float<T>(div_floor_vec_lane(fa[i], fb[i], rnd(mod[i]), rnd));
    } else {
      r.v[i] = div_floor_vec_lane(fa[i], fb[i], mod[i], [](F v) { return v; });
    }
  }
  return r;
}

/// Half/BFloat16 against a scalar (binary_op_scalar): div_floor_floating_vec in float on the lanes
/// and the scalar's original float value, rounded to T once at the end.
template <class T>
inline Vec<T> div_floor_vec_scalar_rhs(const Vec<T>& a, float b) {
  constexpr int N = Vec<T>::kSize;
  float fa[N], fb[N], mod[N];
  for (int i = 0; i < N; ++i) {
    fa[i] = float(a.v[i]);
    fb[i] = b;
  }
  vec_fmod<float, N>(fa, fb, mod);
  Vec<T> r;
  for (int i = 0; i < N; ++i)
    r.v[i] = vec::vec_from_float<T>(div_floor_vec_lane(fa[i], b, mod[i], [](float v) { return v; }));
  return r;
}

void div_floor_kernel(TensorIter& iter) {
  const DType t = iter.common_dtype();
  if (t == DType::UInt8) return div_trunc_kernel(iter);
  check_not_bool(iter, "div_floor_cpu");
  if (is_integral(t, false)) {
    dispatch_dtype(t, [&]<class T>() {
      if constexpr (std::is_integral_v<T> && !std::is_same_v<T, bool>)
        cpu_kernel(iter, [](T a, T b) -> T { return int_div_floor(a, b); });
    });
  } else if (reduced_with_scalar_rhs(iter)) {
    // scalar: c10::div_floor_floating in float; vector: div_floor_floating_vec in float.
    dispatch_dtype(t, [&]<class T>() {
      if constexpr (kReduced<T>) {
        const float b = iter.original_scalar_value<float>(2);
        iter.remove_operand(2);
        cpu_kernel_vec(
            iter,
            [=](T a) -> T { return scalar_from_float<T>(div_floor_chain<float>(float(a), b, [](float v) { return v; })); },
            [=](Vec<T> a) { return div_floor_vec_scalar_rhs(a, b); });
      }
    });
  } else {
    dispatch_dtype(t, [&]<class T>() {
      if constexpr (std::is_floating_point_v<T>) {
        cpu_kernel_vec(
            iter, [](T a, T b) -> T { return div_floor_chain<T>(a, b, [](T v) { return v; }); },
            [](Vec<T> a, Vec<T> b) { return div_floor_vec(a, b); });
      } else if constexpr (kReduced<T>) {
        cpu_kernel_vec(
            iter, [](T a, T b) -> T { return div_floor_chain<T>(a, b, [](float v) { return scalar_from_float<T>(v); }); },
            [](Vec<T> a, Vec<T> b) { return div_floor_vec(a, b); });
      }
    });
  }
}

// ---- maximum / minimum -------------------------------------------------------------------------

template <bool kMax>
void minmax_kernel(TensorIter& iter) {
  const DType t = iter.common_dtype();
  if (t == DType::Bool) {
    if constexpr (kMax) cpu_kernel(iter, [](bool a, bool b) -> bool { return a || b; });
    else cpu_kernel(iter, [](bool a, bool b) -> bool { return a && b; });
    return;
  }
  dispatch_dtype(t, [&]<class T>() {
    if constexpr (!std::is_same_v<T, bool>) {
      cpu_kernel_vec(
          iter,
          [](T a, T b) -> T {
            if constexpr (std::is_integral_v<T>) {
              return kMax ? std::max(a, b) : std::min(a, b);
            } else {
              // scalar lambda: NaN in either -> quiet_NaN, else std::max / std::min.
              const opmath_t<T> x = a, y = b;
              if (x != x || y != y) {
                if constexpr (std::is_same_v<T, Half>) return Half::from_bits(0x7E00);
                else if constexpr (std::is_same_v<T, BFloat16>) return BFloat16::from_bits(0x7FC0);
                else return std::numeric_limits<T>::quiet_NaN();
              }
              if constexpr (kMax) return (x < y) ? b : a;
              else return (y < x) ? b : a;
            }
          },
          [](Vec<T> a, Vec<T> b) { return kMax ? vec::maximum(a, b) : vec::minimum(a, b); });
    }
  });
}

void maximum_kernel(TensorIter& iter) { minmax_kernel<true>(iter); }
void minimum_kernel(TensorIter& iter) { minmax_kernel<false>(iter); }

// ---- mse_loss ------------------------------------------------------------------------------------

/// mse_kernel: diff = a - b, then diff * diff, two roundings in both forms (nothing to contract). The ops
/// layer sends float32/float64 here; other dtypes keep the composite sub-then-mul, which has the same bits.
void mse_kernel(TensorIter& iter) {
  dispatch_dtype(iter.common_dtype(), [&]<class T>() {
    if constexpr (std::is_floating_point_v<T>) {
      cpu_kernel_vec(
          iter, [](T a, T b) -> T { const T d = a - b; return d * d; },
          [](Vec<T> a, Vec<T> b) { const Vec<T> d = a - b; return d * d; });
    }
  });
}

}  // namespace
}  // namespace DC_CPU_CAPABILITY

DC_REGISTER_DISPATCH(add_stub, &add_kernel);
DC_REGISTER_DISPATCH(sub_stub, &sub_kernel);
DC_REGISTER_DISPATCH(mul_stub, &mul_kernel);
DC_REGISTER_DISPATCH(div_stub, &div_true_kernel);
DC_REGISTER_DISPATCH(div_trunc_stub, &div_trunc_kernel);
DC_REGISTER_DISPATCH(div_floor_stub, &div_floor_kernel);
DC_REGISTER_DISPATCH(maximum_stub, &maximum_kernel);
DC_REGISTER_DISPATCH(minimum_stub, &minimum_kernel);
DC_REGISTER_DISPATCH(mse_stub, &mse_kernel);

}  // namespace dc
