// Maps the core's exception classes to the Python exceptions torch raises.
#include "bindings.h"

#include <new>
#include <typeinfo>

#include "densecore/core/error.h"

namespace {

// Sets the Python error for the core's exceptions and the standard ones a binding can meet; rethrows
// anything else, so that nanobind's own translator (registered before ours) sees it.
void translate_core_exception(const std::exception_ptr& p) {
  try {
    std::rethrow_exception(p);
  } catch (const dc::IndexError& e) {
    PyErr_SetString(PyExc_IndexError, e.what());
  } catch (const dc::TypeError& e) {
    PyErr_SetString(PyExc_TypeError, e.what());
  } catch (const dc::ValueError& e) {
    PyErr_SetString(PyExc_ValueError, e.what());
  } catch (const dc::NotImplementedError& e) {
    PyErr_SetString(PyExc_NotImplementedError, e.what());
  } catch (const dc::Error& e) {
    PyErr_SetString(PyExc_RuntimeError, e.what());
  } catch (const std::bad_cast&) {
    // A binding met an argument of a type it cannot take (nb::cast_error is a std::bad_cast): a
    // TypeError, never a C++ class name.
    PyErr_SetString(PyExc_TypeError, "an argument has a type this function does not accept");
  } catch (const std::bad_alloc&) {
    // A container (not a tensor storage, which reports its own size) could not grow.
    PyErr_SetString(PyExc_RuntimeError, "DefaultCPUAllocator: can't allocate memory: out of memory");
  }
}

PyObject* builtin_exception_class(nb::exception_type type) {
  switch (type) {
    case nb::exception_type::stop_iteration: return PyExc_StopIteration;
    case nb::exception_type::index_error: return PyExc_IndexError;
    case nb::exception_type::key_error: return PyExc_KeyError;
    case nb::exception_type::value_error: return PyExc_ValueError;
    case nb::exception_type::type_error: return PyExc_TypeError;
    case nb::exception_type::buffer_error: return PyExc_BufferError;
    case nb::exception_type::import_error: return PyExc_ImportError;
    case nb::exception_type::attribute_error: return PyExc_AttributeError;
    default: return PyExc_RuntimeError;
  }
}

}  // namespace

PyObject* set_error_from_current_exception() noexcept {
  try {
    throw;
  } catch (nb::python_error& e) {
    e.restore();
  } catch (const nb::builtin_exception& e) {
    PyErr_SetString(builtin_exception_class(e.type()), e.what());
  } catch (...) {
    try {
      translate_core_exception(std::current_exception());
    } catch (const std::exception& e) {
      PyErr_SetString(PyExc_RuntimeError, e.what());
    } catch (...) {
      PyErr_SetString(PyExc_SystemError, "an unknown C++ exception was thrown");
    }
  }
  return nullptr;
}

void bind_errors(nb::module_&) {
  nb::register_exception_translator([](const std::exception_ptr& p, void*) { translate_core_exception(p); });
}
