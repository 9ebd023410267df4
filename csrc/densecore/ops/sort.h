// Sorting-family ops: topk (aten/src/ATen/native/Sorting.cpp topk_out_cpu and its meta function).
#pragma once

#include <utility>

#include "densecore/core/tensor.h"

namespace dc {

/// torch.topk(self, k, dim, largest, sorted): (values, indices), dim of size k; differentiable in values.
std::pair<Tensor, Tensor> topk(const Tensor& self, int64_t k, int64_t dim = -1, bool largest = true,
                               bool sorted = true);

}  // namespace dc
