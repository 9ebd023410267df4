// CPU capability selection, as ATen's DispatchStub does it (aten/src/ATen/native/DispatchStub.cpp):
// ATEN_CPU_CAPABILITY=avx512|avx2|default overrides; otherwise AVX512 when the CPU has
// AVX-512 VL+BW+DQ and FMA, AVX2 when it has AVX2 and FMA, else DEFAULT.
#pragma once

#include <string_view>

namespace dc {

enum class CpuCapability : int { Default = 0, Avx2 = 1, Avx512 = 2 };

/// The capability kernels are dispatched for; computed once, on first use.
CpuCapability cpu_capability();
/// "DEFAULT", "AVX2" or "AVX512", as torch.backends.cpu.get_cpu_capability() prints it.
std::string_view cpu_capability_name(CpuCapability c);

}  // namespace dc
