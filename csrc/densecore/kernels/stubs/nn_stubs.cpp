// Definitions of the nn dispatch stubs; kernels/cpu/layer_norm.cpp and gelu.cpp fill them.
#include "densecore/kernels/stubs/nn_stubs.h"

namespace dc {

DC_DEFINE_DISPATCH(LayerNormFn, layer_norm_stub);
DC_DEFINE_DISPATCH(LayerNormBackwardFn, layer_norm_backward_stub);
DC_DEFINE_DISPATCH(GeluFn, gelu_stub);
DC_DEFINE_DISPATCH(GeluFn, gelu_backward_stub);

}  // namespace dc
