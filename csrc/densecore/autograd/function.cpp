#include "densecore/autograd/function.h"

#include "densecore/autograd/views.h"

#include "densecore/core/error.h"

namespace dc {

const char* op_name(Op op) {
  static const char* names[] = {
#define DC_OP_NAME(name) #name,
      DC_DIFFERENTIABLE_OPS(DC_OP_NAME)
#undef DC_OP_NAME
  };
  return names[static_cast<int>(op)];
}

Tensor data_alias(const Tensor& t) {
  if (!t.defined()) return t;
  Tensor alias = Tensor::from_storage(t.storage(), t.sizes(), t.strides(), t.storage_offset(), t.dtype());
  alias.impl()->version = t.impl()->version;
  alias.impl()->is_wrapped_number = t.impl()->is_wrapped_number;
  return alias;
}

SavedVariable saved_output(const Tensor& t, uint32_t output_nr) {
  return SavedVariable(data_alias(t), /*is_output=*/true, output_nr);
}

FormulaNode::FormulaNode(Op o, std::span<const Tensor> inputs) : op(o) {
  for (const Tensor& t : inputs) next_edges.push_back(t.defined() ? gradient_edge(t) : Edge{});
}

// Ops whose torch node name is not "<Op>Backward0" (a later overload in derivatives.yaml, or
// one of torch's hand-written nodes); a row's is its node_name (csrc/op_rows.toml).
const char* name_override(Op op) {
  switch (op) {
#define DC_GENERATED_NODE_NAME(op, name) \
  case Op::op:                            \
    return name;
    DC_GENERATED_NODE_NAMES(DC_GENERATED_NODE_NAME)
#undef DC_GENERATED_NODE_NAME
    case Op::NotImplemented: return "torch::autograd::NotImplemented";
    default: return nullptr;
  }
}

std::string FormulaNode::name() const {
  if (const char* n = name_override(op)) return n;
  return std::string(op_name(op)) + "Backward0";
}

namespace {

bool should_record(std::span<const Tensor> inputs) {
  if (!is_grad_enabled()) return false;
  for (const Tensor& t : inputs)
    if (t.defined() && requires_grad(t)) return true;
  return false;
}

}  // namespace

OpRecordBase::OpRecordBase(MakeNode make, std::span<const Tensor> inputs) {
  if (!should_record(inputs)) return;
  node_ = make(inputs);
  grad_off_ = std::make_unique<GradModeGuard>(false);
}

OpRecordBase::OpRecordBase(MakeNode make, const Tensor& self, std::span<const Tensor> other_inputs) {
  std::vector<Tensor> inputs{self};
  inputs.insert(inputs.end(), other_inputs.begin(), other_inputs.end());
  const bool record = should_record(inputs);
  check_inplace(self, record);
  if (!record) return;
  node_ = make(inputs);
  grad_off_ = std::make_unique<GradModeGuard>(false);
  inplace_self_ = self;
}

void check_out_not_differentiable(const char* name, std::span<const Tensor> inputs, const Tensor& out) {
  if (!is_grad_enabled()) return;
  bool any = requires_grad(out);
  for (const Tensor& t : inputs) any = any || (t.defined() && requires_grad(t));
  check(!any, "{}(): functions with out=... arguments don't support automatic differentiation, but one of "
        "the arguments requires grad.", name);
}

Tensor OpRecordBase::finish(const Tensor& out) {
  finish(std::span<const Tensor>(&out, 1));
  return out;
}

void OpRecordBase::finish(std::span<const Tensor> outs) {
  if (!node_) return;
  node_->input_meta.reserve(outs.size());
  if (inplace_self_.defined()) {
    // The op wrote self: its node becomes self's history (torch's rebase_history).
    node_->input_meta.push_back({inplace_self_.sizes(), inplace_self_.dtype()});
    grad_off_.reset();
    rebase_history(inplace_self_, std::move(node_));
    return;
  }
  for (size_t i = 0; i < outs.size(); ++i) {
    // Integer and bool outputs never take part in autograd (torch's isDifferentiableType).
    if (!is_floating(outs[i].dtype())) {
      node_->input_meta.push_back({outs[i].sizes(), outs[i].dtype()});
      continue;
    }
    AutogradMeta& m = ensure_autograd_meta(outs[i]);
    m.grad_fn = node_;
    m.output_nr = static_cast<uint32_t>(i);
    m.requires_grad_ = false;  // non-leaf: requires_grad comes from grad_fn
    node_->input_meta.push_back({outs[i].sizes(), outs[i].dtype()});
  }
}

}  // namespace dc
