// Joining tensors: torch.cat (with dtype promotion and the legacy skip of 1-D empty inputs) and
// torch.stack (aten/src/ATen/native/TensorShape.cpp).
#pragma once

#include <span>

#include "densecore/core/tensor.h"

namespace dc {

Tensor cat(std::span<const Tensor> tensors, int64_t dim = 0);
Tensor stack(std::span<const Tensor> tensors, int64_t dim = 0);

}  // namespace dc
