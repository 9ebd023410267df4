// Random sampling ops: the in-place distributions (uniform_, normal_, random_, bernoulli_,
// exponential_) and the factories over them (rand, randn, randint, randperm, normal, bernoulli,
// multinomial). Mirrors aten/src/ATen/native/Distributions.cpp, DistributionTemplates.h and
// TensorFactories.cpp (randperm). A null Generator means the default generator.
#pragma once

#include <optional>
#include <span>

#include "densecore/core/generator.h"
#include "densecore/core/tensor.h"
#include "densecore/generated/ops.h"

namespace dc {

// The in-place distributions (uniform_, normal_, random_ and random_to_, bernoulli_, exponential_) and
// torch.bernoulli are rows (csrc/op_rows.toml), declared in generated/ops.h: dc::<name> records torch's node,
// native::<name> (defined in ops/random.cpp) only draws. Errors as ATen's uniform_impl_, normal_impl_, ...

Tensor rand(std::span<const int64_t> sizes, DType dtype, const Generator& gen = nullptr);
Tensor randn(std::span<const int64_t> sizes, DType dtype, const Generator& gen = nullptr);
/// torch.randint(low, high, size): int64 unless dtype says otherwise.
Tensor randint(int64_t low, int64_t high, std::span<const int64_t> sizes, DType dtype,
               const Generator& gen = nullptr);
/// torch.randperm(n): a permutation of 0..n-1 by torch's Fisher-Yates with n-1 32-bit draws.
Tensor randperm(int64_t n, DType dtype, const Generator& gen = nullptr);
/// torch.normal(mean, std, size) with float mean and std.
Tensor normal(double mean, double std, std::span<const int64_t> sizes, DType dtype,
              const Generator& gen = nullptr);
/// torch.multinomial over the last dim of a 1-D or 2-D probability tensor; int64 indices.
Tensor multinomial(const Tensor& probs, int64_t num_samples, bool replacement,
                   const Generator& gen = nullptr);

}  // namespace dc
