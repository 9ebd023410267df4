// Random sampling ops: the in-place distributions (uniform_, normal_, random_, bernoulli_,
// exponential_) and the factories over them (rand, randn, randint, randperm, normal, bernoulli,
// multinomial). Mirrors aten/src/ATen/native/Distributions.cpp, DistributionTemplates.h and
// TensorFactories.cpp (randperm). A null Generator means the default generator.
#pragma once

#include <optional>
#include <span>

#include "densecore/core/generator.h"
#include "densecore/core/tensor.h"

namespace dc {

/// Fills self from U[from, to) (floating dtypes); bumps its version. Errors as uniform_impl_.
const Tensor& uniform_(const Tensor& self, double from, double to, const Generator& gen = nullptr);
/// Fills self from N(mean, std^2) (floating dtypes); RuntimeError when std < 0.
const Tensor& normal_(const Tensor& self, double mean, double std, const Generator& gen = nullptr);
/// random_(): integers in [0, max] (ints) or [0, 2^mantissa] (floats); bool gets 0/1.
const Tensor& random_(const Tensor& self, const Generator& gen = nullptr);
/// random_(from, to): integers in [from, to); to = nullopt means up to the dtype's maximum.
const Tensor& random_(const Tensor& self, int64_t from, std::optional<int64_t> to,
                      const Generator& gen = nullptr);
/// self.random_(to): random_(0, to) under torch's random_.to overload (RandomBackward1).
const Tensor& random_to_(const Tensor& self, int64_t to, const Generator& gen = nullptr);
/// Each element 1 with probability p (p in [0, 1]), else 0; any dtype.
const Tensor& bernoulli_(const Tensor& self, double p, const Generator& gen = nullptr);
/// Each element 1 with probability p[i] (p broadcast to self's shape, floating dtype).
const Tensor& bernoulli_(const Tensor& self, const Tensor& p, const Generator& gen = nullptr);
/// Exponential samples with rate lambd > 0 (floating dtypes).
const Tensor& exponential_(const Tensor& self, double lambd, const Generator& gen = nullptr);

/// torch.bernoulli(p): a new tensor like p (contiguous, p's dtype) of Bernoulli(p) draws.
Tensor bernoulli(const Tensor& p, const Generator& gen = nullptr);
/// torch.bernoulli(input, p): a new tensor like input filled with Bernoulli(p).
Tensor bernoulli(const Tensor& self, double p, const Generator& gen = nullptr);

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
