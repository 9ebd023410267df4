// Definitions of the elementwise dispatch stubs; kernels/cpu/*.cpp fill them.
#include "densecore/kernels/stubs/elementwise_stubs.h"

namespace dc {

DC_DEFINE_DISPATCH(IterFn, div_trunc_stub);
DC_DEFINE_DISPATCH(IterFn, div_floor_stub);
DC_DEFINE_DISPATCH(IterFn, eq_stub);
DC_DEFINE_DISPATCH(IterFn, ne_stub);
DC_DEFINE_DISPATCH(IterFn, lt_stub);
DC_DEFINE_DISPATCH(IterFn, le_stub);
DC_DEFINE_DISPATCH(IterFn, gt_stub);
DC_DEFINE_DISPATCH(IterFn, ge_stub);
DC_DEFINE_DISPATCH(IterFn, where_stub);
DC_DEFINE_DISPATCH(MaskedFillFn, masked_fill_stub);
DC_DEFINE_DISPATCH(IterFn, clamp_stub);
DC_DEFINE_DISPATCH(IterScalar2Fn, clamp_scalar_stub);
DC_DEFINE_DISPATCH(IterScalarFn, clamp_min_scalar_stub);
DC_DEFINE_DISPATCH(IterScalarFn, clamp_max_scalar_stub);

}  // namespace dc
