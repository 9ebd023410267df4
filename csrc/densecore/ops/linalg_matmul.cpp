// matmul and linear: ATen's dispatch over dimensions (LinearAlgebra.cpp _matmul_impl, should_fold)
// and at::linear's fused/unfused choice (Linear.cpp as of 2.14.1, verified by tracing torch's ops).
#include <cstdlib>
#include <cstring>
#include <functional>
#include <numeric>

#include "densecore/core/error.h"
#include "densecore/ops/copy.h"
#include "densecore/ops/elementwise.h"
#include "densecore/ops/linalg.h"
#include "densecore/ops/view.h"

namespace dc {

namespace {

int64_t prod(const Shape& s) {
  return std::accumulate(s.begin(), s.end(), int64_t{1}, std::multiplies<int64_t>());
}

// squeeze(): the number of non-1 dims (all the linear bias test needs).
int64_t squeezed_dim(const Tensor& t) {
  int64_t n = 0;
  for (int64_t s : t.sizes()) n += s != 1;
  return n;
}

// ATen's should_fold, with its shortcut: fold whenever the smaller operand requires grad (one mm
// in backward instead of a bmm and a reduction).
bool should_fold(const Tensor& t1_, const Tensor& t2_) {
  const bool t1_larger = t1_.dim() >= t2_.dim();
  const Tensor t1 = t1_larger ? t1_ : make_view(t2_, transpose_layout(layout_of(t2_), -2, -1));
  const int64_t dim_t1 = t1.dim(), dim_t2 = t1_larger ? t2_.dim() : t1_.dim();
  if (!(dim_t1 >= 3 && dim_t2 <= 2)) return false;
  if (requires_grad(t1_larger ? t2_ : t1_)) return true;
  if (t1_.dim() == 2) return false;
  if (t1.numel() == 0) return true;
  for (int64_t i = 0; i < dim_t1 - 2; ++i)
    if (t1.strides()[i] != t1.strides()[i + 1] * t1.sizes()[i + 1]) return false;
  return true;
}

// The fold: (..., n, k) @ (k, p) as one mm over (prod(...) * n, k), or the transposed case.
Tensor matmul_folded(const Tensor& tensor1, const Tensor& tensor2) {
  const bool trans = tensor2.dim() > tensor1.dim();
  const Tensor t1 = trans ? transpose(tensor2, -2, -1) : tensor1;
  const Tensor rhs = !trans ? tensor2 : tensor1.dim() == 2 ? t_(tensor1) : tensor1;
  Shape out_shape(t1.sizes().begin(), t1.sizes().end() - 1);
  const int64_t folded = prod(out_shape);
  const Tensor t1_folded = reshape(t1, Shape{folded, t1.sizes().back()});
  if (rhs.dim() == 2) {
    out_shape.push_back(rhs.sizes()[1]);
    const Tensor out = unsafe_view(mm(t1_folded, rhs), out_shape);
    return trans ? contiguous(transpose(out, -2, -1)) : out;  // output.mT().contiguous()
  }
  return unsafe_view(mv(t1_folded, rhs), out_shape);
}

// Broadcast batch dims, reshape both sides to 3-D and call bmm.
Tensor matmul_batched(const Tensor& tensor1, const Tensor& tensor2) {
  const int64_t d1 = tensor1.dim(), d2 = tensor2.dim();
  const int64_t n = d1 > 1 ? tensor1.sizes().end()[-2] : 1, m1 = tensor1.sizes().back();
  const Shape batch1(tensor1.sizes().begin(), tensor1.sizes().begin() + std::max<int64_t>(d1 - 2, 0));
  const int64_t m2 = d2 > 1 ? tensor2.sizes().end()[-2] : tensor2.sizes().front();
  const int64_t p = d2 > 1 ? tensor2.sizes().back() : 1;
  const Shape batch2(tensor2.sizes().begin(), tensor2.sizes().begin() + std::max<int64_t>(d2 - 2, 0));
  Shape out_shape = broadcast_shapes(batch1, batch2);
  const int64_t bp = prod(out_shape);
  Shape e1 = out_shape, e2 = out_shape;
  e1.insert(e1.end(), {n, m1});
  const Tensor t1e = reshape(expand(tensor1, e1), Shape{bp, n, m1});
  const bool vector_rhs = d2 == 1;
  if (vector_rhs) e2.push_back(m2); else e2.insert(e2.end(), {m2, p});
  const Tensor t2e = vector_rhs ? unsqueeze(reshape(expand(tensor2, e2), Shape{bp, m2}), 2)
                                : reshape(expand(tensor2, e2), Shape{bp, m2, p});
  if (d1 > 1) out_shape.push_back(n);
  if (d2 > 1) out_shape.push_back(p);
  Tensor r = bmm(t1e, t2e);
  if (vector_rhs) r = squeeze_dim(r, -1);
  return unsafe_view(r, out_shape);
}

bool linear_flatten_3d_env() {
  static const bool value = [] {
    const char* s = std::getenv("TORCH_LINEAR_FLATTEN_3D");
    return s != nullptr && std::strcmp(s, "1") == 0;
  }();
  return value;
}

// _flatten_nd_linear: (..., K) -> (prod(...), K), addmm with the bias, view back.
Tensor flatten_nd_linear(const Tensor& input, const Tensor& weight, const Tensor& bias) {
  const Shape& s = input.sizes();
  Shape lead(s.begin(), s.end() - 1);
  const Tensor x2 = reshape(input, Shape{prod(lead), s.back()});
  const Tensor r = addmm(bias, x2, t_(weight));
  lead.push_back(r.sizes()[1]);
  return view(r, lead);
}

}  // namespace

Tensor matmul(const Tensor& tensor1, const Tensor& tensor2) {
  const int64_t d1 = tensor1.dim(), d2 = tensor2.dim();
  check(d1 != 0 && d2 != 0,
        "both arguments to matmul need to be at least 1D, but they are {}D and {}D", d1, d2);
  if (d1 == 1 && d2 == 1) return dot(tensor1, tensor2);
  if (d1 == 2 && d2 == 1) return mv(tensor1, tensor2);
  if (d1 == 1 && d2 == 2) return squeeze_dim(mm(unsqueeze(tensor1, 0), tensor2), 0);  // torch: squeeze_(0)
  if (d1 == 2 && d2 == 2) return mm(tensor1, tensor2);
  if (should_fold(tensor1, tensor2)) return matmul_folded(tensor1, tensor2);
  return matmul_batched(tensor1, tensor2);
}

Tensor linear(const Tensor& input, const Tensor& weight, const Tensor& bias) {
  check(input.dim() != 0 && weight.dim() != 0,
        "both arguments to linear need to be at least 1D, but they are {}D and {}D", input.dim(),
        weight.dim());
  const bool has_bias = bias.defined();
  if (input.dim() == 2 && has_bias) return addmm(bias, input, t_(weight));
  const bool fusable =
      has_bias && (bias.dim() == 1 || squeezed_dim(bias) == 1) && bias.is_contiguous();
  if (fusable) {
    if (input.is_contiguous()) return flatten_nd_linear(input, weight, bias);
    if (linear_flatten_3d_env()) return flatten_nd_linear(contiguous(input), weight, bias);
  }
  Tensor out = matmul(input, t_(weight));
  if (has_bias) add(out, bias, Scalar::from_int(1), out);  // output.add_(bias): AddBackward0 in place
  return out;
}

}  // namespace dc
