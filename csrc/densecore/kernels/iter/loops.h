// cpu_kernel / cpu_kernel_vec: ATen's elementwise loops (aten/src/ATen/native/cpu/Loops.h).
// cpu_kernel_vec runs rows whose operands are all contiguous (or one input broadcast with inner
// stride 0) through vectorized_loop: two Vecs per iteration, the last n mod 2V elements through the
// SCALAR op; every other row goes element by element through the scalar op (basic_loop).
// Only include from kernels/cpu/ (it instantiates Vec for the file's capability).
#pragma once

#include <array>
#include <tuple>
#include <utility>

#include "densecore/kernels/iter/iter.h"
#include "densecore/kernels/vec/vec.h"

namespace dc {
inline namespace DC_CPU_CAPABILITY {

template <class F>
struct fn_traits : fn_traits<decltype(&std::remove_reference_t<F>::operator())> {};
template <class C, class R, class... A>
struct fn_traits<R (C::*)(A...) const> {
  using result = R;
  using args = std::tuple<A...>;
  static constexpr int arity = sizeof...(A);
};
template <class F, int I>
using arg_t = std::tuple_element_t<I, typename fn_traits<F>::args>;

template <class T>
inline T load_as(const char* p) {
  T v;
  std::memcpy(&v, p, sizeof(T));
  return v;
}

/// out[i] = op(in[i]...) for i in [i, n) with byte strides (Loops.h basic_loop / execute_op).
template <class Op, size_t... I>
inline void basic_loop_impl(char** data, const int64_t* strides, int64_t i, int64_t n, Op& op,
                            std::index_sequence<I...>) {
  using R = typename fn_traits<Op>::result;
  for (; i < n; ++i) {
    const R r = op(load_as<arg_t<Op, int(I)>>(data[I + 1] + i * strides[I + 1])...);
    std::memcpy(data[0] + i * strides[0], &r, sizeof(R));
  }
}
template <class Op>
inline void basic_loop(char** data, const int64_t* strides_in, int64_t i, int64_t n, Op& op) {
  // Local copies, as Loops.h makes: a store through char* may alias any memory, so pointers and strides
  // read through the caller's arrays would be reloaded after every element.
  constexpr size_t kN = fn_traits<Op>::arity + 1;
  int64_t strides[kN];
  char* ptrs[kN];
  for (size_t k = 0; k < kN; ++k) {
    strides[k] = strides_in[k];
    ptrs[k] = data[k];
  }
  basic_loop_impl(ptrs, strides, i, n, op, std::make_index_sequence<fn_traits<Op>::arity>{});
}

/// Loops.h vectorized_loop: S = 0 all contiguous, S = k input k is a broadcast scalar.
template <class Op, class VOp, class TailOp, size_t... I>
inline void vectorized_loop_impl(char** data, int64_t n, int S, Op& op, VOp& vop, TailOp& tail2,
                                 std::index_sequence<I...>) {
  using T = typename fn_traits<Op>::result;
  using V = vec::Vec<T>;
  constexpr int kN = int(sizeof...(I)) + 1;
  const V opt_scalar = V(S > 0 ? load_as<T>(data[S]) : T(0));
  auto arg = [&](int k, int64_t i) { return S == k ? opt_scalar : V::loadu(data[k] + i * sizeof(T)); };
  int64_t i = 0;
  for (; i <= n - 2 * V::size(); i += 2 * V::size()) {
    const V out1 = vop(arg(int(I) + 1, i)...);
    const V out2 = vop(arg(int(I) + 1, i + V::size())...);
    out1.store(data[0] + i * sizeof(T));
    out2.store(data[0] + (i + V::size()) * sizeof(T));
  }
  if (i < n) {
    int64_t strides[kN];
    for (int k = 0; k < kN; ++k) strides[k] = (S > 0 && k == S) ? 0 : int64_t(sizeof(T));
    if (S == 2) basic_loop(data, strides, i, n, tail2);
    else basic_loop(data, strides, i, n, op);
  }
}

/// Loops.h VectorizedLoop2d + cpu_kernel_vec. `tail2` is the scalar op as torch's compiled code
/// runs it in the tail when input 2 is the broadcast scalar (S == 2): GCC may compile that
/// instantiation differently (see Note [add scalar tail] in cpu/binary.cpp); usually it is `op`.
template <class Op, class VOp, class TailOp>
void cpu_kernel_vec_tail2(TensorIter& iter, Op op, VOp vop, TailOp tail2, int64_t grain = kGrainSize) {
  using T = typename fn_traits<Op>::result;
  constexpr int kArity = fn_traits<Op>::arity;
  constexpr int kN = kArity + 1;
  iter.for_each(
      [&](char** base, const int64_t* strides, int64_t size0, int64_t size1) {
        std::array<char*, kN> data;
        std::copy_n(base, kN, data.data());
        const int64_t* outer = strides + kN;
        // is_contiguous / is_contiguous_scalar<traits, s> (IsContiguous.h): every operand of
        // cpu_kernel_vec has the op's scalar type.
        int S = -1;
        bool contiguous = true;
        for (int k = 0; k < kN; ++k) contiguous &= strides[k] == int64_t(sizeof(T));
        if (contiguous) {
          S = 0;
        } else {
          for (int s = 1; s <= kArity && S < 0; ++s) {
            bool ok = true;
            for (int k = 0; k < kN; ++k) ok &= strides[k] == (k == s ? 0 : int64_t(sizeof(T)));
            if (ok) S = s;
          }
        }
        for (int64_t j = 0; j < size1; ++j) {
          if (S >= 0)
            vectorized_loop_impl(data.data(), size0, S, op, vop, tail2, std::make_index_sequence<kArity>{});
          else
            basic_loop(data.data(), strides, 0, size0, op);
          for (int k = 0; k < kN; ++k) data[k] += outer[k];
        }
      },
      grain);
  iter.cast_outputs();
}

template <class Op, class VOp>
void cpu_kernel_vec(TensorIter& iter, Op op, VOp vop, int64_t grain = kGrainSize) {
  cpu_kernel_vec_tail2(iter, op, vop, op, grain);
}

/// Loops.h cpu_kernel: the scalar op over every element (loop_2d_from_1d over basic_loop).
template <class Op>
void cpu_kernel(TensorIter& iter, Op op, int64_t grain = kGrainSize) {
  constexpr int kN = fn_traits<Op>::arity + 1;
  iter.for_each(
      [&](char** base, const int64_t* strides, int64_t size0, int64_t size1) {
        std::array<char*, kN> data;
        std::copy_n(base, kN, data.data());
        const int64_t* outer = strides + kN;
        for (int64_t j = 0; j < size1; ++j) {
          basic_loop(data.data(), strides, 0, size0, op);
          for (int k = 0; k < kN; ++k) data[k] += outer[k];
        }
      },
      grain);
  iter.cast_outputs();
}

}  // namespace DC_CPU_CAPABILITY
}  // namespace dc
