// The one place a Python number becomes a C++ value, with torch's overflow rules and exception
// classes (torch/csrc/utils/python_arg_parser.h, python_numbers.h). Every check leaves no Python
// error pending: a failed conversion raises, it never returns a value beside a set error.
#pragma once

#include <optional>
#include <string>

#include "bindings.h"
#include "densecore/core/error.h"
#include "densecore/core/scalar.h"
#include "densecore/autograd/node.h"
#include "densecore/ops/elementwise.h"
#include "densecore/ops/index.h"

namespace py_number {

/// A NumPy scalar (numpy.generic), without importing NumPy when nothing has.
inline bool is_numpy_scalar(nb::handle h) {
  PyObject* np = PyImport_GetModule(nb::str("numpy").ptr());
  if (!np) {
    PyErr_Clear();
    return false;
  }
  nb::object numpy = nb::steal(np);
  return PyObject_IsInstance(h.ptr(), numpy.attr("generic").ptr()) == 1;
}

/// bool, int, float, or a NumPy number: what torch's arg parser takes for a Scalar.
inline bool is_number(nb::handle h) {
  PyObject* p = h.ptr();
  return PyBool_Check(p) || PyLong_Check(p) || PyFloat_Check(p) ||
         (is_numpy_scalar(h) && (PyIndex_Check(p) || PyNumber_Check(p)));
}

/// A Python int as torch's Scalar: int64, or [2^63, 2^64) kept as a double (torch keeps those
/// unsigned; they fail the same range checks); OverflowError "int too big to convert" beyond.
inline dc::Scalar int_scalar(nb::handle h) {
  nb::object i = nb::steal(PyNumber_Index(h.ptr()));
  if (!i.is_valid()) throw nb::python_error();
  int overflow = 0;
  const long long v = PyLong_AsLongLongAndOverflow(i.ptr(), &overflow);
  if (v == -1 && PyErr_Occurred()) throw nb::python_error();
  if (overflow == 0) return dc::Scalar::from_int(v);
  const unsigned long long u = PyLong_AsUnsignedLongLong(i.ptr());
  if (u == static_cast<unsigned long long>(-1) && PyErr_Occurred()) {
    PyErr_SetString(PyExc_OverflowError, "int too big to convert");
    throw nb::python_error();
  }
  return dc::Scalar::from_double(static_cast<double>(u));
}

/// A number as a Scalar (precondition: is_number(h)).
inline dc::Scalar scalar(nb::handle h) {
  PyObject* p = h.ptr();
  if (PyBool_Check(p)) return dc::Scalar::from_bool(p == Py_True);
  if (PyFloat_Check(p)) return dc::Scalar::from_double(PyFloat_AS_DOUBLE(p));
  if (PyLong_Check(p) || PyIndex_Check(p)) {
    if (is_numpy_scalar(h) && PyObject_HasAttrString(p, "dtype")) {
      // numpy.bool_ is not an int: keep it a bool.
      nb::object kind = nb::borrow(h).attr("dtype").attr("kind");
      if (nb::cast<std::string>(kind) == "b") return dc::Scalar::from_bool(PyObject_IsTrue(p) == 1);
    }
    return int_scalar(h);
  }
  const double d = PyFloat_AsDouble(p);
  if (d == -1.0 && PyErr_Occurred()) throw nb::python_error();
  return dc::Scalar::from_double(d);
}

inline std::optional<dc::Scalar> try_scalar(nb::handle h) {
  if (!is_number(h)) return std::nullopt;
  return scalar(h);
}

/// A Scalar argument: a number, or a 0-dim tensor that does not require grad (torch's parser takes those for a
/// Scalar, FunctionParameter::check); TypeError naming the function and argument for anything else.
inline dc::Scalar to_scalar(nb::handle h, const char* fn, const char* arg, int pos = 0) {
  if (auto s = try_scalar(h)) return *s;
  dc::Tensor* t = nullptr;
  if (nb::try_cast<dc::Tensor*>(h, t) && t != nullptr && t->dim() == 0 && !dc::requires_grad(*t)) return dc::item(*t);
  throw dc::TypeError(dc::format("{}(): argument {} must be Number, not {}", fn, arg_label(arg, pos),
                                 Py_TYPE(h.ptr())->tp_name));
}

/// A Tensor argument of an op whose torch parser also takes a Python number for it
/// (should_allow_numbers_as_tensors: add, sub, mul, div, the comparisons, where, ...): the number becomes a
/// wrapped 0-dim tensor, which type promotion treats as a number. nullopt for anything else.
inline std::optional<dc::Tensor> try_tensor_or_number(nb::handle h) {
  dc::Tensor* t = nullptr;
  if (nb::try_cast<dc::Tensor*>(h, t) && t != nullptr) return *t;
  if (is_number(h)) return dc::wrapped_scalar_tensor(scalar(h));
  return std::nullopt;
}

/// The same as an argument: TypeError naming the function and argument for anything else.
inline dc::Tensor tensor_or_number_arg(nb::handle h, const char* fn, const char* arg, int pos = 0) {
  if (auto t = try_tensor_or_number(h)) return *std::move(t);
  throw dc::TypeError(dc::format("{}(): argument {} must be Tensor, not {}", fn, arg_label(arg, pos),
                                 Py_TYPE(h.ptr())->tp_name));
}

/// An int used as an index or seed (THPUtils_unpackLong): ValueError "Overflow when unpacking long
/// long" outside int64. Precondition: h is an int or has __index__.
inline int64_t unpack_long(nb::handle h) {
  nb::object i = nb::steal(PyNumber_Index(h.ptr()));
  if (!i.is_valid()) throw nb::python_error();
  int overflow = 0;
  const long long v = PyLong_AsLongLongAndOverflow(i.ptr(), &overflow);
  if (v == -1 && PyErr_Occurred()) throw nb::python_error();
  if (overflow != 0) throw nb::value_error("Overflow when unpacking long long");
  return v;
}

}  // namespace py_number
