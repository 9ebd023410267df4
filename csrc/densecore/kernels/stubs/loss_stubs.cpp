// Definition of the softmax backward dispatch stub; kernels/cpu/softmax_backward.cpp fills it.
#include "densecore/kernels/stubs/loss_stubs.h"

namespace dc {

DC_DEFINE_DISPATCH(SoftmaxBackwardFn, softmax_backward_stub);

}  // namespace dc
