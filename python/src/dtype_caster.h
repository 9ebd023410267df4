// dc::DType <-> the singleton Python dtype objects (densecore.float32 is densecore.float32).
#pragma once

#include <optional>

#include <nanobind/nanobind.h>

#include "densecore/core/dtype.h"

namespace nb = nanobind;

/// The Python-visible dtype object; one instance per DType, created in bind_dtype.
struct PyDType {
  dc::DType value;
};

/// The singleton Python object for t.
nb::handle dtype_object(dc::DType t);

namespace nanobind::detail {
template <>
struct type_caster<dc::DType> {
  NB_TYPE_CASTER(dc::DType, const_name("dtype"))
  bool from_python(handle src, uint8_t flags, cleanup_list* cleanup) noexcept {
    PyDType* p = nullptr;
    if (!nb::try_cast<PyDType*>(src, p) || p == nullptr) return false;
    value = p->value;
    return true;
  }
  static handle from_cpp(dc::DType t, rv_policy, cleanup_list*) noexcept {
    return dtype_object(t).inc_ref();
  }
};
}  // namespace nanobind::detail

/// A `dtype=` argument: the DType, or TypeError "<fn>(): argument 'dtype' must be torch.dtype, not str"
/// as torch's arg parser says; nullopt for None when `none_ok`.
inline std::optional<dc::DType> dtype_arg(nb::handle h, const char* fn, bool none_ok = true) {
  if (none_ok && (!h.is_valid() || h.is_none())) return std::nullopt;
  PyDType* p = nullptr;
  if (nb::try_cast<PyDType*>(h, p) && p != nullptr) return p->value;
  PyErr_Format(PyExc_TypeError, "%s(): argument 'dtype' must be torch.dtype, not %s", fn, Py_TYPE(h.ptr())->tp_name);
  throw nb::python_error();
}
