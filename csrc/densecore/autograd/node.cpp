#include "densecore/autograd/node.h"

#include "densecore/core/error.h"
#include "densecore/ops/copy.h"
#include "densecore/ops/elementwise.h"

namespace dc {
namespace {

// torch's at::sequence_number: thread-local, incremented once per backward node created.
thread_local uint64_t t_sequence_nr = 0;

std::string type_description(const Tensor& t) {
  static const char* names[] = {"Bool", "Byte", "Char", "Short", "Int", "Long", "Half", "BFloat16", "Float", "Double"};
  return dc::format("torch.{}Tensor {}", names[int(t.dtype())], shape_str(t.sizes()));
}

}  // namespace

Node::Node() : sequence_nr(t_sequence_nr++) {}

SavedVariable::SavedVariable(const Tensor& t, bool is_output)
    : data_(t), saved_version_(t.defined() ? t.version() : 0), is_output_(is_output) {}

Tensor SavedVariable::unpack(const Node& owner) const {
  check(!was_released_ || data_.defined(),
        "Trying to backward through the graph a second time (or directly access saved tensors after "
        "they have already been freed). Saved intermediate values of the graph are freed when you call "
        ".backward() or autograd.grad(). Specify retain_graph=True if you need to backward through the "
        "graph a second time or if you need to access saved tensors after calling backward.");
  if (data_.defined() && data_.version() != saved_version_) {
    throw Error(dc::format(
        "one of the variables needed for gradient computation has been modified by an inplace "
        "operation: [{}], which is output 0 of {}, is at version {}; expected version {} instead. "
        "Hint: enable anomaly detection to find the operation that failed to compute its gradient, "
        "with torch.autograd.set_detect_anomaly(True).",
        type_description(data_), owner.name(), data_.version(), saved_version_));
  }
  return data_;
}

AccumulateGrad::AccumulateGrad(const Tensor& v) : variable(v) {
  sequence_nr = std::numeric_limits<uint64_t>::max();  // "so it's always called ASAP"
  input_meta.push_back({v.sizes(), v.dtype()});
}

std::vector<Tensor> AccumulateGrad::apply(std::vector<Tensor>&& grads) {
  if (grads.empty() || !grads[0].defined()) return {};
  const Tensor& var = variable;
  Tensor new_grad = std::move(grads[0]);
  AutogradMeta& meta = ensure_autograd_meta(var);
  if (!meta.grad.defined()) {
    // Steal the gradient when nobody else holds it and it has the variable's layout; else copy it
    // into the variable's layout. Values are identical either way.
    const bool stealable = new_grad.impl_ptr().use_count() == 1 && new_grad.storage().use_count() == 1;
    if (stealable && new_grad.sizes() == var.sizes() && new_grad.strides() == var.strides()) {
      meta.grad = Tensor::from_storage(new_grad.storage(), new_grad.sizes(), new_grad.strides(),
                                       new_grad.storage_offset(), new_grad.dtype());
    } else {
      Tensor g = Tensor::from_storage(make_storage(size_t(var.numel()) * var.itemsize()),
                                      var.sizes(), contiguous_strides(var.sizes()), 0, var.dtype());
      copy_(g, new_grad);
      meta.grad = g;
    }
  } else {
    add(meta.grad, new_grad, Scalar::from_int(1), meta.grad);  // .grad += new_grad, in place
  }
  return {};
}

AutogradMeta* autograd_meta(const Tensor& t) { return t.impl()->autograd.get(); }

AutogradMeta& ensure_autograd_meta(const Tensor& t) {
  auto& m = t.impl()->autograd;
  if (!m) m = std::make_shared<AutogradMeta>();
  return *m;
}

bool requires_grad(const Tensor& t) {
  const AutogradMeta* m = autograd_meta(t);
  return m && (m->requires_grad || m->grad_fn);
}

void set_requires_grad(const Tensor& t, bool value) {
  check(is_leaf(t),
        "you can only change requires_grad flags of leaf variables. If you want to use a computed "
        "variable in a subgraph that doesn't require differentiation use var_no_grad = var.detach().");
  check(!value || is_floating(t.dtype()),
        "only Tensors of floating point and complex dtype can require gradients");
  if (!value && !autograd_meta(t)) return;
  ensure_autograd_meta(t).requires_grad = value;
}

bool is_leaf(const Tensor& t) {
  const AutogradMeta* m = autograd_meta(t);
  return !m || !m->grad_fn;
}

std::shared_ptr<Node> grad_fn(const Tensor& t) {
  const AutogradMeta* m = autograd_meta(t);
  return m ? m->grad_fn : nullptr;
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
  if (m->grad_fn) return {m->grad_fn, m->output_nr};
  if (!m->requires_grad) return {};
  std::shared_ptr<Node> acc = m->grad_accumulator.lock();
  if (!acc) {
    acc = std::make_shared<AccumulateGrad>(t);
    m->grad_accumulator = acc;
  }
  return {acc, 0};
}

}  // namespace dc
