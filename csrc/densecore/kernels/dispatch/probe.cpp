#include "densecore/kernels/dispatch/probe.h"

namespace dc {

DC_DEFINE_DISPATCH(ProbeFn, probe_stub);
DC_DEFINE_DISPATCH(ProbeFn, probe_avx512_stub);

}  // namespace dc
