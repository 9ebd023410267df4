// Bindings for the matmul family: torch.matmul, Tensor.matmul and _C.linear
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

  cls.def("matmul", &product<dc::matmul>, nb::arg("other"));  // @ is a number slot (number_slots.cpp)
}
