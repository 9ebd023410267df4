// Definitions of the softmax backward and mse_loss dispatch stubs; kernels/cpu/ fills them.
#include "densecore/kernels/stubs/loss_stubs.h"

namespace dc {

DC_DEFINE_DISPATCH(SoftmaxBackwardFn, softmax_backward_stub);
DC_DEFINE_DISPATCH(MseFn, mse_stub);
DC_DEFINE_DISPATCH(MseBackwardFn, mse_backward_stub);

}  // namespace dc
