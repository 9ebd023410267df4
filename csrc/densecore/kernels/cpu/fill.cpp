// arange and linspace kernels, mirroring aten/src/ATen/native/cpu/RangeFactoriesKernel.cpp.
// Compiled once per capability: torch's AVX2 build contracts a*b+c into FMA (read from
// libtorch_cpu.so's machine code), its DEFAULT build does not, so vec::fmadd_contracted picks the arithmetic.
#include <cmath>
#include <type_traits>

#include "densecore/core/checked_convert.h"
#include "densecore/kernels/stubs/fill.h"
#include "densecore/kernels/iter/parallel.h"
#include "densecore/kernels/vec/lane_math.h"

namespace dc {
inline namespace DC_CPU_CAPABILITY {
namespace {


// at::acc_type<T, /*is_cuda=*/false>: integers accumulate in int64, Half/BFloat16 in float,
// float and double in double.
template <class T> struct cpu_acc { using type = double; };
template <> struct cpu_acc<Half> { using type = float; };
template <> struct cpu_acc<BFloat16> { using type = float; };
template <> struct cpu_acc<uint8_t> { using type = int64_t; };
template <> struct cpu_acc<int8_t> { using type = int64_t; };
template <> struct cpu_acc<int16_t> { using type = int64_t; };
template <> struct cpu_acc<int32_t> { using type = int64_t; };
template <> struct cpu_acc<int64_t> { using type = int64_t; };
template <class T> using cpu_acc_t = typename cpu_acc<T>::type;

// Integer arange wraps modulo 2^64 like torch's int64 arithmetic, then truncates to T.
template <class T>
T int_arange_value(int64_t start, int64_t step, int64_t idx) {
  return static_cast<T>(static_cast<int64_t>(uint64_t(start) + uint64_t(step) * uint64_t(idx)));
}

// The scalar lambda: start + step * idx in the accumulate type.
template <class T, class A>
T arange_scalar(A start, A step, int64_t idx) {
  if constexpr (std::is_integral_v<A>) return int_arange_value<T>(start, step, idx);
  else return T(vec::fmadd_contracted(step, A(idx), start));
}

// The vector lambda: Vectorized<T>::arange(T(start + step * idx), step). Lane 0 is the rounded
// base, lane 1 base + step, lane k base + k * step (fused except for BFloat16, whose products
// gcc hoists out of the loop).
template <class T, class A>
void arange_vector(T* out, int n_lanes, A start, A step, int64_t idx) {
  if constexpr (std::is_integral_v<A>) {
    for (int k = 0; k < n_lanes; ++k) out[k] = int_arange_value<T>(start, step, idx + k);
  } else {
    const T base = arange_scalar<T>(start, step, idx);
    const A b = A(base);
    out[0] = base;
    out[1] = T(b + step);
    for (int k = 2; k < n_lanes; ++k) {
      if constexpr (std::is_same_v<T, BFloat16>) out[k] = T(b + A(k) * step);
      else out[k] = T(vec::fmadd_contracted(A(k), step, b));
    }
  }
}

// cpu_serial_kernel_vec over one parallel chunk: two 32-byte vectors per step, scalar tail.
template <class T, class A>
void arange_chunk(T* out, int64_t begin, int64_t end, A start, A step) {
  constexpr int kLanes = 32 / sizeof(T);
  const int64_t n = end - begin;
  int64_t i = 0;
  for (; i <= n - 2 * kLanes; i += 2 * kLanes) {
    arange_vector<T>(out + i, kLanes, start, step, begin + i);
    arange_vector<T>(out + i + kLanes, kLanes, start, step, begin + i + kLanes);
  }
  for (; i < n; ++i) out[i] = arange_scalar<T>(start, step, begin + i);
}

template <class T>
void arange_typed(T* out, int64_t n, const Scalar& start_s, const Scalar& step_s) {
  using A = cpu_acc_t<T>;
  const A start = scalar_to<A>(start_s);
  const A step = scalar_to<A>(step_s);
  parallel_for(0, n, kGrainSize,
               [&](int64_t b, int64_t e) { arange_chunk<T>(out + b, b, e, start, step); });
}

void arange_kernel(void* out, DType dtype, int64_t n, const Scalar& start, const Scalar& step) {
  dispatch_dtype(dtype, [&]<class T>() {
    if constexpr (std::is_same_v<T, bool>) {
      throw NotImplementedError("\"arange_cpu\" not implemented for 'Bool'");
    } else {
      arange_typed<T>(static_cast<T*>(out), n, start, step);
    }
  });
}

// ---- linspace ----

// Integers: step in double; both halves fused in the AVX2 build.
template <class T>
void linspace_integral(T* out, int64_t steps, T start, T end) {
  const double step = (double(end) - double(start)) / double(steps - 1);
  const int64_t halfway = steps / 2;
  parallel_for(0, steps, kGrainSize, [&](int64_t b, int64_t e) {
    for (int64_t i = b; i < e; ++i) {
      const double v = i < halfway ? vec::fmadd_contracted(step, double(i), double(start))
                                   : vec::fmadd_contracted(-step, double(steps - i - 1), double(end));
      out[i] = float_to_int<T>(v);
    }
  });
}

// float and double: the same formula in T.
template <class T>
void linspace_floating(T* out, int64_t steps, T start, T end) {
  const T step = (end - start) / T(steps - 1);
  const int64_t halfway = steps / 2;
  parallel_for(0, steps, kGrainSize, [&](int64_t b, int64_t e) {
    for (int64_t i = b; i < e; ++i)
      out[i] = i < halfway ? vec::fmadd_contracted(step, T(i), start)
                           : vec::fmadd_contracted(-step, T(steps - i - 1), end);
  });
}

// Half and BFloat16: c10's operators round to T after every operation, and an int64 operand is
// first rounded to T (operator*(Half, int64_t) is a * Half(b)); never fused.
template <class T>
void linspace_reduced(T* out, int64_t steps, T start, T end) {
  auto r = [](float x) { return float(T(x)); };  // round to T and back
  const float step = r(r(float(end) - float(start)) / r(float(steps - 1)));
  const int64_t halfway = steps / 2;
  parallel_for(0, steps, kGrainSize, [&](int64_t b, int64_t e) {
    for (int64_t i = b; i < e; ++i) {
      out[i] = i < halfway ? T(float(start) + r(step * r(float(i))))
                           : T(float(end) - r(step * r(float(steps - i - 1))));
    }
  });
}

void linspace_kernel(void* out, DType dtype, int64_t steps, const Scalar& start_s,
                     const Scalar& end_s) {
  dispatch_dtype(dtype, [&]<class T>() {
    if constexpr (std::is_same_v<T, bool>) {
      throw NotImplementedError("\"linspace_cpu\" not implemented for 'Bool'");
    } else {
      const T start = scalar_to<T>(start_s);
      const T end = scalar_to<T>(end_s);
      T* o = static_cast<T*>(out);
      if constexpr (std::is_integral_v<T>) linspace_integral<T>(o, steps, start, end);
      else if constexpr (is_reduced_float_v<T>) linspace_reduced<T>(o, steps, start, end);
      else linspace_floating<T>(o, steps, start, end);
    }
  });
}

}  // namespace
}  // namespace DC_CPU_CAPABILITY

DC_REGISTER_DISPATCH(arange_stub, &arange_kernel);
DC_REGISTER_DISPATCH(linspace_stub, &linspace_kernel);

}  // namespace dc
