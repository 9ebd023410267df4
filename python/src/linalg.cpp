// Bindings for the matmul family: torch.matmul, Tensor.matmul and @, and _C.linear
// (densecore.nn.functional.linear). mm, addmm, bmm, mv and dot are op rows (csrc/op_rows.toml), bound by
// bind_rows.
#include <cstring>
#include <optional>

#include <nanobind/stl/optional.h>
#include <nanobind/stl/vector.h>

#include "bindings.h"
#include "gil.h"
#include "dtype_caster.h"
#include "densecore/core/error.h"
#include "densecore/ops/linalg.h"

namespace {


// a @ b with a non-tensor operand: NotImplemented, so Python raises torch's TypeError. Typed Tensor for the
// stub all the same, as the other operators (elementwise.cpp: dunder).
TensorObject matmul_op(const dc::Tensor& a, nb::handle b, bool reflected) {
  dc::Tensor* bt = nullptr;
  if (!nb::try_cast<dc::Tensor*>(b, bt) || bt == nullptr) return nb::borrow(Py_NotImplemented);
  dc::Tensor r;
  {
    gil::ReleaseIf release(gil::is_long_product(a, *bt));
    r = reflected ? dc::matmul(*bt, a) : dc::matmul(a, *bt);
  }
  return nb::cast(std::move(r));
}

// A two-operand product, with the GIL released while it runs when it is not tiny.
template <dc::Tensor (*F)(const dc::Tensor&, const dc::Tensor&)>
dc::Tensor product(const dc::Tensor& a, const dc::Tensor& b) {
  gil::ReleaseIf release(gil::is_long_product(a, b));
  return F(a, b);
}

}  // namespace

void bind_linalg(nb::module_& m, TensorClass& cls) {
  m.def("matmul", &product<dc::matmul>, nb::arg("input"), nb::arg("other"));
  m.def(
      "linear",
      [](const dc::Tensor& input, const dc::Tensor& weight, std::optional<dc::Tensor> bias) {
        gil::ReleaseIf release(gil::is_long_product(input, weight));
        return dc::linear(input, weight, bias.value_or(dc::Tensor()));
      },
      nb::arg("input"), nb::arg("weight"), nb::arg("bias") = nb::none());
  // _tensor_from_bytes moved to serialization.cpp (same name).

  cls.def("matmul", &product<dc::matmul>, nb::arg("other"))
      .def("__matmul__", [](const dc::Tensor& a, nb::handle b) { return matmul_op(a, b, false); })
      .def("__rmatmul__", [](const dc::Tensor& a, nb::handle b) { return matmul_op(a, b, true); });
}
