// Stubs whose kernels return the capability index they were compiled for (0 DEFAULT, 1 AVX2,
// 2 AVX512). probe_stub uses REGISTER_DISPATCH, probe_avx512_stub ALSO_REGISTER_AVX512_DISPATCH.
#pragma once

#include "densecore/kernels/dispatch/dispatch.h"

namespace dc {

using ProbeFn = int (*)();
DC_DECLARE_DISPATCH(ProbeFn, probe_stub);
DC_DECLARE_DISPATCH(ProbeFn, probe_avx512_stub);

}  // namespace dc
