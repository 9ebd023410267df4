// Definitions of the random-number dispatch stubs; kernels/cpu/distributions.cpp fills them.
#include "densecore/kernels/stubs/distribution_stubs.h"

namespace dc {

DC_DEFINE_DISPATCH(UniformFn, uniform_stub);
DC_DEFINE_DISPATCH(NormalFn, normal_stub);
DC_DEFINE_DISPATCH(RandomFromToFn, random_from_to_stub);
DC_DEFINE_DISPATCH(RandomFn, random_full_64_bits_range_stub);
DC_DEFINE_DISPATCH(RandomFn, random_stub);
DC_DEFINE_DISPATCH(ScalarParamFn, bernoulli_scalar_stub);
DC_DEFINE_DISPATCH(RandomFn, bernoulli_tensor_stub);
DC_DEFINE_DISPATCH(ScalarParamFn, exponential_stub);
DC_DEFINE_DISPATCH(MultinomialFn, multinomial_with_replacement_stub);
DC_DEFINE_DISPATCH(MultinomialRaceFn, multinomial_race_stub);

}  // namespace dc
