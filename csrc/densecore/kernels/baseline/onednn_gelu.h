// oneDNN's eltwise_gelu_erf (forward and backward) for contiguous float32 data, which torch's CPU gelu
// uses instead of ATen's GeluKernel when the input is contiguous float32 with more than one element.
#pragma once

#include <cstdint>

namespace dc::onednn {

void gelu_forward(const float* x, float* y, int64_t n);
void gelu_backward(const float* dy, const float* x, float* dx, int64_t n);

// The backward's derivative (dx = dy * d) computed by the forward, from the erf it computes anyway:
// true where the forward is Abramowitz-Stegun as the backward is (not on avx512_core, whose forward is
// the minimax polynomial). Then gelu_backward(dy, x) = gelu_backward_from_derivative(dy, d), bit for bit.
bool forward_gives_derivative();
void gelu_forward_with_derivative(const float* x, float* y, float* d, int64_t n);
void gelu_backward_from_derivative(const float* dy, const float* d, float* dx, int64_t n);

}  // namespace dc::onednn
