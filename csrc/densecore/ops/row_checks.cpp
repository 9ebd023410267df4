// The rows' argument checks (ops/row_checks.h), with ATen's messages (native/BinaryOps.h, UnaryOps.cpp, Activation.cpp, Lerp.cpp, PointwiseOps.cpp).
#include "densecore/ops/row_checks.h"

#include "densecore/core/error.h"

namespace dc {

void alpha_check(DType dtype, const Scalar& alpha) {
  check(!alpha.is_bool() || dtype == DType::Bool, "Boolean alpha only supported for Boolean results.");
  check(is_floating(dtype) || !alpha.is_floating(),
        "For integral input tensors, argument alpha must not be a floating point number.");
}

void neg_check(const Tensor& self) {
  check<NotImplementedError>(self.dtype() != DType::Bool,
                             "Negation, the `-` operator, on a bool tensor is not supported. If you are "
                             "trying to invert a mask, use the `~` or `logical_not()` operator instead.");
}

void relu_check(const Tensor& self) {
  check<NotImplementedError>(self.dtype() != DType::Bool, "Boolean inputs not supported for relu");
}

void lerp_check(const Tensor& self, const Tensor& end) {
  check(self.dtype() == end.dtype(), "expected dtype {} for `end` but got dtype {}", type_meta_name(self.dtype()),
        type_meta_name(end.dtype()));
}

void addcdiv_check(const Tensor& tensor1, const Tensor& tensor2) {
  check(!(is_integral(tensor1.dtype(), true) && is_integral(tensor2.dtype(), true)),
        "Integer division with addcdiv is no longer supported, and in a future  release addcdiv will perform "
        "a true division of tensor1 and tensor2. The historic addcdiv behavior can be implemented as "
        "(input + value * torch.trunc(tensor1 / tensor2)).to(input.dtype) for integer inputs and as "
        "(input + value * tensor1 / tensor2) for float inputs. The future addcdiv behavior is just the "
        "latter implementation: (input + value * tensor1 / tensor2), for all dtypes.");
}

void sub_check(const Tensor& self, const Tensor& other) {
  check<NotImplementedError>(self.dtype() != DType::Bool || other.dtype() != DType::Bool,
                             "Subtraction, the `-` operator, with two bool tensors is not supported. "
                             "Use the `^` or `logical_xor()` operator instead.");
  check<NotImplementedError>(self.dtype() != DType::Bool && other.dtype() != DType::Bool,
                             "Subtraction, the `-` operator, with a bool tensor is not supported. "
                             "If you are trying to invert a mask, use the `~` or `logical_not()` operator instead.");
}

}  // namespace dc
