#include "densecore/kernels/dispatch/cpu_capability.h"

#include <cstdlib>
#include <cstring>

namespace dc {
namespace {

CpuCapability detect() {
  __builtin_cpu_init();
  const bool fma = __builtin_cpu_supports("fma");
  const bool avx512 = __builtin_cpu_supports("avx512vl") && __builtin_cpu_supports("avx512bw") &&
                      __builtin_cpu_supports("avx512dq") && fma;
  const bool avx2 = __builtin_cpu_supports("avx2") && fma;
  const CpuCapability best = avx512 ? CpuCapability::Avx512
                             : avx2 ? CpuCapability::Avx2
                                    : CpuCapability::Default;
  // The override may only lower the capability (torch ignores a request the CPU cannot honour).
  if (const char* env = std::getenv("ATEN_CPU_CAPABILITY")) {
    if (!std::strcmp(env, "default")) return CpuCapability::Default;
    if (!std::strcmp(env, "avx2") && best >= CpuCapability::Avx2) return CpuCapability::Avx2;
    if (!std::strcmp(env, "avx512") && best >= CpuCapability::Avx512) return CpuCapability::Avx512;
  }
  return best;
}

}  // namespace

CpuCapability cpu_capability() {
  static const CpuCapability cap = detect();
  return cap;
}

std::string_view cpu_capability_name(CpuCapability c) {
  switch (c) {
    case CpuCapability::Default: return "DEFAULT";
    case CpuCapability::Avx2: return "AVX2";
    case CpuCapability::Avx512: return "AVX512";
  }
  return "DEFAULT";
}

}  // namespace dc
