// Maps the core's exception classes to the Python exceptions torch raises.
#include "bindings.h"

#include <new>
#include <typeinfo>

#include "densecore/core/error.h"

void bind_errors(nb::module_& m) {
  nb::register_exception_translator([](const std::exception_ptr& p, void*) {
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
  });
}
