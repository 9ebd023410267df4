// MKL VML as at::vml calls it (aten/src/ATen/cpu/vml.h with MKL): vms<Op>(n, in, out, VML_HA |
// VML_FTZDAZ_OFF | VML_ERRMODE_IGNORE) for float, vmd<Op> for double, in pieces of at most INT_MAX elements
// (MKL_INT is 32-bit in the LP64 interface torch uses). One home for the unary math kernels (unary_math.cpp)
// and the fused optimizer steps (optim.cpp). VML's HA results are not always correctly rounded (its sqrt
// differs from the hardware's in the last bit for about one float in six), so nothing may stand in for it.
// Only include from kernels/cpu/.
#pragma once

#include <mkl_vml.h>

#include <algorithm>
#include <cstdint>
#include <type_traits>

namespace dc {
inline namespace DC_CPU_CAPABILITY {

constexpr MKL_INT64 kVmlMode = VML_HA | VML_FTZDAZ_OFF | VML_ERRMODE_IGNORE;

/// The grain of UnaryOpsKernel.cpp IMPLEMENT_ITERATOR_LAMBDA, whose parallel chunks each make one VML call.
inline constexpr int64_t kVmlGrainSize = 2048;

enum class VmlOp { Sqrt, Exp, Ln, Tanh, Erf, Sin, Cos };

template <class T>
inline void vml_call(VmlOp op, const T* in, T* out, int64_t n) {
  // at::vml chunks by INT_MAX (MKL_INT is 32-bit in the LP64 interface torch uses).
  while (n > 0) {
    const MKL_INT m = MKL_INT(std::min<int64_t>(n, INT32_MAX));
    if constexpr (std::is_same_v<T, float>) {
      switch (op) {
        case VmlOp::Sqrt: vmsSqrt(m, in, out, kVmlMode); break;
        case VmlOp::Exp: vmsExp(m, in, out, kVmlMode); break;
        case VmlOp::Ln: vmsLn(m, in, out, kVmlMode); break;
        case VmlOp::Tanh: vmsTanh(m, in, out, kVmlMode); break;
        case VmlOp::Erf: vmsErf(m, in, out, kVmlMode); break;
        case VmlOp::Sin: vmsSin(m, in, out, kVmlMode); break;
        case VmlOp::Cos: vmsCos(m, in, out, kVmlMode); break;
      }
    } else {
      switch (op) {
        case VmlOp::Sqrt: vmdSqrt(m, in, out, kVmlMode); break;
        case VmlOp::Exp: vmdExp(m, in, out, kVmlMode); break;
        case VmlOp::Ln: vmdLn(m, in, out, kVmlMode); break;
        case VmlOp::Tanh: vmdTanh(m, in, out, kVmlMode); break;
        case VmlOp::Erf: vmdErf(m, in, out, kVmlMode); break;
        case VmlOp::Sin: vmdSin(m, in, out, kVmlMode); break;
        case VmlOp::Cos: vmdCos(m, in, out, kVmlMode); break;
      }
    }
    in += m;
    out += m;
    n -= m;
  }
}

}  // namespace DC_CPU_CAPABILITY
}  // namespace dc
