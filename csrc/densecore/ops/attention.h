// scaled_dot_product_attention on CPU, as torch 2.14.1 computes it
// (aten/src/ATen/native/transformers/attention.cpp): backend choice as _fused_sdp_choice_cpp /
// use_flash_attention_cpp, the flash kernel with its own autograd node, or the composite math path.
#pragma once

#include <optional>
#include <tuple>

#include "densecore/core/tensor.h"
#include "densecore/generated/ops.h"

namespace dc {

/// torch.nn.functional.scaled_dot_product_attention. attn_mask undefined = None.
Tensor scaled_dot_product_attention(const Tensor& query, const Tensor& key, const Tensor& value,
                                    const Tensor& attn_mask = {}, double dropout_p = 0.0,
                                    bool is_causal = false, std::optional<double> scale = std::nullopt,
                                    bool enable_gqa = false);

// aten::_scaled_dot_product_flash_attention_for_cpu(query, key, value, dropout_p, is_causal, attn_mask, scale) ->
// (output, logsumexp) is an op row (csrc/op_rows.toml), in densecore/generated/ops.h.

/// aten::_scaled_dot_product_flash_attention_for_cpu_backward: (grad_query, grad_key, grad_value).
std::tuple<Tensor, Tensor, Tensor> scaled_dot_product_flash_attention_for_cpu_backward(
    const Tensor& grad_out, const Tensor& query, const Tensor& key, const Tensor& value,
    const Tensor& out, const Tensor& logsumexp, double dropout_p, bool is_causal,
    const Tensor& attn_mask = {}, std::optional<double> scale = std::nullopt);

/// aten::_scaled_dot_product_attention_math: (output, attention weights), built from recorded ops.
std::tuple<Tensor, Tensor> scaled_dot_product_attention_math(
    const Tensor& query, const Tensor& key, const Tensor& value, const Tensor& attn_mask = {},
    double dropout_p = 0.0, bool is_causal = false, std::optional<double> scale = std::nullopt,
    bool enable_gqa = false);

}  // namespace dc
