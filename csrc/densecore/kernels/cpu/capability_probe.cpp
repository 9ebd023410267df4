// Reports which capability build of the kernel files ran: lets tests check that dispatch honours
// ATEN_CPU_CAPABILITY and the REGISTER_DISPATCH / ALSO_REGISTER_AVX512_DISPATCH distinction.
#include "densecore/kernels/dispatch/probe.h"

namespace dc {
inline namespace DC_CPU_CAPABILITY {
namespace {

int compiled_capability() { return DC_CAPABILITY_INDEX; }

}  // namespace
}  // namespace DC_CPU_CAPABILITY

DC_REGISTER_DISPATCH(probe_stub, &compiled_capability);
DC_ALSO_REGISTER_AVX512_DISPATCH(probe_avx512_stub, &compiled_capability);

}  // namespace dc
