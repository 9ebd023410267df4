// The fused optimizer steps (densecore/ops/optim.h) for python/densecore/optim/: one call per param group.
// Each returns False, having changed nothing, where the Python loop must run instead.
#include <cmath>
#include <vector>

#include "bindings.h"
#include "gil.h"
#include "densecore/autograd/grad_mode.h"
#include "densecore/ops/optim.h"

namespace {

using dc::Tensor;

/// The list's items as Tensors; false if one is not a Tensor.
bool tensor_list(nb::handle list, std::vector<Tensor>& out) {
  if (!PyList_Check(list.ptr())) return false;
  const Py_ssize_t n = PyList_GET_SIZE(list.ptr());
  out.reserve(size_t(n));
  for (Py_ssize_t i = 0; i < n; ++i) {
    Tensor* t = nullptr;
    if (!nb::try_cast<Tensor*>(nb::handle(PyList_GET_ITEM(list.ptr(), i)), t) || t == nullptr) return false;
    out.push_back(*t);
  }
  return true;
}

/// A Python float, or an int that a float holds exactly (Python's arithmetic converts it first): the double
/// the loop computes with. False for anything else (a Tensor, a huge int).
bool python_double(nb::handle h, double& out) {
  if (PyFloat_Check(h.ptr())) {
    out = PyFloat_AS_DOUBLE(h.ptr());
    return true;
  }
  if (!PyLong_Check(h.ptr())) return false;
  int overflow = 0;
  const long long v = PyLong_AsLongLongAndOverflow(h.ptr(), &overflow);
  if (overflow != 0 || (v == -1 && PyErr_Occurred()) || std::llabs(v) > (1LL << 53)) {
    PyErr_Clear();
    return false;
  }
  out = double(v);
  return true;
}

bool adam_step_fused(nb::handle params, nb::handle grads, nb::handle exp_avgs, nb::handle exp_avg_sqs,
                     nb::handle state_steps, nb::handle lr, nb::handle beta1, nb::handle beta2, nb::handle eps,
                     nb::handle weight_decay, bool maximize, bool decoupled_weight_decay) {
  if (dc::is_grad_enabled()) return false;  // differentiable=True: the loop records its ops
  std::vector<Tensor> p, g, m, v, s;
  dc::AdamGroupOptions o;
  o.maximize = maximize;
  o.decoupled_weight_decay = decoupled_weight_decay;
  const bool converted = tensor_list(params, p) && tensor_list(grads, g) && tensor_list(exp_avgs, m) &&
                         tensor_list(exp_avg_sqs, v) && tensor_list(state_steps, s) && python_double(lr, o.lr) &&
                         python_double(beta1, o.beta1) && python_double(beta2, o.beta2) && python_double(eps, o.eps) &&
                         python_double(weight_decay, o.weight_decay);
  if (!converted) return false;
  int64_t numel = 0;
  for (const Tensor& t : p) numel += t.numel();
  gil::ReleaseIf release(numel >= gil::kReleaseNumel);
  return dc::adam_step_fused(p, g, m, v, s, o);
}

bool sgd_step_fused(nb::handle params, nb::handle grads, nb::handle momentum_buffers, nb::handle lr,
                    nb::handle momentum, nb::handle dampening, nb::handle weight_decay, bool nesterov, bool maximize) {
  if (dc::is_grad_enabled()) return false;  // differentiable=True: the loop records its ops
  std::vector<Tensor> p, g, b;
  dc::SgdGroupOptions o;
  o.nesterov = nesterov;
  o.maximize = maximize;
  const bool converted = tensor_list(params, p) && tensor_list(grads, g) && python_double(lr, o.lr) &&
                         python_double(momentum, o.momentum) && python_double(dampening, o.dampening) &&
                         python_double(weight_decay, o.weight_decay) && (o.momentum == 0 || tensor_list(momentum_buffers, b));
  if (!converted) return false;
  int64_t numel = 0;
  for (const Tensor& t : p) numel += t.numel();
  gil::ReleaseIf release(numel >= gil::kReleaseNumel);
  return dc::sgd_step_fused(p, g, b, o);
}

}  // namespace

void bind_optim(nb::module_& m) {
  m.def("_adam_step_fused", &adam_step_fused, nb::arg("params"), nb::arg("grads"), nb::arg("exp_avgs"),
        nb::arg("exp_avg_sqs"), nb::arg("state_steps"), nb::arg("lr"), nb::arg("beta1"), nb::arg("beta2"),
        nb::arg("eps"), nb::arg("weight_decay"), nb::arg("maximize"), nb::arg("decoupled_weight_decay"),
        "torch's single-tensor Adam/AdamW step (amsgrad=False) over one param group, each parameter in one "
        "fused pass with the loop's bits. Returns False, having changed nothing, where the loop must run instead.");
  m.def("_sgd_step_fused", &sgd_step_fused, nb::arg("params"), nb::arg("grads"), nb::arg("momentum_buffers"),
        nb::arg("lr"), nb::arg("momentum"), nb::arg("dampening"), nb::arg("weight_decay"), nb::arg("nesterov"),
        nb::arg("maximize"),
        "torch's single-tensor SGD step over one param group (with momentum: once every buffer exists), each "
        "parameter in one fused pass with the loop's bits. Returns False, having changed nothing, where the loop "
        "must run instead.");
}
