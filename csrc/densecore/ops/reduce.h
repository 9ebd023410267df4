// Reductions and softmax as torch exposes them (aten/src/ATen/native/ReduceOps.cpp,
// ReduceAllOps.cpp, TensorCompare.cpp, SoftMax.cpp, ExpandUtils.h): argument checks, result
// dtype and shape, the reduction iterator, then the kernel stub. `dims` empty = all dims.
#pragma once

#include <optional>
#include <span>
#include <utility>

#include "densecore/core/tensor.h"
#include "densecore/generated/ops.h"

namespace dc {

// sum(t, dtype) and sum(t, dim, keepdim, dtype), and mean's two overloads, are op rows (csrc/op_rows.toml), in
// densecore/generated/ops.h.
// amax(self, dim = {}, keepdim = false) and amin are op rows (csrc/op_rows.toml), in densecore/generated/ops.h.
// torch.max(t) / torch.min(t), the full reduction, and torch.max(t, dim) / torch.min(t, dim), (values, indices),
// are op rows (max, min, max.dim, min.dim), in densecore/generated/ops.h.
Tensor argmax(const Tensor& t, std::optional<int64_t> dim = std::nullopt, bool keepdim = false);
Tensor argmin(const Tensor& t, std::optional<int64_t> dim = std::nullopt, bool keepdim = false);
Tensor softmax(const Tensor& t, int64_t dim, std::optional<DType> dtype = std::nullopt);
Tensor log_softmax(const Tensor& t, int64_t dim, std::optional<DType> dtype = std::nullopt);

/// at::sum_to (ExpandUtils.h _sum_to): sums the leading dims and every dim where `shape` has 1
/// (keepdim) in ONE sum, then views to `shape`. The autograd engine reduces broadcast gradients
/// with it. Tensor.sum_to_size also checks that `shape` is expandable to t's size.
Tensor sum_to_size(const Tensor& t, std::span<const int64_t> shape);

}  // namespace dc
