// Bindings for the matmul family: torch.mm/addmm/bmm/mv/dot/matmul, the Tensor methods and @, and
// _C.linear (densecore.nn.functional.linear). Plus a private as_strided helper used by the matmul sweep.
#include <cstring>
#include <optional>

#include <nanobind/stl/optional.h>
#include <nanobind/stl/vector.h>

#include "bindings.h"
#include "dtype_caster.h"
#include "densecore/core/error.h"
#include "densecore/ops/linalg.h"

namespace {

// A Python number as torch's parser reads a Scalar argument (bool before int: bool is an int).
dc::Scalar to_scalar(nb::handle h) {
  if (PyBool_Check(h.ptr())) return dc::Scalar::from_bool(h.ptr() == Py_True);
  if (PyLong_Check(h.ptr())) return dc::Scalar::from_int(nb::cast<int64_t>(h));
  if (PyFloat_Check(h.ptr())) return dc::Scalar::from_double(nb::cast<double>(h));
  throw dc::TypeError(dc::format("expected a number for beta/alpha, got {}",
                                 nb::type_name(h.type()).c_str()));
}

dc::Tensor addmm_py(const dc::Tensor& self, const dc::Tensor& m1, const dc::Tensor& m2,
                    nb::handle beta, nb::handle alpha) {
  return dc::addmm(self, m1, m2, to_scalar(beta), to_scalar(alpha));
}

// a @ b with a non-tensor operand: NotImplemented, so Python raises torch's TypeError.
nb::object matmul_op(const dc::Tensor& a, nb::handle b, bool reflected) {
  dc::Tensor* bt = nullptr;
  if (!nb::try_cast<dc::Tensor*>(b, bt) || bt == nullptr) return nb::borrow(Py_NotImplemented);
  return nb::cast(reflected ? dc::matmul(*bt, a) : dc::matmul(a, *bt));
}

// Private: torch.as_strided without bounds beyond the storage (sweep operands: slices, transposes).
dc::Tensor as_strided(const dc::Tensor& t, const std::vector<int64_t>& size,
                      const std::vector<int64_t>& stride, std::optional<int64_t> offset) {
  int64_t last = offset.value_or(t.storage_offset());
  for (size_t i = 0; i < size.size(); ++i)
    if (size[i] > 0) last += (size[i] - 1) * stride[i];
  dc::check(size_t(last + 1) * t.itemsize() <= t.storage()->nbytes(),
            "setStorage: sizes/strides out of bounds of the storage");
  return t.as_strided_view(size, stride, offset.value_or(t.storage_offset()));
}

}  // namespace

void bind_linalg(nb::module_& m, TensorClass& cls) {
  m.def("mm", &dc::mm, nb::arg("input"), nb::arg("mat2"));
  m.def("bmm", &dc::bmm, nb::arg("input"), nb::arg("mat2"));
  m.def("mv", &dc::mv, nb::arg("input"), nb::arg("vec"));
  m.def("dot", &dc::dot, nb::arg("input"), nb::arg("tensor"));
  m.def("matmul", &dc::matmul, nb::arg("input"), nb::arg("other"));
  m.def("addmm", &addmm_py, nb::arg("input"), nb::arg("mat1"), nb::arg("mat2"), nb::kw_only(),
        nb::arg("beta") = 1, nb::arg("alpha") = 1);
  m.def(
      "linear",
      [](const dc::Tensor& input, const dc::Tensor& weight, std::optional<dc::Tensor> bias) {
        return dc::linear(input, weight, bias.value_or(dc::Tensor()));
      },
      nb::arg("input"), nb::arg("weight"), nb::arg("bias") = nb::none());
  // _tensor_from_bytes moved to serialization.cpp (same name).
  m.def("_dc_as_strided", &as_strided, nb::arg("input"), nb::arg("size"), nb::arg("stride"),
        nb::arg("storage_offset") = nb::none());

  cls.def("mm", &dc::mm, nb::arg("mat2"))
      .def("bmm", &dc::bmm, nb::arg("mat2"))
      .def("mv", &dc::mv, nb::arg("vec"))
      .def("dot", &dc::dot, nb::arg("tensor"))
      .def("matmul", &dc::matmul, nb::arg("other"))
      .def("addmm", &addmm_py, nb::arg("mat1"), nb::arg("mat2"), nb::kw_only(),
           nb::arg("beta") = 1, nb::arg("alpha") = 1)
      .def("__matmul__", [](const dc::Tensor& a, nb::handle b) { return matmul_op(a, b, false); })
      .def("__rmatmul__", [](const dc::Tensor& a, nb::handle b) { return matmul_op(a, b, true); });
}
