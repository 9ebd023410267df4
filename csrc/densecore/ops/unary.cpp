// Front ends of the unary math ops (aten/src/ATen/native/UnaryOps.cpp, Pow.cpp, Activation.cpp):
// the iterator config of build_borrowing_unary_float_op, the op's stub, the autograd record.
#include "densecore/ops/unary.h"

#include <type_traits>

#include "densecore/autograd/function.h"
#include "densecore/core/error.h"
#include "densecore/kernels/stubs/copy_kernel.h"
#include "densecore/kernels/stubs/elementwise_stubs.h"
#include "densecore/kernels/stubs/math_stubs.h"
#include "densecore/ops/copy.h"
#include "densecore/ops/creation.h"
#include "densecore/ops/elementwise.h"

namespace dc {
namespace {

/// build_borrowing_unary_float_op: integers and bool compute in the default float dtype.
IterConfig unary_float_config() {
  IterConfig c;
  c.promote_inputs_to_common_dtype = true;
  c.promote_integer_inputs_to_float = true;
  c.cast_common_dtype_to_outputs = true;
  c.enforce_safe_casting_to_output = true;
  c.check_all_same_dtype = false;
  return c;
}

Tensor run_iter(const IterConfig& c, const Tensor& a, const Tensor& out, MathIterFn kernel) {
  const Tensor ins[1] = {a};
  TensorIter iter(c, out, ins);
  kernel(iter);
  if (out.defined()) out.bump_version();
  return iter.output();
}

/// out= forms are not differentiable; out == a is the in-place form.
template <Op op>
OpRecord<op> record_unary(const char* name, const Tensor& a, const Tensor& out) {
  if (out.defined() && !out.is_same(a)) {
    check(!is_grad_enabled() || !(requires_grad(a) || requires_grad(out)),
          "{}(): functions with out=... arguments don't support automatic differentiation, but one of "
          "the arguments requires grad.", name);
    return OpRecord<op>({});
  }
  return out.defined() ? OpRecord<op>(a, {}) : OpRecord<op>({a});
}

/// A float unary op. Its saved state says what its formula reads: the input (Saved<op>::self, saved
/// before the op, as a copy in the in-place form) or the result (Saved<op>::result).
template <Op op>
Tensor float_unary(const char* name, const Tensor& a, const Tensor& out, MathIterFn kernel) {
  constexpr bool reads_result = std::is_base_of_v<SavedResult, Saved<op>>;
  OpRecord<op> rec = record_unary<op>(name, a, out);
  if constexpr (!reads_result) {
    if (rec.active()) rec.saved().self = out.defined() ? clone(a) : a;
  }
  Tensor r = run_iter(unary_float_config(), a, out, kernel);
  if constexpr (reads_result) {
    if (rec.active()) rec.saved().result = saved_output(r);
  }
  return rec.finish(r);
}

}  // namespace

Tensor sqrt(const Tensor& a, const Tensor& out) {
  return float_unary<Op::Sqrt>("sqrt", a, out, [](TensorIter& it) { sqrt_stub(it); });
}
Tensor rsqrt(const Tensor& a, const Tensor& out) {
  return float_unary<Op::Rsqrt>("rsqrt", a, out, [](TensorIter& it) { rsqrt_stub(it); });
}
Tensor exp(const Tensor& a, const Tensor& out) {
  return float_unary<Op::Exp>("exp", a, out, [](TensorIter& it) { exp_stub(it); });
}
Tensor log(const Tensor& a, const Tensor& out) {
  return float_unary<Op::Log>("log", a, out, [](TensorIter& it) { log_stub(it); });
}
Tensor tanh(const Tensor& a, const Tensor& out) {
  return float_unary<Op::Tanh>("tanh", a, out, [](TensorIter& it) { tanh_stub(it); });
}
Tensor erf(const Tensor& a, const Tensor& out) {
  return float_unary<Op::Erf>("erf", a, out, [](TensorIter& it) { erf_stub(it); });
}
Tensor sin(const Tensor& a, const Tensor& out) {
  return float_unary<Op::Sin>("sin", a, out, [](TensorIter& it) { sin_stub(it); });
}
Tensor cos(const Tensor& a, const Tensor& out) {
  return float_unary<Op::Cos>("cos", a, out, [](TensorIter& it) { cos_stub(it); });
}
Tensor sigmoid(const Tensor& a, const Tensor& out) {
  return float_unary<Op::Sigmoid>("sigmoid", a, out, [](TensorIter& it) { sigmoid_stub(it); });
}
Tensor reciprocal(const Tensor& a, const Tensor& out) {
  return float_unary<Op::Reciprocal>("reciprocal", a, out, [](TensorIter& it) { reciprocal_stub(it); });
}

Tensor pow(const Tensor& a, const Scalar& e, const Tensor& out) {
  check(!(is_integral(a.dtype(), true) && e.is_integral() && e.to_int() < 0),
        "Integers to negative integer powers are not allowed.");
  auto rec = record_unary<Op::Pow>("pow", a, out);
  if (rec.active()) {
    rec.saved().self = out.defined() ? clone(a) : a;
    rec.saved().exponent = e;
  }
  const Tensor scalar[2] = {a, wrapped_scalar_tensor(e)};
  const Tensor base = to_dtype(a, dc::result_type(std::span<const Tensor>(scalar, 2)));
  IterConfig c;  // build_output_borrowing_argument_owning_unary_op
  c.cast_common_dtype_to_outputs = true;
  c.enforce_safe_casting_to_output = true;
  c.check_all_same_dtype = false;
  c.promote_inputs_to_common_dtype = true;
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
  return rec.finish(iter.output());
}

Tensor relu(const Tensor& a, const Tensor& out) {
  check<NotImplementedError>(a.dtype() != DType::Bool, "\"clamp_min_scalar_cpu\" not implemented for 'Bool'");
  auto rec = record_unary<Op::Relu>("relu", a, out);
  const Tensor r = clamp(a, Scalar::from_int(0), std::nullopt, out);
  if (rec.active()) rec.saved().result = saved_output(r);
  return rec.finish(r);
}

Tensor tanh_backward(const Tensor& grad, const Tensor& output) {
  IterConfig c;  // build_borrowing_binary_op
  c.promote_inputs_to_common_dtype = true;
  c.cast_common_dtype_to_outputs = true;
  c.enforce_safe_casting_to_output = true;
  c.check_all_same_dtype = false;
  const Tensor ins[2] = {grad, output};
  TensorIter iter(c, Tensor(), ins);
  tanh_backward_stub(iter);
  return iter.output();
}

Tensor sigmoid_backward(const Tensor& grad, const Tensor& output) {
  IterConfig c;
  c.promote_inputs_to_common_dtype = true;
  c.cast_common_dtype_to_outputs = true;
  c.enforce_safe_casting_to_output = true;
  c.check_all_same_dtype = false;
  const Tensor ins[2] = {grad, output};
  TensorIter iter(c, Tensor(), ins);
  sigmoid_backward_stub(iter);
  return iter.output();
}

}  // namespace dc
