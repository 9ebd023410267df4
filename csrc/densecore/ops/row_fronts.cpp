// The generated ops' front ends (ops/row_fronts.h), over the iterator builders of kernels/iter/iter.h.
#include "densecore/ops/row_fronts.h"

#include "densecore/core/error.h"

namespace dc {
namespace {

/// What AT_DISPATCH raises for a dtype the kernel lacks: '"<name>_cpu" not implemented for 'Long''.
void check_dtypes(std::string_view name, DtypeSet dtypes, DType t) {
  const bool has = dtypes == DtypeSet::All || is_floating(t) || (dtypes == DtypeSet::AllTypes && t != DType::Bool);
  check<NotImplementedError>(has, "\"{}\" not implemented for '{}'", name, scalar_type_name(t));
}

Tensor run(std::string_view name, DtypeSet dtypes, const IterConfig& c, const Tensor& out,
           std::span<const Tensor> inputs, const RowKernel& kernel) {
  return run_iter(c, out, inputs, [&](TensorIter& iter) {
    check_dtypes(name, dtypes, iter.dtype(0));
    kernel(iter);
  });
}

}  // namespace

Tensor unary_front(std::string_view name, UnaryDtype rule, DtypeSet dtypes, const Tensor& self,
                   const Tensor& out, const RowKernel& kernel) {
  const Tensor ins[1] = {self};
  return run(name, dtypes, rule == UnaryDtype::Float ? float_op_config() : unary_op_config(), out, ins, kernel);
}

Tensor binary_front(std::string_view name, BinaryDtype rule, DtypeSet dtypes, const Tensor& a, const Tensor& b,
                    const Tensor& out, const RowKernel& kernel) {
  const Tensor ins[2] = {a, b};
  return run(name, dtypes, rule == BinaryDtype::Float ? float_op_config() : binary_op_config(), out, ins, kernel);
}

Tensor ternary_front(std::string_view name, DtypeSet dtypes, const Tensor& a, const Tensor& b, const Tensor& c,
                     const Tensor& out, const RowKernel& kernel) {
  const Tensor ins[3] = {a, b, c};
  return run(name, dtypes, binary_op_config(), out, ins, kernel);
}

}  // namespace dc
