// Random-number kernels mirroring aten/src/ATen/native/cpu/DistributionKernels.cpp, its templates
// (native/cpu/DistributionTemplates.h) and core/DistributionsHelper.h, TransformationHelper.h.
// Compiled once per capability: torch's AVX2 build contracts x*(to-from)+from and val*std+mean into
// FMA (vfmadd132ss/sd in libtorch_cpu.so's uniform_kernel and normal_kernel lambdas), its DEFAULT
// build has no FMA; vec::fmadd_contracted picks. All kernels draw serially in TensorIterator order.
#include <cmath>
#include <limits>
#include <numbers>

#include "densecore/core/convert.h"
#include "densecore/kernels/stubs/distribution_stubs.h"
#include "densecore/kernels/vec/lane_math.h"
#if defined(DC_CPU_CAPABILITY_AVX2)
#include "densecore/kernels/cpu/avx_mathfun.h"
#endif

namespace dc {
inline namespace DC_CPU_CAPABILITY {
namespace {

// uniform_real_distribution<T>(0, 1) draws: 24 bits of random() for float, 53 of random64().
// x*(1-0)+0 is exact, so the transform reduces to the scaling.
float uniform24(GeneratorImpl* g) { return float(g->random() & 0xFFFFFF) * 0x1p-24f; }
double uniform53(GeneratorImpl* g) {
  return double(g->random64() & ((uint64_t(1) << 53) - 1)) * 0x1p-53;
}

/// cpu_serial_kernel for a nullary op: out[i] = f() in TensorIterator order.
template <class T, class F>
void serial_fill(TensorIter& iter, F&& f) {
  iter.serial_for_each(
      [&](char** data, const int64_t* strides, int64_t n0, int64_t n1) {
        for (int64_t j = 0; j < n1; ++j) {
          char* out = data[0] + j * strides[1];
          for (int64_t i = 0; i < n0; ++i) *reinterpret_cast<T*>(out + i * strides[0]) = f();
        }
      },
      0, iter.numel());
}

template <class F>
void dispatch_floating(DType t, const char* name, F&& f) {
  switch (t) {
    case DType::Float64: return f.template operator()<double>();
    case DType::Float32: return f.template operator()<float>();
    case DType::Float16: return f.template operator()<Half>();
    case DType::BFloat16: return f.template operator()<BFloat16>();
    default:
      throw NotImplementedError(dc::format("\"{}\" not implemented for '{}'", name,
                                           scalar_type_name(t)));
  }
}

// ---- uniform_ (uniform_kernel: value == to after the cast becomes from) ----------------------

void uniform_kernel(TensorIter& iter, double from_, double to_, GeneratorImpl* g) {
  dispatch_floating(iter.dtype(0), "uniform_kernel_cpu", [&]<class T>() {
    using Op = opmath_t<T>;
    const Op from = Op(from_), to = Op(to_);
    const T to_s = convert<T>(to_), from_s = convert<T>(from_);
    serial_fill<T>(iter, [&]() -> T {
      const Op x = std::is_same_v<Op, double> ? Op(uniform53(g)) : Op(uniform24(g));
      const T v = T(vec::fmadd_contracted<Op>(x, to - from, from));
      return Op(v) == Op(to_s) ? from_s : v;
    });
  });
}

// ---- normal_ ---------------------------------------------------------------------------------

/// normal_distribution<double>: Box-Muller with the sine cached in the generator.
double normal_sample(GeneratorImpl* g, double mean, double std) {
  if (g->next_double_normal_sample) {
    const double r = *g->next_double_normal_sample;
    g->next_double_normal_sample.reset();
    return vec::fmadd_contracted(r, std, mean);
  }
  const double u1 = uniform53(g);
  const double u2 = uniform53(g);
  const double r = std::sqrt(-2.0 * std::log1p(-u2));
  const double theta = 2.0 * std::numbers::pi * u1;
  g->next_double_normal_sample = r * std::sin(theta);
  return vec::fmadd_contracted(r * std::cos(theta), std, mean);
}

/// NormalFill16 (generic): data[j], data[j+8] <- Box-Muller of (1 - data[j], data[j+8]).
template <class Op>
void normal_fill_16_scalar(Op* data, Op mean, Op std) {
  for (int j = 0; j < 8; ++j) {
    const Op u1 = 1 - data[j];
    const Op u2 = data[j + 8];
    const Op radius = std::sqrt(-2 * std::log(u1));
    const Op theta = Op(2.0f * std::numbers::pi * u2);  // product in double, as torch's
    data[j] = std::fma(radius * std::cos(theta), std, mean);
    data[j + 8] = std::fma(radius * std::sin(theta), std, mean);
  }
}

void normal_fill_16(float* data, float mean, float std) {
#if defined(DC_CPU_CAPABILITY_AVX2)
  // NormalFill16<float, true> of the AVX2 build; the final fmadd is torch's own.
  const __m256 u1 = _mm256_sub_ps(_mm256_set1_ps(1.0f), _mm256_loadu_ps(data));
  const __m256 u2 = _mm256_loadu_ps(data + 8);
  const __m256 radius = _mm256_sqrt_ps(_mm256_mul_ps(_mm256_set1_ps(-2.0f), log256(u1)));
  const __m256 theta = _mm256_mul_ps(_mm256_set1_ps(float(2.0f * std::numbers::pi)), u2);
  __m256 s, c;
  sincos256(theta, &s, &c);
  const __m256 vstd = _mm256_set1_ps(std), vmean = _mm256_set1_ps(mean);
  _mm256_storeu_ps(data, _mm256_fmadd_ps(_mm256_mul_ps(radius, c), vstd, vmean));
  _mm256_storeu_ps(data + 8, _mm256_fmadd_ps(_mm256_mul_ps(radius, s), vstd, vmean));
#else
  normal_fill_16_scalar<float>(data, mean, std);
#endif
}
void normal_fill_16(double* data, double mean, double std) {
  normal_fill_16_scalar<double>(data, mean, std);
}

/// normal_fill for float/double: all uniforms first, blocks of 16, then the last 16 redrawn.
template <class T>
void normal_fill_same(T* data, int64_t size, T mean, T std, GeneratorImpl* g) {
  for (int64_t i = 0; i < size; ++i)
    data[i] = std::is_same_v<T, double> ? T(uniform53(g)) : T(uniform24(g));
  for (int64_t i = 0; i < size - 15; i += 16) normal_fill_16(data + i, mean, std);
  if (size % 16 != 0) {
    data = data + size - 16;
    for (int i = 0; i < 16; ++i)
      data[i] = std::is_same_v<T, double> ? T(uniform53(g)) : T(uniform24(g));
    normal_fill_16(data, mean, std);
  }
}

/// normal_fill for Half/BFloat16: each block of 16 drawn into a float buffer, then cast.
template <class T>
void normal_fill_reduced(T* data, int64_t size, float mean, float std, GeneratorImpl* g) {
  float buf[16];
  auto block = [&](int64_t at) {
    for (int j = 0; j < 16; ++j) buf[j] = uniform24(g);
    normal_fill_16(buf, mean, std);
    for (int j = 0; j < 16; ++j) data[at + j] = T(buf[j]);
  };
  for (int64_t i = 0; i < size - 15; i += 16) block(i);
  if (size % 16 != 0) block(size - 16);
}

void normal_kernel(TensorIter& iter, bool contiguous, double mean, double std, GeneratorImpl* g) {
  const int64_t size = iter.numel();
  dispatch_floating(iter.dtype(0), "normal_kernel_cpu", [&]<class T>() {
    using Op = opmath_t<T>;
    if (size >= 16 && contiguous) {
      T* data = reinterpret_cast<T*>(iter.data_ptr(0));
      if constexpr (std::is_same_v<T, Op>) normal_fill_same<T>(data, size, T(mean), T(std), g);
      else normal_fill_reduced<T>(data, size, float(mean), float(std), g);
    } else {
      serial_fill<T>(iter, [&]() -> T { return convert<T>(normal_sample(g, mean, std)); });
    }
  });
}

// ---- random_ ---------------------------------------------------------------------------------

// Every dtype random_ supports (AT_ALL_TYPES + Bool, Half, BFloat16).
template <class F>
void dispatch_all(DType t, F&& f) {
  dispatch_dtype(t, std::forward<F>(f));
}

void random_from_to_kernel(TensorIter& iter, uint64_t range, int64_t base, GeneratorImpl* g) {
  dispatch_all(iter.dtype(0), [&]<class T>() {
    serial_fill<T>(iter, [&]() -> T {
      // uniform_int_from_to_distribution: 64-bit draws from 2^28 on (OSS builds).
      const uint64_t v = range >= (uint64_t(1) << 28) ? g->random64() : uint64_t(g->random());
      return convert<T>(int64_t(v % range + uint64_t(base)));
    });
  });
}

void random_full_64_bits_range_kernel(TensorIter& iter, GeneratorImpl* g) {
  const DType t = iter.dtype(0);
  check<NotImplementedError>(t != DType::Bool && t != DType::Float16,
                             "\"random_full_64_bits_range_kernel_cpu\" not implemented for '{}'",
                             scalar_type_name(t));
  check(t == DType::Int64 || t == DType::Float64 || t == DType::Float32 || t == DType::BFloat16,
        "random_full_64_bits_range_kernel_cpu handles only int64, double, float and bfloat16");
  dispatch_all(t, [&]<class T>() {
    serial_fill<T>(iter, [&]() -> T { return convert<T>(int64_t(g->random64())); });
  });
}

/// uniform_int_distribution: [0, max] for integers, [0, 2^digits] for floating types.
template <class T>
T uniform_int(GeneratorImpl* g) {
  if constexpr (std::is_same_v<T, bool>) return (g->random() & 1) != 0;
  else if constexpr (std::is_same_v<T, int64_t>) return T(g->random64() % (uint64_t(INT64_MAX) + 1));
  else if constexpr (std::is_same_v<T, double>) return T(g->random64() % ((uint64_t(1) << 53) + 1));
  else if constexpr (std::is_same_v<T, float>) return T(g->random() % ((uint64_t(1) << 24) + 1));
  else if constexpr (std::is_same_v<T, Half>) return T(float(g->random() % ((1u << 11) + 1)));
  else if constexpr (std::is_same_v<T, BFloat16>) return T(float(g->random() % ((1u << 8) + 1)));
  else return T(g->random() % (uint64_t(std::numeric_limits<T>::max()) + 1));
}

void random_kernel(TensorIter& iter, GeneratorImpl* g) {
  dispatch_all(iter.dtype(0), [&]<class T>() {
    serial_fill<T>(iter, [&]() -> T { return uniform_int<T>(g); });
  });
}

// ---- bernoulli_, exponential_ ------------------------------------------------------------------

void bernoulli_scalar_kernel(TensorIter& iter, double p, GeneratorImpl* g) {
  dispatch_all(iter.dtype(0), [&]<class T>() {
    serial_fill<T>(iter, [&]() -> T { return convert<T>(double(uniform53(g) < p)); });
  });
}

/// p as double draws 53-bit uniforms; any other floating p is read as float (24-bit uniforms).
template <class T, class P>
void bernoulli_tensor_loop(TensorIter& iter, GeneratorImpl* g) {
  iter.serial_for_each(
      [&](char** data, const int64_t* st, int64_t n0, int64_t n1) {
        for (int64_t j = 0; j < n1; ++j)
          for (int64_t i = 0; i < n0; ++i) {
            T* out = reinterpret_cast<T*>(data[0] + j * st[2] + i * st[0]);
            const P pv = *reinterpret_cast<const P*>(data[1] + j * st[3] + i * st[1]);
            // bernoulli_distribution's constructor check, per element.
            check(float(pv) >= 0 && float(pv) <= 1,
                  "Expected p_in >= 0 && p_in <= 1 to be true, but got false.");
            if constexpr (std::is_same_v<P, double>) *out = convert<T>(double(uniform53(g) < pv));
            else *out = convert<T>(float(uniform24(g) < float(pv)));
          }
      },
      0, iter.numel());
}

void bernoulli_tensor_kernel(TensorIter& iter, GeneratorImpl* g) {
  dispatch_all(iter.dtype(0), [&]<class T>() {
    dispatch_floating(iter.dtype(1), "bernoulli_tensor_cpu_p_", [&]<class P>() {
      bernoulli_tensor_loop<T, P>(iter, g);
    });
  });
}

void exponential_kernel(TensorIter& iter, double lambda, GeneratorImpl* g) {
  dispatch_floating(iter.dtype(0), "exponential_cpu", [&]<class T>() {
    serial_fill<T>(iter, [&]() -> T {
      return convert<T>(-1.0 / lambda * std::log1p(-uniform53(g)));
    });
  });
}

}  // namespace
}  // namespace DC_CPU_CAPABILITY

DC_REGISTER_DISPATCH(uniform_stub, &uniform_kernel);
DC_REGISTER_DISPATCH(normal_stub, &normal_kernel);
DC_REGISTER_DISPATCH(random_from_to_stub, &random_from_to_kernel);
DC_REGISTER_DISPATCH(random_full_64_bits_range_stub, &random_full_64_bits_range_kernel);
DC_REGISTER_DISPATCH(random_stub, &random_kernel);
DC_REGISTER_DISPATCH(bernoulli_scalar_stub, &bernoulli_scalar_kernel);
DC_REGISTER_DISPATCH(bernoulli_tensor_stub, &bernoulli_tensor_kernel);
DC_REGISTER_DISPATCH(exponential_stub, &exponential_kernel);

}  // namespace dc
