#include "densecore/autograd/views.h"

#include <mutex>

#include "densecore/autograd/function.h"
#include "densecore/autograd/grad_mode.h"
#include "densecore/core/error.h"
#include "densecore/ops/copy.h"

namespace dc {
namespace {

// torch's propagate_creation_meta: a view of a view keeps the stricter of the two.
CreationMeta propagate(CreationMeta previous, CreationMeta current) {
  return current == CreationMeta::Default ? previous : current;
}

/// Sizes, strides and storage offset of a tensor: what CopySlices needs to find a view in its base.
struct Geometry {
  Shape sizes;
  Strides strides;
  int64_t offset = 0;
  explicit Geometry(const Tensor& t) : sizes(t.sizes()), strides(t.strides()), offset(t.storage_offset()) {}
};

// torch's handle_view_on_rebase: in-place on (direct) or beside (indirect) a view whose creation
// forbids it.
void handle_view_on_rebase(const AutogradMeta& meta, bool indirect) {
  const CreationMeta creation = meta.view->creation;
  if (creation == CreationMeta::Default) return;
  const char* modified = indirect ? "its base or another view of its base has been" : "is being";
  if (creation == CreationMeta::MultiOutputNode) {
    std::string msg = meta.grad_fn
        ? format("Output {} of {} is a view and {} modified inplace.", meta.output_nr,
                 node_display_name(*meta.grad_fn), modified)
        : format("A view was created in no_grad mode and {} modified inplace with grad mode enabled.", modified);
    throw Error(msg + " This view is the output of a function that returns multiple views. Such functions do "
                      "not allow the output views to be modified inplace. You should replace the inplace "
                      "operation by an out-of-place one.");
  }
  throw Error(format(
      "A view was created in no_grad mode and {} modified inplace with grad mode enabled. Given that this use "
      "case is ambiguous and error-prone, it is forbidden. You can clarify your code by moving both the view and "
      "the inplace either both inside the no_grad block (if you don't want the inplace to be tracked) or both "
      "outside (if you want the inplace to be tracked).",
      modified));
}

// Moves `owner`'s retain_grad hook from its old grad_fn to the new one (torch's
// update_tensor_hooks_on_new_gradfn), so .grad is the gradient of the tensor's current value.
void move_retain_grad_hook(const Tensor& owner, Node* old_fn, Node& new_fn) {
  if (!old_fn) return;
  auto& hooks = old_fn->pre_hooks;
  for (auto it = hooks.begin(); it != hooks.end();) {
    if (it->retains_grad_of == owner.impl()) {
      new_fn.pre_hooks.push_back(std::move(*it));
      it = hooks.erase(it);
    } else {
      ++it;
    }
  }
}

void set_history(const Tensor& t, AutogradMeta& meta, std::shared_ptr<Node> fn) {
  move_retain_grad_hook(t, meta.grad_fn.get(), *fn);
  meta.grad_fn = std::move(fn);
  meta.output_nr = 0;
}

/// The base's gradient, with the in-place op `fn` applied to the view's slice of it
/// (functions/tensor.cpp CopySlices). Edge 0 goes to the base's previous history; edges 1.. are
/// fn's other inputs.
struct CopySlices : Node {
  CopySlices(const Tensor& base_var, Geometry view_geometry, std::shared_ptr<Node> fn_)
      : base(base_var), view(std::move(view_geometry)), fn(std::move(fn_)) {
    input_meta.push_back({base_var.sizes(), base_var.dtype()});
    next_edges.push_back(gradient_edge(base_var));
    for (size_t i = 1; i < fn->next_edges.size(); ++i) next_edges.push_back(fn->next_edges[i]);
  }

  std::vector<Tensor> apply(std::vector<Tensor>&& grads) override {
    Tensor& grad = grads.at(0);
    if (!grad.defined()) return std::vector<Tensor>(next_edges.size());
    std::lock_guard<std::mutex> lock(mutex_);
    check(fn != nullptr, kBackwardTwiceMessage);
    Tensor result = Tensor::empty_strided(base.sizes, base.strides, grad.dtype());
    native::copy_(result, grad);
    Tensor grad_slice = result.as_strided_view(view.sizes, view.strides, view.offset - base.offset);
    // fn may save what it is given for a later backward: it gets its own contiguous copy.
    std::vector<Tensor> fn_grads{clone(grad_slice, MemoryFormat::Contiguous)};
    fn_grads.resize(fn->input_meta.size());
    std::vector<Tensor> res = fn->apply(std::move(fn_grads));
    std::vector<Tensor> out(next_edges.size());
    for (size_t i = 0; i < res.size() && i < out.size(); ++i) {
      if (!next_edges[i].valid() || !res[i].defined()) continue;
      if (i == 0) {
        native::copy_(grad_slice, res[0]);
        out[0] = result;
      } else {
        out[i] = std::move(res[i]);
      }
    }
    return out;
  }
  std::string name() const override { return "torch::autograd::CopySlices"; }
  void release_variables() override {
    std::lock_guard<std::mutex> lock(mutex_);
    fn = nullptr;
  }

