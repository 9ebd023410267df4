// Definitions of the dispatch stubs declared in kernels/stubs/math_stubs.h.
#include "densecore/kernels/stubs/math_stubs.h"

namespace dc {

DC_DEFINE_DISPATCH(MathIterScalarFn, pow_tensor_scalar_stub);
DC_DEFINE_DISPATCH(NormFn, norm_stub);

}  // namespace dc
