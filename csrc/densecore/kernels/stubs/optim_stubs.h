// Dispatch stubs of the fused optimizer steps (kernels/cpu/optim.cpp). Each runs one parameter's update of
// torch's single-tensor optimizer loop (torch/optim/adam.py _single_tensor_adam, sgd.py _single_tensor_sgd),
// every element rounded as the loop's separate in-place ops round it. The kernels are registered with
// DC_REGISTER_DISPATCH because every op they fuse is (REGISTER_DISPATCH): AVX-512 machines run the AVX2 build.
#pragma once

#include <cstdint>

#include "densecore/kernels/dispatch/dispatch.h"

namespace dc {

/// The constants of one Adam/AdamW step of one parameter, each already rounded to float the way the op that
/// takes it rounds it (ops/optim.cpp computes them in double as torch's Python does).
struct AdamStepConstants {
  bool maximize = false;         // grad = -grad
  bool decoupled_decay = false;  // param.mul_(decay_factor) (AdamW's weight decay)
  float decay_factor = 1;
  float lerp_weight = 0;         // exp_avg.lerp_(grad, 1 - beta1)
  float beta2 = 0;               // exp_avg_sq.mul_(beta2)
  float one_minus_beta2 = 0;     //   .addcmul_(grad, grad, value=1 - beta2)
  float bias_correction2_sqrt = 1;  // denom = (exp_avg_sq.sqrt() / bias_correction2_sqrt)
  float eps = 0;                 //   .add_(eps)
  float neg_step_size = 0;       // param.addcdiv_(exp_avg, denom, value=-step_size)
};

/// param, exp_avg and exp_avg_sq are updated in place; denom is scratch (torch's `denom` tensor). All five hold
/// n contiguous floats, no two overlapping.
using AdamStepFn = void (*)(float* param, const float* grad, float* exp_avg, float* exp_avg_sq, float* denom,
                            int64_t n, const AdamStepConstants& c);
DC_DECLARE_DISPATCH(AdamStepFn, adam_step_stub);

/// The constants of one SGD step of one parameter (torch/optim/sgd.py _single_tensor_sgd), rounded as above.
struct SgdStepConstants {
  bool maximize = false;      // grad = -grad
  bool weight_decay = false;  // grad = grad.add(param, alpha=weight_decay)
  bool momentum = false;      // buf.mul_(momentum).add_(grad, alpha=1 - dampening); grad = buf
  bool nesterov = false;      //   grad = grad.add(buf, alpha=momentum) instead
  float weight_decay_alpha = 0;
  float momentum_factor = 0;  // mul_'s operand (a wrapped number)
  float momentum_alpha = 0;   // nesterov add's alpha (a Scalar)
  float one_minus_dampening = 0;
  float neg_lr = 0;           // param.add_(grad, alpha=-lr)
};

/// param and momentum_buffer are updated in place (momentum_buffer is unused without momentum); n contiguous
/// floats each, no two overlapping.
using SgdStepFn = void (*)(float* param, const float* grad, float* momentum_buffer, int64_t n,
                           const SgdStepConstants& c);
DC_DECLARE_DISPATCH(SgdStepFn, sgd_step_stub);

}  // namespace dc
