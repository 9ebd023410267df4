// Elementwise ops for Python: torch.div/floor_divide, the comparisons, where, clamp, their Tensor methods and
// the operators (x == y, x += y, -x, ...). Arguments are parsed here in C++ (Python numbers become wrapped 0-dim
// tensors, as torch's arg parser does); all logic lives in densecore/ops/elementwise.cpp. The Python forms
// of add, sub, mul, maximum, minimum, neg and abs come from their op rows (csrc/op_rows.toml).
#include <string>

#include <nanobind/stl/string.h>

#include "bindings.h"
#include "gil.h"
#include "dtype_caster.h"
#include "py_number.h"
#include "densecore/ops/copy.h"
#include "densecore/ops/elementwise.h"

namespace {

using dc::Scalar;
using dc::Tensor;

Tensor out_arg(nb::handle out) { return opt_tensor_arg(out, "out", "out"); }

/// torch returns the very `out` object when one is given.
template <class F>
auto returning_out(F f) {
  return [f](nb::handle a, nb::handle b, nb::handle c, nb::handle out) -> TensorObject {
    Tensor r = f(a, b, c, out);
    return out.is_none() ? nb::cast(std::move(r)) : nb::borrow(out);
  };
}
std::optional<Scalar> opt_scalar(nb::handle h, const char* fn, const char* arg) {
  if (h.is_none()) return std::nullopt;
  return py_number::to_scalar(h, fn, arg);
}

/// torch.div and Tensor.div: with rounding_mode given, None included, torch's parser takes the div.Tensor_mode
/// overload (DivBackward2); without it, div.Tensor (true division, DivBackward0). The bindings' default is `...`.
Tensor div_any(const Tensor& a, const Tensor& b, nb::handle mode, const char* fn, const Tensor& out) {
  if (mode.is(nb::ellipsis())) return dc::div(a, b, out);
  if (mode.is_none()) return dc::div(a, b, std::nullopt, out);
  if (!PyUnicode_Check(mode.ptr()))
    throw dc::TypeError(dc::format("{}(): argument 'rounding_mode' must be str, not {}", fn, Py_TYPE(mode.ptr())->tp_name));
  return dc::div(a, b, nb::cast<std::string>(mode), out);
}

/// Tensor comparison dunder: NotImplemented for operands torch would not take, so Python tries the other side.
/// Typed Tensor all the same: NotImplemented is the operator protocol's signal, not a result (typeshed's rule).
template <class F>
TensorObject dunder(const Tensor& self, nb::handle other, F f) {
  auto o = py_number::try_tensor_or_number(other);
  if (!o) return nb::borrow(Py_NotImplemented);
  Tensor r;
  {
    gil::ReleaseIf release(gil::is_long(self, *o));
    r = f(*o);
  }
  return nb::cast(std::move(r));
}

/// In-place form: writes into self, returns the same Python object.
template <class F>
TensorObject inplace(nb::handle self_h, F f) {
  f(nb::cast<Tensor&>(self_h));
  return nb::borrow(self_h);
}

Tensor clamp_any(const Tensor& a, nb::handle min, nb::handle max, const Tensor& out) {
  const bool tensor_bounds = nb::isinstance<Tensor>(min) || nb::isinstance<Tensor>(max);
  if (!tensor_bounds) return dc::clamp(a, opt_scalar(min, "clamp", "min"), opt_scalar(max, "clamp", "max"), out);
  const Tensor lo = min.is_none() ? Tensor() : py_number::tensor_or_number_arg(min, "clamp", "min", 2);
  const Tensor hi = max.is_none() ? Tensor() : py_number::tensor_or_number_arg(max, "clamp", "max", 3);
  return dc::clamp(a, lo, hi, out);
}

constexpr std::pair<const char*, dc::CompareOp> kCompares[] = {
    {"eq", dc::CompareOp::Eq}, {"ne", dc::CompareOp::Ne}, {"lt", dc::CompareOp::Lt},
    {"le", dc::CompareOp::Le}, {"gt", dc::CompareOp::Gt}, {"ge", dc::CompareOp::Ge}};

void bind_module_functions(nb::module_& m) {
  m.def("equal", &dc::equal, nb::arg("input"), nb::arg("other"));
  auto div = [](nb::handle a, nb::handle b, nb::handle mode, nb::handle out) {
    return div_any(py_number::tensor_or_number_arg(a, "div", "input", 1), py_number::tensor_or_number_arg(b, "div", "other", 2), mode, "div", out_arg(out));
  };
  for (const char* name : {"div", "divide"})
    m.def(name, returning_out(div), nb::arg("input"), nb::arg("other"), nb::kw_only(),
          nb::arg("rounding_mode").none() = nb::ellipsis(), nb::arg("out") = nb::none());
  m.def(
      "true_divide",
      [](nb::handle a, nb::handle b, nb::handle out) {
        return dc::div(py_number::tensor_or_number_arg(a, "true_divide", "input", 1), py_number::tensor_or_number_arg(b, "true_divide", "other", 2), out_arg(out));
      },
      nb::arg("input"), nb::arg("other"), nb::kw_only(), nb::arg("out") = nb::none());
  for (const auto& [name, op] : kCompares) {
    const dc::CompareOp cop = op;
    const std::string fn = name;
    m.def(
        name,
        [cop, fn](nb::handle a, nb::handle b, nb::handle out) {
          return dc::compare(cop, py_number::tensor_or_number_arg(a, fn.c_str(), "input", 1), py_number::tensor_or_number_arg(b, fn.c_str(), "other", 2), out_arg(out));
        },
        nb::arg("input"), nb::arg("other"), nb::kw_only(), nb::arg("out") = nb::none());
  }
  m.def(
      "where",
      [](const Tensor& cond, nb::handle x, nb::handle y) {
        return dc::where(cond, py_number::tensor_or_number_arg(x, "where", "input", 2), py_number::tensor_or_number_arg(y, "where", "other", 3));
      },
      nb::arg("condition"), nb::arg("input"), nb::arg("other"));
  for (const char* name : {"clamp", "clip"})
    m.def(name, [](const Tensor& a, nb::handle min, nb::handle max, nb::handle out) { return clamp_any(a, min, max, out_arg(out)); },
          nb::arg("input"), nb::arg("min") = nb::none(), nb::arg("max") = nb::none(), nb::kw_only(),
          nb::arg("out") = nb::none());
  m.def(
      "result_type",
      [](nb::handle a, nb::handle b) {
        return dc::result_type(py_number::tensor_or_number_arg(a, "result_type", "tensor1", 1), py_number::tensor_or_number_arg(b, "result_type", "tensor2", 2));
      },
      nb::arg("tensor1"), nb::arg("tensor2"));
  m.def("can_cast", &dc::can_cast, nb::arg("from_"), nb::arg("to"));
}

void bind_operators(TensorClass& cls) {
  // + - * / // are number slots (number_slots.cpp); the in-place forms and the comparisons are methods.
  cls.def("equal", &dc::equal, nb::arg("other"));
  cls.def("__iadd__", [](nb::handle s, nb::handle o) {
    return inplace(s, [&](Tensor& self) { dc::add(self, py_number::tensor_or_number_arg(o, "add_", "other", 1), Scalar::from_int(1), self); });
  });
  cls.def("__isub__", [](nb::handle s, nb::handle o) {
    return inplace(s, [&](Tensor& self) { dc::sub(self, py_number::tensor_or_number_arg(o, "sub_", "other", 1), Scalar::from_int(1), self); });
  });
  cls.def("__imul__", [](nb::handle s, nb::handle o) {
    return inplace(s, [&](Tensor& self) { dc::mul(self, py_number::tensor_or_number_arg(o, "mul_", "other", 1), self); });
  });
  cls.def("__itruediv__", [](nb::handle s, nb::handle o) {
    return inplace(s, [&](Tensor& self) { dc::div(self, py_number::tensor_or_number_arg(o, "div_", "other", 1), self); });
  });
  cls.def("__neg__", [](const Tensor& s) { return dc::neg(s); });
  cls.def("__abs__", [](const Tensor& s) { return dc::abs(s); });
  static constexpr const char* kDunders[] = {"__eq__", "__ne__", "__lt__", "__le__", "__gt__", "__ge__"};
  for (int i = 0; i < 6; ++i) {
    const dc::CompareOp op = kCompares[i].second;
    cls.def(kDunders[i], [op](const Tensor& s, nb::handle o) { return dunder(s, o, [&](const Tensor& t) { return dc::compare(op, s, t); }); });
  }
  // torch's Tensor.__hash__ is id(self); keep tensors usable as dict keys next to __eq__.
  cls.def("__hash__", [](nb::handle s) { return reinterpret_cast<intptr_t>(s.ptr()); });
}

void bind_methods(TensorClass& cls) {
  cls.def("div", [](const Tensor& s, nb::handle o, nb::handle mode) { return div_any(s, py_number::tensor_or_number_arg(o, "div", "other", 1), mode, "div", Tensor()); },
          nb::arg("other"), nb::kw_only(), nb::arg("rounding_mode").none() = nb::ellipsis());
  cls.def("div_", [](nb::handle s, nb::handle o, nb::handle mode) {
    return inplace(s, [&](Tensor& self) { div_any(self, py_number::tensor_or_number_arg(o, "div_", "other", 1), mode, "div_", self); });
  }, nb::arg("other"), nb::kw_only(), nb::arg("rounding_mode").none() = nb::ellipsis());
  cls.def("true_divide", [](const Tensor& s, nb::handle o) { return dc::div(s, py_number::tensor_or_number_arg(o, "true_divide", "other", 1)); }, nb::arg("other"));
  for (const char* name : {"clamp", "clip"})
    cls.def(name, [](const Tensor& s, nb::handle min, nb::handle max) { return clamp_any(s, min, max, Tensor()); },
            nb::arg("min") = nb::none(), nb::arg("max") = nb::none());
  for (const char* name : {"clamp_", "clip_"})
    cls.def(name, [](nb::handle s, nb::handle min, nb::handle max) {
      return inplace(s, [&](Tensor& self) { clamp_any(self, min, max, self); });
    }, nb::arg("min") = nb::none(), nb::arg("max") = nb::none());
  for (const auto& [name, op] : kCompares) {
    const dc::CompareOp cop = op;
    const std::string fn = name;
    cls.def(name, [cop, fn](const Tensor& s, nb::handle o) { return dc::compare(cop, s, py_number::tensor_or_number_arg(o, fn.c_str(), "other", 1)); },
            nb::arg("other"));
  }
  cls.def("copy_", [](nb::handle s, const Tensor& src, bool) {
    return inplace(s, [&](Tensor& self) { dc::copy_(self, src); });
  }, nb::arg("src"), nb::arg("non_blocking") = false);
  cls.def("where", [](const Tensor& s, const Tensor& cond, nb::handle o) { return dc::where(cond, s, py_number::tensor_or_number_arg(o, "where", "other", 2)); },
          nb::arg("condition"), nb::arg("other"));
}

}  // namespace

void bind_elementwise(nb::module_& m, TensorClass& cls) {
  bind_module_functions(m);
  bind_operators(cls);
  bind_methods(cls);
}
