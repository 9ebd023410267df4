// nn ops: embedding, native_layer_norm / layer_norm (+ backward), gelu (+ backward), dropout.
// Thin forwarders with torch's names and keywords; logic lives in csrc/densecore/ops/nn.cpp.
#include <nanobind/stl/array.h>
#include <nanobind/stl/string.h>
#include <nanobind/stl/tuple.h>

#include "bindings.h"
#include "gil.h"
#include "int_args.h"
#include "densecore/ops/nn.h"

namespace {

using dc::Tensor;

Tensor opt_tensor(nb::handle h) { return opt_tensor_arg(h, "layer_norm", "weight"); }
nb::object or_none(const Tensor& t) { return t.defined() ? nb::cast(t) : nb::none(); }

}  // namespace

void bind_nn(nb::module_& m, TensorClass& cls) {
  // embedding is an op row: its Python function is generated (csrc/op_rows.toml).
  m.def("embedding_dense_backward", &dc::embedding_dense_backward, nb::arg("grad_output"), nb::arg("indices"),
        nb::arg("num_weights"), nb::arg("padding_idx"), nb::arg("scale_grad_by_freq"));
  m.def("native_layer_norm",
        [](const Tensor& input, nb::handle shape, nb::handle weight, nb::handle bias, double eps) {
          const auto s = int_args::to_int_list(shape, "native_layer_norm", "normalized_shape");
          return dc::native_layer_norm(input, s, opt_tensor(weight), opt_tensor(bias), eps);
        },
        nb::arg("input"), nb::arg("normalized_shape"), nb::arg("weight").none(), nb::arg("bias").none(),
        nb::arg("eps"));
  m.def("native_layer_norm_backward",
        [](const Tensor& g, const Tensor& input, nb::handle shape, const Tensor& mean, const Tensor& rstd,
           nb::handle weight, nb::handle bias, std::array<bool, 3> mask) {
          const auto s = int_args::to_int_list(shape, "native_layer_norm_backward", "normalized_shape");
          auto [dx, dw, db] = dc::native_layer_norm_backward(g, input, s, mean, rstd, opt_tensor(weight),
                                                             opt_tensor(bias), mask);
          return nb::make_tuple(or_none(dx), or_none(dw), or_none(db));
        },
        nb::arg("grad_out"), nb::arg("input"), nb::arg("normalized_shape"), nb::arg("mean"), nb::arg("rstd"),
        nb::arg("weight").none(), nb::arg("bias").none(), nb::arg("output_mask"));
  m.def("layer_norm",
        [](const Tensor& input, nb::handle shape, nb::handle weight, nb::handle bias, double eps, bool) {
          const auto s = int_args::to_int_list(shape, "layer_norm", "normalized_shape");
          const Tensor w = opt_tensor(weight), b = opt_tensor(bias);
          gil::ReleaseIf release(gil::is_long(input));
          return dc::layer_norm(input, s, w, b, eps);
        },
        nb::arg("input"), nb::arg("normalized_shape"), nb::arg("weight").none() = nb::none(),
        nb::arg("bias").none() = nb::none(), nb::arg("eps") = 1e-5, nb::arg("cudnn_enable") = true);
  // torch.nn.functional.gelu lives in torch._C._nn; keep it out of the top-level namespace.
  m.def("_nn_gelu", [](const Tensor& x, const std::string& approximate) {
          gil::ReleaseIf release(gil::is_long(x));
          return dc::gelu(x, approximate);
        },
        nb::arg("input"), nb::arg("approximate") = "none");
  m.def("_nn_gelu_backward",
        [](const Tensor& g, const Tensor& x, const std::string& approximate) {
          return dc::gelu_backward(g, x, approximate);
        },
        nb::arg("grad_output"), nb::arg("input"), nb::arg("approximate") = "none");
  // torch.nn.functional.one_hot lives in torch._C._nn too.
  m.def("_nn_one_hot",
        [](nb::handle input, nb::handle num_classes) {
          const Tensor& x = tensor_arg(input, "one_hot", "input", 1);
          return dc::one_hot(x, int_args::to_int(num_classes, "one_hot", "num_classes", 2));
        },
        nb::arg("input"), nb::arg("num_classes") = -1);
  m.def("dropout",
        [](nb::handle input, double p, bool train) -> TensorObject {
          const Tensor& x = tensor_arg(input, "dropout", "input");
          Tensor r;
          {
            gil::ReleaseIf release(gil::is_long(x));
            r = dc::dropout(x, p, train);
          }
          return r.is_same(x) ? nb::borrow(input) : nb::cast(std::move(r));  // torch returns input itself
        },
        nb::arg("input"), nb::arg("p"), nb::arg("train"));
  m.def("dropout_",
        [](nb::handle input, double p, bool train) {
          dc::dropout_(tensor_arg(input, "dropout_", "input"), p, train);
          return nb::borrow(input);
        },
        nb::arg("input"), nb::arg("p"), nb::arg("train"));
  (void)cls;
}
