// Definitions of the dispatch stubs declared in kernels/stubs/optim_stubs.h.
#include "densecore/kernels/stubs/optim_stubs.h"

namespace dc {

DC_DEFINE_DISPATCH(AdamStepFn, adam_step_stub);
DC_DEFINE_DISPATCH(SgdStepFn, sgd_step_stub);

}  // namespace dc
