// Tensor.__getitem__/__setitem__ parsed in C++ as torch/csrc/autograd/python_variable_indexing.cpp
// does, plus index_select, masked_fill(_), gather, scatter(_)/scatter_add(_), nonzero. Lists inside an index become int64
// (or bool) tensors as torch's indexing_tensor_from_data makes them.
#include <optional>

#include <nanobind/stl/optional.h>
#include <nanobind/stl/vector.h>

#include "bindings.h"
#include "py_number.h"
#include "dtype_caster.h"

#include "densecore/autograd/grad_mode.h"
#include "densecore/autograd/node.h"
#include "densecore/core/convert.h"
#include "densecore/core/error.h"
#include "densecore/ops/copy.h"
#include "densecore/ops/index.h"
#include "densecore/ops/view.h"

namespace {

using dc::Tensor;
using dc::TensorIndex;

// ------------------------------------------------------------ nested sequences -> tensors

bool is_int(nb::handle h) { return PyLong_Check(h.ptr()) && !PyBool_Check(h.ptr()); }

// Shape and element dtype of nested Python sequences (torch's compute_sizes + infer_scalar_type).
void infer_shape(nb::handle h, size_t depth, dc::Shape& shape, std::optional<dc::DType>& dtype) {
  if (nb::isinstance<Tensor>(h)) {
    const auto& t = nb::cast<const Tensor&>(h);
    dtype = dtype ? dc::promote_types(*dtype, t.dtype()) : t.dtype();
    return;
  }
  if (PyBool_Check(h.ptr()) || is_int(h) || PyFloat_Check(h.ptr())) {
    const dc::DType d = PyBool_Check(h.ptr()) ? dc::DType::Bool
                        : is_int(h)           ? dc::DType::Int64
                                              : dc::default_dtype();
    dtype = dtype ? dc::promote_types(*dtype, d) : d;
    return;
  }
  if (PyUnicode_Check(h.ptr()) || PyBytes_Check(h.ptr()) || !PySequence_Check(h.ptr()))
    throw dc::TypeError(dc::format("new(): invalid data type '{}'", Py_TYPE(h.ptr())->tp_name));
  const size_t n = nb::len(h);
  if (shape.size() == depth) shape.push_back(int64_t(n));
  else if (shape[depth] != int64_t(n))
    throw dc::ValueError(dc::format("expected sequence of length {} at dim {} (got {})", shape[depth], depth, n));
  for (size_t i = 0; i < n; ++i) infer_shape(h[i], depth + 1, shape, dtype);
}

template <class T>
void store(nb::handle h, T*& out) {
  if (nb::isinstance<Tensor>(h)) {
    const dc::Scalar s = dc::item(nb::cast<const Tensor&>(h));
    *out++ = s.is_floating() ? dc::convert<T>(s.v.d) : s.is_bool() ? dc::convert<T>(s.v.b) : dc::convert<T>(s.v.i);
  } else if (PyBool_Check(h.ptr())) {
    *out++ = dc::convert<T>(h.ptr() == Py_True);
  } else if (is_int(h)) {
    *out++ = dc::convert<T>(py_number::unpack_long(h));
  } else if (PyFloat_Check(h.ptr())) {
    *out++ = dc::convert<T>(PyFloat_AS_DOUBLE(h.ptr()));
  } else {
    for (size_t i = 0, n = nb::len(h); i < n; ++i) store(h[i], out);
  }
}

Tensor tensor_from_data(nb::handle data, std::optional<dc::DType> dtype, bool for_indexing) {
  dc::Shape shape;
  std::optional<dc::DType> inferred;
  infer_shape(data, 0, shape, inferred);
  dc::DType d = dtype.value_or(inferred.value_or(dc::default_dtype()));
  // Indexing lists: bool/uint8 stay masks, everything else becomes int64.
  if (for_indexing) d = inferred == dc::DType::Bool || inferred == dc::DType::UInt8 ? *inferred : dc::DType::Int64;
  Tensor t = Tensor::empty(shape, d);
  dc::dispatch_dtype(d, [&]<class T>() {
    T* out = t.data<T>();
    store(data, out);
  });
  return t;
}

// ------------------------------------------------------------ index parsing

[[noreturn]] void invalid_index(nb::handle obj) {
  throw dc::IndexError(dc::format("only integers, slices (`:`), ellipsis (`...`), None and long or byte "
                                  "Variables are valid indices (got {})",
                                  Py_TYPE(obj.ptr())->tp_name));
}

TensorIndex parse_slice(nb::handle obj) {
  Py_ssize_t start, stop, step;
  if (PySlice_Unpack(obj.ptr(), &start, &stop, &step) < 0) throw nb::python_error();
  return TensorIndex::of_slice(start, stop, step);
}

TensorIndex parse_item(nb::handle obj) {
  if (is_int(obj)) return TensorIndex::of_int(py_number::unpack_long(obj));
  if (PySlice_Check(obj.ptr())) return parse_slice(obj);
  if (obj.ptr() == Py_Ellipsis) return TensorIndex::ellipsis();
  if (obj.is_none()) return TensorIndex::none();
  if (PyBool_Check(obj.ptr())) return TensorIndex::of_bool(obj.ptr() == Py_True);
  if (nb::isinstance<Tensor>(obj)) return TensorIndex::of_tensor(nb::cast<Tensor>(obj));
  if (PySequence_Check(obj.ptr())) return TensorIndex::of_tensor(tensor_from_data(obj, std::nullopt, true));
  nb::object idx = nb::steal(PyNumber_Index(obj.ptr()));
  if (!idx.is_valid()) {
    PyErr_Clear();
    invalid_index(obj);
  }
  return TensorIndex::of_int(py_number::unpack_long(idx));
}

// NumPy's heuristic, kept by torch: a short list holding a tensor, sequence, slice, None or
// Ellipsis is read as a tuple of indices (x[[0, slice(None)]] == x[0, :]).
bool treat_sequence_as_tuple(nb::handle index) {
  if (PyTuple_Check(index.ptr())) return true;
  if (nb::isinstance<Tensor>(index) || !PySequence_Check(index.ptr())) return false;
  const Py_ssize_t n = PySequence_Size(index.ptr());
  if (n < 0) {
    PyErr_Clear();
    return false;
  }
  if (n >= 32) return false;
  for (Py_ssize_t i = 0; i < n; ++i) {
    nb::object obj = nb::steal(PySequence_GetItem(index.ptr(), i));
    if (!obj.is_valid()) {
      PyErr_Clear();
      return false;
    }
    if (nb::isinstance<Tensor>(obj) || PySequence_Check(obj.ptr()) || PySlice_Check(obj.ptr()) ||
        obj.ptr() == Py_Ellipsis || obj.is_none())
      return true;
  }
  return false;
}

std::vector<TensorIndex> parse_index(nb::handle index) {
  std::vector<TensorIndex> out;
  if (treat_sequence_as_tuple(index)) {
    nb::object tup = nb::steal(PySequence_Tuple(index.ptr()));
    if (!tup.is_valid()) throw nb::python_error();
    for (size_t i = 0, n = nb::len(tup); i < n; ++i) out.push_back(parse_item(tup[i]));
  } else {
    out.push_back(parse_item(index));
  }
  return out;
}

// ------------------------------------------------------------ __getitem__ / __setitem__

Tensor getitem(const Tensor& self, nb::handle index) {
  // Single ints, slices, None, Ellipsis and bools skip the tuple machinery, as torch's do.
  if (index.is_none() || index.ptr() == Py_Ellipsis || is_int(index) || PySlice_Check(index.ptr()) ||
      PyBool_Check(index.ptr())) {
    const TensorIndex i[] = {parse_item(index)};
    return dc::get_item(self, i);
  }
  return dc::get_item(self, parse_index(index));
}

// Python numbers become 0-dim tensors of self's dtype (torch's valueToTensor).
Tensor value_to_tensor(const Tensor& self, nb::handle value) {
  if (nb::isinstance<Tensor>(value)) return nb::cast<Tensor>(value);
  if (PyBool_Check(value.ptr()) || is_int(value))
    return dc::value_to_tensor(dc::Scalar::from_int(py_number::unpack_long(value)), self.dtype());
  if (PyFloat_Check(value.ptr()))
    return dc::value_to_tensor(dc::Scalar::from_double(PyFloat_AS_DOUBLE(value.ptr())), self.dtype());
  if (PyIndex_Check(value.ptr())) {
    nb::object idx = nb::steal(PyNumber_Index(value.ptr()));
    if (idx.is_valid()) return dc::value_to_tensor(dc::Scalar::from_int(py_number::unpack_long(idx)), self.dtype());
    PyErr_Clear();
  }
  throw dc::TypeError(dc::format("can't assign a {} to a torch.{}Tensor", Py_TYPE(value.ptr())->tp_name,
                                 dc::scalar_type_name(self.dtype())));
}

void setitem(const Tensor& self, nb::handle index, nb::handle value) {
  const Tensor v = value_to_tensor(self, value);
  if (index.is_none() || index.ptr() == Py_Ellipsis || is_int(index) || PySlice_Check(index.ptr()) ||
      PyBool_Check(index.ptr())) {
    const TensorIndex i[] = {parse_item(index)};
    return dc::set_item(self, i, v);
  }
  dc::set_item(self, parse_index(index), v);
}

// index_put's indices: a tuple or list of tensors, None for a whole dim (torch's Tensor?[]).
// index_put's `indices` as torch's Python parser reads them: a tuple or list of tensors, None refused (x[:, i]
// makes a None entry internally). `position` is the argument's position counting from 1 after self in a method;
// torch's element message counts arguments from 0.
std::vector<Tensor> index_tensors(nb::handle seq, const char* fn, int position) {
  if (!PyTuple_Check(seq.ptr()) && !PyList_Check(seq.ptr()))
    throw dc::TypeError(dc::format("{}(): argument 'indices' (position {}) must be tuple of Tensors, not {}", fn,
                                   position, Py_TYPE(seq.ptr())->tp_name));
  std::vector<Tensor> out;
  size_t k = 0;
  for (nb::handle item : seq) {
    if (!nb::isinstance<Tensor>(item))
      throw dc::TypeError(dc::format("expected Tensor as element {} in argument {}, but got {}", k, position - 1,
                                     Py_TYPE(item.ptr())->tp_name));
    out.push_back(nb::cast<Tensor>(item));
    ++k;
  }
  return out;
}

// masked_fill's value: a Python number or a 0-dim tensor.
template <class F>
Tensor with_fill_value(nb::handle value, F&& f) {
  if (nb::isinstance<Tensor>(value)) return f(nb::cast<Tensor>(value));
  if (py_number::is_number(value)) return f(py_number::scalar(value));
  throw dc::TypeError(dc::format("masked_fill(): argument 'value' must be Number or Tensor, not {}",
                                 Py_TYPE(value.ptr())->tp_name));
}

Tensor masked_fill(const Tensor& self, const Tensor& mask, nb::handle value) {
  return with_fill_value(value, [&](const auto& v) { return dc::masked_fill(self, mask, v); });
}

Tensor masked_fill_(const Tensor& self, const Tensor& mask, nb::handle value) {
  return with_fill_value(value, [&](const auto& v) { return dc::masked_fill_(self, mask, v); });
}


}  // namespace