  Geometry base;
  Geometry view;
  std::shared_ptr<Node> fn;
  std::mutex mutex_;
};

}  // namespace

std::string node_display_name(const Node& node) {
  std::string n = node.name();
  // "SplitBackward0" -> "Split": drop "Backward" and the overload number after it.
  const size_t at = n.rfind("Backward");
  if (at != std::string::npos && at > 0 && n.find_first_not_of("0123456789", at + 8) == std::string::npos)
    n.erase(at);
  return n;
}

CreationMeta creation_meta_now(CreationMeta when_grad_on) {
  return is_grad_enabled() ? when_grad_on : CreationMeta::NoGradMode;
}

void mark_view(const Tensor& base, const Tensor& view, CreationMeta creation) {
  if (!is_floating(view.dtype())) return;
  Tensor root = base;
  if (const AutogradMeta* bm = autograd_meta(base); bm && bm->view) {
    root = bm->view->base;
    creation = propagate(bm->view->creation, creation);
  }
  ensure_autograd_meta(view).view = ViewMeta{root, creation, view.version()};
}

void check_inplace(const Tensor& self, bool any_input_requires_grad) {
  if (!any_input_requires_grad || !is_grad_enabled()) return;
  const AutogradMeta* meta = autograd_meta(self);
  if (meta && meta->view) {
    handle_view_on_rebase(*meta, /*indirect=*/false);
    check(!(requires_grad(self) && is_leaf(meta->view->base)),
          "a view of a leaf Variable that requires grad is being used in an in-place operation.");
  }
  check(!(requires_grad(self) && is_leaf(self)),
        "a leaf Variable that requires grad is being used in an in-place operation.");
}

void rebase_history(const Tensor& self, std::shared_ptr<Node> fn) {
  AutogradMeta& meta = ensure_autograd_meta(self);
  if (!meta.view) {
    set_history(self, meta, std::move(fn));
    return;
  }
  const Tensor& base = meta.view->base;
  auto copy_slices = std::make_shared<CopySlices>(base, Geometry(self), std::move(fn));
  AutogradMeta& base_meta = ensure_autograd_meta(base);
  if (requires_grad(self)) move_retain_grad_hook(base, base_meta.grad_fn.get(), *copy_slices);
  base_meta.grad_fn = std::move(copy_slices);
  base_meta.output_nr = 0;
  meta.output_nr = 0;
  refresh_view_grad_fn(self, meta, /*force=*/true);
}

std::shared_ptr<Node> refresh_view_grad_fn(const Tensor& view, AutogradMeta& meta, bool force) {
  std::lock_guard<std::mutex> lock(meta.mutex);  // two threads reading one stale view make one node
  ViewMeta& v = *meta.view;
  if (!meta.grad_fn && !requires_grad(v.base)) return nullptr;
  const int64_t version = view.version();
  if (!force && v.attr_version == version) return meta.grad_fn;
  if (!force) handle_view_on_rebase(meta, /*indirect=*/true);
  // AsStridedBackward0: the gradient of the view, scattered into the base's geometry.
  const Tensor inputs[] = {v.base};
  auto node = std::make_shared<OpNode<Op::AsStrided>>(inputs);
  Saved<Op::AsStrided>& s = node->saved;
  s.self_sizes = v.base.sizes();
  s.self_strides = v.base.strides();
  s.self_storage_offset = v.base.storage_offset();
  s.size = view.sizes();
  s.stride = view.strides();
  s.storage_offset = view.storage_offset();
  node->input_meta.push_back({view.sizes(), view.dtype()});
  meta.grad_fn = std::move(node);
  meta.output_nr = 0;
  v.attr_version = version;
  return meta.grad_fn;
}

}  // namespace dc
