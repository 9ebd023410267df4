// THE derivative table: one formula per differentiable op (autograd/op_list.h), each a short function
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
#include "densecore/generated/ops.h"

namespace dc {
namespace {

/// What a formula sees: the gradients of the node's outputs (g is the first), the op's saved state
/// (s, autograd/saved_state.h), its saved tensors unpacked with get(), and which inputs want a gradient.
template <Op op>
struct Ctx {
  const OpNode<op>& node;
  std::vector<Tensor>& grads;
  const Tensor& g;
  const Saved<op>& s;
  Tensor get(const SavedVariable& v) const { return v.unpack(node); }
  std::vector<Tensor> get(const std::vector<SavedVariable>& vs) const {
    std::vector<Tensor> out;
    out.reserve(vs.size());
    for (const SavedVariable& v : vs) out.push_back(v.unpack(node));
    return out;
  }
  bool need(size_t i) const { return i < node.next_edges.size() && node.next_edges[i].valid(); }
  size_t inputs() const { return node.next_edges.size(); }
};

using Grads = std::vector<Tensor>;

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

// An op's derivative: one specialisation per row of op_list.h. The primary template is deleted, so a row
// without its formula fails to compile where its node is instantiated below (the build's check, not a
// start-up or backward-time one).
template <Op op>
Grads formula(const Ctx<op>& c) = delete;

// clang-format off
// ---- views, indexing, joins, matmul, copies, selection (ops/view.cpp, index.cpp, join.cpp, linalg*.cpp,
// copy.cpp, elementwise.cpp); longer helpers in autograd/formula_helpers.cpp ----
template <> Grads formula<Op::Split>(const Ctx<Op::Split>& c) {  // split_backward -> split_with_sizes_backward
  return {split_backward(c.grads, c.s.split_sizes, c.s.dim, c.s.self_sizes, first_defined(c.grads).dtype())}; }
template <> Grads formula<Op::SplitWithSizes>(const Ctx<Op::SplitWithSizes>& c) {
  return {split_backward(c.grads, c.s.split_sizes, c.s.dim, c.s.self_sizes, first_defined(c.grads).dtype())}; }
template <> Grads formula<Op::Unbind>(const Ctx<Op::Unbind>& c) {
  return {unbind_backward(c.grads, c.s.dim, c.s.self_sizes, first_defined(c.grads).dtype())}; }
template <> Grads formula<Op::Index>(const Ctx<Op::Index>& c) {  // index_backward: zeros.index_put_(indices, grad, True)
  return {index_backward(c.g, c.s.self_sizes, c.g.dtype(), c.get(c.s.indices))}; }
template <> Grads formula<Op::Cat>(const Ctx<Op::Cat>& c) { return cat_backward(c.g, c.s.tensors_sizes, c.s.dim); }
template <> Grads formula<Op::Stack>(const Ctx<Op::Stack>& c) { return stack_backward(c.g, c.s.dim); }
template <> Grads formula<Op::Clone>(const Ctx<Op::Clone>& c) { return {c.g}; }
template <> Grads formula<Op::ToCopy>(const Ctx<Op::ToCopy>& c) { return {c.g}; }  // the engine casts to the input's dtype
// ---- rows added for safety (issue 7): in-place writes, random fills ----
template <> Grads formula<Op::Copy>(const Ctx<Op::Copy>& c) {  // CopyBackwards: self zeros, src grad.to(src dtype)
  return {c.need(0) ? zeros_like(c.g) : Tensor(), c.need(1) ? to_dtype_copy(c.g, c.s.src_dtype) : Tensor()}; }
template <> Grads formula<Op::Fill>(const Ctx<Op::Fill>& c) {  // FillBackward2: zeros; FillBackward3: also value: grad.sum()
  if (c.inputs() == 1) return {zeros_like(c.g)};
  return {c.need(0) ? zeros_like(c.g) : Tensor(), c.need(1) ? sum(c.g) : Tensor()}; }
// In-place random fills: self's old value does not reach the result.
template <> Grads formula<Op::Zero>(const Ctx<Op::Zero>& c) { return {zeros_like(c.g)}; }
template <> Grads formula<Op::Normal>(const Ctx<Op::Normal>& c) { return {zeros_like(c.g)}; }
template <> Grads formula<Op::Uniform>(const Ctx<Op::Uniform>& c) { return {zeros_like(c.g)}; }
template <> Grads formula<Op::Exponential>(const Ctx<Op::Exponential>& c) { return {zeros_like(c.g)}; }
template <> Grads formula<Op::Random>(const Ctx<Op::Random>& c) { return {zeros_like(c.g)}; }
template <> Grads formula<Op::Bernoulli>(const Ctx<Op::Bernoulli>& c) {  // self: zeros_like(grad); p (bernoulli_.Tensor): zeros
  if (c.inputs() == 1) return {zeros_like(c.g)};
  return {c.need(0) ? zeros_like(c.g) : Tensor(), c.need(1) ? zeros_like(c.g) : Tensor()}; }
template <> Grads formula<Op::IndexPut>(const Ctx<Op::IndexPut>& c) {  // self: see helper; values: grad.index(indices)
  const std::vector<Tensor> indices = c.get(c.s.indices);
  return {c.need(0) ? index_put_self_backward(c.g, indices, c.s.values_sizes, c.s.accumulate) : Tensor(),
          c.need(1) ? index(c.g, indices) : Tensor()}; }
template <> Grads formula<Op::NotImplemented>(const Ctx<Op::NotImplemented>& c) {
  throw Error(format("derivative for aten::{} is not implemented", c.s.op_name)); }
// clang-format on

// The rows declared in csrc/op_rows.toml (their derivative fields, generated by tools/gen_op_rows.py).
#include "densecore/generated/formulas.inc"

}  // namespace

template <Op op_>
std::vector<Tensor> OpNode<op_>::apply(std::vector<Tensor>&& grads) {
  bool any = false;
  for (const Tensor& g : grads) any = any || g.defined();
  if (!any) return std::vector<Tensor>(next_edges.size());
  const Ctx<op_> ctx{*this, grads, grads.at(0), saved};
  return formula<op_>(ctx);
}

// Every row's node, with its formula: a row whose formula<Op::X> is missing stops here.
#define DC_DEFINE_OP_NODE(name) template struct OpNode<Op::name>;
DC_DIFFERENTIABLE_OPS(DC_DEFINE_OP_NODE)
#undef DC_DEFINE_OP_NODE

}  // namespace dc
