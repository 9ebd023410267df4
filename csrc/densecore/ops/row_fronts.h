// The front ends a generated op (csrc/op_rows.toml, front = unary | binary) runs between its recording and
// its kernel: torch's TensorIterator builders for the op family, the row's dtype check, the out= version
// bump. The generated ops.cpp calls them; a new front kind is added here and in tools/gen_op_rows.py.
#pragma once

#include <functional>
#include <string_view>

#include "densecore/core/tensor.h"
#include "densecore/kernels/iter/iter.h"

namespace dc {

/// A row's `dtype_rule`: build_borrowing_unary_op keeps self's dtype; build_borrowing_unary_float_op
/// computes integers and bool in the default float dtype.
enum class UnaryDtype { Same, Float };
/// A row's `dtypes`: the dtypes its kernel has (torch's AT_DISPATCH set; AllTypes has no bool).
enum class DtypeSet { Floating, AllTypes, All };

using RowKernel = std::function<void(TensorIter&)>;

/// torch.<name>(self, out=): builds the unary iterator, checks the row's dtypes, runs the kernel.
Tensor unary_front(std::string_view name, UnaryDtype rule, DtypeSet dtypes, const Tensor& self,
                   const Tensor& out, const RowKernel& kernel);
/// torch.<name>(a, b, out=) over build_borrowing_binary_op (promoting the two inputs).
Tensor binary_front(std::string_view name, DtypeSet dtypes, const Tensor& a, const Tensor& b,
                    const Tensor& out, const RowKernel& kernel);

}  // namespace dc
