// Definition of the sorting dispatch stub declared in sort_stubs.h.
#include "densecore/kernels/stubs/sort_stubs.h"

namespace dc {
DC_DEFINE_DISPATCH(TopkFn, topk_stub);
}  // namespace dc
