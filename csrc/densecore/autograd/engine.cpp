#include "densecore/autograd/engine.h"

#include <optional>
#include <queue>
#include <unordered_map>

#include "densecore/autograd/grad_mode.h"
#include "densecore/autograd/node.h"
#include "densecore/core/error.h"
#include "densecore/ops/copy.h"
#include "densecore/ops/creation.h"
#include "densecore/ops/elementwise.h"
#include "densecore/ops/reduce.h"

namespace dc {
namespace {

/// Collects the gradients arriving at one node's input slots (torch's InputBuffer).
struct InputBuffer {
  std::vector<Tensor> slots;
  explicit InputBuffer(size_t n) : slots(n) {}
  // First contribution is stored as is; later ones are summed old + new (torch's accumulate,
  // input_buffer.cpp). Backward runs without grad mode, so, as torch does, the sum goes into old's own
  // memory when nothing else can see it: same values, old's layout, no new buffer.
  void add(uint32_t pos, Tensor&& grad) {
    if (!grad.defined()) return;
    Tensor& old = slots[pos];
    if (!old.defined()) {
      old = std::move(grad);
    } else if (can_accumulate_inplace(old)) {
      dc::add(old, grad, Scalar::from_int(1), old);
    } else {
      old = dc::add(old, grad, Scalar::from_int(1));
    }
  }
  // torch's can_accumulate_inplace: this handle is the tensor's and its storage's only owner, and the
  // layout is non-overlapping and dense.
  static bool can_accumulate_inplace(const Tensor& t) {
    return t.impl_ptr().use_count() == 1 && t.storage().use_count() == 1 && t.is_non_overlapping_and_dense();
  }
};

/// Multiple roots get a GraphRoot whose outputs are the seed gradients (torch's GraphRoot).
struct GraphRoot : Node {
  std::vector<Tensor> seeds;
  GraphRoot(std::vector<Edge> edges, std::vector<Tensor> s) : seeds(std::move(s)) {
    next_edges = std::move(edges);
  }
  std::vector<Tensor> apply(std::vector<Tensor>&&) override { return seeds; }
  std::string name() const override { return "GraphRoot"; }
};

struct ReadyTask {
  std::shared_ptr<Node> fn;
  std::vector<Tensor> inputs;
};
// Max-heap on sequence_nr: the node created last in forward runs first (engine.h CompareNodeTaskTime).
struct LaterFirst {
  bool operator()(const ReadyTask& a, const ReadyTask& b) const {
    return a.fn->sequence_nr < b.fn->sequence_nr;
  }
};

/// What the engine keeps per node besides the node: the number of edges still to deliver a gradient
/// (torch's dependencies_) and the gradients delivered so far (its not_ready_ InputBuffer).
struct PendingNode {
  int dependencies = 0;
  std::optional<InputBuffer> inputs;
};
using PendingNodes = std::unordered_map<Node*, PendingNode>;

/// torch's compute_dependencies: one count per edge into a node. A node is pushed when its first edge is
/// seen (the graph is a DAG, so the root, which no edge enters, is never pushed twice).
PendingNodes compute_dependencies(Node* root) {
  PendingNodes pending;
  pending.reserve(64);
  std::vector<Node*> stack{root};
  while (!stack.empty()) {
    Node* fn = stack.back();
    stack.pop_back();
    for (const Edge& e : fn->next_edges) {
      if (!e.valid()) continue;
      auto [it, first] = pending.try_emplace(e.fn.get());
      it->second.dependencies += 1;
      if (first) stack.push_back(e.fn.get());
    }
  }
  return pending;
}

bool is_expandable_to(const Shape& shape, const Shape& desired) {
  if (shape.size() > desired.size()) return false;
  for (size_t i = 0; i < shape.size(); ++i) {
    const int64_t s = shape[shape.size() - 1 - i], d = desired[desired.size() - 1 - i];
    if (s != d && s != 1) return false;
  }
  return true;
}

// validate_outputs: reduce a broadcast gradient to the input's shape, cast to its dtype.
void validate_outputs(const Node& fn, std::vector<Tensor>& grads) {
  check(grads.size() == fn.next_edges.size(), "invalid number of gradients - expected {}, but got {}",
        fn.next_edges.size(), grads.size());
  for (size_t i = 0; i < grads.size(); ++i) {
    const Edge& e = fn.next_edges[i];
    Tensor& g = grads[i];
    if (!e.valid() || !g.defined()) continue;
    const TensorMeta& meta = e.fn->input_meta[e.input_nr];
    if (g.sizes() != meta.sizes) {
      check(is_expandable_to(meta.sizes, g.sizes()),
            "Function {} returned an invalid gradient at index {} - got {} but expected shape "
            "compatible with {}",
            fn.name(), i, shape_text(g.sizes()), shape_text(meta.sizes));
      g = sum_to_size(g, meta.sizes);
    }
    if (g.dtype() != meta.dtype) g = to_copy(g, meta.dtype);
  }
}

Tensor seed_gradient(const Tensor& root, const Tensor& given) {
  if (given.defined()) {
    check(given.sizes() == root.sizes(), "Mismatch in shape: grad_output[0] has a shape of {} and output[0] has a shape of {}.",
          shape_text(given.sizes()), shape_text(root.sizes()));
    // torch's validate_outputs on the root edges: a seed of another dtype is cast to the output's first, so
    // the formulas run in the output's dtype (a float32 seed for a float64 output must not round the grads).
    return given.dtype() == root.dtype() ? given : to_copy(given, root.dtype());
  }
  check(root.numel() == 1, "grad can be implicitly created only for scalar outputs");
  return ones_like(root);
}

// torch's GraphTask::exec_info_ for autograd.grad / backward(inputs=): which nodes run, and where
// the gradients of the requested inputs are captured (the summed input buffer of their node).
struct ExecFilter {
  std::unordered_map<Node*, std::vector<std::pair<uint32_t, size_t>>> captures;  // (input_nr, result index)
  std::unordered_map<Node*, bool> needed;
  std::vector<Tensor> captured;
  bool should_execute(Node* n) const {
    auto it = needed.find(n);
    return (it != needed.end() && it->second) || captures.count(n);
  }
};

// init_to_execute: a node is needed when some path from it reaches an output node (iterative
// post-order DFS so deep graphs do not overflow the stack).
void init_to_execute(Node* root, ExecFilter& f) {
  std::unordered_map<Node*, bool> done;
  std::vector<std::pair<Node*, size_t>> stack{{root, 0}};
  while (!stack.empty()) {
    auto& [fn, i] = stack.back();
    if (i < fn->next_edges.size()) {
      Node* child = fn->next_edges[i++].fn.get();
      if (child && !done[child]) {
        done[child] = true;
        stack.push_back({child, 0});
      }
      continue;
    }
    bool any = false;
    for (const Edge& e : fn->next_edges) any = any || (e.fn && f.should_execute(e.fn.get()));
    if (any) f.needed[fn] = true;
    stack.pop_back();
  }
}

void execute(const std::vector<Tensor>& tensors, const std::vector<Tensor>& grad_tensors, bool retain_graph,
             ExecFilter* filter);

}  // namespace

void backward(const std::vector<Tensor>& tensors, const std::vector<Tensor>& grad_tensors,
              bool retain_graph) {
  execute(tensors, grad_tensors, retain_graph, nullptr);
}

std::vector<Tensor> grad(const std::vector<Tensor>& outputs, const std::vector<Tensor>& grad_outputs,
                         const std::vector<Tensor>& inputs, bool retain_graph, bool allow_unused,
                         bool accumulate) {
  ExecFilter f;
  f.captured.resize(inputs.size());
  for (size_t i = 0; i < inputs.size(); ++i) {
    Edge e = gradient_edge(inputs[i]);
    check(e.valid(), "One of the differentiated Tensors does not require grad");
    if (accumulate) {
      check<NotImplementedError>(is_leaf(inputs[i]), "backward(inputs=...) with a non-leaf input is not supported yet");
      f.needed[e.fn.get()] = true;  // its AccumulateGrad runs; nothing else accumulates
    } else {
      f.captures[e.fn.get()].push_back({e.input_nr, i});
    }
  }
  execute(outputs, grad_outputs, retain_graph, &f);
  if (!accumulate)
    for (size_t i = 0; i < f.captured.size(); ++i)
      check(allow_unused || f.captured[i].defined(),
            "The differentiated Tensor at index {} appears to not have been used in the graph. Set "
            "allow_unused=True if this is the desired behavior.", i);
  return f.captured;
}

namespace {

void execute(const std::vector<Tensor>& tensors, const std::vector<Tensor>& grad_tensors, bool retain_graph,
             ExecFilter* filter) {
  std::vector<Edge> roots;
  std::vector<Tensor> seeds;
  for (size_t i = 0; i < tensors.size(); ++i) {
    Edge e = gradient_edge(tensors[i]);
    check(e.valid(), "element {} of tensors does not require grad and does not have a grad_fn", i);
    roots.push_back(e);
    seeds.push_back(seed_gradient(tensors[i], i < grad_tensors.size() ? grad_tensors[i] : Tensor()));
  }
  if (roots.empty()) return;

  GradModeGuard no_grad(false);  // create_graph=False: formulas run without recording
  // One root: no GraphRoot node; the seed goes straight into the root's input buffer.
  std::shared_ptr<Node> graph_root;
  InputBuffer root_inputs(0);
  if (roots.size() == 1) {
    graph_root = roots[0].fn;
    root_inputs = InputBuffer(graph_root->input_meta.size());
    root_inputs.add(roots[0].input_nr, std::move(seeds[0]));
  } else {
    graph_root = std::make_shared<GraphRoot>(roots, seeds);
  }

  PendingNodes pending = compute_dependencies(graph_root.get());
  if (filter) init_to_execute(graph_root.get(), *filter);
  std::priority_queue<ReadyTask, std::vector<ReadyTask>, LaterFirst> ready;
  ready.push({graph_root, std::move(root_inputs.slots)});

  while (!ready.empty()) {
    // top() is const only so the heap cannot be reordered by a change of key; the task leaves it next.
    ReadyTask task = std::move(const_cast<ReadyTask&>(ready.top()));
    ready.pop();
    Node& fn = *task.fn;
    if (filter) {
      auto c = filter->captures.find(&fn);
      if (c != filter->captures.end())
        for (const auto& [nr, idx] : c->second) filter->captured[idx] = task.inputs[nr];
      auto n = filter->needed.find(&fn);
      if (n == filter->needed.end() || !n->second) continue;
    }
    for (const auto& hook : fn.pre_hooks) hook.fn(task.inputs);
    std::vector<Tensor> outputs = fn.apply(std::move(task.inputs));
    if (!retain_graph) fn.release_variables();
    if (fn.next_edges.empty()) continue;
    validate_outputs(fn, outputs);
    for (size_t i = 0; i < outputs.size(); ++i) {
      const Edge& e = fn.next_edges[i];
      if (!e.valid()) continue;
      if (filter && !filter->should_execute(e.fn.get())) continue;
      Node* next = e.fn.get();
      PendingNode& p = pending[next];
      const bool is_ready = --p.dependencies == 0;
      if (!p.inputs) p.inputs.emplace(next->input_meta.size());
      p.inputs->add(e.input_nr, std::move(outputs[i]));
      if (is_ready) {
        ready.push({e.fn, std::move(p.inputs->slots)});
        p.inputs.reset();
      }
    }
  }
}

}  // namespace

}  // namespace dc
