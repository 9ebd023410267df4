// FormulaNode: the backward node every differentiable op records, holding the op, its saved tensors
// and parameters; its apply() runs the op's row of the formula table (autograd/formulas.cpp).
// OpRecord: what an op in ops/ uses to record itself (torch's VariableType wrappers, in one class).
#pragma once

#include <initializer_list>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "densecore/autograd/grad_mode.h"
#include "densecore/autograd/node.h"
#include "densecore/autograd/op_list.h"
#include "densecore/core/scalar.h"

namespace dc {

/// What a formula may need besides saved tensors. Fields are named by meaning, used per op.
struct OpParams {
  Scalar alpha = Scalar::from_int(1);
  Scalar beta = Scalar::from_int(1);
  int64_t dim = 0;
  bool keepdim = false;
  std::vector<int64_t> dims;                // permutation, reduced dims, split sizes ...
  std::vector<std::vector<int64_t>> sizes;  // forward input sizes, one per input
  std::vector<std::vector<int64_t>> strides;  // forward input strides, one per input
  double ord = 2;                           // vector_norm's order
  DType src_dtype = DType::Float32;         // copy_: the source's dtype (its gradient's dtype)
  bool accumulate = false;                  // index_put_
  int overload = 0;                         // torch's node name suffix: SumBackward<overload>
  const char* not_implemented_op = "";      // NotImplemented: the op torch has no derivative for
};

struct FormulaNode : Node {
  FormulaNode(Op o, std::span<const Tensor> inputs);
  /// Drops the saved tensors first, while the edges still hold their producers, so that freeing a
  /// saved input never starts a nested teardown of its history (see Node::~Node).
  ~FormulaNode() override { release_variables(); }
  std::vector<Tensor> apply(std::vector<Tensor>&& grads) override;
  std::string name() const override;
  void release_variables() override;

  Op op;
  std::vector<SavedVariable> saved;
  OpParams params;
};

/// Records an op into the autograd graph when grad mode is on and an input requires grad.
/// While it lives (and records), grad mode is off so the op's internals record nothing.
///   OpRecord rec(Op::Mul, {a, b});
///   Tensor out = ...compute...;
///   rec.save(a); rec.save(b);
///   return rec.finish(out);
class OpRecord {
 public:
  OpRecord(Op op, std::initializer_list<Tensor> inputs);
  /// A list of inputs (cat, stack).
  OpRecord(Op op, std::span<const Tensor> inputs);
  /// In-place form: `self` is modified by the op. torch's check_inplace runs first (leaf and view
  /// rules); finish() then makes the node self's history (through CopySlices for a view).
  OpRecord(Op op, const Tensor& self, std::initializer_list<Tensor> other_inputs);
  bool active() const { return node_ != nullptr; }
  OpParams& params() { return node_->params; }
  void save(const Tensor& t, bool is_output = false);
  /// Attaches outputs to the node (their grad_fn); returns the first one.
  Tensor finish(const Tensor& out);
  void finish(std::span<const Tensor> outs);

 private:
  std::shared_ptr<FormulaNode> node_;
  std::unique_ptr<GradModeGuard> grad_off_;
  Tensor inplace_self_;  // defined for the in-place form
};

/// A tensor sharing t's storage and version counter but no autograd state (saving an output in its
/// own grad_fn without a reference cycle).
Tensor data_alias(const Tensor& t);

}  // namespace dc
