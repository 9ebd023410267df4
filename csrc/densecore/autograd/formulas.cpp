// THE derivative table: one row per differentiable op (autograd/op_list.h), each a short lambda
// over public ops, written as torch's tools/autograd/derivatives.yaml states it (and in the same
// operation order, so the rounding is the same). Rows return gradients in the output's (broadcast)
// shape; the engine sums them back to each input's shape and dtype. Longer formulas call named
// helpers in formula_helpers.cpp. Context names: g (gradient of output 0), a, b (saved inputs),
// need(i) (input i wants a gradient).
#include <array>
#include <cmath>

#include "densecore/autograd/formula_helpers.h"
#include "densecore/autograd/function.h"
#include "densecore/autograd/reduce_backward.h"
#include "densecore/ops/loss.h"
#include "densecore/core/error.h"
#include "densecore/ops/copy.h"
#include "densecore/ops/creation.h"
#include "densecore/ops/elementwise.h"
#include "densecore/ops/index.h"
#include "densecore/ops/linalg.h"
#include "densecore/ops/reduce.h"
#include "densecore/ops/view.h"
#include "densecore/ops/attention.h"
#include "densecore/ops/unary.h"
#include "densecore/ops/nn.h"

namespace dc {
namespace {

struct Ctx {
  const FormulaNode& node;
  std::vector<Tensor>& grads;
  const Tensor& g;
  Tensor saved(size_t i) const { return node.saved.at(i).unpack(node); }
  Tensor a() const { return saved(0); }
  Tensor b() const { return saved(1); }
  const OpParams& p() const { return node.params; }
  bool need(size_t i) const { return i < node.next_edges.size() && node.next_edges[i].valid(); }
  size_t inputs() const { return node.next_edges.size(); }
};

using Grads = std::vector<Tensor>;
using Formula = Grads (*)(const Ctx&);

const Scalar kOne = Scalar::from_int(1);

// maybe_multiply (FunctionsManual.cpp): the gradient itself when the scalar is 1, else g * s.
Tensor maybe_multiply(const Tensor& g, const Scalar& s) {
  const bool is_one = s.is_floating() ? s.to_double() == 1.0 : s.to_int() == 1;
  return is_one ? g : mul(g, wrapped_scalar_tensor(s));
}

// A Python number as a wrapped 0-dim tensor (C++ `tensor * 2.0` in derivatives.yaml).
Tensor W(const Scalar& s) { return wrapped_scalar_tensor(s); }

// pow_backward (FunctionsManual.cpp): zeros for exponent 0, else grad * (exp * self.pow(exp - 1))
// with the exponent as a double.
Tensor pow_backward(const Tensor& g, const Tensor& self, const Scalar& e) {
  if (e.to_double() == 0.0) return zeros_like(self);
  const double x = e.to_double();
  return mul(g, mul(pow(self, Scalar::from_double(x - 1)), W(Scalar::from_double(x))));
}

// The first defined gradient of a multi-output node (its dtype makes the zeros for the others).
const Tensor& first_defined(const std::vector<Tensor>& grads) {
  for (const Tensor& g : grads)
    if (g.defined()) return g;
  return grads.at(0);
}

// clang-format off
const std::array<Formula, kOpCount> kFormulas = [] {
  std::array<Formula, kOpCount> t{};
  t[int(Op::Add)] = [](const Ctx& c) -> Grads {
    return {c.g, c.need(1) ? maybe_multiply(c.g, c.p().alpha) : Tensor()}; };
  t[int(Op::Sub)] = [](const Ctx& c) -> Grads {
    return {c.g, c.need(1) ? maybe_multiply(neg(c.g), c.p().alpha) : Tensor()}; };
  t[int(Op::Mul)] = [](const Ctx& c) -> Grads {
    return {c.need(0) ? mul(c.g, c.b()) : Tensor(), c.need(1) ? mul(c.g, c.a()) : Tensor()}; };
  t[int(Op::Div)] = [](const Ctx& c) -> Grads {  // other: -grad * ((self / other) / other)
    return {c.need(0) ? div(c.g, c.b()) : Tensor(),
            c.need(1) ? mul(neg(c.g), div(div(c.a(), c.b()), c.b())) : Tensor()}; };
  t[int(Op::Neg)] = [](const Ctx& c) -> Grads { return {neg(c.g)}; };
  // ---- unary math and optimizer pointwise ops (ops/unary.cpp, ops/pointwise.cpp) ----
  t[int(Op::Sqrt)] = [](const Ctx& c) -> Grads { return {div(c.g, mul(c.a(), W(Scalar::from_int(2))))}; };
  t[int(Op::Rsqrt)] = [](const Ctx& c) -> Grads {  // -0.5 * grad * result.pow(3)
    return {mul(mul(c.g, W(Scalar::from_double(-0.5))), pow(c.a(), Scalar::from_int(3)))}; };
  t[int(Op::Exp)] = [](const Ctx& c) -> Grads { return {mul(c.g, c.a())}; };
  t[int(Op::Log)] = [](const Ctx& c) -> Grads { return {div(c.g, c.a())}; };
  t[int(Op::Tanh)] = [](const Ctx& c) -> Grads { return {tanh_backward(c.g, c.a())}; };
  t[int(Op::Erf)] = [](const Ctx& c) -> Grads {  // 2.0 / sqrt(M_PI) * exp(-(self.pow(2))) * grad
    const Tensor e = exp(neg(pow(c.a(), Scalar::from_int(2))));
    return {mul(mul(e, W(Scalar::from_double(2.0 / std::sqrt(M_PI)))), c.g)}; };
  t[int(Op::Sin)] = [](const Ctx& c) -> Grads { return {mul(c.g, cos(c.a()))}; };
  t[int(Op::Cos)] = [](const Ctx& c) -> Grads { return {mul(c.g, neg(sin(c.a())))}; };
  t[int(Op::Sigmoid)] = [](const Ctx& c) -> Grads { return {sigmoid_backward(c.g, c.a())}; };
  t[int(Op::Reciprocal)] = [](const Ctx& c) -> Grads { return {mul(neg(c.g), mul(c.a(), c.a()))}; };
  t[int(Op::Pow)] = [](const Ctx& c) -> Grads { return {pow_backward(c.g, c.a(), c.p().alpha)}; };
  t[int(Op::Relu)] = [](const Ctx& c) -> Grads {  // threshold_backward(grad, result, 0)
    return {where(compare(CompareOp::Le, c.a(), W(Scalar::from_int(0))), W(Scalar::from_int(0)), c.g)}; };
  t[int(Op::Lerp)] = [](const Ctx& c) -> Grads {  // grad * (1 - weight), grad * weight
    return {c.need(0) ? mul(c.g, W(Scalar::from_double(1 - c.p().alpha.to_double()))) : Tensor(),
            c.need(1) ? mul(c.g, W(c.p().alpha)) : Tensor()}; };
  t[int(Op::Addcmul)] = [](const Ctx& c) -> Grads {  // grad * (t2 * value), grad * (t1 * value)
    return {c.g, c.need(1) ? mul(c.g, mul(c.b(), W(c.p().alpha))) : Tensor(),
            c.need(2) ? mul(c.g, mul(c.a(), W(c.p().alpha))) : Tensor()}; };
  t[int(Op::Addcdiv)] = [](const Ctx& c) -> Grads {  // value / t2 is full_like(t2, value).div_(t2) (TensorOperators.h)
    return {c.g, c.need(1) ? mul(c.g, div(full_like(c.b(), c.p().alpha), c.b())) : Tensor(),
            c.need(2) ? mul(neg(c.g), div(mul(c.a(), W(c.p().alpha)), mul(c.b(), c.b()))) : Tensor()}; };
  t[int(Op::ScaledDotProductFlashAttentionForCpu)] = [](const Ctx& c) -> Grads {  // the flash backward kernel
    const std::optional<double> scale = c.p().dims[1] ? std::optional<double>(c.p().alpha.to_double()) : std::nullopt;
    auto [gq, gk, gv] = scaled_dot_product_flash_attention_for_cpu_backward(c.g, c.saved(0), c.saved(1), c.saved(2),
        c.saved(3), c.saved(4), c.p().beta.to_double(), c.p().dims[0] != 0, c.saved(5), scale);
    return {gq, gk, gv}; };
  t[int(Op::Embedding)] = [](const Ctx& c) -> Grads {  // embedding_backward(grad, indices, num_weights, ...)
    return {embedding_dense_backward(c.g, c.saved(0), c.p().dims[0], c.p().dims[1], c.p().keepdim)}; };
  t[int(Op::NativeLayerNorm)] = [](const Ctx& c) -> Grads {  // native_layer_norm_backward(grad, ..., mask)
    if (!c.g.defined()) return {Tensor(), Tensor(), Tensor()};
    auto [dx, dw, db] = native_layer_norm_backward(c.g, c.saved(0), c.p().dims, c.saved(3), c.saved(4),
        c.saved(1), c.saved(2), {c.need(0), c.need(1), c.need(2)});
    return {dx, dw, db}; };
  t[int(Op::Gelu)] = [](const Ctx& c) -> Grads {  // gelu_backward(grad, self, approximate)
    return {gelu_backward(c.g, c.a(), c.p().keepdim ? "tanh" : "none")}; };
  t[int(Op::Sum)] = [](const Ctx& c) -> Grads {  // SumBackward0/1: sum_backward(grad, sizes, dim, keepdim)
    return {sum_backward(c.g, c.p().sizes.at(0), c.p().dims, c.p().keepdim)}; };
  t[int(Op::Mean)] = [](const Ctx& c) -> Grads {  // MeanBackward0/1: mean_backward(grad, sizes, dim, numel, keepdim)
    return {mean_backward(c.g, c.p().sizes.at(0), c.p().dims, c.p().keepdim)}; };
  t[int(Op::Softmax)] = [](const Ctx& c) -> Grads {  // _softmax_backward_data(grad, result, dim, self.scalar_type())
    return {softmax_backward_data(c.g, c.a(), c.p().dim, c.a().dtype())}; };
  t[int(Op::LogSoftmax)] = [](const Ctx& c) -> Grads {  // _log_softmax_backward_data(grad, result, dim, ...)
    return {log_softmax_backward_data(c.g, c.a(), c.p().dim, c.a().dtype())}; };
  t[int(Op::NllLoss)] = [](const Ctx& c) -> Grads {  // nll_loss_backward(grad, self, target, weight, ..., total_weight)
    return {nll_loss_backward(c.g, c.a(), c.b(), c.saved(2), c.p().dims.at(0), c.p().dims.at(1), c.saved(3))}; };
  t[int(Op::MseLoss)] = [](const Ctx& c) -> Grads {  // mse_loss_backward(grad, self, target) / (grad, target, self)
    return {c.need(0) ? mse_loss_backward(c.g, c.a(), c.b(), c.p().dims.at(0)) : Tensor(),
            c.need(1) ? mse_loss_backward(c.g, c.b(), c.a(), c.p().dims.at(0)) : Tensor()}; };
  // ---- views, indexing, joins, matmul, copies, selection (ops/view.cpp, index.cpp, join.cpp, linalg*.cpp,
  // copy.cpp, elementwise.cpp); longer helpers in autograd/formula_helpers.cpp ----
  t[int(Op::View)] = [](const Ctx& c) -> Grads { return {reshape(c.g, c.p().sizes.at(0))}; };  // grad.reshape(self.sizes())
  t[int(Op::UnsafeView)] = [](const Ctx& c) -> Grads { return {reshape(c.g, c.p().sizes.at(0))}; };
  t[int(Op::Alias)] = [](const Ctx& c) -> Grads { return {c.g}; };
  t[int(Op::Transpose)] = [](const Ctx& c) -> Grads { return {transpose(c.g, c.p().dims[0], c.p().dims[1])}; };
  t[int(Op::T)] = [](const Ctx& c) -> Grads { return {t_(c.g)}; };
  t[int(Op::Permute)] = [](const Ctx& c) -> Grads {  // permute_backwards: the inverse permutation
    std::vector<int64_t> inv(c.p().dims.size());
    for (size_t i = 0; i < inv.size(); ++i) inv[c.p().dims[i]] = int64_t(i);
    return {permute(c.g, inv)}; };
  t[int(Op::Expand)] = [](const Ctx& c) -> Grads { return {sum_to_size(c.g, c.p().sizes.at(0))}; };  // at::sum_to
  t[int(Op::Squeeze)] = [](const Ctx& c) -> Grads { return {unsqueeze_to(c.g, c.p().sizes.at(0), std::nullopt)}; };
  t[int(Op::SqueezeDim)] = [](const Ctx& c) -> Grads {
    return {unsqueeze_to(c.g, c.p().sizes.at(0), std::span<const int64_t>(&c.p().dim, 1))}; };
  t[int(Op::SqueezeDims)] = [](const Ctx& c) -> Grads {
    return {unsqueeze_to(c.g, c.p().sizes.at(0), std::span<const int64_t>(c.p().dims))}; };
  t[int(Op::Unsqueeze)] = [](const Ctx& c) -> Grads { return {squeeze_dim(c.g, c.p().dim)}; };
  t[int(Op::Slice)] = [](const Ctx& c) -> Grads {
    return {slice_backward(c.g, c.p().sizes.at(0), c.p().dim, c.p().dims[0], c.p().dims[1], c.p().dims[2])}; };
  t[int(Op::AsStrided)] = [](const Ctx& c) -> Grads {  // as_strided_backward(grad, self geometry, size, stride, offset)
    return {as_strided_backward(c.g, c.p().sizes[0], c.p().strides[0], c.p().dims[0], c.p().sizes[1],
                                c.p().strides[1], c.p().dims[1])}; };
  t[int(Op::Select)] = [](const Ctx& c) -> Grads {
    return {select_backward(c.g, c.p().sizes.at(0), c.p().dim, c.p().dims[0])}; };
  t[int(Op::Split)] = [](const Ctx& c) -> Grads {  // split_backward -> split_with_sizes_backward
    return {split_backward(c.grads, c.p().dims, c.p().dim, c.p().sizes.at(0), first_defined(c.grads).dtype())}; };
  t[int(Op::SplitWithSizes)] = [](const Ctx& c) -> Grads {
    return {split_backward(c.grads, c.p().dims, c.p().dim, c.p().sizes.at(0), first_defined(c.grads).dtype())}; };
  t[int(Op::Unbind)] = [](const Ctx& c) -> Grads {
    return {unbind_backward(c.grads, c.p().dim, c.p().sizes.at(0), first_defined(c.grads).dtype())}; };
  t[int(Op::Index)] = [](const Ctx& c) -> Grads {  // index_backward: zeros.index_put_(indices, grad, True)
    std::vector<Tensor> indices;
    for (size_t i = 0; i < c.node.saved.size(); ++i) indices.push_back(c.saved(i));
    return {index_backward(c.g, c.p().sizes.at(0), c.g.dtype(), indices)}; };
  t[int(Op::IndexSelect)] = [](const Ctx& c) -> Grads {
    return {index_select_backward(c.g, c.p().sizes.at(0), c.p().dim, c.a())}; };
  t[int(Op::MaskedFill)] = [](const Ctx& c) -> Grads { return {masked_fill(c.g, c.a(), Scalar::from_int(0))}; };
  t[int(Op::MaskedFillTensor)] = [](const Ctx& c) -> Grads {
    return {c.need(0) ? masked_fill(c.g, c.a(), Scalar::from_int(0)) : Tensor(),
            c.need(1) ? masked_fill_value_backward(c.g, c.a()) : Tensor()}; };
  t[int(Op::Gather)] = [](const Ctx& c) -> Grads { return {gather_backward(c.g, c.p().sizes.at(0), c.p().dim, c.a())}; };
  t[int(Op::Cat)] = [](const Ctx& c) -> Grads { return cat_backward(c.g, c.p().sizes, c.p().dim); };
  t[int(Op::Stack)] = [](const Ctx& c) -> Grads { return stack_backward(c.g, c.p().dim); };
  t[int(Op::Mm)] = [](const Ctx& c) -> Grads {
    return {c.need(0) ? mm_mat1_backward(c.g, c.b(), c.p().sizes[0], c.p().strides[0], kOne) : Tensor(),
            c.need(1) ? mm_mat2_backward(c.g, c.a(), c.p().sizes[1], c.p().strides[1], kOne) : Tensor()}; };
  t[int(Op::Addmm)] = [](const Ctx& c) -> Grads {  // self: maybe_multiply(grad, beta); saved: mat1, mat2
    return {c.need(0) ? maybe_multiply(c.g, c.p().beta) : Tensor(),
            c.need(1) ? mm_mat1_backward(c.g, c.b(), c.p().sizes[0], c.p().strides[0], c.p().alpha) : Tensor(),
            c.need(2) ? mm_mat2_backward(c.g, c.a(), c.p().sizes[1], c.p().strides[1], c.p().alpha) : Tensor()}; };
  t[int(Op::Bmm)] = [](const Ctx& c) -> Grads {  // grad.bmm(mat2.transpose(1, 2)), self.transpose(1, 2).bmm(grad)
    return {c.need(0) ? bmm(c.g, transpose(c.b(), 1, 2)) : Tensor(),
            c.need(1) ? bmm(transpose(c.a(), 1, 2), c.g) : Tensor()}; };
  t[int(Op::Mv)] = [](const Ctx& c) -> Grads {  // grad.ger(vec) = grad.reshape({n, 1}) * vec; self.t().mv(grad)
    return {c.need(0) ? mul(reshape(c.g, Shape{c.g.size(0), 1}), c.b()) : Tensor(),
            c.need(1) ? mv(t_(c.a()), c.g) : Tensor()}; };
  t[int(Op::Dot)] = [](const Ctx& c) -> Grads {  // grad * tensor, grad * self
    return {c.need(0) ? mul(c.g, c.b()) : Tensor(), c.need(1) ? mul(c.g, c.a()) : Tensor()}; };
  t[int(Op::Clone)] = [](const Ctx& c) -> Grads { return {c.g}; };
  t[int(Op::ToCopy)] = [](const Ctx& c) -> Grads { return {c.g}; };  // the engine casts to the input's dtype
  t[int(Op::Where)] = [](const Ctx& c) -> Grads {  // where(cond, grad, 0), where(cond, 0, grad)
    return {c.need(0) ? where(c.a(), c.g, W(Scalar::from_int(0))) : Tensor(),
            c.need(1) ? where(c.a(), W(Scalar::from_int(0)), c.g) : Tensor()}; };
  t[int(Op::ClampScalar)] = [](const Ctx& c) -> Grads {
    const auto lo = c.p().dims[0] ? std::optional<Scalar>(c.p().alpha) : std::nullopt;
    const auto hi = c.p().dims[1] ? std::optional<Scalar>(c.p().beta) : std::nullopt;
    return {clamp_backward(c.g, c.a(), lo, hi)}; };
  t[int(Op::Maximum)] = [](const Ctx& c) -> Grads {
    return {c.need(0) ? max_min_backward(c.g, c.a(), c.b(), true, true) : Tensor(),
            c.need(1) ? max_min_backward(c.g, c.a(), c.b(), false, true) : Tensor()}; };
  t[int(Op::Minimum)] = [](const Ctx& c) -> Grads {
    return {c.need(0) ? max_min_backward(c.g, c.a(), c.b(), true, false) : Tensor(),
            c.need(1) ? max_min_backward(c.g, c.a(), c.b(), false, false) : Tensor()}; };
  t[int(Op::Abs)] = [](const Ctx& c) -> Grads { return {abs_backward(c.g, c.a())}; };
  t[int(Op::Amax)] = [](const Ctx& c) -> Grads {  // scale_grad_by_count(restore_reduced_dims(grad, ...), ... == self, dim)
    return {amax_backward(c.g, c.a(), c.b(), c.p().dims, c.p().keepdim)}; };
  t[int(Op::Amin)] = t[int(Op::Amax)];
  t[int(Op::Topk)] = [](const Ctx& c) -> Grads {  // value_selecting_reduction_backward(grad, dim, indices, self.sizes(), true)
    return {value_selecting_reduction_backward(c.g, c.p().dim, c.a(), c.p().sizes.at(0))};
  };
  // ---- rows added for safety (issue 7): selection, norms, in-place writes, random fills ----
  t[int(Op::Tril)] = [](const Ctx& c) -> Grads { return {tril(c.g, c.p().dim)}; };  // grad.tril(diagonal)
  t[int(Op::Triu)] = [](const Ctx& c) -> Grads { return {triu(c.g, c.p().dim)}; };
  t[int(Op::MaxAll)] = [](const Ctx& c) -> Grads {  // evenly_distribute_backward(grad, self, result)
    return {evenly_distribute_backward(c.g, c.a(), c.b())}; };
  t[int(Op::MinAll)] = t[int(Op::MaxAll)];
  t[int(Op::MaxDim)] = [](const Ctx& c) -> Grads {  // value_selecting_reduction_backward(grad, dim, indices, sizes, keepdim)
    return {value_selecting_reduction_backward(c.g, c.p().dim, c.a(), c.p().sizes.at(0), c.p().keepdim)}; };
  t[int(Op::MinDim)] = t[int(Op::MaxDim)];
  t[int(Op::LinalgVectorNorm)] = [](const Ctx& c) -> Grads {  // linalg_vector_norm_backward(grad, self, ord, result, dim, keepdim)
    return {linalg_vector_norm_backward(c.g, c.a(), c.p().ord, c.b(), c.p().dims, c.p().keepdim)}; };
  t[int(Op::DivRounding)] = [](const Ctx& c) -> Grads {  // a rounded quotient has zero gradient
    return {c.need(0) ? zeros_like(c.g) : Tensor(), c.need(1) ? zeros_like(c.g) : Tensor()}; };
  t[int(Op::Copy)] = [](const Ctx& c) -> Grads {  // CopyBackwards: self zeros, src grad.to(src dtype)
    return {c.need(0) ? zeros_like(c.g) : Tensor(), c.need(1) ? to_dtype_copy(c.g, c.p().src_dtype) : Tensor()}; };
  t[int(Op::Fill)] = [](const Ctx& c) -> Grads {  // FillBackward2: zeros; FillBackward3: also value: grad.sum()
    if (c.inputs() == 1) return {zeros_like(c.g)};
    return {c.need(0) ? zeros_like(c.g) : Tensor(), c.need(1) ? sum(c.g) : Tensor()}; };
  // In-place random fills: self's old value does not reach the result.
  t[int(Op::Zero)] = [](const Ctx& c) -> Grads { return {zeros_like(c.g)}; };
  t[int(Op::Normal)] = t[int(Op::Zero)];
  t[int(Op::Uniform)] = t[int(Op::Zero)];
  t[int(Op::Exponential)] = t[int(Op::Zero)];
  t[int(Op::Random)] = t[int(Op::Zero)];
  t[int(Op::Bernoulli)] = [](const Ctx& c) -> Grads {  // self: zeros_like(grad); p (bernoulli_.Tensor): zeros
    if (c.inputs() == 1) return {zeros_like(c.g)};
    return {c.need(0) ? zeros_like(c.g) : Tensor(), c.need(1) ? zeros_like(c.g) : Tensor()}; };
  t[int(Op::IndexPut)] = [](const Ctx& c) -> Grads {  // self: see helper; values: grad.index(indices)
    std::vector<Tensor> indices;
    for (size_t i = 0; i < c.node.saved.size(); ++i) indices.push_back(c.saved(i));
    return {c.need(0) ? index_put_self_backward(c.g, indices, c.p().sizes.at(0), c.p().accumulate) : Tensor(),
            c.need(1) ? index(c.g, indices) : Tensor()}; };
  t[int(Op::Scatter)] = [](const Ctx& c) -> Grads {  // self: grad.scatter(dim, index, 0); src: grad.gather(dim, index)
    return {c.need(0) ? scatter_self_backward(c.g, c.p().dim, c.a()) : Tensor(),
            c.need(1) ? gather(c.g, c.p().dim, c.a()) : Tensor()}; };
  t[int(Op::ScatterAdd)] = [](const Ctx& c) -> Grads {  // self: grad; src: grad.gather(dim, index)
    return {c.g, c.need(1) ? gather(c.g, c.p().dim, c.a()) : Tensor()}; };
  t[int(Op::NotImplemented)] = [](const Ctx& c) -> Grads {
    throw Error(format("derivative for aten::{} is not implemented", c.p().not_implemented_op)); };
  return t;
}();
// clang-format on

}  // namespace

std::vector<Tensor> run_formula(const FormulaNode& node, std::vector<Tensor>&& grads) {
  const Formula f = kFormulas[static_cast<int>(node.op)];
  check(f != nullptr, "[autograd] no derivative formula for {}", op_name(node.op));
  const Ctx ctx{node, grads, grads.at(0)};
  return f(ctx);
}

}  // namespace dc
