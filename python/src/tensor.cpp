// The Tensor class: read-only layout properties. Ops and views add their methods in their own files.
#include "bindings.h"
#include "int_args.h"
#include "dtype_caster.h"

#include <climits>

#include <nanobind/stl/string.h>
#include <nanobind/stl/vector.h>

#include "densecore/autograd/function.h"
#include "densecore/kernels/dispatch/cpu_capability.h"
#include "densecore/ops/copy.h"
#include "densecore/kernels/iter/parallel.h"

namespace {

// torch.Size is a tuple subclass defined in Python (densecore/_size.py); set by densecore/__init__.
// Borrowed: the module attribute _Size owns it.
nb::handle g_size_type;

/// Typed for the stub as what Size is: a tuple of ints.
using SizeObject = nb::typed<nb::object, nb::typed<nb::tuple, int64_t, nb::ellipsis>>;

/// A torch.Size of `sizes`, made by tuple's own constructor: Size adds no state (__slots__ = ()), and its
/// Python __new__ (which checks every item of a user's iterable) was 1.4 us of each x.shape (issue 10).
SizeObject make_size(const dc::Shape& sizes) {
  nb::object items = nb::steal(PyTuple_New(Py_ssize_t(sizes.size())));
  if (!items) throw nb::python_error();
  for (size_t i = 0; i < sizes.size(); ++i) {
    PyObject* v = PyLong_FromLongLong(sizes[i]);
    if (!v) throw nb::python_error();
    PyTuple_SET_ITEM(items.ptr(), Py_ssize_t(i), v);
  }
  if (!g_size_type) return nb::steal<SizeObject>(items.release());
  nb::object args = nb::make_tuple(items);
  PyObject* size = PyTuple_Type.tp_new(reinterpret_cast<PyTypeObject*>(g_size_type.ptr()), args.ptr(), nullptr);
  if (!size) throw nb::python_error();
  return nb::steal<SizeObject>(size);
}

// torch's THPModule_setNumThreads: an int that is not a bool (RuntimeError), unpacked as a long long and then as
// an int (ValueError on overflow), then a positive one (RuntimeError).
void set_num_threads_checked(nb::handle num) {
  PyObject* o = num.ptr();
  if (!PyLong_Check(o) || PyBool_Check(o)) {
    PyErr_Format(PyExc_RuntimeError, "set_num_threads expects an int, but got %s", Py_TYPE(o)->tp_name);
    throw nb::python_error();
  }
  const long long wide = PyLong_AsLongLong(o);
  const bool long_long_overflow = wide == -1 && PyErr_Occurred();
  if (long_long_overflow || wide < INT_MIN || wide > INT_MAX) {
    PyErr_SetString(PyExc_ValueError, long_long_overflow ? "Overflow when unpacking long long" : "Overflow when unpacking long");
    throw nb::python_error();
  }
  if (wide <= 0) {
    PyErr_SetString(PyExc_RuntimeError, "set_num_threads expects a positive integer");
    throw nb::python_error();
  }
  dc::set_num_threads(static_cast<int>(wide));
}

}  // namespace

void bind_tensor(nb::module_& m, TensorClass& cls) {
  m.def("_set_size_type", [m](nb::object t) {
    nb::setattr(m, "_Size", t);
    g_size_type = t;
  });
  m.def("get_num_threads", &dc::get_num_threads);
  m.def("set_num_threads", &set_num_threads_checked, nb::arg("num"));
  m.def("_get_cpu_capability",
        [] { return std::string(dc::cpu_capability_name(dc::cpu_capability())); });

  cls.def_prop_ro("dtype", &dc::Tensor::dtype)
      .def_prop_ro("shape", [](const dc::Tensor& t) { return make_size(t.sizes()); })
      .def(
          "size",
          [](const dc::Tensor& t, nb::object d) -> nb::object {
            if (d.is_none()) return make_size(t.sizes());
            return nb::int_(t.size(int_args::to_int(d, "size", "dim")));
          },
          nb::arg("dim") = nb::none())
      .def(
          "stride",
          [](const dc::Tensor& t, nb::object d) -> nb::object {
            if (d.is_none()) return nb::tuple(nb::cast(t.strides()));
            return nb::int_(t.stride(int_args::to_int(d, "stride", "dim")));
          },
          nb::arg("dim") = nb::none())
      .def("dim", &dc::Tensor::dim)
      .def("ndimension", &dc::Tensor::dim)
      .def_prop_ro("ndim", &dc::Tensor::dim)
      .def("numel", &dc::Tensor::numel)
      .def("nelement", &dc::Tensor::numel)
      .def("element_size", [](const dc::Tensor& t) { return t.itemsize(); })
      .def("storage_offset", &dc::Tensor::storage_offset)
      .def("data_ptr",
           [](const dc::Tensor& t) {
             // torch reports 0 for a tensor with no elements
             return t.numel() == 0 ? uintptr_t{0} : reinterpret_cast<uintptr_t>(t.data_ptr());
           })
      .def("is_contiguous", [](const dc::Tensor& t) { return t.is_contiguous(); })
      .def_prop_ro("_version", &dc::Tensor::version)
      .def("_raw_bytes",
           [](const dc::Tensor& t) {
             // The element bytes in row-major order: what the oracle compares.
             const dc::Tensor c = dc::contiguous(t);
             return nb::bytes(static_cast<const char*>(c.data_ptr()), c.numel() * c.itemsize());
           })
      .def_prop_ro("is_cuda", [](const dc::Tensor&) { return false; })
      .def("__len__", [](const dc::Tensor& t) {
        dc::check<dc::TypeError>(t.dim() > 0, "len() of a 0-d tensor");
        return t.sizes()[0];
      });
  // Tensor(other): an alias sharing other's storage and version counter, without autograd history
  // (what nn.Parameter(data) needs; torch's Tensor._make_subclass). Tensor(): an empty float tensor.
  cls.def("__init__", [](dc::Tensor* self, const dc::Tensor& other) { new (self) dc::Tensor(dc::data_alias(other)); },
          nb::arg("other"))
      .def("__init__", [](dc::Tensor* self) {
        const int64_t zero[] = {0};
        new (self) dc::Tensor(dc::Tensor::empty(zero, dc::default_dtype()));
      });
}
