// The matmul family: mm, addmm, bmm, mv, dot, matmul, linear, with ATen's path choices
// (aten/src/ATen/native/LinearAlgebra.cpp, Blas.cpp, Linear.cpp) so the same BLAS call is made.
#pragma once

#include "densecore/core/scalar.h"
#include "densecore/core/tensor.h"
#include "densecore/generated/ops.h"

namespace dc {

// mm(self, mat2): (n, m) @ (m, p) -> (n, p), same dtype, float/double through MKL sgemm/dgemm, integers naive;
// addmm(self, mat1, mat2, beta = 1, alpha = 1): beta * self + alpha * (mat1 @ mat2), self broadcast to (n, p)
// and copied into the result before ONE gemm call with beta (ATen's addmm_impl_cpu_). Both are op rows.
// bmm(self, mat2): (b, n, m) @ (b, m, p) -> (b, n, p) (ATen's bmm_out_or_baddbmm_); mv(self, vec): (n, m) @ (m,)
// through gemv (ATen's addmv with beta 0); dot(self, tensor): (n,) . (n,) -> 0-dim. They are op rows
// (csrc/op_rows.toml), declared in densecore/generated/ops.h; their forwards impl::bmm_forward/mv_forward/dot_forward are in linalg.cpp.
/// torch.matmul: 1-D/2-D/N-D dispatch, folding into mm when possible, batched through bmm.
Tensor matmul(const Tensor& a, const Tensor& b);
/// F.linear: input @ weight.T + bias; fused into addmm for 2-D input or a contiguous input with a
/// 1-D-like contiguous bias, else matmul then an in-place add (at::linear, Linear.cpp).
Tensor linear(const Tensor& input, const Tensor& weight, const Tensor& bias = Tensor());

}  // namespace dc
