// relu, pow, the optimizer pointwise ops and vector_norm for Python: torch.relu, torch.pow,
// lerp/addcmul/addcdiv, linalg_vector_norm / norm, their Tensor methods and in-place forms
// (x.relu_(), x.lerp_(end, w), ...). Thin forwarders to densecore/ops/unary.h, pointwise.h.
#include <optional>

#include <nanobind/stl/optional.h>

#include "bindings.h"
#include "py_number.h"
#include "densecore/ops/index.h"
#include "dtype_caster.h"
#include "int_args.h"

#include "densecore/ops/elementwise.h"
#include "densecore/ops/pointwise.h"
#include "densecore/ops/unary.h"

namespace {

using dc::Scalar;
using dc::Tensor;

Tensor out_arg(nb::handle out) { return opt_tensor_arg(out, "out", "out"); }

TensorObject result_or_out(Tensor r, nb::handle out) { return out.is_none() ? nb::cast(std::move(r)) : nb::borrow(out); }

/// torch.pow(tensor, number); a tensor exponent or a number base is not mirrored yet.
Tensor pow_any(nb::handle base, nb::handle exponent, const Tensor& out) {
  if (!nb::isinstance<Tensor>(base) || nb::isinstance<Tensor>(exponent))
    throw dc::NotImplementedError("[pow] only pow(tensor, number) is supported in densecore yet");
  return dc::pow(nb::cast<const Tensor&>(base), py_number::to_scalar(exponent, "pow", "exponent"), out);
}

void bind_pow(nb::module_& m, TensorClass& cls) {
  m.def("pow", [](nb::handle b, nb::handle e, nb::handle out) { return result_or_out(pow_any(b, e, out_arg(out)), out); },
        nb::arg("input"), nb::arg("exponent"), nb::kw_only(), nb::arg("out") = nb::none());
  cls.def("pow", [](nb::handle s, nb::handle e) { return pow_any(s, e, Tensor()); }, nb::arg("exponent"));
  cls.def("__pow__", [](nb::handle s, nb::handle e) { return pow_any(s, e, Tensor()); });
  cls.def("pow_", [](nb::handle s, nb::handle e) {
    Tensor& self = nb::cast<Tensor&>(s);
    pow_any(s, e, self);
    return TensorObject(nb::borrow(s));
  }, nb::arg("exponent"));
  cls.def("__ipow__", [](nb::handle s, nb::handle e) {
    Tensor& self = nb::cast<Tensor&>(s);
    pow_any(s, e, self);
    return TensorObject(nb::borrow(s));
  });
}

void bind_pointwise(nb::module_& m, TensorClass& cls) {
  auto lerp = [](const Tensor& s, const Tensor& e, nb::handle w, const Tensor& out) {
    // torch's lerp.Tensor overload: a weight that is not 0-dim, or that requires grad (its gradient would be lost
    // if it were read as a number), is not mirrored yet. A plain 0-dim weight is a Scalar, as torch's parser has it.
    if (nb::isinstance<Tensor>(w) && (nb::cast<const Tensor&>(w).dim() != 0 || dc::requires_grad(nb::cast<const Tensor&>(w))))
      throw dc::NotImplementedError("[lerp] a tensor weight that is not 0-dim or requires grad is not supported in densecore yet");
    return dc::lerp(s, e, py_number::to_scalar(w, "lerp", "weight"), out);
  };
  m.def("lerp", [lerp](const Tensor& s, const Tensor& e, nb::handle w, nb::handle out) {
    return result_or_out(lerp(s, e, w, out_arg(out)), out);
  }, nb::arg("input"), nb::arg("end"), nb::arg("weight"), nb::kw_only(), nb::arg("out") = nb::none());
  cls.def("lerp", [lerp](const Tensor& s, const Tensor& e, nb::handle w) { return lerp(s, e, w, Tensor()); },
          nb::arg("end"), nb::arg("weight"));
  cls.def("lerp_", [lerp](nb::handle s, const Tensor& e, nb::handle w) {
    Tensor& self = nb::cast<Tensor&>(s);
    lerp(self, e, w, self);
    return nb::borrow(s);
  }, nb::arg("end"), nb::arg("weight"));
}

double ord_arg(nb::handle ord) {
  if (PyFloat_Check(ord.ptr()) || PyLong_Check(ord.ptr())) return nb::cast<double>(ord);
  throw dc::TypeError(dc::format("linalg_vector_norm(): argument 'ord' must be Number, not {}", Py_TYPE(ord.ptr())->tp_name));
}

void bind_norm(nb::module_& m) {
  m.def("linalg_vector_norm", [](const Tensor& x, nb::handle ord, nb::handle dim, bool keepdim, std::optional<dc::DType> dtype) {
    std::optional<std::vector<int64_t>> dims;
    if (!dim.is_none()) dims = int_args::to_dim_list(dim, "linalg_vector_norm", "dim");
    return dc::linalg_vector_norm(x, Scalar::from_double(ord_arg(ord)), dims, keepdim, dtype);
  }, nb::arg("x"), nb::arg("ord") = 2, nb::arg("dim") = nb::none(), nb::arg("keepdim") = false, nb::kw_only(),
     nb::arg("dtype") = nb::none());
}

}  // namespace

void bind_unary(nb::module_& m, TensorClass& cls) {
  bind_pow(m, cls);
  bind_pointwise(m, cls);
  bind_norm(m);
}
