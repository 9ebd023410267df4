// dc::DType <-> the singleton Python dtype objects (densecore.float32 is densecore.float32).
#pragma once

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
