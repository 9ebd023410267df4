// nll_loss forward / backward frames (aten/src/ATen/native/LossNLL.cpp nll_loss_out_frame,
// nll_loss_backward_out_frame). LossNLL.cpp is compiled once with baseline flags, so these are
// plain loops here too (no capability dispatch, no FMA). Pointers and element strides, no Tensor.
#pragma once

#include <cstdint>

#include "densecore/core/dtype.h"

namespace dc::kernels {

enum class Reduction : int64_t { None = 0, Mean = 1, Sum = 2 };  // at::Reduction

/// What the frames read: input [batch, classes] with element strides, target [batch] (int64 or
/// uint8) with its stride, an optional contiguous weight [classes].
struct NllArgs {
  DType dtype;                // input dtype (float32 / float64)
  const void* input;
  int64_t batch, classes, in_stride0, in_stride1;
  bool input_1d;              // 1-D input: one sample, no batch dim
  const void* target;
  bool target_u8;
  int64_t tgt_stride;
  const void* weight;         // null: no weight
  int64_t ignore_index;
};

/// reduction None with 2-D input: out[i] = -input[i][t] * w (0 where ignored); `out` has stride out_stride.
void nll_loss_forward_none(const NllArgs& a, void* out, int64_t out_stride);
/// Mean / Sum (and None with 1-D input): the 8-level cascade sum; writes *out and *total_weight.
/// `input` must be contiguous here (the frame calls input.contiguous()).
void nll_loss_forward_reduce(const NllArgs& a, Reduction r, void* out, void* total_weight);
/// grad_input (contiguous, zero-filled by the caller) at each non-ignored target.
void nll_loss_backward(const NllArgs& a, Reduction r, const void* grad_output, int64_t go_stride,
                       const void* total_weight, void* grad_input);

}  // namespace dc::kernels