void bind_indexing(nb::module_& m, TensorClass& cls) {
  cls.def("index_put_", [](nb::handle self, nb::handle indices, const Tensor& values, bool accumulate) {
        dc::index_put_(nb::cast<const Tensor&>(self), index_tensors(indices, "index_put_", 1), values, accumulate);
        return nb::borrow(self);
      }, nb::arg("indices"), nb::arg("values"), nb::arg("accumulate") = false)
      .def("index_put", [](const Tensor& self, nb::handle indices, const Tensor& values, bool accumulate) {
        return dc::index_put(self, index_tensors(indices, "index_put", 1), values, accumulate);
      }, nb::arg("indices"), nb::arg("values"), nb::arg("accumulate") = false);
  m.def("index_put", [](const Tensor& self, nb::handle indices, const Tensor& values, bool accumulate) {
        return dc::index_put(self, index_tensors(indices, "index_put", 2), values, accumulate);
      }, nb::arg("input"), nb::arg("indices"), nb::arg("values"), nb::arg("accumulate") = false);
  cls.def("__getitem__", &getitem, nb::arg("index").none())
      .def("__setitem__", &setitem, nb::arg("index").none(), nb::arg("value").none())
      .def("masked_fill", &masked_fill, nb::arg("mask"), nb::arg("value"))
      .def("masked_fill_", &masked_fill_, nb::arg("mask"), nb::arg("value"))
      .def("nonzero", &dc::nonzero);
  m.def("masked_fill", &masked_fill, nb::arg("input"), nb::arg("mask"), nb::arg("value"));
  // index_select, gather, scatter (its src form), scatter_add and their in-place forms are op rows: their Python forms
  // are generated
  // (csrc/op_rows.toml).
  m.def("nonzero", &dc::nonzero, nb::arg("input"));
  m.def("_dev_tensor", [](nb::handle data, std::optional<dc::DType> dtype) { return tensor_from_data(data, dtype, false); },
        nb::arg("data"), nb::arg("dtype") = nb::none());
  m.def("_dev_to", [](const Tensor& t, dc::DType d) {
    Tensor out = dc::to_copy(t, d);
    dc::reset_version(out);
    return out;
  }, nb::arg("self"), nb::arg("dtype"));
}
