// Fronts of the fused optimizer steps (ops/optim.h): which inputs the kernels cover, and the constants of
// each step computed in double exactly as torch's Python loop computes them, rounded to float the way the
// op that takes each one rounds it.
#include "densecore/ops/optim.h"

#include <algorithm>
#include <cmath>
#include <initializer_list>
#include <vector>

#include "densecore/core/checked_convert.h"
#include "densecore/core/convert.h"
#include "densecore/core/small_vector.h"
#include "densecore/kernels/stubs/optim_stubs.h"

namespace dc {
namespace {

/// A Python number passed to an op as a Scalar (lerp's weight, addcmul/addcdiv's value): Scalar::to<float>(),
/// which raises on overflow. False where it would raise: the loop must then raise at its own point.
bool scalar_arg(double x, float& out) {
  if (float_overflows<float>(x)) return false;
  out = convert<float>(x);
  return true;
}

/// A Python number as the other operand of a tensor op (mul_, div, add_): a wrapped 0-dim double tensor
/// cast to the tensor's float (c10::convert, no range check).
float wrapped_number_arg(double x) { return convert<float>(x); }

/// The tensors of one parameter fit a kernel: float32, p's shape, contiguous.
bool fits_kernel(const Tensor& p, std::initializer_list<const Tensor*> others) {
  if (!p.defined() || p.dtype() != DType::Float32 || !p.is_contiguous()) return false;
  for (const Tensor* x : others) {
    if (!x->defined() || x->dtype() != DType::Float32 || x->sizes() != p.sizes() || !x->is_contiguous()) return false;
  }
  return true;
}

/// Adam's one-element step tensor (float32, or float64 under a double default dtype).
bool fits_step(const Tensor& step) {
  return step.defined() && step.numel() == 1 && (step.dtype() == DType::Float32 || step.dtype() == DType::Float64);
}

/// No two of the tensors share storage. The loop's ops read what earlier ops wrote, the fused pass reads each
/// parameter's four tensors first, and the steps are all read before any is written: only separate memory
/// makes the orders agree.
bool all_storages_distinct(std::initializer_list<std::span<const Tensor>> lists) {
  SmallVector<const StorageImpl*, 32> storages;  // inline for a model's worth of tensors: no malloc per step
  for (std::span<const Tensor> list : lists)
    for (const Tensor& t : list) storages.push_back(t.storage().get());
  std::sort(storages.begin(), storages.end());
  return std::adjacent_find(storages.begin(), storages.end()) == storages.end();
}

/// `step_t += 1` in the step tensor's dtype, read back as the Python float `step_t.item()` gives.
double next_step_value(const Tensor& step) {
  if (step.dtype() == DType::Float32) return double(*step.data<float>() + 1.0f);
  return *step.data<double>() + 1.0;
}

void store_next_step(const Tensor& step, double value) {
  if (step.dtype() == DType::Float32) *step.data<float>() = float(value);
  else *step.data<double>() = value;
  step.bump_version();
}

/// The loop's scalars for one parameter at `step` (adam.py, in its order); false where the loop would raise
/// (ZeroDivisionError, OverflowError, a Scalar overflowing float) or where a NaN hyper-parameter would meet a
/// NaN element and the two forms of an op could keep different NaNs.
bool adam_constants(const AdamGroupOptions& o, double step, AdamStepConstants& c) {
  const bool in_unit = o.beta1 >= 0 && o.beta1 < 1 && o.beta2 >= 0 && o.beta2 < 1;
  if (!in_unit || !(step >= 1) || std::isinf(step) || std::isnan(o.lr) || std::isnan(o.eps) ||
      std::isnan(o.weight_decay))
    return false;
  c.maximize = o.maximize;
  c.decoupled_decay = o.weight_decay != 0;
  if (c.decoupled_decay) c.decay_factor = wrapped_number_arg(1 - o.lr * o.weight_decay);
  const double bias_correction1 = 1 - std::pow(o.beta1, step);
  const double bias_correction2 = 1 - std::pow(o.beta2, step);
  if (bias_correction1 == 0) return false;
  const double step_size = o.lr / bias_correction1;
  // Python's `bias_correction2**0.5` is pow(), not sqrt (they differ in the last bit for some inputs).
  const double bias_correction2_sqrt = std::pow(bias_correction2, 0.5);
  c.beta2 = wrapped_number_arg(o.beta2);
  c.bias_correction2_sqrt = wrapped_number_arg(bias_correction2_sqrt);
  c.eps = wrapped_number_arg(o.eps);
  if (std::isnan(c.decay_factor) || std::isnan(step_size)) return false;
  return scalar_arg(1 - o.beta1, c.lerp_weight) && scalar_arg(1 - o.beta2, c.one_minus_beta2) &&
         scalar_arg(-step_size, c.neg_step_size);
}

/// The SGD loop's scalars (sgd.py, in its order); false where the loop would raise or a NaN would meet a NaN.
bool sgd_constants(const SgdGroupOptions& o, SgdStepConstants& c) {
  if (std::isnan(o.lr) || std::isnan(o.momentum) || std::isnan(o.dampening) || std::isnan(o.weight_decay)) return false;
  c.maximize = o.maximize;
  c.weight_decay = o.weight_decay != 0;
  c.momentum = o.momentum != 0;
  c.nesterov = c.momentum && o.nesterov;
  c.momentum_factor = wrapped_number_arg(o.momentum);
  return (!c.weight_decay || scalar_arg(o.weight_decay, c.weight_decay_alpha)) &&
         (!c.momentum || scalar_arg(1 - o.dampening, c.one_minus_dampening)) &&
         (!c.nesterov || scalar_arg(o.momentum, c.momentum_alpha)) && scalar_arg(-o.lr, c.neg_lr);
}

}  // namespace

bool sgd_step_fused(std::span<const Tensor> params, std::span<const Tensor> grads,
                    std::span<const Tensor> momentum_buffers, const SgdGroupOptions& o) {
  const size_t n = params.size();
  SgdStepConstants c;
  if (grads.size() != n || !sgd_constants(o, c)) return false;
  if (!c.momentum) momentum_buffers = {};
  if (c.momentum && momentum_buffers.size() != n) return false;
  for (size_t i = 0; i < n; ++i) {
    if (!fits_kernel(params[i], {&grads[i]})) return false;
    if (c.momentum && !fits_kernel(params[i], {&momentum_buffers[i]})) return false;
  }
  if (!all_storages_distinct({params, grads, momentum_buffers})) return false;
  for (size_t i = 0; i < n; ++i) {
    const Tensor& p = params[i];
    float* buf = c.momentum ? momentum_buffers[i].data<float>() : nullptr;
    sgd_step_stub(p.data<float>(), grads[i].data<float>(), buf, p.numel(), c);
    // One bump per in-place op of the loop: buf.mul_ and add_, param.add_.
    if (c.momentum) {
      momentum_buffers[i].bump_version();
      momentum_buffers[i].bump_version();
    }
    p.bump_version();
  }
  return true;
}

bool adam_step_fused(std::span<const Tensor> params, std::span<const Tensor> grads, std::span<const Tensor> exp_avgs,
                     std::span<const Tensor> exp_avg_sqs, std::span<const Tensor> steps, const AdamGroupOptions& o) {
  const size_t n = params.size();
  if (grads.size() != n || exp_avgs.size() != n || exp_avg_sqs.size() != n || steps.size() != n) return false;
  if (o.weight_decay != 0 && !o.decoupled_weight_decay) return false;  // L2: grad.add(param, alpha=...) first
  // Every parameter is checked before any is touched, so a false return leaves all state as it was.
  for (size_t i = 0; i < n; ++i)
    if (!fits_kernel(params[i], {&grads[i], &exp_avgs[i], &exp_avg_sqs[i]}) || !fits_step(steps[i])) return false;
  if (!all_storages_distinct({params, grads, exp_avgs, exp_avg_sqs, steps})) return false;
  std::vector<AdamStepConstants> constants(n);
  std::vector<double> next_steps(n);
  for (size_t i = 0; i < n; ++i) {
    next_steps[i] = next_step_value(steps[i]);
    if (!adam_constants(o, next_steps[i], constants[i])) return false;
  }
  // torch's `denom`, one buffer for the group (from the block cache, like every tensor's storage).
  int64_t largest = 0;
  for (const Tensor& p : params) largest = std::max(largest, p.numel());
  const int64_t denom_size[1] = {largest};
  const Tensor denom = Tensor::empty(denom_size, DType::Float32);
  for (size_t i = 0; i < n; ++i) {
    store_next_step(steps[i], next_steps[i]);
    const Tensor& p = params[i];
    adam_step_stub(p.data<float>(), grads[i].data<float>(), exp_avgs[i].data<float>(), exp_avg_sqs[i].data<float>(),
                   denom.data<float>(), p.numel(), constants[i]);
    // One bump per in-place op of the loop: param.mul_ (AdamW) and addcdiv_, lerp_, mul_ and addcmul_.
    if (constants[i].decoupled_decay) p.bump_version();
    p.bump_version();
    exp_avgs[i].bump_version();
    exp_avg_sqs[i].bump_version();
    exp_avg_sqs[i].bump_version();
  }
  return true;
}

}  // namespace dc
