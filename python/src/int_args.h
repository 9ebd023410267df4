// Python -> int / int list conversions with torch's argument rules (torch/csrc/utils/python_arg_parser.cpp):
// an int is a Python int or an __index__ object (a NumPy integer, an integral one-element Tensor), never a
// bool or a float; `x.view(2, 3)`, `x.view((2, 3))`, `x.view(torch.Size(...))`, `size=(2, 3)`. TypeError on
// anything else, as torch raises it (a bool taken as 1 would be a silently different shape or dim).
#pragma once

#include <optional>
#include <span>
#include <string>
#include <type_traits>
#include <vector>

#include "bindings.h"
#include "densecore/core/error.h"

namespace int_args {

/// h as an int64 (true), or false when h is no int (bool and float included). A value beyond int64 is a
/// TypeError, as torch's "Overflow when unpacking long".
inline bool try_int(nb::handle h, int64_t& out) {
  const auto unpack = [&out](PyObject* o) {
    out = PyLong_AsLongLong(o);
    if (out == -1 && PyErr_Occurred()) {
      if (!PyErr_ExceptionMatches(PyExc_OverflowError)) throw nb::python_error();
      PyErr_Clear();
      throw dc::TypeError("Overflow when unpacking long long: the value does not fit in int64");
    }
  };
  // A plain int is nearly every call: no Tensor type lookup, no __index__ round trip.
  if (PyLong_CheckExact(h.ptr())) {
    unpack(h.ptr());
    return true;
  }
  if (PyBool_Check(h.ptr()) || PyFloat_Check(h.ptr())) return false;
  if (nb::isinstance<dc::Tensor>(h)) {
    const auto& t = nb::cast<const dc::Tensor&>(h);
    if (t.dim() != 0 || !dc::is_integral(t.dtype(), false)) return false;
    nb::object v = h.attr("item")();
    unpack(v.ptr());
    return true;
  }
  if (!PyLong_Check(h.ptr()) && !PyIndex_Check(h.ptr())) return false;
  nb::object idx = nb::steal(PyNumber_Index(h.ptr()));
  if (!idx.is_valid()) {
    PyErr_Clear();
    return false;
  }
  unpack(idx.ptr());
  return true;
}

inline int64_t to_int(nb::handle h, const char* fn, const char* arg, int pos = 0) {
  int64_t v;
  if (!try_int(h, v))
    throw dc::TypeError(dc::format("{}(): argument {} must be int, not {}", fn, arg_label(arg, pos),
                                   Py_TYPE(h.ptr())->tp_name));
  return v;
}

/// Item i of an int list. torch's parser checks only a list's first item for bool (is_int_or_symint_list),
/// then unpacks the rest with __index__, which takes a bool: `x.view(24, True)` and `x.view((24, True))` are
/// (24, 1) there, `x.view(True, 24)` a TypeError. So here.
inline bool try_list_item(nb::handle item, size_t i, int64_t& out) {
  if (i > 0 && PyBool_Check(item.ptr())) {
    out = item.ptr() == Py_True ? 1 : 0;
    return true;
  }
  return try_int(item, out);
}

/// A tuple, list or Size of ints (torch's `int[]`): a single int is refused, as torch refuses `view(size=3)`.
inline dc::DimVector to_int_list(nb::handle h, const char* fn, const char* arg, int pos = 0) {
  if (!PyTuple_Check(h.ptr()) && !PyList_Check(h.ptr()))
    throw dc::TypeError(dc::format("{}(): argument {} must be tuple of ints, not {}", fn, arg_label(arg, pos),
                                   Py_TYPE(h.ptr())->tp_name));
  dc::DimVector out;
  int64_t v;
  for (size_t i = 0, n = nb::len(h); i < n; ++i) {
    nb::object item = h[i];
    if (!try_list_item(item, i, v))
      throw dc::TypeError(dc::format("{}(): argument {} must be tuple of ints, but found element of "
                                     "type {} at pos {}",
                                     fn, arg_label(arg, pos), Py_TYPE(item.ptr())->tp_name, i));
    out.push_back(v);
  }
  return out;
}

/// An int or a tuple/list of ints (torch's `int[1]`, as sum's or linalg.vector_norm's dim).
inline dc::DimVector to_dim_list(nb::handle h, const char* fn, const char* arg, int pos = 0) {
  int64_t v;
  if (try_int(h, v)) return {v};
  return to_int_list(h, fn, arg, pos);
}

/// `*sizes` varargs: f(2, 3), f((2, 3)), f([2, 3]), f(torch.Size), or f(kw=(2, 3)). `pos` are the positional
/// arguments, `kw_value` the keyword form's value (null if absent), `keywords` how many keywords were given.
inline dc::DimVector varargs(std::span<PyObject* const> pos, PyObject* kw_value, size_t keywords, const char* fn,
                             const char* kw) {
  if (pos.empty() && kw_value != nullptr && keywords == 1) return to_int_list(kw_value, fn, kw);
  if (keywords != 0)
    throw dc::TypeError(dc::format("{}() got an unexpected keyword argument", fn));
  if (pos.empty()) throw dc::TypeError(dc::format("{}() missing 1 required positional arguments: \"{}\"", fn, kw));
  if (pos.size() == 1) return to_dim_list(pos[0], fn, kw, 1);
  dc::DimVector out;
  int64_t v;
  for (size_t i = 0; i < pos.size(); ++i) {
    if (!try_list_item(pos[i], i, v))
      throw dc::TypeError(dc::format("{}(): argument {} must be tuple of ints, but found element of type {} at "
                                     "pos {}", fn, arg_label(kw, 1), Py_TYPE(pos[i])->tp_name, i));
    out.push_back(v);
  }
  return out;
}

inline dc::DimVector varargs(const nb::args& args, const nb::kwargs& kwargs, const char* fn, const char* kw) {
  const std::span<PyObject* const> pos(PySequence_Fast_ITEMS(args.ptr()), args.size());
  PyObject* kw_value = kwargs.size() == 0 ? nullptr : PyDict_GetItemString(kwargs.ptr(), kw);
  return varargs(pos, kw_value, kwargs.size(), fn, kw);
}

/// An int parameter of a nanobind-dispatched binding, taken by try_int's rule (nanobind's own int64_t caster
/// converts a bool or anything with __int__). Write `Int dim` where the binding would say `int64_t dim`.
struct Int {
  int64_t value = 0;
  operator int64_t() const { return value; }  // NOLINT(google-explicit-constructor): passes on as the int
};

namespace detail {
template <typename T> struct py_param { using type = T; };
template <> struct py_param<int64_t> { using type = Int; };
template <> struct py_param<std::optional<int64_t>> { using type = std::optional<Int>; };
template <typename T> using py_param_t = typename py_param<std::remove_cvref_t<T>>::type;

template <typename T> decltype(auto) to_core(T&& v) { return std::forward<T>(v); }
inline std::optional<int64_t> to_core(const std::optional<Int>& v) {
  return v ? std::optional<int64_t>(v->value) : std::nullopt;
}

template <auto F, typename Sig> struct TorchInts;
template <auto F, typename R, typename... A> struct TorchInts<F, R (*)(A...)> {
  static R call(std::conditional_t<std::is_same_v<py_param_t<A>, std::remove_cvref_t<A>>, A, py_param_t<A>>... a) {
    return F(to_core(a)...);
  }
};
}  // namespace detail

/// A core function bound as is, its int64_t (and optional int64_t) parameters taken by torch's int rule:
/// `.def("transpose", torch_ints<&dc::transpose>, ...)`.
template <auto F>
inline constexpr auto torch_ints = &detail::TorchInts<F, decltype(F)>::call;

}  // namespace int_args

namespace nanobind::detail {
template <> struct type_caster<int_args::Int> {
  NB_TYPE_CASTER(int_args::Int, const_name("int"))
  bool from_python(handle src, uint8_t, cleanup_list*) noexcept {
    try {
      return int_args::try_int(src, value.value);
    } catch (...) {  // an overflowing int: no match, nanobind's TypeError names the argument types
      PyErr_Clear();
      return false;
    }
  }
  static handle from_cpp(int_args::Int v, rv_policy, cleanup_list*) noexcept { return PyLong_FromLongLong(v.value); }
};
}  // namespace nanobind::detail
