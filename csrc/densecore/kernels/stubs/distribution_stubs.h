// Dispatch stubs of the random-number kernels (kernels/cpu/distributions.cpp). All are registered
// with DC_REGISTER_DISPATCH, as torch's DistributionKernels.cpp and MultinomialKernel.cpp do, so an
// AVX-512 machine runs the AVX2 build (normal_fill's 8-lane avx_mathfun code).
#pragma once

#include <cstdint>

#include "densecore/core/dtype.h"
#include "densecore/core/generator.h"
#include "densecore/kernels/dispatch/dispatch.h"
#include "densecore/kernels/iter/iter.h"

namespace dc {

/// A 1-D or 2-D strided float array: rows x cols, strides in elements.
struct Strided2d {
  void* data;
  DType dtype;
  int64_t rows, cols;
  int64_t row_stride, col_stride;
};

using UniformFn = void (*)(TensorIter& iter, double from, double to, GeneratorImpl* gen);
// normal: `iter` is over self; contiguous selects normal_fill when numel >= 16.
using NormalFn = void (*)(TensorIter& iter, bool contiguous, double mean, double std,
                          GeneratorImpl* gen);
using RandomFromToFn = void (*)(TensorIter& iter, uint64_t range, int64_t base, GeneratorImpl* gen);
using RandomFn = void (*)(TensorIter& iter, GeneratorImpl* gen);
using ScalarParamFn = void (*)(TensorIter& iter, double param, GeneratorImpl* gen);
// multinomial with replacement: result is (rows, n_sample) int64, probs (rows, n_categories).
using MultinomialFn = void (*)(int64_t* result, int64_t res_row_stride, int64_t res_col_stride,
                               const Strided2d& probs, int64_t n_sample, GeneratorImpl* gen);

DC_DECLARE_DISPATCH(UniformFn, uniform_stub);
DC_DECLARE_DISPATCH(NormalFn, normal_stub);
DC_DECLARE_DISPATCH(RandomFromToFn, random_from_to_stub);
DC_DECLARE_DISPATCH(RandomFn, random_full_64_bits_range_stub);
DC_DECLARE_DISPATCH(RandomFn, random_stub);
DC_DECLARE_DISPATCH(ScalarParamFn, bernoulli_scalar_stub);
DC_DECLARE_DISPATCH(RandomFn, bernoulli_tensor_stub);  // iter = (self, p)
DC_DECLARE_DISPATCH(ScalarParamFn, exponential_stub);
// multinomial without replacement (or one sample): q <- p / q in p's dtype, then per row the
// argmax (n_sample == 1) or topk indices of q (Distributions.cpp's exponential race).
using MultinomialRaceFn = void (*)(int64_t* result, int64_t res_row_stride, int64_t res_col_stride,
                                   const Strided2d& probs, const Strided2d& q, int64_t n_sample);

DC_DECLARE_DISPATCH(MultinomialFn, multinomial_with_replacement_stub);
DC_DECLARE_DISPATCH(MultinomialRaceFn, multinomial_race_stub);

}  // namespace dc
