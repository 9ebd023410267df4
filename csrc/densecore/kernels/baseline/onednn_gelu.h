// oneDNN's eltwise_gelu_erf (forward and backward) for contiguous float32 data, which torch's CPU gelu
// uses instead of ATen's GeluKernel when the input is contiguous float32 with more than one element.
#pragma once

#include <cstdint>

namespace dc::onednn {

void gelu_forward(const float* x, float* y, int64_t n);
void gelu_backward(const float* dy, const float* x, float* dx, int64_t n);

}  // namespace dc::onednn
