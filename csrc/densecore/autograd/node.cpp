#include "densecore/autograd/node.h"

#include "densecore/autograd/views.h"

#include "densecore/core/error.h"
#include "densecore/ops/copy.h"
#include "densecore/ops/elementwise.h"

namespace dc {
namespace {

// torch's at::sequence_number: thread-local, incremented once per backward node created.
thread_local uint64_t t_sequence_nr = 0;

std::string type_description(const Tensor& t) {
  return dc::format("{} {}", message_type_name(t.dtype()), shape_text(t.sizes()));
}

}  // namespace

Node::Node() : sequence_nr(t_sequence_nr++) {}

Node::~Node() {
  // Children whose last owner is this node are parked on a thread-local stack and released one at
  // a time by the outermost destructor; each of their destructors only parks its own children.
  thread_local std::vector<std::shared_ptr<Node>> orphans;
  thread_local bool draining = false;
  for (Edge& e : next_edges)
    if (e.fn && e.fn.use_count() == 1) orphans.push_back(std::move(e.fn));
  if (draining) return;
  draining = true;
  while (!orphans.empty()) {
    std::shared_ptr<Node> next = std::move(orphans.back());
    orphans.pop_back();
    next.reset();
  }
  draining = false;
}

SavedVariable::SavedVariable(const Tensor& t, bool is_output, uint32_t output_nr)
    : data_(t), saved_version_(t.defined() ? t.version() : 0), is_output_(is_output), output_nr_(output_nr) {}

Tensor SavedVariable::unpack(const Node& owner) const {
  check(!was_released_ || data_.defined(), kBackwardTwiceMessage);
  if (data_.defined() && data_.version() != saved_version_) {
    // torch names the saved tensor by its history now: the owner for an output, else its grad_fn. An output
    // autograd never tracks (an integer one: max's indices) was a leaf when saved, and has no history to name.
    std::string which;
    const std::shared_ptr<Node> fn = is_output_ ? nullptr : grad_fn(data_);
    const Node* by = is_output_ ? (is_floating(data_.dtype()) ? &owner : nullptr) : fn.get();
    if (by) {
      const AutogradMeta* m = autograd_meta(data_);
      const uint32_t nr = is_output_ ? output_nr_ : m ? m->output_nr : 0;
      which = format(", which is output {} of {},", nr, node_display_name(*by));
    }
    throw Error(dc::format(
        "one of the variables needed for gradient computation has been modified by an inplace "
        "operation: [{}]{} is at version {}; expected version {} instead. "
        "Hint: enable anomaly detection to find the operation that failed to compute its gradient, "
        "with torch.autograd.set_detect_anomaly(True, check_nan=False).",
        type_description(data_), which, data_.version(), saved_version_));
  }
  return data_;
}

AccumulateGrad::AccumulateGrad(const Tensor& v) : variable(v) {
  sequence_nr = std::numeric_limits<uint64_t>::max();  // "so it's always called ASAP"
  input_meta.push_back({v.sizes(), v.dtype()});
}

namespace {

// torch/csrc/autograd/utils/grad_layout_contract.h obeys_layout_contract: a gradient may become .grad as
// it is when it has the variable's strides (dims of size 1 aside, unless their stride is 0: a view such
// as cat's), or, for a variable that is not dense, when it is contiguous.
bool obeys_layout_contract(const Tensor& grad, const Tensor& var) {
  if (!var.is_non_overlapping_and_dense()) return grad.is_contiguous();
  for (int64_t d = 0; d < grad.dim(); ++d) {
    if (grad.size(d) != 1 ? grad.stride(d) != var.stride(d) : grad.stride(d) == 0) return false;
  }
  return true;
}

// clone_obey_contract: a copy in the variable's strides when it is dense, else contiguous.
Tensor clone_obey_contract(const Tensor& grad, const Tensor& var) {
  Tensor g = var.is_non_overlapping_and_dense() ? Tensor::empty_strided(var.sizes(), var.strides(), var.dtype())
                                                : Tensor::empty(var.sizes(), var.dtype());
  native::copy_(g, grad);
  return g;
}

}  // namespace

std::vector<Tensor> AccumulateGrad::apply(std::vector<Tensor>&& grads) {
  if (grads.empty() || !grads[0].defined()) return {};
  const Tensor& var = variable;
  Tensor new_grad = std::move(grads[0]);
  AutogradMeta& meta = ensure_autograd_meta(var);
  std::lock_guard<std::mutex> lock(meta.mutex);  // threads sharing a leaf accumulate one at a time
  if (!meta.grad.defined()) {
    // torch's accumulateGrad: steal the gradient (a view stays a view, e.g. into cat's gradient) when
    // nobody else holds this tensor and it obeys the layout contract; else copy it into the variable's
    // layout. Values are identical either way; the layout is torch's.
    const bool stealable = new_grad.impl_ptr().use_count() == 1;
    meta.grad = stealable && obeys_layout_contract(new_grad, var)
                    ? Tensor::from_storage(new_grad.storage(), new_grad.sizes(), new_grad.strides(),
                                           new_grad.storage_offset(), new_grad.dtype())
                    : clone_obey_contract(new_grad, var);
  } else {
    add(meta.grad, new_grad, Scalar::from_int(1), meta.grad);  // .grad += new_grad, in place
  }
  return {};
}

// Every tensor's autograd state is an AutogradMeta: this layer is the only one that makes one.
AutogradMeta* autograd_meta(const Tensor& t) { return static_cast<AutogradMeta*>(t.impl()->autograd.get()); }

AutogradMeta& ensure_autograd_meta(const Tensor& t) {
  auto& m = t.impl()->autograd;
  if (!m) m = std::make_shared<AutogradMeta>();
  return static_cast<AutogradMeta&>(*m);
}

bool AutogradMeta::requires_grad() const {
  return requires_grad_ || grad_fn || (view && dc::requires_grad(view->base));
}

void set_requires_grad(const Tensor& t, bool value) {
  check(is_leaf(t),
        "you can only change requires_grad flags of leaf variables. If you want to use a computed "
        "variable in a subgraph that doesn't require differentiation use var_no_grad = var.detach().");
  check(!value || is_floating(t.dtype()),
        "only Tensors of floating point and complex dtype can require gradients");
  if (!value && !autograd_meta(t)) return;
  ensure_autograd_meta(t).requires_grad_ = value;
}

bool is_leaf(const Tensor& t) {
  const AutogradMeta* m = autograd_meta(t);
  return !m || !m->grad_fn;
}

std::shared_ptr<Node> grad_fn(const Tensor& t) {
  AutogradMeta* m = autograd_meta(t);
  if (!m) return nullptr;
  return m->view ? refresh_view_grad_fn(t, *m) : m->grad_fn;
}

Tensor grad(const Tensor& t) {
  const AutogradMeta* m = autograd_meta(t);
  return m ? m->grad : Tensor();
}

void set_grad(const Tensor& t, const Tensor& g) {
  if (g.defined()) {
    check(g.dtype() == t.dtype(), "assigned grad has data of a different type");
    check(g.sizes() == t.sizes(), "assigned grad has data of a different size");
  }
  if (!g.defined() && !autograd_meta(t)) return;
  ensure_autograd_meta(t).grad = g;
}

Edge gradient_edge(const Tensor& t) {
  AutogradMeta* m = autograd_meta(t);
  if (!m) return {};
  if (std::shared_ptr<Node> fn = grad_fn(t)) return {std::move(fn), m->output_nr};
  if (!m->requires_grad_) return {};
  std::lock_guard<std::mutex> lock(m->mutex);  // one accumulator per leaf, whichever thread asks first
  std::shared_ptr<Node> acc = m->grad_accumulator.lock();
  if (!acc) {
    acc = std::make_shared<AccumulateGrad>(t);
    m->grad_accumulator = acc;
  }
  return {acc, 0};
}

void retain_grad(const Tensor& t) {
  check(requires_grad(t), "can't retain_grad on Tensor that has requires_grad=False");
  if (is_leaf(t)) return;  // a leaf's .grad is kept anyway
  AutogradMeta& meta = ensure_autograd_meta(t);
  if (meta.retains_grad) return;
  meta.retains_grad = true;
  // The hook keeps the arriving gradient: a contiguous clone the first time, then .grad + grad.
  std::weak_ptr<TensorImpl> weak = t.impl_ptr();
  auto keep = [weak](const std::vector<Tensor>& grads) {
    auto impl = weak.lock();
    if (!impl) return;
    const Tensor var(impl);
    const uint32_t nr = autograd_meta(var)->output_nr;
    if (nr >= grads.size() || !grads[nr].defined()) return;
    const Tensor old = grad(var);
    set_grad(var, old.defined() ? add(old, grads[nr], Scalar::from_int(1)) : clone(grads[nr], MemoryFormat::Contiguous));
  };
  grad_fn(t)->pre_hooks.push_back({keep, t.impl()});
}

}  // namespace dc
