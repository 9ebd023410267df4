// Binary arithmetic kernels: add/sub with alpha, mul, div (true, trunc, floor), maximum, minimum.
// Mirrors aten/src/ATen/native/cpu/BinaryOpsKernel.cpp and the ufunc add kernel (ufunc/add.h).
// torch registers all of them with REGISTER_DISPATCH, so AVX-512 machines run the AVX2 build.
#include <bit>
#include <cmath>
#include <limits>

#include "densecore/core/checked_convert.h"
#include "densecore/kernels/elementwise_stubs.h"
#include "densecore/kernels/loops.h"

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

// Note [add scalar tail]: ufunc/add.h computes `self + alpha * other` in the scalar lambda and
// vec::fmadd(other, alpha, self) in the vector one. GCC contracted the scalar float/double
// expression into an FMA in torch's AVX2/AVX-512 builds (verified: the tail of a float32 add with
// alpha=0.1 matches fma, not two roundings); the DEFAULT build has no FMA, so two roundings there.
// Except in vectorized_loop's tail when `other` is the broadcast scalar (S == 2): there GCC hoisted
// alpha*other out of the loop (vmulss) and vectorised the sum (vaddps) — two roundings, seen in
// objdump of torch's AVX2 add kernel and against torch (add_tail_rhs_scalar below).
// Half/BFloat16 use c10's operators: the product is rounded to T before the sum.
template <class T>
inline T add_scalar(T a, T b, T alpha);

template <class T>
inline T add_tail_rhs_scalar(T a, T b, T alpha) {
  if constexpr (std::is_floating_point_v<T>) return a + alpha * b;
  else return add_scalar(a, b, alpha);
}

template <class T>
inline T add_scalar(T a, T b, T alpha) {
  if constexpr (kReduced<T>) {
    const T prod = scalar_from_float<T>(float(alpha) * float(b));
    return scalar_from_float<T>(float(a) + float(prod));
  } else if constexpr (std::is_floating_point_v<T>) {
#if defined(DC_CPU_CAPABILITY_DEFAULT)
    return a + alpha * b;
#else
    return std::fma(alpha, b, a);
#endif
  } else if constexpr (std::is_same_v<T, bool>) {
    return bool(int(a) + int(alpha) * int(b));
  } else {
    return vec::wrap_add(a, vec::wrap_mul(alpha, b));
  }
}

void add_kernel(TensorIter& iter, const Scalar& alpha_s) {
  dispatch_dtype(iter.common_dtype(), [&]<class T>() {
    const T alpha = scalar_to<T>(alpha_s);
    if constexpr (std::is_same_v<T, bool>) {
      cpu_kernel(iter, [=](bool a, bool b) -> bool { return add_scalar(a, b, alpha); });
    } else {
      const Vec<T> valpha(alpha);
      cpu_kernel_vec_tail2(
          iter, [=](T a, T b) -> T { return add_scalar(a, b, alpha); },
          [=](Vec<T> a, Vec<T> b) { return vec::fmadd(b, valpha, a); },
          [=](T a, T b) -> T { return add_tail_rhs_scalar(a, b, alpha); });
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
            [](Vec<T> a, Vec<T> b) { return (a / b).map([](auto x) { return std::trunc(x); }); });
    });
  }
}

template <class F>
inline F vec_fmod_lane(F a, F b);

