// Front ends of the elementwise ops: ATen's argument checks (BinaryOps.cpp alpha_check/sub_check,
// TensorCompare.cpp where/clamp), TensorIterator configs (build_borrowing_binary_op,
// build_borrowing_binary_float_op, build_comparison_op, build_borrowing_unary_op), then the stub.
#include "densecore/ops/elementwise.h"

#include <array>
#include <cmath>
#include <cstring>

#include "densecore/core/error.h"
#include "densecore/kernels/stubs/copy_kernel.h"
#include "densecore/ops/copy.h"
#include "densecore/ops/creation.h"
#include "densecore/ops/row_fronts.h"
#include "densecore/generated/stubs.h"
#include "densecore/kernels/stubs/elementwise_stubs.h"
#include "densecore/kernels/iter/iter.h"

namespace dc {
namespace {

Tensor rounded_div(const Tensor& a, const Tensor& b, std::string_view mode, const Tensor& out) {
  return run_iter(binary_op_config(), out, {a, b}, [&](TensorIter& it) {
    if (mode == "trunc") div_trunc_stub(it);
    else div_floor_stub(it);
  });
}

}  // namespace

Tensor wrapped_scalar_tensor(const Scalar& s) {
  Tensor t = Tensor::empty({}, s.wrapped_dtype());
  if (s.is_floating()) *t.data<double>() = s.v.d;
  else if (s.is_integral()) *t.data<int64_t>() = s.v.i;
  else *t.data<bool>() = s.v.b;
  t.impl()->is_wrapped_number = true;
  return t;
}

// add, sub, mul, div (true division), maximum and minimum are op rows (csrc/op_rows.toml).

// div.Tensor_mode is an op row (csrc/op_rows.toml): this is its forward. No rounding mode is true division.
Tensor impl::div_forward(const Tensor& a, const Tensor& b, std::optional<std::string_view> mode, const Tensor& out) {
  if (!mode) return dc::div(a, b, out);
  check(*mode == "trunc" || *mode == "floor",
        "div expected rounding_mode to be one of None, 'trunc', or 'floor' but found '{}'", *mode);
  return rounded_div(a, b, *mode, out);
}

// floor_divide's row (no node: torch has no derivative for it).
Tensor impl::floor_divide_forward(const Tensor& self, const Tensor& other, const Tensor& out) {
  return rounded_div(self, other, "floor", out);
}

// The float classifications are rows without nodes (their results are bool). TensorCompare.cpp writes
// them as comparisons, and so do these, so the result's layout is the comparison's: a transposed input
// gives a transposed result, an expanded one a contiguous result.
namespace {

Tensor infinity(bool positive) { return wrapped_scalar_tensor(Scalar::from_double(positive ? INFINITY : -INFINITY)); }

/// isposinf / isneginf (UnaryOps.cpp): a bool out= only; an integer is never infinite, which `self != self`
/// says in the layout the iterator gives (torch fills its iterator's output with false).
Tensor is_signed_inf(const Tensor& self, bool positive, const Tensor& out) {
  check(!out.defined() || out.dtype() == DType::Bool, "{} does not support non-boolean outputs.",
        positive ? "isposinf" : "isneginf");
  if (!is_floating(self.dtype())) return compare(CompareOp::Ne, self, self, out);
  return compare(CompareOp::Eq, self, infinity(positive), out);
}

}  // namespace

// isnan: self != self, for every dtype.
Tensor impl::isnan_forward(const Tensor& self) { return compare(CompareOp::Ne, self, self); }

// isinf: integers and bool are never infinite (zeros_like, preserving the layout); floats |self| == inf.
Tensor impl::isinf_forward(const Tensor& self) {
  if (!is_floating(self.dtype())) return zeros_like(self, DType::Bool);
  return compare(CompareOp::Eq, dc::abs(self), infinity(true));
}

// isfinite: integers and bool always are (ones_like); floats (self == self) * (|self| != inf).
Tensor impl::isfinite_forward(const Tensor& self) {
  if (!is_floating(self.dtype())) return ones_like(self, DType::Bool);
  return dc::mul(compare(CompareOp::Eq, self, self), compare(CompareOp::Ne, dc::abs(self), infinity(true)));
}

Tensor impl::isposinf_forward(const Tensor& self, const Tensor& out) { return is_signed_inf(self, true, out); }
Tensor impl::isneginf_forward(const Tensor& self, const Tensor& out) { return is_signed_inf(self, false, out); }

bool equal(const Tensor& a, const Tensor& b) {
  if (a.sizes() != b.sizes()) return false;
  const Tensor eq = contiguous(compare(CompareOp::Eq, a, b));
  const bool* p = eq.data<bool>();
  for (int64_t i = 0; i < eq.numel(); ++i)
    if (!p[i]) return false;
  return true;
}

Tensor real_sign(const Tensor& self) {
  return run_iter(unary_op_config(), Tensor(), {self}, [](TensorIter& it) { sign_stub(it); });  // build_borrowing_unary_op
}

Tensor compare(CompareOp op, const Tensor& a, const Tensor& b, const Tensor& out) {
  IterConfig c;  // build_comparison_op
  c.promote_inputs_to_common_dtype = true;
  c.check_all_same_dtype = false;
  if (!out.defined()) c.static_dtype = DType::Bool;
  check(!out.defined() || out.dtype() == DType::Bool, "[compare] only bool outputs are supported");
  return run_iter(c, out, {a, b}, [&](TensorIter& it) {
    switch (op) {
      case CompareOp::Eq: return eq_stub(it);
      case CompareOp::Ne: return ne_stub(it);
      case CompareOp::Lt: return lt_stub(it);
      case CompareOp::Le: return le_stub(it);
      case CompareOp::Gt: return gt_stub(it);
      case CompareOp::Ge: return ge_stub(it);
    }
  });
}

DType result_type(const Tensor& a, const Tensor& b) {
  const Tensor ts[2] = {a, b};
  return dc::result_type(std::span<const Tensor>(ts, 2));
}

// where.self is an op row: this is its forward.
Tensor impl::where_forward(const Tensor& cond, const Tensor& x, const Tensor& y) {
  // TensorCompare.cpp where_self_out: operands cast to result_type(x, y), uint8 conditions to bool.
  const DType rt = result_type(x, y);
  Tensor c = cond;
  if (c.dtype() == DType::UInt8) c = to_dtype(c, DType::Bool);
  check(c.dtype() == DType::Bool, "where expected condition to be a boolean tensor, but got a tensor with dtype {}",
        scalar_type_name(c.dtype()));
  IterConfig cfg;
  cfg.check_all_same_dtype = false;
  cfg.static_dtype = rt;
  return run_iter(cfg, Tensor(), {c, to_dtype(x, rt), to_dtype(y, rt)}, [](TensorIter& it) { where_stub(it); });
}

// clamp with scalar bounds is an op row (csrc/op_rows.toml): this is its forward.
Tensor impl::clamp_forward(const Tensor& a, const std::optional<Scalar>& min, const std::optional<Scalar>& max,
                           const Tensor& out) {
  check(min || max, "torch.clamp: At least one of 'min' or 'max' must not be None");
  // TORCH_META_FUNC(clamp): manual promotion, since the scalars take part in it.
  DType rt = a.dtype();
  if (!is_floating(rt)) {
    std::vector<Tensor> ops{a};
    if (min) ops.push_back(wrapped_scalar_tensor(*min));
    if (max) ops.push_back(wrapped_scalar_tensor(*max));
    rt = dc::result_type(ops);
    check(rt == a.dtype() || !out.defined() || !out.is_same(a),
          "result type {} can't be cast to the desired output type {}", scalar_type_name(rt), type_meta_name(a.dtype()));
  }
  const Tensor self = to_dtype(a, rt);
  IterConfig c;  // build_unary_op
  c.check_all_same_dtype = true;
  c.cast_common_dtype_to_outputs = false;
  return run_iter(c, out, {self}, [&](TensorIter& it) {
    if (min && max) {
      if (min->to_double() != min->to_double() || max->to_double() != max->to_double()) {
        // TORCH_IMPL_FUNC(clamp_out): a NaN bound fills the result with NaN (fill_ with a double).
        Tensor nan = wrapped_scalar_tensor(Scalar::from_double(std::numeric_limits<double>::quiet_NaN()));
        copy_into(it.output(), nan);
      } else {
        clamp_scalar_stub(it, *min, *max);
      }
    } else if (max) {
      clamp_max_scalar_stub(it, *max);
    } else {
      clamp_min_scalar_stub(it, *min);
    }
  });
}

// clamp.Tensor's row (ClampBackward0) records around it.
Tensor impl::clamp_forward(const Tensor& a, const Tensor& min, const Tensor& max, const Tensor& out) {
  check(min.defined() || max.defined(), "torch.clamp: At least one of 'min' or 'max' must not be None");
  IterConfig c = binary_op_config();
  if (min.defined() && max.defined()) return run_iter(c, out, {a, min, max}, [](TensorIter& it) { clamp_stub(it); });
  if (min.defined()) return run_iter(c, out, {a, min}, [](TensorIter& it) { maximum_stub(it); });
  return run_iter(c, out, {a, max}, [](TensorIter& it) { minimum_stub(it); });
}

}  // namespace dc
