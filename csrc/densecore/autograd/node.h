// The autograd graph: Node (a backward function with edges to the nodes that produced its forward
// inputs), AccumulateGrad (writes a leaf's .grad), SavedVariable (a tensor saved for backward with
// the version it had), and AutogradMeta (what a tensor taking part in autograd carries).
// Mirrors torch/csrc/autograd/{function.h,variable.h,saved_variable.h,functions/accumulate_grad.h}.
#pragma once

#include <cstdint>
#include <functional>
#include <limits>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "densecore/core/tensor.h"

namespace dc {

struct Node;

/// torch's ERR_BACKWARD_TWICE: a saved tensor or node state was freed by an earlier backward.
inline constexpr const char* kBackwardTwiceMessage =
    "Trying to backward through the graph a second time (or directly access saved tensors after they have "
    "already been freed). Saved intermediate values of the graph are freed when you call .backward() or "
    "autograd.grad(). Specify retain_graph=True if you need to backward through the graph a second time or "
    "if you need to access saved tensors after calling backward.";

/// Where a gradient goes: input slot `input_nr` of `fn`. Invalid when fn is null.
struct Edge {
  std::shared_ptr<Node> fn;
  uint32_t input_nr = 0;
  bool valid() const { return fn != nullptr; }
};

/// Shape and dtype of a forward tensor, so the engine can sum a broadcast gradient back to it
/// and cast it (torch's InputMetadata, used by validate_outputs).
struct TensorMeta {
  Shape sizes;
  DType dtype = DType::Float32;
};

struct Node : std::enable_shared_from_this<Node> {
  Node();  // takes the next sequence number (torch's at::sequence_number::get_and_increment)
  /// Frees the nodes only this one kept alive without recursing (torch's deleteNode): a graph of a
  /// million chained nodes is torn down in a loop, not a million nested destructor calls.
  virtual ~Node();

  /// grads[i] is the gradient for this node's input slot i (= forward output i); returns one
  /// gradient per next edge (= forward input), undefined where none flows.
  virtual std::vector<Tensor> apply(std::vector<Tensor>&& grads) = 0;
  virtual std::string name() const = 0;
  /// Drops saved tensors after a backward without retain_graph.
  virtual void release_variables() {}

  uint64_t sequence_nr;
  std::vector<Edge> next_edges;
  /// Run by the engine on the summed input gradients before apply (retain_grad's hook).
  struct PreHook {
    std::function<void(const std::vector<Tensor>&)> fn;
    const TensorImpl* retains_grad_of = nullptr;  // the tensor whose retain_grad hook this is
  };
  std::vector<PreHook> pre_hooks;
  std::vector<TensorMeta> input_meta;  // one per input slot (forward output)
};

/// A saved tensor plus the version it had when saved, checked on unpack (torch's SavedVariable).
class SavedVariable {
 public:
  SavedVariable() = default;
  /// output_nr: which of its node's outputs a saved output is (torch's SavedVariable::output_nr_).
  SavedVariable(const Tensor& t, bool is_output, uint32_t output_nr = 0);
  /// A saved input (saved_output() in autograd/saved_state.h makes a saved output).
  SavedVariable(const Tensor& t) : SavedVariable(t, /*is_output=*/false) {}  // NOLINT: implicit on purpose
  /// The saved tensor; throws torch's "modified by an inplace operation" error if it changed.
  Tensor unpack(const Node& owner) const;
  void reset() { data_ = Tensor(); was_released_ = true; }
  bool defined() const { return data_.defined() || was_released_; }

 private:
  Tensor data_;
  int64_t saved_version_ = 0;
  bool was_released_ = false;
  bool is_output_ = false;
  uint32_t output_nr_ = 0;
};

/// How a differentiable view was made (torch's CreationMeta): decides whether an in-place op on it
/// may be recorded (autograd/views.cpp).
enum class CreationMeta : uint8_t { Default, NoGradMode, MultiOutputNode };

/// A differentiable view's link to its root base (torch's DifferentiableViewMeta + ViewInfo).
/// Invariant: `base` is never itself a differentiable view.
struct ViewMeta {
  Tensor base;
  CreationMeta creation = CreationMeta::Default;
  int64_t attr_version = 0;  // the shared version counter's value when grad_fn was last set
};

/// What a tensor taking part in autograd carries (torch's AutogradMeta).
struct AutogradMeta final : AutogradMetaInterface {
  AutogradMeta() {}  // user-provided: make_shared (every recorded output) then skips zero-filling the struct
  bool requires_grad() const override;
  /// Guards what backward and forward may touch from different threads on a shared tensor: the
  /// cached accumulator, .grad accumulation, a view's refreshed grad_fn (torch's AutogradMeta::mutex_).
  std::mutex mutex;
  bool requires_grad_ = false;  // the leaf's own flag (torch's requires_grad_)
  bool retains_grad = false;
  Tensor grad;                                // .grad
  std::shared_ptr<Node> grad_fn;              // null for leaves; for views see grad_fn() below
  uint32_t output_nr = 0;                     // which output of grad_fn this tensor is
  std::weak_ptr<Node> grad_accumulator;       // leaves: the one AccumulateGrad node, cached
  std::optional<ViewMeta> view;               // set on differentiable views only
  std::string name;
};

/// Writes a leaf's .grad: steals the incoming gradient when .grad is undefined, else adds it in
/// place (functions/accumulate_grad.h). Runs as soon as it is ready (sequence_nr = max).
struct AccumulateGrad : Node {
  explicit AccumulateGrad(const Tensor& variable);
  std::vector<Tensor> apply(std::vector<Tensor>&& grads) override;
  std::string name() const override { return "torch::autograd::AccumulateGrad"; }  // torch's name()
  Tensor variable;  // strong, as torch's: the graph keeps its leaves alive
};

// ---- Tensor autograd accessors (free functions: the core Tensor knows nothing of autograd) ----
AutogradMeta* autograd_meta(const Tensor& t);  // null when the tensor has none
AutogradMeta& ensure_autograd_meta(const Tensor& t);
// requires_grad(t) is core's (core/tensor.h), through AutogradMeta::requires_grad.
/// torch's requires_grad_ / the requires_grad setter: only leaves may change it.
void set_requires_grad(const Tensor& t, bool requires_grad);
/// No grad_fn recorded (the field itself, as torch's is_leaf: a stale view is not refreshed).
bool is_leaf(const Tensor& t);
/// The node that produced t. For a differentiable view whose storage was modified in place since
/// its grad_fn was set, a new AsStridedBackward0 onto its base first (torch's VariableHooks::grad_fn).
std::shared_ptr<Node> grad_fn(const Tensor& t);
Tensor grad(const Tensor& t);
void set_grad(const Tensor& t, const Tensor& g);
/// torch's retain_grad: a non-leaf keeps the gradient arriving at it in .grad during backward.
void retain_grad(const Tensor& t);
/// The edge a gradient for t flows along: its grad_fn, or its leaf accumulator, or invalid.
Edge gradient_edge(const Tensor& t);

}  // namespace dc
