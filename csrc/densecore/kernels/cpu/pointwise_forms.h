// The scalar and vector forms of the optimizer's pointwise ops: lerp with a scalar weight
// (aten/src/ATen/native/cpu/LerpKernel.cpp, Lerp.h) and addcmul / addcdiv for floating types
// (PointwiseOpsKernel.cpp). One home for the kernels of those ops (pointwise.cpp) and for the fused
// optimizer steps (optim.cpp): a fused loop that calls these forms runs every element through the
// roundings of the separate kernels. Only include from kernels/cpu/ (it needs DC_CPU_CAPABILITY).
#pragma once

#include <cmath>

#include "densecore/kernels/vec/lane_math.h"
#include "densecore/kernels/vec/vec.h"

namespace dc {
inline namespace DC_CPU_CAPABILITY {

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
