// Losses: LossNLL.cpp (nll_loss_forward meta + CPU impl, nll_loss_nd, cross_entropy_loss), Loss.cpp
// (mse_loss), and SoftMax.cpp's softmax_backward_cpu_out / log_softmax_backward_cpu_out.
#include "densecore/ops/loss.h"

#include <algorithm>
#include <cmath>
#include <limits>

#include "densecore/core/error.h"
#include "densecore/core/scalar.h"
#include "densecore/kernels/stubs/loss_stubs.h"
#include "densecore/kernels/baseline/nll_loss.h"
#include "densecore/ops/copy.h"
#include "densecore/ops/creation.h"
#include "densecore/ops/elementwise.h"
#include "densecore/ops/index.h"
#include "densecore/ops/reduce.h"
#include "densecore/ops/row_fronts.h"

namespace dc {
namespace {

using kernels::Reduction;

/// TORCH_META_FUNC(nll_loss_forward)'s checks, in its order.
void nll_loss_check(const Tensor& self, const Tensor& target, const Tensor& weight) {
  check(self.dim() > 0 && self.dim() <= 2, "input tensor should be 1D or 2D");
  check(target.dim() <= 1, "0D or 1D target tensor expected, multi-target not supported");
  check(target.dtype() == DType::Int64 || target.dtype() == DType::UInt8,
        "expected target dtype to be Long or Byte, but got {}", scalar_type_name(target.dtype()));
  if (self.dim() == 1 && target.dim() == 1)
    check<ValueError>(target.size(0) == 1, "For 1D input, 1D target must have size 1, but got target size: {}",
                      target.size(0));
  if (self.dim() != 1) {
    check<IndexError>(target.dim() > 0, "dimension specified as 0 but tensor has no dimensions");
    check(self.size(0) == target.size(0), "size mismatch (got input: {}, target: {})", shape_text(self.sizes()),
          shape_text(target.sizes()));
  }
  const int64_t n_classes = self.size(-1);
  check(!weight.defined() || (weight.dim() == 1 && weight.numel() == n_classes),
        "weight tensor should be defined either for all {} classes or no classes but got weight tensor of shape: {}",
        n_classes, shape_text(weight.defined() ? weight.sizes() : Shape{}));
}

/// data_ptr<scalar_t>()'s dtype check on the weight.
void check_same_dtype(const Tensor& t, DType want) {
  if (t.defined())
    check(t.dtype() == want, "expected scalar type {} but found {}", scalar_type_name(want), scalar_type_name(t.dtype()));
}

kernels::NllArgs nll_args(const Tensor& input, const Tensor& target, const Tensor& weight, int64_t ignore_index) {
  kernels::NllArgs a{};
  a.dtype = input.dtype();
  a.input = input.data_ptr();
  a.input_1d = input.dim() == 1;
  a.batch = a.input_1d ? 1 : input.size(0);
  a.classes = input.size(-1);
  a.in_stride0 = a.input_1d ? 0 : input.stride(0);
  a.in_stride1 = input.stride(-1);
  a.target = target.data_ptr();
  a.target_u8 = target.dtype() == DType::UInt8;
  a.tgt_stride = target.dim() == 0 ? 0 : target.stride(0);
  a.weight = weight.defined() ? weight.data_ptr() : nullptr;
  a.ignore_index = ignore_index;
  return a;
}

Reduction to_reduction(int64_t r) {
  check(r >= 0 && r <= 2, "{} is not a valid value for reduction", r);
  return static_cast<Reduction>(r);
}

/// SoftMax.cpp host backward: contiguous grad/output, [outer, dim, inner], the stub.
Tensor softmax_backward_impl(const Tensor& grad_, const Tensor& output_, int64_t dim, bool log) {
  const Tensor grad = contiguous(grad_), output = contiguous(output_);
  const int64_t d = wrap_dim(dim, grad.dim());
  Tensor gin = empty(grad.sizes(), grad.dtype());
  if (output.numel() == 0) return gin;
  int64_t outer = 1, inner = 1;
  const int64_t n = grad.dim() == 0 ? 1 : grad.sizes()[d];
  for (int64_t i = 0; i < d; ++i) outer *= grad.sizes()[i];
  for (int64_t i = d + 1; i < grad.dim(); ++i) inner *= grad.sizes()[i];
  softmax_backward_stub(grad.dtype(), grad.data_ptr(), output.data_ptr(), gin.data_ptr(), outer, n, inner, log);
  return gin;
}

}  // namespace

// nll_loss_forward is an op row (csrc/op_rows.toml): this is its forward, nll_loss_out_frame.
std::tuple<Tensor, Tensor> impl::nll_loss_forward_forward(const Tensor& self, const Tensor& target, const Tensor& weight_,
                                                          int64_t reduction, int64_t ignore_index) {
  nll_loss_check(self, target, weight_);
  const Reduction r = to_reduction(reduction);
  check_same_dtype(weight_, self.dtype());
  const Tensor weight = weight_.defined() ? contiguous(weight_) : weight_;
  Tensor total_weight = zeros({}, self.dtype());
  if (r == Reduction::None && self.dim() == 2) {
    const int64_t batch[1] = {self.size(0)};
    Tensor out = empty(batch, self.dtype());
    if (self.size(0) > 0) kernels::nll_loss_forward_none(nll_args(self, target, weight, ignore_index), out.data_ptr(), 1);
    return {out, total_weight};
  }
  Tensor out = empty({}, self.dtype());
  if (target.numel() == 0) {
    // Mean over nothing is NaN (pytorch/pytorch#64572); total_weight stays 0.
    native::fill_(out, r == Reduction::Mean ? Scalar::from_double(std::numeric_limits<double>::quiet_NaN()) : Scalar::from_int(0));
    return {out, total_weight};
  }
  const Tensor input = contiguous(self);
  kernels::nll_loss_forward_reduce(nll_args(input, target, weight, ignore_index), r, out.data_ptr(),
                                   total_weight.data_ptr());
  return {out, total_weight};
}

Tensor nll_loss_backward(const Tensor& grad_output, const Tensor& self, const Tensor& target, const Tensor& weight_,
                         int64_t reduction, int64_t ignore_index, const Tensor& total_weight) {
  // TORCH_META_FUNC(nll_loss_backward): stricter than the forward for 1-D input with a [1] target.
  check(self.dim() > 0 && self.dim() <= 2, "input tensor should be 1D or 2D");
  check(target.dim() <= 1, "0D or 1D target tensor expected, multi-target not supported");
  check((self.dim() == 1 && target.dim() == 0) || (target.dim() > 0 && self.size(0) == target.size(0)),
        "size mismatch (got input: {}, target: {})", shape_text(self.sizes()), shape_text(target.sizes()));
  const Reduction r = to_reduction(reduction);
  check_same_dtype(weight_, self.dtype());
  const Tensor weight = weight_.defined() ? contiguous(weight_) : weight_;
  Tensor grad_input = zeros(self.sizes(), self.dtype());  // grad_input.zero_()
  if (self.numel() == 0) return grad_input;
  const Tensor go = r == Reduction::None && self.dim() == 2 ? grad_output : contiguous(grad_output);
  const int64_t go_stride = go.dim() == 0 ? 0 : go.stride(0);
  kernels::nll_loss_backward(nll_args(self, target, weight, ignore_index), r, go.data_ptr(), go_stride,
                             total_weight.data_ptr(), grad_input.data_ptr());
  return grad_input;
}

Tensor nll_loss_nd(const Tensor& self, const Tensor& target, const Tensor& weight, int64_t reduction,
                   int64_t ignore_index) {
  check<ValueError>(self.dim() >= 1, "Expected 1 or more dimensions (got {})", self.dim());
  if (self.dim() != 1 && target.dim() > 0)
    check<ValueError>(self.size(0) == target.size(0), "Expected input batch_size ({}) to match target batch_size ({}).",
                      self.size(0), target.size(0));
  if (self.dim() <= 2) return std::get<0>(nll_loss_forward(self, target, weight, reduction, ignore_index));
  Shape out_size{self.size(0)};
  for (int64_t i = 2; i < self.dim(); ++i) out_size.push_back(self.size(i));
  const Shape tail(target.sizes().begin() + std::min<int64_t>(1, target.dim()), target.sizes().end());
  check(tail == Shape(out_size.begin() + 1, out_size.end()), "Expected target size {}, got {}", shape_text(out_size),
        shape_text(target.sizes()));
  throw NotImplementedError("nll_loss2d (input with more than 2 dimensions) is not implemented in densecore yet");
}

Tensor cross_entropy(const Tensor& self, const Tensor& target, const Tensor& weight, int64_t reduction,
                     int64_t ignore_index, double label_smoothing) {
  if (self.sizes() == target.sizes())
    throw NotImplementedError("cross_entropy with class-probability targets is not implemented in densecore yet");
  if (label_smoothing > 0.0) {
    check(label_smoothing <= 1.0, "label_smoothing must be between 0.0 and 1.0. Got: {}", label_smoothing);
    throw NotImplementedError("cross_entropy with label_smoothing > 0 is not implemented in densecore yet");
  }
  const int64_t class_dim = self.dim() == 1 ? 0 : 1;
  return nll_loss_nd(log_softmax(self, class_dim, self.dtype()), target, weight, reduction, ignore_index);
}

namespace {

/// Whether mse_loss's fused kernels take these operands: float32 or float64, all one dtype. Other dtypes
/// keep the composite forms, whose per-element roundings are the same.
bool mse_fusable(std::initializer_list<const Tensor*> ts) {
  const DType t = (*ts.begin())->dtype();
  if (t != DType::Float32 && t != DType::Float64) return false;
  for (const Tensor* x : ts)
    if (x->dtype() != t) return false;
  return true;
}

/// norm is computed in double, then converted to the scalar type (mse_backward_cpu_kernel).
double mse_norm(const Tensor& self, int64_t reduction) {
  return reduction == kReductionMean ? 2. / double(self.numel()) : 2.;
}

}  // namespace

// mse_loss is an op row (csrc/op_rows.toml): this is its forward.
Tensor impl::mse_loss_forward(const Tensor& self, const Tensor& target, int64_t reduction) {
  const Reduction r = to_reduction(reduction);
  Tensor loss;
  if (mse_fusable({&self, &target})) {
    loss = run_iter(binary_op_config(), Tensor(), {self, target}, [](TensorIter& it) { mse_stub(it); });
  } else {
    const Tensor d = sub(self, target, Scalar::from_int(1));
    loss = mul(d, d);  // mse_kernel: diff * diff
  }
  return r == Reduction::None ? loss : r == Reduction::Mean ? mean(loss) : sum(loss);
}

Tensor mse_loss_backward(const Tensor& grad, const Tensor& self, const Tensor& target, int64_t reduction) {
  const Tensor n = value_to_tensor(Scalar::from_double(mse_norm(self, reduction)), self.dtype());
  return mul(mul(n, sub(self, target, Scalar::from_int(1))), grad);
}

Tensor mse_loss_backward_fused(const Tensor& grad, const Tensor& self, const Tensor& target, int64_t reduction) {
  if (!mse_fusable({&self, &target, &grad})) return mse_loss_backward(grad, self, target, reduction);
  const double norm = mse_norm(self, reduction);
  return run_iter(binary_op_config(), Tensor(), {self, target, grad},
                  [norm](TensorIter& it) { mse_backward_stub(it, norm); });
}

Tensor softmax_backward_data(const Tensor& grad, const Tensor& output, int64_t dim, DType input_dtype) {
  return softmax_backward_impl(grad, output, dim, false);
}
Tensor log_softmax_backward_data(const Tensor& grad, const Tensor& output, int64_t dim, DType input_dtype) {
  return softmax_backward_impl(grad, output, dim, true);
}

}  // namespace dc
