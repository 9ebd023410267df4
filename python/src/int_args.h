// Python -> int / int list conversions with torch's argument forms: `x.view(2, 3)`,
// `x.view((2, 3))`, `x.view(torch.Size(...))`, `size=` keywords. TypeError on anything else.
#pragma once

#include <string>
#include <vector>

#include "bindings.h"
#include "densecore/core/error.h"

namespace int_args {

/// An int (or __index__ object, not bool... torch's IntArrayRef accepts bool too, so we do).
inline bool try_int(nb::handle h, int64_t& out) {
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

/// `*sizes` varargs: f(2, 3), f((2, 3)), f([2, 3]), f(torch.Size), or f(kw=(2, 3)).
inline dc::DimVector varargs(const nb::args& args, const nb::kwargs& kwargs, const char* fn, const char* kw) {
  if (args.size() == 0 && kwargs.contains(kw) && kwargs.size() == 1) return to_int_list(kwargs[kw], fn, kw);
  if (kwargs.size() != 0)
    throw dc::TypeError(dc::format("{}() got an unexpected keyword argument", fn));
  if (args.size() == 1) return to_int_list(args[0], fn, kw);
  dc::DimVector out;
  for (size_t i = 0; i < args.size(); ++i) out.push_back(to_int(args[i], fn, kw));
  return out;
}

}  // namespace int_args