/// c10::div_floor_floating with every operation rounded to T by `rnd` (c10's Half/BFloat16
/// operators round each step; float/double pass through).
template <class T, bool kVecFmod = false, class Round>
inline T div_floor_chain(T a, T b, Round rnd) {
  using F = opmath_t<T>;
  if (F(b) == 0) return rnd(F(a) / F(b));
  const T mod = rnd(kVecFmod ? vec_fmod_lane(F(a), F(b)) : std::fmod(F(a), F(b)));
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

/// Vectorized::fmod lane = SLEEF's xfmod (Sleef_fmodf8 / fmodd4 on AVX2): exact like glibc for
/// finite operands, but its NaNs differ: y == 0 gives +NaN, and other NaNs come out of its
/// arithmetic with the sign then multiplied by x's (vmulsign): inf % y -> default NaN (negative)
/// xor sign(x). Checked against torch: inf // 2 is -NaN and -inf // 2 is +NaN on vector lanes.
template <class F>
inline F vec_fmod_lane(F a, F b) {
#if defined(DC_VEC_X86)
  using Bits = std::conditional_t<std::is_same_v<F, double>, uint64_t, uint32_t>;
  constexpr Bits kSign = Bits(1) << (sizeof(F) * 8 - 1);
  const Bits sign_a = std::bit_cast<Bits>(a) & kSign;
  if (b == 0) return std::numeric_limits<F>::quiet_NaN();
  if (std::abs(a) < std::abs(b)) return a;
  const F qnan = std::numeric_limits<F>::quiet_NaN();
  if (std::isnan(a) || std::isnan(b)) {
    const F src = std::isnan(a) ? a : b;
    const Bits mag = (std::bit_cast<Bits>(src) | std::bit_cast<Bits>(qnan)) & ~kSign;  // |src| quieted
    return std::bit_cast<F>(mag ^ sign_a);
  }
  if (std::isinf(a)) return std::bit_cast<F>((std::bit_cast<Bits>(qnan) | kSign) ^ sign_a);
#endif
  return std::fmod(a, b);
}

/// BinaryOpsKernel.cpp div_floor_floating_vec, per lane (blendv order kept: b == 0 wins last).
template <class F>
inline F div_floor_vec_lane(F a, F b) {
  const F mod = vec_fmod_lane(a, b);
  F div = (a - mod) / b;
  if ((mod != 0) && ((b < 0) != (mod < 0))) div = div - F(1);
  F floordiv = std::floor(div);
  if ((div - floordiv) > F(0.5)) floordiv = floordiv + F(1);
  const F basic = a / b;
  if (div == 0) floordiv = std::copysign(F(0), basic);
  if (b == 0) floordiv = basic;
  return floordiv;
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
            [=](Vec<T> a) { return a.map([=](float x) { return div_floor_vec_lane(x, b); }); });
      }
    });
  } else {
    dispatch_dtype(t, [&]<class T>() {
      if constexpr (std::is_floating_point_v<T>) {
        cpu_kernel_vec(
            iter, [](T a, T b) -> T { return div_floor_chain<T>(a, b, [](T v) { return v; }); },
            [](Vec<T> a, Vec<T> b) { return Vec<T>::zip(a, b, [](T x, T y) { return div_floor_vec_lane(x, y); }); });
      } else if constexpr (kReduced<T>) {
        // Vectorized<Half/BFloat16> rounds every op back to T with the vector converter.
        cpu_kernel_vec(
            iter, [](T a, T b) -> T { return div_floor_chain<T>(a, b, [](float v) { return scalar_from_float<T>(v); }); },
            [](Vec<T> a, Vec<T> b) {
              return Vec<T>::raw_zip(a, b, [](T x, T y) {
                return div_floor_chain<T, true>(x, y, [](float v) { return vec::vec_from_float<T>(v); });
              });
            });
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

}  // namespace
}  // namespace DC_CPU_CAPABILITY

DC_REGISTER_DISPATCH(add_stub, &add_kernel);
DC_REGISTER_DISPATCH(mul_stub, &mul_kernel);
DC_REGISTER_DISPATCH(div_true_stub, &div_true_kernel);
DC_REGISTER_DISPATCH(div_trunc_stub, &div_trunc_kernel);
DC_REGISTER_DISPATCH(div_floor_stub, &div_floor_kernel);
DC_REGISTER_DISPATCH(maximum_stub, &maximum_kernel);
DC_REGISTER_DISPATCH(minimum_stub, &minimum_kernel);

}  // namespace dc
