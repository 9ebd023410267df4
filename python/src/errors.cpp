// Maps the core's exception classes to the Python exceptions torch raises.
#include "bindings.h"

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
    }
  });
}
