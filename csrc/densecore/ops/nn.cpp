// Front ends of the nn ops (see nn.h): ATen's argument checks and messages, contiguous inputs,
// the kernel stubs of kernels/stubs/nn_stubs.h (the recording of the rows among them is generated).
#include "densecore/ops/nn.h"

#include <cstring>
#include <sstream>

#include "densecore/core/error.h"
#include "densecore/kernels/iter/iter.h"
#include "densecore/kernels/stubs/nn_stubs.h"
#include "densecore/kernels/baseline/onednn_gelu.h"
#include "densecore/kernels/iter/parallel.h"
#include "densecore/ops/copy.h"
#include "densecore/ops/creation.h"
#include "densecore/ops/elementwise.h"
#include "densecore/ops/index.h"
#include "densecore/ops/random.h"
#include "densecore/ops/view.h"

namespace dc {
namespace {

void check_indices(const Tensor& indices, const char* fn, int arg) {
  check(indices.dtype() == DType::Int64 || indices.dtype() == DType::Int32,
        "Expected tensor for argument #{} 'indices' to have one of the following scalar types: Long, Int; "
        "but got {} instead (while checking arguments for {})",
        arg, message_type_name(indices.dtype()), fn);
}

int64_t index_at(const Tensor& idx, int64_t i) {
  return idx.dtype() == DType::Int64 ? idx.data<int64_t>()[i] : int64_t(idx.data<int32_t>()[i]);
}

/// grad_weight[k] += grad[i] for every position i in order (add_stub with alpha 1: exact a + b), the
/// row range split over threads as embedding_dense_backward_cpu does (grain 1000).
template <class T>
void embedding_accumulate(T* gw, const T* g, const Tensor& idx, int64_t numel, int64_t C, int64_t num_weights,
                          int64_t padding_idx) {
  parallel_for(0, num_weights, 1000, [&](int64_t start, int64_t end) {
    for (int64_t i = 0; i < numel; ++i) {
      const int64_t k = index_at(idx, i);
      if (k == padding_idx || k < start || k >= end) continue;
      T* row = gw + k * C;
      const T* src = g + i * C;
      for (int64_t j = 0; j < C; ++j) row[j] = row[j] + src[j];
    }
  });
}

/// _check_layer_norm_inputs (layer_norm.cpp): returns (M, N).
std::pair<int64_t, int64_t> check_layer_norm_inputs(const Tensor& input, std::span<const int64_t> shape,
                                                    const Tensor& weight, const Tensor& bias) {
  const int64_t nd = int64_t(shape.size());
  check(nd >= 1, "Expected normalized_shape to be at least 1-dimensional, i.e., containing at least one "
        "element, but got normalized_shape = {}", shape_text(shape));
  auto same = [&](const Tensor& t) {
    return std::equal(t.sizes().begin(), t.sizes().end(), shape.begin(), shape.end());
  };
  check(!weight.defined() || same(weight), "Expected weight to be of same shape as normalized_shape, but got "
        "weight of shape {} and normalized_shape = {}", weight.defined() ? shape_text(weight.sizes()) : ShapeText{}, shape_text(shape));
  check(!bias.defined() || same(bias), "Expected bias to be of same shape as normalized_shape, but got "
        "bias of shape {} and normalized_shape = {}", bias.defined() ? shape_text(bias.sizes()) : ShapeText{}, shape_text(shape));
  const int64_t in = input.dim();
  bool ok = in >= nd && std::equal(input.sizes().end() - nd, input.sizes().end(), shape.begin(), shape.end());
  if (!ok) {
    std::ostringstream ss;
    ss << "Given normalized_shape=" << shape_text(shape) << ", expected input with shape [*";
    for (int64_t s : shape) ss << ", " << s;
    ss << "], but got input of size" << shape_text(input.sizes());
    throw Error(ss.str());
  }
  const int64_t axis = in - nd;
  int64_t M = 1, N = 1;
  for (int64_t i = 0; i < in; ++i) (i < axis ? M : N) *= input.size(i);
  return {M, N};
}

void check_float_kernel(DType t, const char* name) {
  check<NotImplementedError>(is_floating(t), "\"{}\" not implemented for '{}'", name, scalar_type_name(t));
  check<NotImplementedError>(t == DType::Float32 || t == DType::Float64,
                             "densecore: {} supports float32 and float64 only", name);
}

// Activation.cpp use_mkldnn(self): torch hands contiguous float32 inputs with more than one element
// to oneDNN's eltwise_gelu_erf (approximate='none' only), everything else to GeluKernel.
bool use_onednn_gelu(const Tensor& x, bool tanh) {
  return !tanh && x.dtype() == DType::Float32 && x.is_contiguous() && x.numel() > 1;
}

/// The gradient gelu_backward hands to oneDNN with x: float32 and x's shape (autograd's always is).
bool onednn_takes_grad(const Tensor& grad, const Tensor& x) {
  return grad.dtype() == DType::Float32 && grad.sizes() == x.sizes();
}

bool gelu_is_tanh(std::string_view approximate) {
  check(approximate == "none" || approximate == "tanh", "approximate argument must be either none or tanh.");
  return approximate == "tanh";
}

}  // namespace

// ---- embedding -------------------------------------------------------------------------------------

// embedding is an op row: this is its forward.
Tensor impl::embedding_forward(const Tensor& weight, const Tensor& indices, int64_t padding_idx, bool scale_grad_by_freq,
                       bool sparse) {
  check<NotImplementedError>(!sparse, "densecore: sparse embedding gradients are not supported");
  check(weight.dim() == 2, "'weight' must be 2-D");
  check_indices(indices, "embedding", 1);
  Tensor out;
  if (indices.dim() == 1) {
    out = index_select(weight, 0, indices);
  } else {
    Shape size = indices.sizes();
    size.push_back(weight.size(1));
    const int64_t flat[] = {-1};
    out = view(index_select(weight, 0, reshape(indices, flat)), size);
  }
  return out;
}

Tensor embedding_dense_backward(const Tensor& grad_, const Tensor& indices, int64_t num_weights,
                                int64_t padding_idx, bool scale_grad_by_freq) {
  check_indices(indices, "embedding_backward", 2);
  const int64_t C = grad_.size(-1);
  const int64_t gw_size[] = {num_weights, C};
  Tensor grad_weight = zeros(gw_size, grad_.dtype());
  const Tensor idx = contiguous(indices);
  const int64_t numel = indices.numel();
  const Tensor grad = contiguous(grad_);
  if (!scale_grad_by_freq) {
    dispatch_dtype(grad.dtype(), [&]<class T>() {
      if constexpr (std::is_floating_point_v<T>)
        embedding_accumulate<T>(grad_weight.data<T>(), grad.data<T>(), idx, numel, C, num_weights, padding_idx);
      else throw NotImplementedError("densecore: embedding backward supports float32 and float64 only");
    });
    return grad_weight;
  }
  // scale_grad_by_freq: grad_weight[k].add_(grad[i], 1.0 / counts[k]) through the add kernel.
  std::vector<int64_t> counts(size_t(num_weights), 0);
  for (int64_t i = 0; i < numel; ++i) counts[size_t(index_at(idx, i))]++;
  const int64_t gshape[] = {numel, C};
  const Tensor g2 = view(grad, gshape);
  for (int64_t i = 0; i < numel; ++i) {
    const int64_t k = index_at(idx, i);
    if (k == padding_idx) continue;
    const Tensor row = select(grad_weight, 0, k);
    add(row, select(g2, 0, i), Scalar::from_double(1.0 / double(counts[size_t(k)])), row);
  }
  reset_version(grad_weight);
  return grad_weight;
}

// ---- layer_norm ------------------------------------------------------------------------------------

// native_layer_norm is an op row (csrc/op_rows.toml): this is its forward.
std::tuple<Tensor, Tensor, Tensor> impl::native_layer_norm_forward(const Tensor& input,
                                                                   std::span<const int64_t> normalized_shape,
                                                                   const Tensor& weight, const Tensor& bias, double eps) {
  auto [M, N] = check_layer_norm_inputs(input, normalized_shape, weight, bias);
  check_float_kernel(input.dtype(), "LayerNormKernelImpl");
  for (const Tensor* p : {&weight, &bias})
    if (p->defined())
      check(p->dtype() == input.dtype(), "expected scalar type {} but found {}", scalar_type_name(input.dtype()),
            scalar_type_name(p->dtype()));
  const Tensor X = contiguous(input);
  const Tensor gamma = weight.defined() ? contiguous(weight) : Tensor();
  const Tensor beta = bias.defined() ? contiguous(bias) : Tensor();
  Tensor Y = empty(X.sizes(), X.dtype());
  const int64_t mshape[] = {M};
  Tensor mean = empty(mshape, X.dtype()), rstd = empty(mshape, X.dtype());
  if (M > 0)
    layer_norm_stub(X.dtype(), X.data_ptr(), gamma.defined() ? gamma.data_ptr() : nullptr,
                    beta.defined() ? beta.data_ptr() : nullptr, M, N, eps, Y.data_ptr(), mean.data_ptr(),
                    rstd.data_ptr());
  Shape stat = input.sizes();
  for (size_t i = stat.size() - normalized_shape.size(); i < stat.size(); ++i) stat[i] = 1;
  mean = view(mean, stat);
  rstd = view(rstd, stat);
  return {Y, mean, rstd};
}

std::tuple<Tensor, Tensor, Tensor> native_layer_norm_backward(const Tensor& dY, const Tensor& input,
                                                              std::span<const int64_t> normalized_shape,
                                                              const Tensor& mean, const Tensor& rstd,
                                                              const Tensor& weight, const Tensor& bias,
                                                              std::array<bool, 3> mask) {
  auto [M, N] = check_layer_norm_inputs(input, normalized_shape, weight, bias);
  check_float_kernel(input.dtype(), "LayerNormBackwardKernelImpl");
  const Tensor X = contiguous(input);
  const Tensor gamma = weight.defined() ? contiguous(weight) : Tensor();
  Tensor dX, dgamma, dbeta;
  if (mask[0]) dX = empty(X.sizes(), X.dtype());
  if (mask[1]) dgamma = M > 0 ? empty(gamma.sizes(), gamma.dtype()) : zeros(gamma.sizes(), gamma.dtype());
  if (mask[2]) dbeta = M > 0 ? empty(bias.sizes(), bias.dtype()) : zeros(bias.sizes(), bias.dtype());
  if (M > 0 && N > 0) {
    const Tensor dYc = contiguous(dY);
    const Tensor mean_c = contiguous(mean), rstd_c = contiguous(rstd);
    layer_norm_backward_stub(X.dtype(), dYc.data_ptr(), X.data_ptr(), mean_c.data_ptr(), rstd_c.data_ptr(),
                             gamma.defined() ? gamma.data_ptr() : nullptr, M, N,
                             dX.defined() ? dX.data_ptr() : nullptr, dgamma.defined() ? dgamma.data_ptr() : nullptr,
                             dbeta.defined() ? dbeta.data_ptr() : nullptr);
  }
  return {dX, dgamma, dbeta};
}

Tensor layer_norm(const Tensor& input, std::span<const int64_t> normalized_shape, const Tensor& weight,
                  const Tensor& bias, double eps) {
  return std::get<0>(native_layer_norm(input, normalized_shape, weight, bias, eps));
}

// ---- gelu ----------------------------------------------------------------------------------------

// gelu is an op row (csrc/op_rows.toml): this is its forward. `derivative` is set when the node records:
// where oneDNN's forward and backward share their erf (onednn::forward_gives_derivative), the forward also
// writes the factor the backward would multiply the gradient by, and the backward is that one multiply.
Tensor impl::gelu_forward(const Tensor& x, std::string_view approximate, Tensor* derivative) {
  const bool tanh = gelu_is_tanh(approximate);
  check_float_kernel(x.dtype(), "GeluKernelImpl");
  if (use_onednn_gelu(x, tanh)) {
    Tensor out = empty(x.sizes(), x.dtype());
    if (derivative && onednn::forward_gives_derivative()) {
      *derivative = empty(x.sizes(), x.dtype());
      onednn::gelu_forward_with_derivative(x.data<float>(), out.data<float>(), derivative->data<float>(), x.numel());
    } else {
      onednn::gelu_forward(x.data<float>(), out.data<float>(), x.numel());
    }
    return out;
  }
  IterConfig c;  // build_borrowing_unary_op
  const Tensor in[] = {x};
  TensorIter iter(c, Tensor(), in);
  gelu_stub(iter, tanh);
  return iter.output();
}

Tensor gelu_backward(const Tensor& grad, const Tensor& x, std::string_view approximate) {
  const bool tanh = gelu_is_tanh(approximate);
  check_float_kernel(x.dtype(), "GeluBackwardKernelImpl");
  if (use_onednn_gelu(x, tanh) && onednn_takes_grad(grad, x)) {
    const Tensor g = contiguous(grad);
    Tensor dx = empty(x.sizes(), x.dtype());
    onednn::gelu_backward(g.data<float>(), x.data<float>(), dx.data<float>(), x.numel());
    return dx;
  }
  const IterConfig c = binary_op_config();  // build_borrowing_binary_op(grad_input, grad, self)
  const Tensor in[] = {grad, x};
  TensorIter iter(c, Tensor(), in);
  gelu_backward_stub(iter, tanh);
  return iter.output();
}

Tensor gelu_backward_with_derivative(const Tensor& grad, const Tensor& x, std::string_view approximate,
                                     const Tensor& derivative) {
  // The forward wrote a derivative only on gelu_backward's oneDNN path.
  if (!derivative.defined() || !onednn_takes_grad(grad, x)) return gelu_backward(grad, x, approximate);
  const Tensor g = contiguous(grad);
  Tensor dx = empty(x.sizes(), x.dtype());
  onednn::gelu_backward_from_derivative(g.data<float>(), derivative.data<float>(), dx.data<float>(), x.numel());
  return dx;
}

// ---- dropout ---------------------------------------------------------------------------------------

namespace {
Tensor dropout_noise(const Tensor& input, double p) {
  Tensor noise = empty_like(input);
  native::bernoulli_(noise, 1 - p);
  div(noise, wrapped_scalar_tensor(Scalar::from_double(1 - p)), noise);
  return noise;
}
}  // namespace

Tensor dropout(const Tensor& input, double p, bool train) {
  check(p >= 0 && p <= 1, "dropout probability has to be between 0 and 1, but got {}", p);
  if (p == 0 || !train || input.numel() == 0) return input;
  if (p == 1) return mul(input, zeros({}, input.dtype()));
  return mul(input, dropout_noise(input, p));
}

const Tensor& dropout_(const Tensor& input, double p, bool train) {
  check(p >= 0 && p <= 1, "dropout probability has to be between 0 and 1, but got {}", p);
  if (p == 0 || !train || input.numel() == 0) return input;
  if (p == 1) {
    mul(input, zeros({}, input.dtype()), input);
    return input;
  }
  mul(input, dropout_noise(input, p), input);
  return input;
}

}  // namespace dc
