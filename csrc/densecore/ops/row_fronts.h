// The front ends a generated op (csrc/op_rows.toml, front = unary | binary | ternary) runs between its recording and
// its kernel: torch's TensorIterator builders for the op family, the row's dtype check, the out= version
// bump. The generated ops.cpp calls them; a new front kind is added here and in tools/gen_op_rows.py.
// run_iter, the step they end with, is also the hand-written iterator ops' (elementwise, pointwise).
#pragma once

#include <functional>
#include <initializer_list>
#include <span>
#include <string_view>

#include "densecore/core/tensor.h"
#include "densecore/kernels/iter/iter.h"

namespace dc {

/// A row's `dtype_rule`: build_borrowing_unary_op keeps self's dtype; build_borrowing_unary_float_op
/// computes integers and bool in the default float dtype.
enum class UnaryDtype { Same, Float };
/// A binary row's `dtype_rule`: build_borrowing_binary_op promotes the two inputs; ..._binary_float_op
/// then computes integers and bool in the default float dtype (true division).
enum class BinaryDtype { Same, Float };
/// A row's `dtypes`: the dtypes its kernel has (torch's AT_DISPATCH set; AllTypes has no bool).
enum class DtypeSet { Floating, AllTypes, All };

using RowKernel = std::function<void(TensorIter&)>;

/// Every iterator op's last step, generated or hand-written: builds a TensorIter over (out, inputs), runs
/// `kernel` on it and returns its output; a given out (in-place or out=) gets its version bumped.
template <class Kernel>
Tensor run_iter(const IterConfig& config, const Tensor& out, std::span<const Tensor> inputs, Kernel&& kernel) {
  TensorIter iter(config, out, inputs);
  kernel(iter);
  if (out.defined()) out.bump_version();
  return iter.output();
}
template <class Kernel>
Tensor run_iter(const IterConfig& config, const Tensor& out, std::initializer_list<Tensor> inputs, Kernel&& kernel) {
  return run_iter(config, out, std::span<const Tensor>(inputs.begin(), inputs.size()), kernel);
}

/// torch.<name>(self, out=): builds the unary iterator, checks the row's dtypes, runs the kernel.
Tensor unary_front(std::string_view name, UnaryDtype rule, DtypeSet dtypes, const Tensor& self,
                   const Tensor& out, const RowKernel& kernel);
/// torch.<name>(a, b, out=) over build_borrowing_binary_op or build_borrowing_binary_float_op.
Tensor binary_front(std::string_view name, BinaryDtype rule, DtypeSet dtypes, const Tensor& a, const Tensor& b,
                    const Tensor& out, const RowKernel& kernel);
/// torch.<name>(a, b, c, out=) over build_ternary_op (the three inputs promote as a binary op's two do).
Tensor ternary_front(std::string_view name, DtypeSet dtypes, const Tensor& a, const Tensor& b, const Tensor& c,
                     const Tensor& out, const RowKernel& kernel);

}  // namespace dc
