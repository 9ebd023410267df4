// Optimizer pointwise kernels: lerp with a scalar weight (aten/src/ATen/native/cpu/LerpKernel.cpp,
// Lerp.h) and addcmul / addcdiv (PointwiseOpsKernel.cpp); mse_loss's backward (PointwiseOpsKernel.cpp's
// mse_backward_cpu_kernel). torch registers all four with REGISTER_DISPATCH, so AVX-512 machines run the
// AVX2 build (8 float lanes).
#include <cmath>

#include "densecore/core/checked_convert.h"
#include "densecore/kernels/iter/loops.h"
#include "densecore/generated/stubs.h"
#include "densecore/kernels/cpu/pointwise_forms.h"
#include "densecore/kernels/stubs/loss_stubs.h"

namespace dc {
inline namespace DC_CPU_CAPABILITY {
namespace {

using vec::Vec;

// The floating forms of all three live in pointwise_forms.h, shared with the fused optimizer steps (optim.cpp).
// Lerp's and addcmul's scalar tails round once in torch's AVX2/AVX-512 builds, like their vector bodies
// (checked against torch).

void lerp_scalar_kernel(TensorIter& iter, const Scalar& weight) {
  dispatch_dtype(iter.common_dtype(), [&]<class T>() {
    if constexpr (std::is_floating_point_v<T>) {
      const LerpScalarWeight<T> lerp(scalar_to<T>(weight));
      cpu_kernel_vec(
          iter, [=](T s, T e) -> T { return lerp.scalar(s, e); }, [=](Vec<T> s, Vec<T> e) { return lerp.vector(s, e); });
    } else {
      throw NotImplementedError(
          dc::format("\"lerp_kernel_scalar\" not implemented for '{}' in densecore yet", scalar_type_name(iter.common_dtype())));
    }
  });
}

void addcmul_kernel(TensorIter& iter, const Scalar& value) {
  dispatch_dtype(iter.common_dtype(), [&]<class T>() {
    if constexpr (std::is_floating_point_v<T>) {
      const AddcmulValue<T> addcmul(scalar_to<T>(value));
      cpu_kernel_vec(
          iter, [=](T s, T a, T b) -> T { return addcmul.scalar(s, a, b); },
          [=](Vec<T> s, Vec<T> a, Vec<T> b) { return addcmul.vector(s, a, b); });
    } else if constexpr (std::is_integral_v<T> && !std::is_same_v<T, bool>) {
      const T v = scalar_to<T>(value);
      cpu_kernel(iter, [=](T s, T a, T b) -> T { return vec::wrap_add(s, vec::wrap_mul(vec::wrap_mul(v, a), b)); });
    } else {
      throw NotImplementedError(
          dc::format("\"addcmul_cpu_out\" not implemented for '{}' in densecore yet", scalar_type_name(iter.common_dtype())));
    }
  });
}

void addcdiv_kernel(TensorIter& iter, const Scalar& value) {
  dispatch_dtype(iter.common_dtype(), [&]<class T>() {
    if constexpr (std::is_floating_point_v<T>) {
      const AddcdivValue<T> addcdiv(scalar_to<T>(value));
      cpu_kernel_vec(
          iter, [=](T s, T a, T b) -> T { return addcdiv.scalar(s, a, b); },
          [=](Vec<T> s, Vec<T> a, Vec<T> b) { return addcdiv.vector(s, a, b); });
    } else {
      throw NotImplementedError(
          dc::format("\"addcdiv_cpu_out\" not implemented for '{}' in densecore yet", scalar_type_name(iter.common_dtype())));
    }
  });
}

/// mse_backward_cpu_kernel over (self, target, grad): (norm * (self - target)) * grad, each product rounded
/// (no add to contract with). The ops layer sends float32/float64 here.
void mse_backward_kernel(TensorIter& iter, double norm) {
  dispatch_dtype(iter.common_dtype(), [&]<class T>() {
    if constexpr (std::is_floating_point_v<T>) {
      const T n = T(norm);
      cpu_kernel_vec(
          iter, [=](T s, T t, T g) -> T { return n * (s - t) * g; },
          [=](Vec<T> s, Vec<T> t, Vec<T> g) { return Vec<T>(n) * (s - t) * g; });
    }
  });
}

}  // namespace
}  // namespace DC_CPU_CAPABILITY

DC_REGISTER_DISPATCH(mse_backward_stub, &mse_backward_kernel);
DC_REGISTER_DISPATCH(lerp_stub, &lerp_scalar_kernel);
DC_REGISTER_DISPATCH(addcmul_stub, &addcmul_kernel);
DC_REGISTER_DISPATCH(addcdiv_stub, &addcdiv_kernel);

}  // namespace dc
