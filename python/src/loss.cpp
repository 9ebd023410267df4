// Losses for Python: the torch._C._nn entry points nn.functional calls (nll_loss_nd,
// cross_entropy_loss, mse_loss) with the reduction already an int; thin forwarders to ops/loss.h.
#include <optional>

#include <nanobind/stl/optional.h>

#include "bindings.h"
#include "gil.h"
#include "int_args.h"

#include "densecore/ops/loss.h"

namespace {

using dc::Tensor;
using OptTensor = std::optional<Tensor>;

Tensor or_undefined(const OptTensor& t) { return t ? *t : Tensor(); }

}  // namespace

void bind_loss(nb::module_& m, TensorClass& cls) {
  m.def(
      "_nll_loss_nd",
      [](const Tensor& input, const Tensor& target, const OptTensor& weight, int_args::Int reduction, int_args::Int ignore_index) {
        gil::ReleaseIf release(gil::is_long(input));
        return dc::nll_loss_nd(input, target, or_undefined(weight), reduction, ignore_index);
      },
      nb::arg("input"), nb::arg("target"), nb::arg("weight").none() = nb::none(), nb::arg("reduction") = 1,
      nb::arg("ignore_index") = -100);
  m.def(
      "_cross_entropy_loss",
      [](const Tensor& input, const Tensor& target, const OptTensor& weight, int_args::Int reduction, int_args::Int ignore_index,
         double label_smoothing) {
        gil::ReleaseIf release(gil::is_long(input));
        return dc::cross_entropy(input, target, or_undefined(weight), reduction, ignore_index, label_smoothing);
      },
      nb::arg("input"), nb::arg("target"), nb::arg("weight").none() = nb::none(), nb::arg("reduction") = 1,
      nb::arg("ignore_index") = -100, nb::arg("label_smoothing") = 0.0);
  m.def("_mse_loss", DC_RELEASING_GIL(dc::mse_loss), nb::arg("input"), nb::arg("target"), nb::arg("reduction") = 1);
}
