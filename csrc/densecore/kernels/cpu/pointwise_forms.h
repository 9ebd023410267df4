// The scalar and vector forms of the ops the optimizers run: add with alpha (ufunc/add.h), lerp with a
// scalar weight (aten/src/ATen/native/cpu/LerpKernel.cpp, Lerp.h) and addcmul / addcdiv for floating types
// (PointwiseOpsKernel.cpp). One home for the kernels of those ops (binary.cpp, pointwise.cpp) and for the
// fused optimizer steps (optim.cpp): a fused loop that calls these forms runs every element through the
// roundings of the separate kernels. Only include from kernels/cpu/ (it needs DC_CPU_CAPABILITY).
#pragma once

#include <cmath>
#include <type_traits>

#include "densecore/core/convert.h"
#include "densecore/kernels/vec/lane_math.h"
#include "densecore/kernels/vec/vec.h"

namespace dc {
inline namespace DC_CPU_CAPABILITY {

// Note [add scalar tail]: ufunc/add.h computes `self + alpha * other` in the scalar lambda and
// vec::fmadd(other, alpha, self) in the vector one. GCC contracted the scalar float/double
// expression into an FMA in torch's AVX2/AVX-512 builds (verified: the tail of a float32 add with
// alpha=0.1 matches fma, not two roundings); the DEFAULT build has no FMA, so two roundings there.
// The tail of rows whose `other` is a broadcast scalar differs again: Note [add alpha tail].
// Half/BFloat16 use c10's operators: the product is rounded to T before the sum.
template <class T>
inline T add_scalar(T a, T b, T alpha) {
  if constexpr (is_reduced_float_v<T>) {
    const T prod = vec::scalar_from_float<T>(float(alpha) * float(b));
    return vec::scalar_from_float<T>(float(a) + float(prod));
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

/// add(self, other, alpha) with both operands tensors: add_scalar, and vec::fmadd(other, alpha, self) for whole
/// vectors (ufunc/add.h). Every T but bool.
template <class T>
struct AddAlpha {
  T alpha;
  vec::Vec<T> valpha;

  explicit AddAlpha(T a) : alpha(a), valpha(a) {}

  T scalar(T self, T other) const { return add_scalar(self, other, alpha); }
  vec::Vec<T> vector(vec::Vec<T> self, vec::Vec<T> other) const { return vec::fmadd(other, valpha, self); }
};

/// lerp(self, end, w) for one scalar weight w.
/// Scalar (Lerp.h lerp()): |w| < 0.5 ? self + w * (end - self) : end - (end - self) * (1 - w), which GCC
/// contracted in torch's AVX2/AVX-512 builds (vec::fmadd_contracted): fma(-(end - self), 1 - w, end) is
/// fma(w - 1, end - self, end), 1 - w being the exact negation of w - 1.
/// Vector (LerpKernel.cpp lerp_vec): mask = |w| < 0.5; coeff = mask ? w : w - 1; base = mask ? start : end;
/// vec::fmadd(coeff, end - start, base). A scalar weight's mask is the same in every lane: decided once.
template <class T>
struct LerpScalarWeight {
  T w;
  bool small;
  vec::Vec<T> coeff;

  explicit LerpScalarWeight(T weight)
      : w(weight), small(std::abs(weight) < T(0.5)), coeff(small ? weight : weight - T(1)) {}

  T scalar(T self, T end) const {
    const T diff = end - self;
    if (small) return vec::fmadd_contracted(w, diff, self);
    return vec::fmadd_contracted(-diff, T(1) - w, end);
  }
  vec::Vec<T> vector(vec::Vec<T> self, vec::Vec<T> end) const {
    return vec::fmadd(coeff, end - self, small ? self : end);
  }
};

/// addcmul(self, t1, t2, value) = self + value * t1 * t2 for floating T: fma(value * t1, t2, self) as GCC
/// compiled the scalar form (fmadd_contracted), vec::fmadd(value * t1, t2, self) for whole vectors.
template <class T>
struct AddcmulValue {
  T v;
  vec::Vec<T> vv;

  explicit AddcmulValue(T value) : v(value), vv(value) {}

  T scalar(T self, T t1, T t2) const { return vec::fmadd_contracted(v * t1, t2, self); }
  vec::Vec<T> vector(vec::Vec<T> self, vec::Vec<T> t1, vec::Vec<T> t2) const { return vec::fmadd(vv * t1, t2, self); }
};

/// addcdiv(self, t1, t2, value) = self + value * t1 / t2 for floating T: three roundings (mul, div, add), the
/// value multiplying t1 first, in both forms.
template <class T>
struct AddcdivValue {
  T v;
  vec::Vec<T> vv;

  explicit AddcdivValue(T value) : v(value), vv(value) {}

  T scalar(T self, T t1, T t2) const { return self + v * t1 / t2; }
  vec::Vec<T> vector(vec::Vec<T> self, vec::Vec<T> t1, vec::Vec<T> t2) const { return self + vv * t1 / t2; }
};

}  // namespace DC_CPU_CAPABILITY
}  // namespace dc
