// Fused optimizer steps: one parameter's update of torch's single-tensor loops in one pass (SGD) or three (Adam).
//
// Adam/AdamW (torch/optim/adam.py _single_tensor_adam, capturable=False), three passes instead of nine ops:
//
//   pass 1  grad = -grad                                (maximize: neg_kernel, a sign flip in both forms)
//           param.mul_(1 - lr * weight_decay)           (AdamW: mul_kernel, binary.cpp)
//           exp_avg.lerp_(grad, 1 - beta1)              (LerpKernel.cpp)
//           exp_avg_sq.mul_(beta2).addcmul_(grad, grad, value=1 - beta2)  (mul_kernel; PointwiseOpsKernel.cpp)
//   pass 2  denom = exp_avg_sq.sqrt()                   (VML, unary_math.cpp; Note [VML sqrt of zeros])
//   pass 3  denom = (denom / bias_correction2_sqrt).add_(eps)  (div_true_kernel; add_kernel)
//           param.addcdiv_(exp_avg, denom, value=-step_size)   (PointwiseOpsKernel.cpp)
//
// Why the bits are the separate kernels' bits: every op is elementwise, and each element goes through the same
// operations in the same order (the forms of pointwise_forms.h, the same IEEE mul and div, VML's sqrt, which is
// not correctly rounded and so is called as the sqrt kernel calls it). Only the NaN that an operation keeps when
// two operands are NaN can tell a vector body from a scalar tail, so passes 1 and 3 keep what decides which
// element runs in which form: ATen's parallel chunks (grain 32768, parallel.h) and, inside each chunk,
// cpu_kernel_vec's split (loops.h: whole pairs of Vecs, then the rest through the scalar op). Pass 2 keeps the
// sqrt kernel's chunks (grain 2048, one VML call each). The `+ eps` is add_kernel with alpha 1: fma(eps, 1, d)
// and (eps * 1) + d (Note [add alpha tail], binary.cpp) are both the one rounding of d + eps, and eps is not
// NaN (ops/optim.cpp leaves a NaN hyper-parameter to the loop), so d's NaN passes either way.
//
// SGD (torch/optim/sgd.py _single_tensor_sgd), one pass instead of up to five ops, all of them add with alpha
// on contiguous tensors (AddAlpha) but the buffer's mul_: the same argument, with the chunks of grain 32768.
#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdint>

#include "densecore/kernels/cpu/pointwise_forms.h"
#include "densecore/kernels/cpu/vml.h"
#include "densecore/kernels/iter/parallel.h"
#include "densecore/kernels/stubs/optim_stubs.h"
#include "densecore/kernels/vec/vec.h"

