// One bind_* function per area; module.cpp calls them in order.
#pragma once

#include <string>
#include <string_view>

#include <nanobind/nanobind.h>

#include "densecore/core/tensor.h"
#include "small_vector_caster.h"

namespace nb = nanobind;
using TensorClass = nb::class_<dc::Tensor>;
/// A Python object that is always a Tensor (a new one, or the very self/out object torch returns): typed so
/// that the generated stub (_C.pyi) says Tensor where a bare nb::object would say object.
using TensorObject = nb::typed<nb::object, dc::Tensor>;

// ---- typed arguments: TypeError naming the function and argument, as torch's arg parser ----
// `pos`, where given, is the argument's place in the Python signature (1-based, self not counted in a method):
// torch names it for an argument given by position. 0 for a keyword-only argument.

/// An argument as torch's parser names it in a message: 'other' (position 2), or 'alpha'.
inline std::string arg_label(const char* arg, int pos) {
  std::string label = std::string("'") + arg + "'";
  return pos > 0 ? label + " (position " + std::to_string(pos) + ")" : label;
}

/// A Tensor argument.
inline const dc::Tensor& tensor_arg(nb::handle h, const char* fn, const char* arg, int pos = 0) {
  dc::Tensor* t = nullptr;
  if (nb::try_cast<dc::Tensor*>(h, t) && t != nullptr) return *t;
  PyErr_Format(PyExc_TypeError, "%s(): argument %s must be Tensor, not %s", fn, arg_label(arg, pos).c_str(),
               Py_TYPE(h.ptr())->tp_name);
  throw nb::python_error();
}
/// A Tensor argument that may be None (an undefined Tensor then).
inline dc::Tensor opt_tensor_arg(nb::handle h, const char* fn, const char* arg) {
  return h.is_none() ? dc::Tensor() : tensor_arg(h, fn, arg);
}
/// A bool argument (torch takes only bool for these).
inline bool bool_arg(nb::handle h, const char* fn, const char* arg, int pos = 0) {
  if (PyBool_Check(h.ptr())) return h.ptr() == Py_True;
  PyErr_Format(PyExc_TypeError, "%s(): argument %s must be bool, not %s", fn, arg_label(arg, pos).c_str(),
               Py_TYPE(h.ptr())->tp_name);
  throw nb::python_error();
}

/// A str argument (the view is valid while the handle lives).
inline std::string_view str_arg(nb::handle h, const char* fn, const char* arg, int pos = 0) {
  Py_ssize_t size = 0;
  const char* text = PyUnicode_Check(h.ptr()) ? PyUnicode_AsUTF8AndSize(h.ptr(), &size) : nullptr;
  if (text != nullptr) return std::string_view(text, size_t(size));
  if (PyErr_Occurred()) throw nb::python_error();
  PyErr_Format(PyExc_TypeError, "%s(): argument %s must be str, not %s", fn, arg_label(arg, pos).c_str(),
               Py_TYPE(h.ptr())->tp_name);
  throw nb::python_error();
}

void bind_errors(nb::module_& m);
/// Inside a catch block of a binding that nanobind does not dispatch (fast_method.h): sets the Python error
/// nanobind's translators would (the core's classes as torch's), and returns nullptr for the caller to return.
PyObject* set_error_from_current_exception() noexcept;
void bind_rows(nb::module_& m, TensorClass& cls);  // generated from csrc/op_rows.toml
void bind_dtype(nb::module_& m);
/// Tensor's + - * / // @ as number slots, given to the class when it is created (number_slots.cpp); then
/// bind_number_slots, before any other binding.
PyType_Slot* tensor_number_slots();
void bind_number_slots(TensorClass& cls);
void bind_tensor(nb::module_& m, TensorClass& cls);
void bind_views(nb::module_& m, TensorClass& cls);
void bind_indexing(nb::module_& m, TensorClass& cls);
void bind_linalg(nb::module_& m, TensorClass& cls);
void bind_creation(nb::module_& m, TensorClass& cls);
void bind_elementwise(nb::module_& m, TensorClass& cls);
void bind_reduce(nb::module_& m, TensorClass& cls);
void bind_random(nb::module_& m, TensorClass& cls);
void bind_autograd(nb::module_& m, TensorClass& cls);
void bind_serialization(nb::module_& m, TensorClass& cls);
void bind_attention(nb::module_& m, TensorClass& cls);
void bind_unary(nb::module_& m, TensorClass& cls);
void bind_nn(nb::module_& m, TensorClass& cls);
void bind_loss(nb::module_& m, TensorClass& cls);
void bind_optim(nb::module_& m);
