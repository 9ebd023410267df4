// nn ops: embedding, layer_norm (native_layer_norm and its backward), gelu, dropout, as
// aten/src/ATen/native/{Embedding.cpp, layer_norm.cpp, Activation.cpp, Dropout.cpp} define them,
// each recording the autograd node torch records (EmbeddingBackward0, NativeLayerNormBackward0,
// GeluBackward0; dropout decomposes into a recorded mul).
#pragma once

#include <array>
#include <span>
#include <string_view>
#include <tuple>

#include "densecore/core/tensor.h"
#include "densecore/generated/ops.h"

namespace dc {

// embedding (weight[indices]: weight.index_select(0, indices.reshape(-1)) viewed as indices.shape + [C]) is an
// op row (csrc/op_rows.toml), declared in densecore/generated/ops.h.
/// embedding_dense_backward_cpu: per weight row, the grads of its positions summed in position order.
Tensor embedding_dense_backward(const Tensor& grad, const Tensor& indices, int64_t num_weights,
                                int64_t padding_idx, bool scale_grad_by_freq);

// native_layer_norm(input, normalized_shape, weight, bias, eps) -> (out, mean, rstd), mean/rstd shaped like input
// with the normalized dims set to 1, is an op row (csrc/op_rows.toml), in densecore/generated/ops.h.
/// (dX, dgamma, dbeta), each computed only when its mask entry is set.
std::tuple<Tensor, Tensor, Tensor> native_layer_norm_backward(const Tensor& grad_out, const Tensor& input,
                                                              std::span<const int64_t> normalized_shape,
                                                              const Tensor& mean, const Tensor& rstd,
                                                              const Tensor& weight, const Tensor& bias,
                                                              std::array<bool, 3> mask);
Tensor layer_norm(const Tensor& input, std::span<const int64_t> normalized_shape, const Tensor& weight,
                  const Tensor& bias, double eps);

// gelu(self, approximate = "none") is an op row (csrc/op_rows.toml), declared in densecore/generated/ops.h.
/// approximate: "none" or "tanh".
Tensor gelu_backward(const Tensor& grad, const Tensor& x, std::string_view approximate = "none");
/// gelu's derivative formula: gelu_backward, from the forward's derivative when it wrote one (the same bits).
Tensor gelu_backward_with_derivative(const Tensor& grad, const Tensor& x, std::string_view approximate,
                                     const Tensor& derivative);

/// _dropout_impl (CPU): input itself when p == 0, !train or empty; else input * noise with
/// noise = empty_like(input).bernoulli_(1 - p).div_(1 - p) (p == 1: input * zeros({})).
Tensor dropout(const Tensor& input, double p, bool train);
const Tensor& dropout_(const Tensor& input, double p, bool train);

}  // namespace dc
