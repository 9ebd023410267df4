// Binding for torch.nn.functional.scaled_dot_product_attention (_C.scaled_dot_product_attention;
// densecore.nn.functional forwards to it). The computation is in densecore/ops/attention.cpp.
#include <optional>

#include <nanobind/stl/optional.h>

#include "bindings.h"
#include "gil.h"
#include "densecore/ops/attention.h"

void bind_attention(nb::module_& m, TensorClass& cls) {
  (void)cls;
  m.def(
      "scaled_dot_product_attention",
      [](const dc::Tensor& q, const dc::Tensor& k, const dc::Tensor& v, std::optional<dc::Tensor> attn_mask,
         double dropout_p, bool is_causal, std::optional<double> scale, bool enable_gqa) {
        gil::ReleaseIf release(gil::is_long_product(q, k));
        return dc::scaled_dot_product_attention(q, k, v, attn_mask.value_or(dc::Tensor()), dropout_p, is_causal,
                                                scale, enable_gqa);
      },
      nb::arg("query"), nb::arg("key"), nb::arg("value"), nb::arg("attn_mask").none() = nb::none(),
      nb::arg("dropout_p") = 0.0, nb::arg("is_causal") = false, nb::kw_only(), nb::arg("scale").none() = nb::none(),
      nb::arg("enable_gqa") = false);
}
