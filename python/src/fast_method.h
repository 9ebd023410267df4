// Tensor methods bound with CPython's vectorcall convention (METH_FASTCALL | METH_KEYWORDS), for the hot
// `*sizes` methods (x.view(B, T, C), reshape, permute, expand). nanobind's form of a method taking nb::args
// and nb::kwargs builds an args tuple and a kwargs dict and runs its overload dispatch on every call: 160 of
// x.view(3, 1)'s 410 ns (AMD Zen 4), where x.view_as(z), the same op with a Tensor argument, took 250.
// Here the arguments stay CPython's array; errors become Python errors as nanobind's translators make them.
#pragma once

#include <span>

#include "bindings.h"

/// The arguments of a vectorcall: positional ones, then keyword values named by kwnames.
struct FastCall {
  std::span<PyObject* const> pos;
  PyObject* const* kwvalues;  // pos.data() + pos.size()
  PyObject* kwnames;          // a tuple of str, or null

  size_t keyword_count() const { return kwnames == nullptr ? 0 : size_t(PyTuple_GET_SIZE(kwnames)); }
  /// The value of keyword `name`, or null when it was not given.
  PyObject* keyword(const char* name) const {
    for (size_t i = 0; i < keyword_count(); ++i)
      if (PyUnicode_CompareWithASCIIString(PyTuple_GET_ITEM(kwnames, Py_ssize_t(i)), name) == 0) return kwvalues[i];
    return nullptr;
  }
};

using FastMethod = dc::Tensor (*)(const dc::Tensor& self, const FastCall& call);

template <FastMethod F>
PyObject* fast_method_entry(PyObject* self, PyObject* const* args, Py_ssize_t nargs, PyObject* kwnames) noexcept {
  try {
    // The method descriptor has checked that self is a Tensor; a subclass instance whose __init__ never ran
    // holds no Tensor yet.
    if (!nb::inst_ready(self)) {
      PyErr_SetString(PyExc_TypeError, "the Tensor this method was called on is not initialized");
      return nullptr;
    }
    const dc::Tensor& t = *nb::inst_ptr<dc::Tensor>(self);
    dc::Tensor result = F(t, FastCall{{args, size_t(nargs)}, args + nargs, kwnames});
    return nb::cast(std::move(result), nb::rv_policy::move).release().ptr();
  } catch (...) {
    return set_error_from_current_exception();
  }
}

/// Binds F as cls.<name>. `doc` starts with the signature in CPython's __text_signature__ form
/// ("view($self, /, *args, **kwargs)\n--\n\n..."), which inspect.signature and the stub generator read.
template <FastMethod F>
void def_fast_method(TensorClass& cls, const char* name, const char* doc) {
  // The descriptor keeps a pointer to its PyMethodDef for as long as the type lives: never freed.
  auto* def = new PyMethodDef{name, reinterpret_cast<PyCFunction>(reinterpret_cast<void (*)()>(&fast_method_entry<F>)),
                              METH_FASTCALL | METH_KEYWORDS, doc};
  nb::object descr = nb::steal(PyDescr_NewMethod(reinterpret_cast<PyTypeObject*>(cls.ptr()), def));
  if (!descr.is_valid()) throw nb::python_error();
  if (PyObject_SetAttrString(cls.ptr(), name, descr.ptr()) != 0) throw nb::python_error();
}
