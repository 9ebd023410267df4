// OpNode<Op::X>: the backward node op X records, holding its typed saved state (autograd/saved_state.h);
// its apply() runs X's formula (autograd/formulas.cpp).
// OpRecord<Op::X>: what an op in ops/ uses to record itself (torch's VariableType wrappers).
#pragma once

#include <initializer_list>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "densecore/autograd/grad_mode.h"
#include "densecore/autograd/node.h"
#include "densecore/autograd/op_list.h"
#include "densecore/autograd/saved_state.h"
#include "densecore/core/scalar.h"

namespace dc {

/// The part of every op's backward node that does not depend on the op: which op (its name).
struct FormulaNode : Node {
  FormulaNode(Op o, std::span<const Tensor> inputs);
  std::string name() const override;

  Op op;
};

/// The backward node of one op: its saved state (autograd/saved_state.h) and its formula
/// (autograd/formulas.cpp, where apply() is defined and every row's node is instantiated).
template <Op op_>
struct OpNode final : FormulaNode {
  explicit OpNode(std::span<const Tensor> inputs) : FormulaNode(op_, inputs) {}
  /// The saved tensors go first, while the edges still hold their producers, so that freeing a saved
  /// input never starts a nested teardown of its history (see Node::~Node).
  ~OpNode() override { release_variables(); }
  std::vector<Tensor> apply(std::vector<Tensor>&& grads) override;
  void release_variables() override { release_saved(saved); }

  Saved<op_> saved;
};

#define DC_DECLARE_OP_NODE(name) extern template struct OpNode<Op::name>;
DC_DIFFERENTIABLE_OPS(DC_DECLARE_OP_NODE)
#undef DC_DECLARE_OP_NODE

/// What every recording shares, whatever the op (torch's VariableType wrappers, in one class).
class OpRecordBase {
 public:
  bool active() const { return node_ != nullptr; }
  /// torch's grad_fn->should_compute_output(i) at record time: whether tensor input i will get a
  /// gradient (it requires grad). Generated ops save a tensor that only input i's derivative reads
  /// only when this holds (gen_variable_type.py's guard_for).
  bool should_compute_output(size_t i) const {
    return node_ && i < node_->next_edges.size() && node_->next_edges[i].valid();
  }
  /// Attaches outputs to the node (their grad_fn); returns the first one.
  Tensor finish(const Tensor& out);
  void finish(std::span<const Tensor> outs);

 protected:
  using MakeNode = std::shared_ptr<FormulaNode> (*)(std::span<const Tensor> inputs);
  OpRecordBase(MakeNode make, std::span<const Tensor> inputs);
  OpRecordBase(MakeNode make, const Tensor& self, std::span<const Tensor> other_inputs);

  std::shared_ptr<FormulaNode> node_;

 private:
  std::unique_ptr<GradModeGuard> grad_off_;
  Tensor inplace_self_;  // defined for the in-place form
};

/// Records op into the autograd graph when grad mode is on and an input requires grad. While it lives
/// (and records), grad mode is off so the op's internals record nothing.
///   OpRecord<Op::Mul> rec({a, b});
///   if (rec.active()) { rec.saved().self = a; rec.saved().other = b; }
///   Tensor out = ...compute...;
///   return rec.finish(out);
template <Op op_>
class OpRecord : public OpRecordBase {
 public:
  OpRecord(std::initializer_list<Tensor> inputs)
      : OpRecordBase(&make, std::span<const Tensor>(inputs.begin(), inputs.size())) {}
  /// A list of inputs (cat, stack).
  explicit OpRecord(std::span<const Tensor> inputs) : OpRecordBase(&make, inputs) {}
  /// In-place form: `self` is modified by the op. torch's check_inplace runs first (leaf and view
  /// rules); finish() then makes the node self's history (through CopySlices for a view).
  OpRecord(const Tensor& self, std::initializer_list<Tensor> other_inputs)
      : OpRecordBase(&make, self, std::span<const Tensor>(other_inputs.begin(), other_inputs.size())) {}
  OpRecord(const Tensor& self, std::span<const Tensor> other_inputs) : OpRecordBase(&make, self, other_inputs) {}
  /// What the formula will read; only while active().
  Saved<op_>& saved() { return static_cast<OpNode<op_>&>(*node_).saved; }

 private:
  static std::shared_ptr<FormulaNode> make(std::span<const Tensor> inputs) {
    return std::make_shared<OpNode<op_>>(inputs);
  }
};

/// torch's rule for out= forms: they are not differentiable, so an input or out that requires grad is an
/// error while grad mode is on.
void check_out_not_differentiable(const char* name, std::span<const Tensor> inputs, const Tensor& out);

/// The recording of an op with an out argument: undefined out is the functional form; out that is the
/// first input (self) is the in-place form; any other out is the out= form, which records nothing.
template <Op op>
OpRecord<op> record_with_out(const char* name, std::initializer_list<Tensor> inputs, const Tensor& out) {
  const std::span<const Tensor> ins(inputs.begin(), inputs.size());
  if (!out.defined()) return OpRecord<op>(ins);
  if (out.is_same(ins[0])) return OpRecord<op>(ins[0], ins.subspan(1));
  check_out_not_differentiable(name, ins, out);
  return OpRecord<op>(std::span<const Tensor>());
}

/// A tensor sharing t's storage and version counter but no autograd state (saving an output in its
/// own grad_fn without a reference cycle).
Tensor data_alias(const Tensor& t);

}  // namespace dc
