// hardshrink, its backward and threshold (ReLU's backward), mirroring
// aten/src/ATen/native/cpu/Activation.cpp (hardshrink_kernel, shrink_backward_kernel, threshold_kernel;
// REGISTER_DISPATCH, so AVX-512 machines run the AVX2 build). Scalars are first converted as the kernel
// converts them (Scalar::to<scalar_t>, or to<float> for threshold's Half/BFloat16); Half/BFloat16 compare
// through float. Every op here selects one of its inputs or a constant: no arithmetic, no rounding.
#include "densecore/core/checked_convert.h"
#include "densecore/generated/stubs.h"
#include "densecore/kernels/iter/loops.h"

namespace dc {
inline namespace DC_CPU_CAPABILITY {
namespace {

using vec::Vec;

/// A value as the compares see it: Half/BFloat16 widen to float (c10's operators, Vectorized<T>'s compares).
template <class T>
auto widen(T x) {
  if constexpr (is_reduced_float_v<T>) return float(x);
  else return x;
}

template <class T>
constexpr bool is_float_v = std::is_floating_point_v<T> || is_reduced_float_v<T>;

void hardshrink_kernel(TensorIter& iter, const Scalar& lambd) {
  dispatch_dtype(iter.dtype(0), [&]<class T>() {
    if constexpr (is_float_v<T>) {
      const auto l = widen(scalar_to<T>(lambd));
      const T zero = scalar_to<T>(Scalar::from_int(0));
      // Scalar and vector forms agree lane by lane (Vec::blendv(self, 0, self >= -l & self <= l)):
      // NaN fails both compares and stays.
      auto shrink = [l, zero](T x) -> T { return (widen(x) >= -l && widen(x) <= l) ? zero : x; };
      const Vec<T> lo_vec{T(-l)}, hi_vec{T(l)}, zero_vec{zero};
      auto shrink_vec = [shrink, lo_vec, hi_vec, zero_vec](Vec<T> x) {
        // float/double as whole-vector compares and a blend (GCC leaves the lane loop scalar).
        if constexpr (vec::is_native_v<T>)
          return Vec<T>::native((x.v >= lo_vec.v) & (x.v <= hi_vec.v) ? zero_vec.v : x.v);
        else return Vec<T>::raw_zip(x, x, [&](T a, T) { return shrink(a); });
      };
      cpu_kernel_vec(iter, shrink, shrink_vec);
    }
  });
}

void shrink_backward_kernel(TensorIter& iter, const Scalar& lambd) {
  dispatch_dtype(iter.dtype(0), [&]<class T>() {
    if constexpr (is_float_v<T>) {
      const auto l = widen(scalar_to<T>(lambd));
      const T zero = scalar_to<T>(Scalar::from_int(0));
      // The two forms differ where self is NaN: the scalar form passes grad through, the vector form
      // ((self < -l) | (self > l)) & grad gives +0. torch runs the vector form over whole vectors of a
      // contiguous row and the scalar form over the rest, and so do we.
      auto scalar = [l, zero](T grad, T self) -> T { return (widen(self) >= -l && widen(self) <= l) ? zero : grad; };
      const Vec<T> lo_vec{T(-l)}, hi_vec{T(l)}, zero_vec{zero};
      auto vector = [l, zero, lo_vec, hi_vec, zero_vec](Vec<T> grad, Vec<T> self) {
        if constexpr (vec::is_native_v<T>)  // whole-vector compares, the mask selecting grad or +0 (torch's &)
          return Vec<T>::native((self.v < lo_vec.v) | (self.v > hi_vec.v) ? grad.v : zero_vec.v);
        else return Vec<T>::raw_zip(grad, self, [&](T g, T s) { return (widen(s) < -l || widen(s) > l) ? g : zero; });
      };
      cpu_kernel_vec(iter, scalar, vector);
    }
  });
}

/// threshold_kernel with value 0, as threshold_backward runs it: operands (self, grad), out = self <=
/// threshold ? 0 : grad (blendv in the vector form: the same per lane, NaN self passes grad through).
void threshold_backward_kernel(TensorIter& iter, const Scalar& threshold) {
  dispatch_dtype(iter.dtype(0), [&]<class T>() {
    if constexpr (!std::is_same_v<T, bool>) {
      const auto t = [&] {  // threshold.to<float>() for Half/BFloat16, to<scalar_t>() otherwise
        if constexpr (is_reduced_float_v<T>) return scalar_to<float>(threshold);
        else return scalar_to<T>(threshold);
      }();
      const T zero = scalar_to<T>(Scalar::from_int(0));
      auto select = [t, zero](T self, T grad) -> T { return widen(self) <= t ? zero : grad; };
      const Vec<T> t_vec{T(t)}, zero_vec{zero};
      auto select_vec = [select, t_vec, zero_vec](Vec<T> self, Vec<T> grad) {
        // float/double as one compare and one blend (vcmpps, vblendvps, as torch's blendv): GCC left the
        // lane loop as eight scalar compares and inserts, 0.5 ns per element at ReLU's backward.
        if constexpr (vec::is_native_v<T>) return Vec<T>::native(self.v <= t_vec.v ? zero_vec.v : grad.v);
        else return Vec<T>::raw_zip(self, grad, select);
      };
      cpu_kernel_vec(iter, select, select_vec);
    }
  });
}

}  // namespace
}  // namespace DC_CPU_CAPABILITY

DC_REGISTER_DISPATCH(hardshrink_stub, &hardshrink_kernel);
DC_REGISTER_DISPATCH(hardshrink_backward_stub, &shrink_backward_kernel);
DC_REGISTER_DISPATCH(threshold_backward_stub, &threshold_backward_kernel);

}  // namespace dc
