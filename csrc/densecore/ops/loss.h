// Losses and the softmax backward ops as torch exposes them: nll_loss (aten/src/ATen/native/LossNLL.cpp),
// cross_entropy (composite: log_softmax + nll_loss_nd), mse_loss (Loss.cpp), and
// _softmax_backward_data / _log_softmax_backward_data (SoftMax.cpp), which the autograd rows call.
#pragma once

#include <cstdint>
#include <utility>

#include "densecore/core/tensor.h"
#include "densecore/generated/ops.h"

namespace dc {

/// at::Reduction: None = 0, Mean = 1, Sum = 2.
inline constexpr int64_t kReductionNone = 0, kReductionMean = 1, kReductionSum = 2;

// at::nll_loss_forward(self, target, weight, reduction, ignore_index) -> (output, total_weight), `weight` undefined
// for None, is an op row (csrc/op_rows.toml), in densecore/generated/ops.h.
/// at::nll_loss_backward (the CPU kernel writes -(grad / total_weight) at each kept target).
Tensor nll_loss_backward(const Tensor& grad_output, const Tensor& self, const Tensor& target, const Tensor& weight,
                         int64_t reduction, int64_t ignore_index, const Tensor& total_weight);
/// at::nll_loss_nd: torch.nn.functional.nll_loss after the reduction string became an enum.
Tensor nll_loss_nd(const Tensor& self, const Tensor& target, const Tensor& weight, int64_t reduction,
                   int64_t ignore_index);
/// at::cross_entropy_loss with class-index targets: nll_loss_nd(log_softmax(self, class_dim), ...).
Tensor cross_entropy(const Tensor& self, const Tensor& target, const Tensor& weight, int64_t reduction,
                     int64_t ignore_index, double label_smoothing);
// mse_loss(self, target, reduction = Mean): (self - target)^2, then mean / sum, is an op row (csrc/op_rows.toml),
// declared in densecore/generated/ops.h.
/// at::mse_loss_backward: (norm * (self - target)) * grad, norm = 2/numel (mean) or 2, as float; composed of
/// recording ops, so a create_graph backward can differentiate it again.
Tensor mse_loss_backward(const Tensor& grad, const Tensor& self, const Tensor& target, int64_t reduction);
/// The same values from one kernel (mse_backward_cpu_kernel) for float32/float64 operands of one dtype; records
/// nothing. Other dtypes: mse_loss_backward.
Tensor mse_loss_backward_fused(const Tensor& grad, const Tensor& self, const Tensor& target, int64_t reduction);

/// at::_softmax_backward_data / _log_softmax_backward_data on CPU (grad and output made contiguous).
Tensor softmax_backward_data(const Tensor& grad, const Tensor& output, int64_t dim, DType input_dtype);
Tensor log_softmax_backward_data(const Tensor& grad, const Tensor& output, int64_t dim, DType input_dtype);

}  // namespace dc