namespace dc {
inline namespace DC_CPU_CAPABILITY {
namespace {

using V = vec::Vec<float>;

inline V vec_or_scalar_neg(const V& x) { return vec::neg(x); }
inline float vec_or_scalar_neg(float x) { return -x; }

/// The step's constants as whole vectors and as the forms of the fused ops.
struct AdamForms {
  const AdamStepConstants& c;
  LerpScalarWeight<float> lerp;
  AddcmulValue<float> addcmul;
  AddcdivValue<float> addcdiv;
  V decay_factor, beta2, bias_correction2_sqrt, eps;

  explicit AdamForms(const AdamStepConstants& k)
      : c(k), lerp(k.lerp_weight), addcmul(k.one_minus_beta2), addcdiv(k.neg_step_size), decay_factor(k.decay_factor),
        beta2(k.beta2), bias_correction2_sqrt(k.bias_correction2_sqrt), eps(k.eps) {}
};

/// -x as the separate neg kernel leaves it in memory. GCC takes a NaN's sign to be insignificant and folds a
/// negation into the op that uses it (fma(c * -g, -g, v) becomes fma(c * g, g, v)), which would flip the sign of
/// a NaN that the separate kernels keep; the empty asm makes the negated value opaque to it.
template <class X>
inline X negated(X x) {
  X r = vec_or_scalar_neg(x);
  asm("" : "+m"(r));
  return r;
}

/// cpu_kernel_vec's split of one chunk of n elements: [0, body) as Vecs, [body, n) through the scalar op.
inline int64_t vector_body(int64_t n) { return n - n % (2 * V::size()); }

/// Pass 1 over one parallel chunk: the moments, and AdamW's decay of the parameter.
void update_moments(float* param, const float* grad, float* exp_avg, float* exp_avg_sq, int64_t n, const AdamForms& f) {
  const AdamStepConstants& c = f.c;
  const int64_t body = vector_body(n);
  for (int64_t i = 0; i < body; i += V::size()) {
    V g = V::loadu(grad + i);
    if (c.maximize) g = negated(g);
    if (c.decoupled_decay) (V::loadu(param + i) * f.decay_factor).store(param + i);
    f.lerp.vector(V::loadu(exp_avg + i), g).store(exp_avg + i);
    f.addcmul.vector(V::loadu(exp_avg_sq + i) * f.beta2, g, g).store(exp_avg_sq + i);
  }
  for (int64_t i = body; i < n; ++i) {
    const float g = c.maximize ? negated(grad[i]) : grad[i];
    if (c.decoupled_decay) param[i] = param[i] * c.decay_factor;
    exp_avg[i] = f.lerp.scalar(exp_avg[i], g);
    exp_avg_sq[i] = f.addcmul.scalar(exp_avg_sq[i] * c.beta2, g, g);
  }
}

/// Pass 3 over one parallel chunk: denom (already the square root) scaled and shifted, then the parameter's step.
void apply_step(float* param, const float* exp_avg, float* denom, int64_t n, const AdamForms& f) {
  const AdamStepConstants& c = f.c;
  const int64_t body = vector_body(n);
  for (int64_t i = 0; i < body; i += V::size()) {
    const V d = V::loadu(denom + i) / f.bias_correction2_sqrt + f.eps;
    f.addcdiv.vector(V::loadu(param + i), V::loadu(exp_avg + i), d).store(param + i);
  }
  for (int64_t i = body; i < n; ++i) {
    const float d = denom[i] / c.bias_correction2_sqrt + c.eps;
    param[i] = f.addcdiv.scalar(param[i], exp_avg[i], d);
  }
}

/// One parallel chunk of the SGD step.
void sgd_chunk(float* param, const float* grad, float* buf, int64_t n, const SgdStepConstants& c) {
  const AddAlpha<float> decay(c.weight_decay_alpha), accumulate(c.one_minus_dampening), look_ahead(c.momentum_alpha),
      descend(c.neg_lr);
  const V momentum(c.momentum_factor);
  const int64_t body = vector_body(n);
  for (int64_t i = 0; i < body; i += V::size()) {
    V g = V::loadu(grad + i);
    if (c.maximize) g = negated(g);
    if (c.weight_decay) g = decay.vector(g, V::loadu(param + i));
    if (c.momentum) {
      const V b = accumulate.vector(V::loadu(buf + i) * momentum, g);
      b.store(buf + i);
      g = c.nesterov ? look_ahead.vector(g, b) : b;
    }
    descend.vector(V::loadu(param + i), g).store(param + i);
  }
  for (int64_t i = body; i < n; ++i) {
    float g = c.maximize ? negated(grad[i]) : grad[i];
    if (c.weight_decay) g = decay.scalar(g, param[i]);
    if (c.momentum) {
      const float b = accumulate.scalar(buf[i] * c.momentum_factor, g);
      buf[i] = b;
      g = c.nesterov ? look_ahead.scalar(g, b) : b;
    }
    param[i] = descend.scalar(param[i], g);
  }
}

void sgd_step_kernel(float* param, const float* grad, float* momentum_buffer, int64_t n, const SgdStepConstants& c) {
  parallel_for(0, n, kGrainSize, [&](int64_t b, int64_t e) {
    sgd_chunk(param + b, grad + b, c.momentum ? momentum_buffer + b : nullptr, e - b, c);
  });
}

// Note [VML sqrt of zeros]: VML's sqrt sends +0 down a slow path for special inputs (vssqrt_cout_rare: 23% of
// a batch-1 MLP's Adam step, Zen 3, where ReLU leaves many weights with zero gradients and so exp_avg_sq
// stays +0). sqrt(+0) is +0 in IEEE arithmetic and in VML's table of special values, so a chunk with zeros
// gives VML 1.0f where exp_avg_sq holds +0 and writes +0 back there afterwards: every other element is VML's
// own result, for an elementwise function. Only +0 (all bits clear) is taken out; -0, denormals, infinities
// and NaN still go to VML as they are.
void sqrt_like_vml(const float* in, float* out, int64_t n) {
  auto is_plus_zero = [](float v) { return std::bit_cast<uint32_t>(v) == 0; };
  if (std::none_of(in, in + n, is_plus_zero)) return vml_call(VmlOp::Sqrt, in, out, n);
  for (int64_t i = 0; i < n; ++i) out[i] = is_plus_zero(in[i]) ? 1.0f : in[i];
  vml_call(VmlOp::Sqrt, out, out, n);  // VML computes in place
  for (int64_t i = 0; i < n; ++i)
    if (is_plus_zero(in[i])) out[i] = 0.0f;
}

void adam_step_kernel(float* param, const float* grad, float* exp_avg, float* exp_avg_sq, float* denom, int64_t n,
                      const AdamStepConstants& c) {
  const AdamForms forms(c);
  parallel_for(0, n, kGrainSize, [&](int64_t b, int64_t e) {
    update_moments(param + b, grad + b, exp_avg + b, exp_avg_sq + b, e - b, forms);
  });
  parallel_for(0, n, kVmlGrainSize, [&](int64_t b, int64_t e) { sqrt_like_vml(exp_avg_sq + b, denom + b, e - b); });
  parallel_for(0, n, kGrainSize, [&](int64_t b, int64_t e) { apply_step(param + b, exp_avg + b, denom + b, e - b, forms); });
}

}  // namespace
}  // namespace DC_CPU_CAPABILITY

DC_REGISTER_DISPATCH(adam_step_stub, &adam_step_kernel);
DC_REGISTER_DISPATCH(sgd_step_stub, &sgd_step_kernel);

}  // namespace dc
