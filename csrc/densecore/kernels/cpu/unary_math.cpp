// Unary math kernels of aten/src/ATen/native/cpu/UnaryOpsKernel.cpp and PowKernel.cpp, and the
// tanh/sigmoid backward kernels of BinaryOpsKernel.cpp. sqrt/exp/log/tanh/erf/sin/cos run MKL VML
// (at::vml with MKL: vms<Op>(n, in, out, VML_HA | VML_FTZDAZ_OFF | VML_ERRMODE_IGNORE)) for
// float/double; float16/bfloat16 are not mirrored yet (docs/exactness.md).
#include <algorithm>
#include <cmath>

#include "densecore/core/checked_convert.h"
#include "densecore/kernels/iter/loops.h"
#include "densecore/generated/stubs.h"
#include "densecore/kernels/stubs/math_stubs.h"
#include "densecore/kernels/cpu/vml.h"
#include "densecore/kernels/vec/lane_math.h"

namespace dc {
inline namespace DC_CPU_CAPABILITY {
namespace {

using vec::scalar_from_float;
using vec::Vec;

// ---- VML ops (UnaryOpsKernel.cpp IMPLEMENT_ITERATOR_LAMBDA, grain 2048) ---------------------------

/// One row of n elements: VML on it directly when both are contiguous, else through an 8 KiB
/// stack buffer (gather, VML, scatter), as IMPLEMENT_ITERATOR_LAMBDA does.
template <class T>
void vml_row(VmlOp op, char* out_p, const char* in_p, int64_t out_stride, int64_t in_stride, int64_t n) {
  T* out = reinterpret_cast<T*>(out_p);
  const T* in = reinterpret_cast<const T*>(in_p);
  if (out_stride == 1 && in_stride == 1) return vml_call(op, in, out, n);
  constexpr int64_t kWidth = (8 * 1024) / int64_t(sizeof(T));
  for (int64_t i = 0; i < n; i += kWidth) {
    T buffer[kWidth];
    const int64_t width = std::min(kWidth, n - i);
    const T* in_buf = in_stride == 1 ? in + i : buffer;
    T* out_buf = out_stride == 1 ? out + i : buffer;
    if (in_stride != 1)
      for (int64_t j = 0; j < width; ++j) buffer[j] = in[in_stride * (i + j)];
    vml_call(op, in_buf, out_buf, width);
    if (out_stride != 1)
      for (int64_t j = 0; j < width; ++j) out[out_stride * (i + j)] = out_buf[j];
  }
}

void vml_kernel(TensorIter& iter, VmlOp op, const char* name) {
  const DType t = iter.dtype(0);
  check<NotImplementedError>(t == DType::Float32 || t == DType::Float64,
                             "\"{}_vml_cpu\" not implemented for '{}' in densecore yet", name, scalar_type_name(t));
  dispatch_dtype(t, [&]<class T>() {
    if constexpr (std::is_floating_point_v<T>) {
      iter.for_each(
          [&](char** data, const int64_t* strides, int64_t size0, int64_t size1) {
            char* out = data[0];
            char* in = data[1];
            for (int64_t j = 0; j < size1; ++j) {
              vml_row<T>(op, out, in, strides[0] / int64_t(sizeof(T)), strides[1] / int64_t(sizeof(T)), size0);
              out += strides[2];
              in += strides[3];
            }
          },
          kVmlGrainSize);
    }
  });
  iter.cast_outputs();
}

void sqrt_kernel(TensorIter& it) { vml_kernel(it, VmlOp::Sqrt, "sqrt"); }
void exp_kernel(TensorIter& it) { vml_kernel(it, VmlOp::Exp, "exp"); }
void log_kernel(TensorIter& it) { vml_kernel(it, VmlOp::Ln, "log"); }
void tanh_kernel(TensorIter& it) { vml_kernel(it, VmlOp::Tanh, "tanh"); }
void erf_kernel(TensorIter& it) { vml_kernel(it, VmlOp::Erf, "erf"); }
void sin_kernel(TensorIter& it) { vml_kernel(it, VmlOp::Sin, "sin"); }
void cos_kernel(TensorIter& it) { vml_kernel(it, VmlOp::Cos, "cos"); }

// ---- cpu_kernel_vec unary kernels ----------------------------------------------------------------

#if defined(DC_VEC_X86)
/// Vectorized<float>: (1 + a.neg().exp()).reciprocal() as whole vectors (GCC left the lane loop scalar). A NaN
/// lane is -a, quieted, as neg, SLEEF's exp, + and / pass it on; selected explicitly, as in the lane form.
inline Vec<float> sigmoid_lanes(const Vec<float>& a) {
  const vec::FLanes neg_a = -a.v;  // vxorps with the sign bit, as Vectorized::neg
  const vec::FLanes r = vec::splat(1.0f) / (vec::splat(1.0f) + vec::expf_u10_lanes(neg_a));
  return Vec<float>::native(a.v != a.v ? neg_a + neg_a : r);
}
#endif

/// sigmoid: scalar 1 / (1 + std::exp(-a)) (glibc), vector (1 + exp(-a)).reciprocal() with SLEEF's exp.
/// Half/BFloat16 compute in float (scalar: one rounding at the end; vector: convert_from_float).
void sigmoid_kernel(TensorIter& iter) {
  dispatch_dtype(iter.common_dtype(), [&]<class T>() {
    if constexpr (std::is_floating_point_v<T> || is_reduced_float_v<T>) {
      using F = opmath_t<T>;
      cpu_kernel_vec(
          iter,
          [](T a) -> T {
            const F r = F(1) / (F(1) + std::exp(-F(a)));
            if constexpr (is_reduced_float_v<T>) return scalar_from_float<T>(r);
            else return r;
          },
          [](Vec<T> a) {
#if defined(DC_VEC_X86)
            if constexpr (std::is_same_v<T, float>) return sigmoid_lanes(a);
#endif
            // A NaN lane comes out of neg, SLEEF's exp, + and / as -x (x86 passes the NaN operand on).
            // Returned directly: GCC folds 1 + (-x) into 1 - x, which would keep x's sign.
            return a.map([](F x) { return std::isnan(x) ? -x : F(1) / (F(1) + vec::exp_lane(-x)); });
          });
    }
  });
}

/// reciprocal: 1 / a in both paths (Half/BFloat16 through float).
void reciprocal_kernel(TensorIter& iter) {
  dispatch_dtype(iter.common_dtype(), [&]<class T>() {
    if constexpr (std::is_floating_point_v<T> || is_reduced_float_v<T>) {
      using F = opmath_t<T>;
      cpu_kernel_vec(
          iter,
          [](T a) -> T {
            if constexpr (is_reduced_float_v<T>) return scalar_from_float<T>(1.0f / float(a));
            else return T(1) / a;
          },
          [](Vec<T> a) { return a.map([](F x) { return F(1) / x; }); });
    }
  });
}

/// rsqrt: 1 / std::sqrt(a) in both paths (Vectorized::rsqrt = div(1, sqrt_ps)).
void rsqrt_kernel(TensorIter& iter) {
  dispatch_dtype(iter.common_dtype(), [&]<class T>() {
    if constexpr (std::is_floating_point_v<T> || is_reduced_float_v<T>) {
      using F = opmath_t<T>;
      cpu_kernel_vec(
          iter,
          [](T a) -> T {
            if constexpr (is_reduced_float_v<T>) return scalar_from_float<T>(1.0f / std::sqrt(float(a)));
            else return T(1) / std::sqrt(a);
          },
          [](Vec<T> a) { return a.map([](F x) { return F(1) / std::sqrt(x); }); });
    }
  });
}

// ---- pow(tensor, scalar) (PowKernel.cpp pow_tensor_scalar_kernel) ---------------------------------

/// The exponents with their own lambdas; .5 / -.5 / -1 go to sqrt / rsqrt / reciprocal. Other
/// exponents need Sleef_powf (vector) and are rejected by ops/unary.cpp for now.
void pow_tensor_scalar_kernel(TensorIter& iter, const Scalar& exp_s) {
  const DType t = iter.common_dtype();
  const double e = exp_s.to_double();
  if (t == DType::Float32 || t == DType::Float64) {
    if (e == 0.5) return sqrt_kernel(iter);
    if (e == -0.5) return rsqrt_kernel(iter);
    if (e == -1.0) return reciprocal_kernel(iter);
  }
  dispatch_dtype(t, [&]<class T>() {
    if constexpr (std::is_floating_point_v<T>) {
      if (e == 2.0)
        cpu_kernel_vec(iter, [](T a) -> T { return a * a; }, [](Vec<T> a) { return a * a; });
      else if (e == 3.0)
        cpu_kernel_vec(iter, [](T a) -> T { return a * a * a; }, [](Vec<T> a) { return a * a * a; });
      else if (e == -2.0)
        cpu_kernel_vec(iter, [](T a) -> T { return T(1.0) / (a * a); },
                       [](Vec<T> a) { return (a * a).map([](T x) { return T(1) / x; }); });
      else
        throw NotImplementedError(dc::format("[pow] exponent {} is not supported in densecore yet", e));
    } else {
      throw NotImplementedError(dc::format("[pow] dtype {} is not supported in densecore yet", scalar_type_name(t)));
    }
  });
}

// ---- BinaryOpsKernel.cpp backward kernels --------------------------------------------------------

/// tanh_backward(a = grad, b = output) = a * (1 - b * b). GCC contracts 1 - b*b into an FMA
/// (vfnmadd) in torch's AVX2 build, vector body and scalar tail alike; DEFAULT rounds twice.
template <class T>
inline T one_minus_sq(T b) {
  return vec::fnmadd_contracted(b, b, T(1));
}

void tanh_backward_kernel(TensorIter& iter) {
  dispatch_dtype(iter.common_dtype(), [&]<class T>() {
    if constexpr (std::is_floating_point_v<T>)
      cpu_kernel_vec(
          iter, [](T a, T b) -> T { return a * one_minus_sq(b); },
          [](Vec<T> a, Vec<T> b) { return Vec<T>::zip(a, b, [](T x, T y) { return x * one_minus_sq(y); }); });
    else
      throw NotImplementedError("[tanh_backward] only float32/float64 in densecore yet");
  });
}

/// sigmoid_backward(a = grad, b = output) = a * (1 - b) * b (no contraction possible).
void sigmoid_backward_kernel(TensorIter& iter) {
  dispatch_dtype(iter.common_dtype(), [&]<class T>() {
    if constexpr (std::is_floating_point_v<T>)
      cpu_kernel_vec(
          iter, [](T a, T b) -> T { return a * (T(1) - b) * b; },
          [](Vec<T> a, Vec<T> b) { return a * (Vec<T>(T(1)) - b) * b; });
    else
      throw NotImplementedError("[sigmoid_backward] only float32/float64 in densecore yet");
  });
}

}  // namespace
}  // namespace DC_CPU_CAPABILITY

// UnaryOpsKernel.cpp: sqrt/sin/cos *_WITHOUT_AVX512; exp/log/tanh/erf *_WITH_AVX512 (VML either way).
DC_REGISTER_DISPATCH(sqrt_stub, &sqrt_kernel);
DC_REGISTER_DISPATCH(sin_stub, &sin_kernel);
DC_REGISTER_DISPATCH(cos_stub, &cos_kernel);
DC_ALSO_REGISTER_AVX512_DISPATCH(exp_stub, &exp_kernel);
DC_ALSO_REGISTER_AVX512_DISPATCH(log_stub, &log_kernel);
DC_ALSO_REGISTER_AVX512_DISPATCH(tanh_stub, &tanh_kernel);
DC_ALSO_REGISTER_AVX512_DISPATCH(erf_stub, &erf_kernel);
DC_ALSO_REGISTER_AVX512_DISPATCH(sigmoid_stub, &sigmoid_kernel);
DC_ALSO_REGISTER_AVX512_DISPATCH(reciprocal_stub, &reciprocal_kernel);
DC_REGISTER_DISPATCH(rsqrt_stub, &rsqrt_kernel);
DC_ALSO_REGISTER_AVX512_DISPATCH(pow_tensor_scalar_stub, &pow_tensor_scalar_kernel);
DC_REGISTER_DISPATCH(tanh_backward_stub, &tanh_backward_kernel);
DC_REGISTER_DISPATCH(sigmoid_backward_stub, &sigmoid_backward_kernel);

}  // namespace dc
