// torch.dtype objects: torch.float32 etc., with torch's repr, aliases and properties.
#include <array>
#include <string>

#include <nanobind/stl/string.h>

#include "bindings.h"
#include "dtype_caster.h"

namespace {
// Borrowed: the module attributes own the objects.
std::array<nb::handle, dc::kDTypeCount> g_dtype_objects;
}

nb::handle dtype_object(dc::DType t) { return g_dtype_objects[static_cast<int>(t)]; }

void bind_dtype(nb::module_& m) {
  nb::class_<PyDType>(m, "dtype")
      .def("__repr__", [](const PyDType& d) { return "torch." + std::string(dc::dtype_name(d.value)); })
      .def_prop_ro("is_floating_point", [](const PyDType& d) { return dc::is_floating(d.value); })
      .def_prop_ro("is_complex", [](const PyDType&) { return false; })
      .def_prop_ro("is_signed", [](const PyDType& d) { return dc::is_signed(d.value); })
      .def_prop_ro("itemsize", [](const PyDType& d) { return dc::itemsize(d.value); })
      .def("__reduce__", [](const PyDType& d) { return std::string(dc::dtype_name(d.value)); });

  for (int i = 0; i < dc::kDTypeCount; ++i) {
    const auto t = static_cast<dc::DType>(i);
    nb::object obj = nb::cast(PyDType{t});
    m.attr(std::string(dc::dtype_name(t)).c_str()) = obj;
    g_dtype_objects[i] = obj;
  }
  // torch's aliases are the same objects.
  const std::pair<const char*, dc::DType> aliases[] = {
      {"float", dc::DType::Float32}, {"double", dc::DType::Float64}, {"half", dc::DType::Float16},
      {"int", dc::DType::Int32},     {"long", dc::DType::Int64},     {"short", dc::DType::Int16},
  };
  for (const auto& [name, t] : aliases) m.attr(name) = dtype_object(t);

  m.def("get_default_dtype", &dc::default_dtype);
  m.def("set_default_dtype", &dc::set_default_dtype, nb::arg("d"));
  m.def("promote_types", &dc::promote_types, nb::arg("type1"), nb::arg("type2"));
}
