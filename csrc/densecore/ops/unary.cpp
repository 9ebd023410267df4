// Front ends of pow(tensor, scalar) and relu (aten/src/ATen/native/Pow.cpp, Activation.cpp). The unary
// float ops (sqrt, exp, ...) and the tanh/sigmoid backward ops are rows of csrc/op_rows.toml.
#include "densecore/ops/unary.h"

#include "densecore/core/error.h"
#include "densecore/kernels/stubs/copy_kernel.h"
#include "densecore/kernels/stubs/elementwise_stubs.h"
#include "densecore/kernels/stubs/math_stubs.h"
#include "densecore/ops/copy.h"
#include "densecore/ops/creation.h"
#include "densecore/ops/elementwise.h"

namespace dc {

// pow.Tensor_Scalar is an op row (csrc/op_rows.toml): this is its forward.
Tensor impl::pow_forward(const Tensor& a, const Scalar& e, const Tensor& out) {
  check(!(is_integral(a.dtype(), true) && e.is_integral() && e.to_int() < 0),
        "Integers to negative integer powers are not allowed.");
  const Tensor scalar[2] = {a, wrapped_scalar_tensor(e)};
  const Tensor base = to_dtype(a, dc::result_type(std::span<const Tensor>(scalar, 2)));
  const IterConfig c = binary_op_config();  // build_output_borrowing_argument_owning_unary_op: the same flags
  const Tensor ins[1] = {base};
  TensorIter iter(c, out, ins);
  if (e.to_double() == 0.0) {
    copy_into(iter.output(), wrapped_scalar_tensor(Scalar::from_int(1)));
  } else if (e.to_double() == 1.0) {
    copy_into(iter.output(), base);
  } else {
    pow_tensor_scalar_stub(iter, e);
  }
  if (out.defined()) out.bump_version();
  return iter.output();
}

}  // namespace dc
