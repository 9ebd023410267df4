// Definitions of the flash-attention dispatch stubs (kernels/stubs/flash_attention_stubs.h).
#include "densecore/kernels/stubs/flash_attention_stubs.h"

namespace dc {

DC_DEFINE_DISPATCH(FlashAttnFwdFn, flash_attention_stub);
DC_DEFINE_DISPATCH(FlashAttnBwdFn, flash_attention_backward_stub);

}  // namespace dc
