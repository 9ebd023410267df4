// Python -> int / int list conversions with torch's argument forms: `x.view(2, 3)`,
// `x.view((2, 3))`, `x.view(torch.Size(...))`, `size=` keywords. TypeError on anything else.
#pragma once

#include <span>
#include <string>
#include <vector>

#include "bindings.h"
#include "densecore/core/error.h"

namespace int_args {

/// An int (or __index__ object, not bool... torch's IntArrayRef accepts bool too, so we do).
inline bool try_int(nb::handle h, int64_t& out) {
  // A plain int is nearly every call: no Tensor type lookup, no __index__ round trip.
  if (PyLong_CheckExact(h.ptr())) {
    out = PyLong_AsLongLong(h.ptr());
    if (out == -1 && PyErr_Occurred()) throw nb::python_error();
    return true;
  }
  if (nb::isinstance<dc::Tensor>(h)) {
    const auto& t = nb::cast<const dc::Tensor&>(h);
    if (t.dim() != 0 || !dc::is_integral(t.dtype(), true)) return false;
    nb::object v = h.attr("item")();
    out = nb::cast<int64_t>(v);
    return true;
  }
  if (!PyLong_Check(h.ptr()) && !PyIndex_Check(h.ptr())) return false;
  if (PyFloat_Check(h.ptr())) return false;
  nb::object idx = nb::steal(PyNumber_Index(h.ptr()));
  if (!idx.is_valid()) {
    PyErr_Clear();
    return false;
  }
  out = PyLong_AsLongLong(idx.ptr());
  if (out == -1 && PyErr_Occurred()) throw nb::python_error();
  return true;
}

inline int64_t to_int(nb::handle h, const char* fn, const char* arg, int pos = 0) {
  int64_t v;
  if (!try_int(h, v))
    throw dc::TypeError(dc::format("{}(): argument {} must be int, not {}", fn, arg_label(arg, pos),
                                   Py_TYPE(h.ptr())->tp_name));
  return v;
}

/// A tuple/list/Size of ints, or one int (torch accepts `size=3` for an IntArrayRef).
/// A DimVector: a shape's few ints cost no allocation (x.view(3, 1) made two).
inline dc::DimVector to_int_list(nb::handle h, const char* fn, const char* arg, int pos = 0) {
  dc::DimVector out;
  int64_t v;
  if (try_int(h, v)) return {v};
  if (!PyTuple_Check(h.ptr()) && !PyList_Check(h.ptr()))
    throw dc::TypeError(dc::format("{}(): argument {} must be tuple of ints, not {}", fn, arg_label(arg, pos),
                                   Py_TYPE(h.ptr())->tp_name));
  for (size_t i = 0, n = nb::len(h); i < n; ++i) {
    nb::object item = h[i];
    if (!try_int(item, v))
      throw dc::TypeError(dc::format("{}(): argument {} must be tuple of ints, but found element of "
                                     "type {} at pos {}",
                                     fn, arg_label(arg, pos), Py_TYPE(item.ptr())->tp_name, i));
    out.push_back(v);
  }
  return out;
}

/// `*sizes` varargs: f(2, 3), f((2, 3)), f([2, 3]), f(torch.Size), or f(kw=(2, 3)). `pos` are the positional
/// arguments, `kw_value` the keyword form's value (null if absent), `keywords` how many keywords were given.
inline dc::DimVector varargs(std::span<PyObject* const> pos, PyObject* kw_value, size_t keywords, const char* fn,
                             const char* kw) {
  if (pos.empty() && kw_value != nullptr && keywords == 1) return to_int_list(kw_value, fn, kw);
  if (keywords != 0)
    throw dc::TypeError(dc::format("{}() got an unexpected keyword argument", fn));
  if (pos.empty()) throw dc::TypeError(dc::format("{}() missing 1 required positional arguments: \"{}\"", fn, kw));
  if (pos.size() == 1) return to_int_list(pos[0], fn, kw);
  dc::DimVector out;
  for (PyObject* item : pos) out.push_back(to_int(item, fn, kw));
  return out;
}

inline dc::DimVector varargs(const nb::args& args, const nb::kwargs& kwargs, const char* fn, const char* kw) {
  const std::span<PyObject* const> pos(PySequence_Fast_ITEMS(args.ptr()), args.size());
  PyObject* kw_value = kwargs.size() == 0 ? nullptr : PyDict_GetItemString(kwargs.ptr(), kw);
  return varargs(pos, kw_value, kwargs.size(), fn, kw);
}

}  // namespace int_args
