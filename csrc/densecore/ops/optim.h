// The fused optimizer steps: one C++ call over a param group, each parameter updated in one pass of a
// kernel of kernels/cpu/optim.cpp with the bits of torch's single-tensor loop (torch/optim/adam.py).
// python/densecore/optim/ calls these and runs its op-by-op loop whenever one returns false.
#pragma once

#include <span>

#include "densecore/core/tensor.h"

namespace dc {

/// One Adam/AdamW param group's hyper-parameters, as the Python floats torch's loop computes with.
struct AdamGroupOptions {
  double lr = 1e-3;
  double beta1 = 0.9;
  double beta2 = 0.999;
  double eps = 1e-8;
  double weight_decay = 0;
  bool maximize = false;
  bool decoupled_weight_decay = false;  // AdamW
};

/// torch's _single_tensor_adam (amsgrad=False, capturable=False, differentiable=False) over the lists, which
/// hold parameter i's tensors at index i: steps[i] += 1, then the update of param, exp_avg and exp_avg_sq in
/// place, their version counters bumped once per in-place op of the loop. Returns false, having changed
/// nothing, when the lists are outside what the fused kernel covers (other dtypes than float32, non-contiguous
/// or aliased tensors, L2 weight decay, values for which the loop would raise); the caller then runs the loop.
/// The caller ensures that grad mode is off (nothing is recorded).
bool adam_step_fused(std::span<const Tensor> params, std::span<const Tensor> grads, std::span<const Tensor> exp_avgs,
                     std::span<const Tensor> exp_avg_sqs, std::span<const Tensor> steps, const AdamGroupOptions& o);

/// One SGD param group's hyper-parameters (Python floats).
struct SgdGroupOptions {
  double lr = 1e-3;
  double momentum = 0;
  double dampening = 0;
  double weight_decay = 0;
  bool nesterov = false;
  bool maximize = false;
};

/// torch's _single_tensor_sgd over the lists: param (and, with momentum, its buffer) updated in place, versions
/// bumped once per in-place op of the loop. momentum_buffers is ignored without momentum; with it, every buffer
/// must exist (the loop makes them on the first step). Returns false, having changed nothing, as above.
bool sgd_step_fused(std::span<const Tensor> params, std::span<const Tensor> grads,
                    std::span<const Tensor> momentum_buffers, const SgdGroupOptions& o);

}  // namespace dc
