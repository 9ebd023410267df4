// Factories (torch.tensor/as_tensor/from_numpy/zeros/arange/...), NumPy interop and the Python
// conversions of a tensor (item, tolist, float/int/bool/index, iteration, .to/.type/.float...).
// torch.tensor mirrors torch/csrc/utils/tensor_new.cpp; each element is stored as
// torch/csrc/utils/python_scalars.h store_scalar does.
#include <Python.h>

#include <nanobind/stl/optional.h>
#include <nanobind/stl/string.h>
#include <nanobind/stl/variant.h>
#include <nanobind/stl/vector.h>

#include "bindings.h"
#include "py_number.h"
#include "densecore/core/checked_convert.h"
#include "dtype_caster.h"
#include "int_args.h"
#include "densecore/ops/copy.h"
#include "densecore/ops/creation.h"
#include "densecore/ops/view.h"

namespace {

using dc::DType;
using dc::Tensor;

constexpr int kMaxDims = 128;  // tensor_new.cpp MAX_DIMS

// ---------------------------------------------------------------- small helpers

bool is_tensor(nb::handle h) { return nb::isinstance<Tensor>(h); }
bool is_ndarray(nb::handle h);
bool is_numpy_scalar(nb::handle h);

std::optional<DType> opt_dtype(nb::handle h, const char* fn) { return dtype_arg(h, fn); }

bool is_dtype(nb::handle h) { return nb::isinstance<PyDType>(h); }

// Only the CPU exists; anything else fails as a torch built without that backend would.
void check_device(nb::handle device) {
  if (!device.is_valid() || device.is_none()) return;
  const std::string s = nb::cast<std::string>(nb::str(device));
  if (s != "cpu" && s.rfind("cpu:", 0) != 0)
    throw dc::Error("densecore has no device '" + s + "'; only cpu is available");
}

void apply_requires_grad(nb::handle t, bool requires_grad) {
  if (requires_grad && nb::hasattr(t, "requires_grad_")) t.attr("requires_grad_")(true);
}

/// A Python number (or one-element tensor, or NumPy scalar) as the arg parser's Scalar.
dc::Scalar scalar_from_py(nb::handle h) {
  if (is_tensor(h) || is_ndarray(h)) return scalar_from_py(h.attr("item")());
  return py_number::scalar(h);
}

/// torch's `*size` parsing: zeros(2, 3), zeros((2, 3)), zeros([2, 3]), zeros(torch.Size(...)).
std::vector<int64_t> parse_sizes(const nb::args& args, const char* fname) {
  const std::span<PyObject* const> pos(PySequence_Fast_ITEMS(args.ptr()), args.size());
  const dc::DimVector sizes = int_args::varargs(pos, nullptr, 0, fname, "size");
  return {sizes.begin(), sizes.end()};
}

TensorObject finish(Tensor t, bool requires_grad) {
  nb::object o = nb::cast(std::move(t));
  apply_requires_grad(o, requires_grad);
  return o;
}

// ---------------------------------------------------------------- element <-> Python

nb::object element_to_py(const char* p, DType dtype) {
  return dc::dispatch_dtype(dtype, [&]<class T>() -> nb::object {
    const T v = *reinterpret_cast<const T*>(p);
    if constexpr (std::is_same_v<T, bool>) return nb::bool_(v);
    else if constexpr (std::is_integral_v<T>) return nb::int_(int64_t(v));
    else if constexpr (dc::is_reduced_float_v<T>) return nb::float_(double(float(v)));
    else return nb::float_(double(v));
  });
}

nb::object tolist_at(const Tensor& t, int64_t dim, int64_t offset) {
  const char* base = static_cast<const char*>(t.storage()->data());
  if (dim == t.dim()) return element_to_py(base + offset * int64_t(t.itemsize()), t.dtype());
  nb::list out;
  for (int64_t i = 0; i < t.sizes()[dim]; ++i)
    out.append(tolist_at(t, dim + 1, offset + i * t.strides()[dim]));
  return out;
}

/// Typed for the stub as torch's Number: the element as a Python bool, int or float by dtype.
nb::typed<nb::object, std::variant<bool, int64_t, double>> py_item(const Tensor& t) {
  dc::check(t.numel() == 1, "a Tensor with {} elements cannot be converted to Scalar", t.numel());
  const char* base = static_cast<const char*>(t.storage()->data());
  return element_to_py(base + t.storage_offset() * int64_t(t.itemsize()), t.dtype());
}

void check_one_element(const Tensor& t) {
  if (t.numel() != 1) throw nb::value_error("only one element tensors can be converted to Python scalars");
}

/// Tensor i along dim 0 (a view), for iteration and printing (torch's select(0, i)).
Tensor select0(const Tensor& t, int64_t i) {
  dc::check<dc::IndexError>(t.dim() > 0, "select() cannot be applied to a 0-dim tensor.");
  const int64_t n = t.sizes()[0];
  dc::check<dc::IndexError>(i >= -n && i < n,
                            "select(): index {} out of range for tensor of size {} at dimension 0",
                            i, dc::shape_text(t.sizes()));
  if (i < 0) i += n;
  std::vector<int64_t> sizes(t.sizes().begin() + 1, t.sizes().end());
  std::vector<int64_t> strides(t.strides().begin() + 1, t.strides().end());
  return t.as_strided_view(sizes, strides, t.storage_offset() + i * t.strides()[0]);
}

// ---------------------------------------------------------------- NumPy

nb::module_ numpy() { return nb::module_::import_("numpy"); }

bool numpy_loaded() { return PyDict_GetItemString(PyImport_GetModuleDict(), "numpy") != nullptr; }

bool is_ndarray(nb::handle h) {
  return numpy_loaded() && PyObject_IsInstance(h.ptr(), numpy().attr("ndarray").ptr()) == 1;
}
bool is_numpy_scalar(nb::handle h) {
  return numpy_loaded() && PyObject_IsInstance(h.ptr(), numpy().attr("generic").ptr()) == 1;
}

std::optional<DType> dtype_from_typestr(const std::string& ts) {
  if (ts.size() < 3 || ts[0] == '>') return std::nullopt;
  const char kind = ts[1];
  const int size = std::stoi(ts.substr(2));
  if (kind == 'b' && size == 1) return DType::Bool;
  if (kind == 'u' && size == 1) return DType::UInt8;
  if (kind == 'i') {
    if (size == 1) return DType::Int8;
    if (size == 2) return DType::Int16;
    if (size == 4) return DType::Int32;
    if (size == 8) return DType::Int64;
  }
  if (kind == 'f') {
    if (size == 2) return DType::Float16;
    if (size == 4) return DType::Float32;
    if (size == 8) return DType::Float64;
  }
  return std::nullopt;
}

/// numpy_dtype_to_aten: TypeError naming the NumPy type for dtypes we cannot hold.
DType dtype_from_numpy(nb::handle np_dtype) {
  const auto t = dtype_from_typestr(nb::cast<std::string>(np_dtype.attr("str")));
  if (t) return *t;
  const std::string name = nb::cast<std::string>(np_dtype.attr("type").attr("__name__"));
  throw nb::type_error(("can't convert np.ndarray of type numpy." + name +
                        ". The only supported types are: float64, float32, float16, complex64, "
                        "complex128, int64, int32, int16, int8, uint64, uint32, uint16, uint8, and "
                        "bool.")
                           .c_str());
}

std::string numpy_typestr(DType t) {
  switch (t) {
    case DType::Bool: return "|b1";
    case DType::UInt8: return "|u1";
    case DType::Int8: return "|i1";
    case DType::Int16: return "<i2";
    case DType::Int32: return "<i4";
    case DType::Int64: return "<i8";
    case DType::Float16: return "<f2";
    case DType::Float32: return "<f4";
    case DType::Float64: return "<f8";
    case DType::BFloat16: break;
  }
  throw nb::type_error("Got unsupported ScalarType BFloat16");
}

/// torch.from_numpy: a tensor over the array's memory; the array lives as long as the storage.
Tensor tensor_from_numpy(nb::handle arr) {
  const DType dtype = dtype_from_numpy(arr.attr("dtype"));
  nb::dict ai = nb::borrow<nb::dict>(arr.attr("__array_interface__"));
  const auto sizes = nb::cast<std::vector<int64_t>>(ai["shape"]);
  const int64_t item = int64_t(dc::itemsize(dtype));
  std::vector<int64_t> strides;
  if (ai["strides"].is_none()) {
    strides = dc::contiguous_strides(sizes);
  } else {
    for (int64_t b : nb::cast<std::vector<int64_t>>(ai["strides"])) {
      if (b < 0)
        throw nb::value_error(
            "At least one stride in the given numpy array is negative, and tensors with negative "
            "strides are not currently supported. (You can probably work around this by making a "
            "copy of your array  with array.copy().) ");
      if (b % item != 0)
        throw nb::value_error(
            "given numpy array strides not a multiple of the element byte size. Copy the numpy "
            "array to reallocate the memory.");
      strides.push_back(b / item);
    }
  }
  int64_t extent = 1;  // elements spanned by the view
  for (size_t d = 0; d < sizes.size(); ++d) extent = sizes[d] == 0 ? 0 : extent + (sizes[d] - 1) * strides[d];
  for (int64_t s : sizes) if (s == 0) extent = 0;
  void* data = reinterpret_cast<void*>(nb::cast<uintptr_t>(nb::borrow<nb::tuple>(ai["data"])[0]));
  PyObject* owner = arr.ptr();
  Py_INCREF(owner);
  auto release = [owner] {
    if (!Py_IsInitialized()) return;
    nb::gil_scoped_acquire gil;
    Py_DECREF(owner);
  };
  auto storage = std::make_shared<dc::StorageImpl>(data, size_t(extent * item), release);
  return Tensor::from_storage(storage, sizes, strides, 0, dtype);
}

/// Holds a tensor and exposes it through __array_interface__, so np.asarray views its memory.
struct NumpyOwner {
  Tensor t;
};

nb::dict array_interface(const Tensor& t) {
  nb::dict d;
  std::vector<int64_t> byte_strides;
  for (int64_t s : t.strides()) byte_strides.push_back(s * int64_t(t.itemsize()));
  d["shape"] = nb::tuple(nb::cast(t.sizes()));
  d["strides"] = nb::tuple(nb::cast(byte_strides));
  d["typestr"] = numpy_typestr(t.dtype());
  d["data"] = nb::make_tuple(reinterpret_cast<uintptr_t>(t.data_ptr()), false);
  d["version"] = 3;
  return d;
}

nb::object tensor_numpy(const Tensor& t) {
  const std::string typestr = numpy_typestr(t.dtype());  // TypeError for bfloat16 first
  if (t.numel() == 0)
    return numpy().attr("empty")(nb::tuple(nb::cast(t.sizes())), numpy().attr("dtype")(typestr));
  return numpy().attr("asarray")(nb::cast(NumpyOwner{t}));
}

// ---------------------------------------------------------------- torch.tensor(data)

bool is_string(nb::handle h) { return PyUnicode_Check(h.ptr()) || PyBytes_Check(h.ptr()); }

nb::builtin_exception invalid_data_type(nb::handle h) {
  return nb::type_error(
      (std::string("new(): invalid data type '") + Py_TYPE(h.ptr())->tp_name + "'").c_str());
}

bool is_data_sequence(nb::handle h) { return !is_tensor(h) && PySequence_Check(h.ptr()); }

std::vector<int64_t> compute_sizes(nb::handle seq) {
  std::vector<int64_t> sizes;
  nb::object obj = nb::borrow(seq);
  while (is_data_sequence(obj)) {
    const Py_ssize_t length = PySequence_Length(obj.ptr());
    if (length < 0) throw nb::python_error();
    sizes.push_back(length);
    if (sizes.size() > size_t(kMaxDims))
      throw nb::value_error(
          (std::string("too many dimensions '") + Py_TYPE(obj.ptr())->tp_name + "'").c_str());
    if (length == 0) break;
    PyObject* first = PySequence_GetItem(obj.ptr(), 0);
    if (!first) throw nb::python_error();
    obj = nb::steal(first);
  }
  return sizes;
}

DType infer_dtype(nb::handle obj) {
  if (is_ndarray(obj) || is_numpy_scalar(obj)) return dtype_from_numpy(obj.attr("dtype"));
  if (PyFloat_Check(obj.ptr())) return dc::default_dtype();
  if (PyLong_Check(obj.ptr()) && !PyBool_Check(obj.ptr())) return DType::Int64;
  if (PyBool_Check(obj.ptr())) return DType::Bool;
  if (PyComplex_Check(obj.ptr())) throw dc::NotImplementedError("densecore has no complex dtypes");
  if (is_tensor(obj)) return nb::cast<const Tensor&>(obj).dtype();
  if (is_string(obj)) throw invalid_data_type(obj);
  if (PySequence_Check(obj.ptr())) {
    const Py_ssize_t length = PySequence_Length(obj.ptr());
    if (length < 0) throw nb::python_error();
    if (length == 0) return dc::default_dtype();
    std::optional<DType> result;
    for (Py_ssize_t i = 0; i < length; ++i) {
      nb::object item = nb::steal(PySequence_GetItem(obj.ptr(), i));
      if (!item.is_valid()) throw nb::python_error();
      if (item.ptr() == obj.ptr()) throw nb::type_error("new(): self-referential lists are incompatible");
      const DType t = infer_dtype(item);
      result = result ? dc::promote_types(*result, t) : t;
    }
    return *result;
  }
  throw dc::Error(std::string("Could not infer dtype of ") + Py_TYPE(obj.ptr())->tp_name);
}

double unpack_double(nb::handle obj) {
  if (PyFloat_Check(obj.ptr())) return PyFloat_AS_DOUBLE(obj.ptr());
  const double v = PyFloat_AsDouble(obj.ptr());
  if (v == -1.0 && PyErr_Occurred()) throw nb::python_error();
  return v;
}

bool unpack_number_as_bool(nb::handle obj) {
  if (PyFloat_Check(obj.ptr())) return PyFloat_AS_DOUBLE(obj.ptr()) != 0;
  if (is_numpy_scalar(obj) || is_tensor(obj)) return PyObject_IsTrue(obj.ptr()) == 1;
  int overflow = 0;  // overflow means a huge int: true, like NumPy
  const long long v = PyLong_AsLongLongAndOverflow(obj.ptr(), &overflow);
  if (v == -1 && PyErr_Occurred()) throw nb::python_error();
  return v != 0;
}

// python_scalars.h store_scalar: ints are range-checked (floats truncated); float32 is
// (float)double; float16/bfloat16 round double -> float -> half.
void store_scalar(char* p, DType dtype, nb::handle obj) {
  dc::dispatch_dtype(dtype, [&]<class T>() {
    T* out = reinterpret_cast<T*>(p);
    if constexpr (std::is_same_v<T, bool>) {
      *out = unpack_number_as_bool(obj);
    } else if constexpr (std::is_integral_v<T>) {
      const std::string_view name = dc::dtype_name(dtype);
      *out = PyFloat_Check(obj.ptr())
                 ? dc::checked_convert<T>(dc::Scalar::from_double(unpack_double(obj)), name)
                 : dc::checked_convert<T>(dc::Scalar::from_int(py_number::unpack_long(obj)), name);
    } else {
      *out = dc::convert<T>(unpack_double(obj));
    }
  });
}

void recursive_store(char* data, const std::vector<int64_t>& sizes, const dc::Strides& strides,
                     size_t dim, DType dtype, size_t item, nb::handle obj) {
  if (dim == sizes.size()) {
    store_scalar(data, dtype, obj);
    return;
  }
  nb::object seq = nb::steal(PySequence_Fast(obj.ptr(), "not a sequence"));
  if (!seq.is_valid()) throw nb::python_error();
  const int64_t n = sizes[dim];
  const Py_ssize_t got = PySequence_Fast_GET_SIZE(seq.ptr());
  if (got != n)
    throw nb::value_error(("expected sequence of length " + std::to_string(n) + " at dim " +
                           std::to_string(dim) + " (got " + std::to_string(got) + ")")
                              .c_str());
  PyObject** items = PySequence_Fast_ITEMS(seq.ptr());
  for (int64_t i = 0; i < n; ++i) {
    recursive_store(data, sizes, strides, dim + 1, dtype, item, items[i]);
    data += strides[dim] * int64_t(item);
  }
}

Tensor tensor_from_sequence(nb::handle data, std::optional<DType> dtype) {
  const std::vector<int64_t> sizes = compute_sizes(data);
  const DType dt = dtype ? *dtype : infer_dtype(data);
  Tensor t = dc::empty(sizes, dt);
  if (t.numel() != 0)
    recursive_store(static_cast<char*>(t.data_ptr()), sizes, t.strides(), 0, dt, t.itemsize(), data);
  return t;
}

/// tensor_new.cpp internal_new_from_data; copy=false is as_tensor (may share memory).
TensorObject new_from_data(nb::handle data, std::optional<DType> dtype, bool copy) {
  if (is_string(data)) throw invalid_data_type(data);
  if (is_tensor(data)) {
    const Tensor& src = nb::cast<const Tensor&>(data);
    if (!copy && (!dtype || *dtype == src.dtype())) return nb::borrow(data);
    // torch.tensor(t) copies t.detach(): a new leaf; as_tensor keeps the history of a dtype change.
    return nb::cast(dc::to_copy(copy ? dc::detach(src) : src, dtype.value_or(src.dtype())));
  }
  if (is_ndarray(data)) {
    Tensor src = tensor_from_numpy(data);
    if (!copy && (!dtype || *dtype == src.dtype())) return nb::cast(src);
    return nb::cast(dc::to_copy(src, dtype.value_or(src.dtype())));
  }
  return nb::cast(tensor_from_sequence(data, dtype));
}

// ---------------------------------------------------------------- .to / .type

// Tensor.to(dtype) / to(device, dtype) / to(other) / to(dtype=..., copy=...): self when nothing
// changes and no copy is asked for, as torch.
TensorObject tensor_to(nb::pointer_and_handle<Tensor> self, const nb::args& args, const nb::kwargs& kw) {
  std::optional<DType> dtype;
  bool copy = false;
  for (nb::handle a : args) {
    if (is_dtype(a)) dtype = nb::cast<DType>(a);
    else if (is_tensor(a)) dtype = nb::cast<const Tensor&>(a).dtype();
    else if (PyBool_Check(a.ptr())) continue;  // non_blocking / copy given positionally
    else check_device(a);
  }
  for (auto [k, v] : kw) {
    const std::string key = nb::cast<std::string>(k);
    if (key == "dtype") dtype = opt_dtype(v, "to");
    else if (key == "device") check_device(v);
    else if (key == "copy") copy = bool_arg(v, "to", "copy");
    else if (key == "non_blocking" || key == "memory_format") continue;
    else throw nb::type_error(("to() got an unexpected keyword argument '" + key + "'").c_str());
  }
  const Tensor& t = *self.p;
  if (!copy && (!dtype || *dtype == t.dtype())) return nb::borrow(self.h);
  return nb::cast(dc::to_copy(t, dtype.value_or(t.dtype())));
}

nb::object tensor_type(nb::pointer_and_handle<Tensor> self, nb::handle dtype) {
  const Tensor& t = *self.p;
  if (!dtype.is_valid() || dtype.is_none()) return nb::str(dc::tensor_type_name(t.dtype()).c_str());
  DType target;
  if (PyUnicode_Check(dtype.ptr())) {
    const std::string name = nb::cast<std::string>(dtype);
    bool found = false;
    for (int i = 0; i < dc::kDTypeCount && !found; ++i)
      if (dc::tensor_type_name(DType(i)) == name) target = DType(i), found = true;
    if (!found) throw nb::value_error(("invalid type: '" + name + "'").c_str());
  } else {
    target = *dtype_arg(dtype, "type", /*none_ok=*/false);
  }
  if (target == t.dtype()) return nb::borrow(self.h);
  return nb::cast(dc::to_copy(t, target));
}

void bind_conversion_methods(TensorClass& cls) {
  const std::pair<const char*, DType> casts[] = {
      {"float", DType::Float32}, {"double", DType::Float64}, {"half", DType::Float16},
      {"bfloat16", DType::BFloat16}, {"long", DType::Int64}, {"int", DType::Int32},
      {"short", DType::Int16}, {"char", DType::Int8}, {"byte", DType::UInt8}, {"bool", DType::Bool},
  };
  for (const auto& [name, dt] : casts) {
    const DType target = dt;
    cls.def(name, [target](nb::pointer_and_handle<Tensor> self) -> TensorObject {
      if (self.p->dtype() == target) return nb::borrow(self.h);
      return nb::cast(dc::to_copy(*self.p, target));
    });
  }
  cls.def("to", &tensor_to)
      .def("type", &tensor_type, nb::arg("dtype") = nb::none())
      .def("cpu", [](nb::pointer_and_handle<Tensor> self) { return TensorObject(nb::borrow(self.h)); });
}

void bind_python_conversions(TensorClass& cls) {
  cls.def("item", &py_item)
      .def("tolist", [](const Tensor& t) { return tolist_at(t, 0, t.storage_offset()); })
      .def("__float__", [](const Tensor& t) {
        check_one_element(t);
        return nb::float_(py_item(t));
      })
      .def("__int__", [](const Tensor& t) {
        check_one_element(t);
        return nb::steal(PyNumber_Long(py_item(t).ptr()));
      })
      .def("__bool__", [](const Tensor& t) {
        dc::check(t.numel() != 0, "Boolean value of Tensor with no values is ambiguous");
        dc::check(t.numel() == 1, "Boolean value of Tensor with more than one value is ambiguous");
        return PyObject_IsTrue(py_item(t).ptr()) == 1;
      })
      .def("__index__", [](const Tensor& t) {
        if (!dc::is_integral(t.dtype(), /*include_bool=*/true) || t.numel() != 1)
          throw nb::type_error("only integer tensors of a single element can be converted to an index");
        return py_item(t);
      })
      .def("__format__", [](nb::pointer_and_handle<Tensor> self, const std::string& spec) -> nb::object {
        if (self.p->dim() == 0) return py_item(*self.p).attr("__format__")(spec);
        if (spec.empty()) return nb::str(self.h);
        throw nb::type_error("unsupported format string passed to Tensor.__format__");
      })
      .def("__iter__", [](const Tensor& t) {
        dc::check<dc::TypeError>(t.dim() > 0, "iteration over a 0-d tensor");
        // torch iterates through unbind(0): the rows are views with UnbindBackward0.
        nb::list views;
        for (const Tensor& row : dc::unbind(t, 0)) views.append(nb::cast(row));
        return nb::iter(views);
      })
      .def("numpy", [](const Tensor& t, bool) { return tensor_numpy(t); }, nb::arg("force") = false)
      .def("__array__", [](const Tensor& t, nb::handle dtype, nb::handle) -> nb::object {
        nb::object a = tensor_numpy(t);
        if (dtype.is_valid() && !dtype.is_none()) return a.attr("astype")(dtype, nb::arg("copy") = false);
        return a;
      }, nb::arg("dtype") = nb::none(), nb::arg("copy") = nb::none());
}

// ---------------------------------------------------------------- factories

void bind_size_factory(nb::module_& m, const char* name, Tensor (*make)(std::span<const int64_t>, DType)) {
  m.def(name, [name, make](nb::args args, nb::handle dtype, nb::handle device, bool requires_grad,
                           nb::handle, nb::handle, nb::handle) {
    check_device(device);
    return finish(make(parse_sizes(args, name), opt_dtype(dtype, name).value_or(dc::default_dtype())),
                  requires_grad);
  }, nb::arg("size"), nb::arg("dtype") = nb::none(), nb::arg("device") = nb::none(),
     nb::arg("requires_grad") = false, nb::arg("layout") = nb::none(),
     nb::arg("pin_memory") = nb::none(), nb::arg("out") = nb::none());
}

void bind_like_factory(nb::module_& m, const char* name,
                       Tensor (*make)(const Tensor&, std::optional<DType>)) {
  m.def(name, [name, make](const Tensor& t, nb::handle dtype, nb::handle device, bool requires_grad,
                           nb::handle, nb::handle) {
    check_device(device);
    return finish(make(t, opt_dtype(dtype, name)), requires_grad);
  }, nb::arg("input"), nb::kw_only(), nb::arg("dtype") = nb::none(), nb::arg("device") = nb::none(),
     nb::arg("requires_grad") = false, nb::arg("layout") = nb::none(),
     nb::arg("memory_format") = nb::none());
}

TensorObject py_arange(nb::args args, nb::handle dtype, nb::handle device, bool requires_grad) {
  check_device(device);
  dc::check<dc::TypeError>(args.size() >= 1 && args.size() <= 3,
                           "arange() received an invalid combination of arguments");
  dc::Scalar start = dc::Scalar::from_int(0), step = dc::Scalar::from_int(1), end;
  if (args.size() == 1) {
    end = scalar_from_py(args[0]);
  } else {
    start = scalar_from_py(args[0]);
    end = scalar_from_py(args[1]);
    if (args.size() == 3) step = scalar_from_py(args[2]);
  }
  return finish(dc::arange(start, end, step, opt_dtype(dtype, "arange")), requires_grad);
}

void bind_factories(nb::module_& m) {
  bind_size_factory(m, "empty", &dc::empty);
  bind_size_factory(m, "zeros", &dc::zeros);
  bind_size_factory(m, "ones", &dc::ones);
  bind_like_factory(m, "empty_like", &dc::empty_like);
  bind_like_factory(m, "zeros_like", &dc::zeros_like);
  bind_like_factory(m, "ones_like", &dc::ones_like);

  m.def("full", [](nb::handle size, nb::handle value, nb::handle dtype, nb::handle device,
                   bool requires_grad, nb::handle, nb::handle, nb::handle) {
    check_device(device);
    const dc::Scalar v = scalar_from_py(value);
    // A Python int beyond int64 is held as a double but still infers int64, as in torch.
    const DType inferred = PyLong_Check(value.ptr()) && !PyBool_Check(value.ptr()) ? DType::Int64
                                                                                    : dc::full_dtype(v);
    return finish(dc::full(int_args::to_int_list(size, "full", "size", 1), v, opt_dtype(dtype, "full").value_or(inferred)),
                  requires_grad);
  }, nb::arg("size"), nb::arg("fill_value"), nb::kw_only(), nb::arg("dtype") = nb::none(),
     nb::arg("device") = nb::none(), nb::arg("requires_grad") = false, nb::arg("layout") = nb::none(),
     nb::arg("pin_memory") = nb::none(), nb::arg("out") = nb::none());
  m.def("full_like", [](const Tensor& t, nb::handle value, nb::handle dtype, nb::handle device,
                        bool requires_grad, nb::handle, nb::handle) {
    check_device(device);
    return finish(dc::full_like(t, scalar_from_py(value), opt_dtype(dtype, "full_like")), requires_grad);
  }, nb::arg("input"), nb::arg("fill_value"), nb::kw_only(), nb::arg("dtype") = nb::none(),
     nb::arg("device") = nb::none(), nb::arg("requires_grad") = false, nb::arg("layout") = nb::none(),
     nb::arg("memory_format") = nb::none());

  m.def("arange", &py_arange, nb::arg("args"), nb::arg("dtype") = nb::none(),
        nb::arg("device") = nb::none(), nb::arg("requires_grad") = false);
  m.def("linspace", [](nb::handle start, nb::handle end, int_args::Int steps, nb::handle dtype,
                       nb::handle device, bool requires_grad) {
    check_device(device);
    return finish(dc::linspace(scalar_from_py(start), scalar_from_py(end), steps, opt_dtype(dtype, "linspace")),
                  requires_grad);
  }, nb::arg("start"), nb::arg("end"), nb::arg("steps"), nb::kw_only(), nb::arg("dtype") = nb::none(),
     nb::arg("device") = nb::none(), nb::arg("requires_grad") = false);
  m.def("eye", [](int_args::Int n, std::optional<int_args::Int> m_, nb::handle dtype, nb::handle device,
                  bool requires_grad) {
    check_device(device);
    return finish(dc::eye(n, m_ ? std::optional<int64_t>(*m_) : std::nullopt, opt_dtype(dtype, "eye").value_or(dc::default_dtype())), requires_grad);
  }, nb::arg("n"), nb::arg("m") = nb::none(), nb::kw_only(), nb::arg("dtype") = nb::none(),
     nb::arg("device") = nb::none(), nb::arg("requires_grad") = false);

  m.def("tensor", [](nb::handle data, nb::handle dtype, nb::handle device, bool requires_grad,
                     nb::handle) {
    check_device(device);
    TensorObject t = new_from_data(data, opt_dtype(dtype, "tensor"), /*copy=*/true);
    apply_requires_grad(t, requires_grad);
    return t;
  }, nb::arg("data").none(), nb::kw_only(), nb::arg("dtype") = nb::none(), nb::arg("device") = nb::none(),
     nb::arg("requires_grad") = false, nb::arg("pin_memory") = false);
  m.def("as_tensor", [](nb::handle data, nb::handle dtype, nb::handle device) {
    check_device(device);
    return new_from_data(data, opt_dtype(dtype, "as_tensor"), /*copy=*/false);
  }, nb::arg("data").none(), nb::arg("dtype") = nb::none(), nb::arg("device") = nb::none());
  m.def("from_numpy", [](nb::handle arr) {
    if (!is_ndarray(arr))
      throw nb::type_error((std::string("expected np.ndarray (got ") + Py_TYPE(arr.ptr())->tp_name + ")").c_str());
    return tensor_from_numpy(arr);
  }, nb::arg("ndarray"));
  m.def("_select0", &select0);
}

}  // namespace

void bind_creation(nb::module_& m, TensorClass& cls) {
  nb::class_<NumpyOwner>(m, "_NumpyOwner")
      .def_prop_ro("__array_interface__", [](const NumpyOwner& o) { return array_interface(o.t); });
  bind_factories(m);
  bind_python_conversions(cls);
  bind_conversion_methods(cls);
  cls.def("fill_", [](nb::pointer_and_handle<Tensor> self, nb::handle value) {
        if (is_tensor(value)) dc::fill_(*self.p, nb::cast<const Tensor&>(value));
        else dc::fill_(*self.p, py_number::to_scalar(value, "fill_", "value"));
        return nb::borrow(self.h);
      });
}
