// Autograd on the Python side: Tensor.requires_grad/grad/grad_fn/is_leaf/backward, grad mode,
// and the read-only node objects torch exposes as grad_fn (name(), next_functions).
#include <nanobind/stl/shared_ptr.h>
#include <nanobind/stl/string.h>
#include <nanobind/stl/vector.h>

#include "bindings.h"
#include "densecore/autograd/engine.h"
#include "densecore/autograd/grad_mode.h"
#include "densecore/autograd/node.h"
#include "densecore/ops/copy.h"
#include "densecore/ops/elementwise.h"

namespace {

nb::object tensor_or_none(const dc::Tensor& t) { return t.defined() ? nb::cast(t) : nb::none(); }

std::vector<dc::Tensor> tensor_list(nb::handle obj) {
  std::vector<dc::Tensor> out;
  if (obj.is_none()) return out;
  if (nb::isinstance<dc::Tensor>(obj)) {
    out.push_back(nb::cast<dc::Tensor>(obj));
    return out;
  }
  for (nb::handle item : obj) out.push_back(item.is_none() ? dc::Tensor() : nb::cast<dc::Tensor>(item));
  return out;
}

// Tensor.retain_grad(): a pre-hook on grad_fn that keeps the arriving gradient in .grad (a
// contiguous clone the first time, then .grad + grad), as torch's retain_grad hook.
void retain_grad(const dc::Tensor& t) {
  dc::check(dc::requires_grad(t), "can't retain_grad on Tensor that has requires_grad=False");
  if (dc::is_leaf(t)) return;
  dc::AutogradMeta& meta = dc::ensure_autograd_meta(t);
  if (meta.retains_grad) return;
  meta.retains_grad = true;
  std::weak_ptr<dc::TensorImpl> weak = t.impl_ptr();
  const uint32_t nr = meta.output_nr;
  meta.grad_fn->pre_hooks.push_back([weak, nr](const std::vector<dc::Tensor>& grads) {
    auto impl = weak.lock();
    if (!impl || nr >= grads.size() || !grads[nr].defined()) return;
    const dc::Tensor var(impl);
    const dc::Tensor old = dc::grad(var);
    dc::set_grad(var, old.defined() ? dc::add(old, grads[nr], dc::Scalar::from_int(1)) : dc::clone(grads[nr]));
  });
}

nb::tuple next_functions(const dc::Node& n) {
  nb::list items;
  for (const dc::Edge& e : n.next_edges)
    items.append(nb::make_tuple(e.fn ? nb::cast(e.fn) : nb::none(), e.input_nr));
  return nb::tuple(items);
}

}  // namespace

void bind_autograd(nb::module_& m, TensorClass& cls) {
  nb::class_<dc::Node>(m, "_Node")
      .def("name", &dc::Node::name)
      .def_prop_ro("next_functions", &next_functions)
      .def("__repr__", [](const dc::Node& n) { return "<" + n.name() + " object>"; });

  m.def("is_grad_enabled", &dc::is_grad_enabled);
  m.def("_set_grad_enabled", &dc::set_grad_enabled, nb::arg("mode"));
  m.def(
      "_run_backward",
      [](nb::handle tensors, nb::handle grad_tensors, bool retain_graph) {
        dc::backward(tensor_list(tensors), tensor_list(grad_tensors), retain_graph);
      },
      nb::arg("tensors"), nb::arg("grad_tensors").none(), nb::arg("retain_graph"));

  m.def(
      "_run_grad",
      [](nb::handle outputs, nb::handle inputs, nb::handle grad_outputs, bool retain_graph, bool allow_unused,
         bool accumulate) {
        std::vector<nb::object> out;
        for (const dc::Tensor& g : dc::grad(tensor_list(outputs), tensor_list(grad_outputs), tensor_list(inputs),
                                            retain_graph, allow_unused, accumulate))
          out.push_back(tensor_or_none(g));
        return out;
      },
      nb::arg("outputs"), nb::arg("inputs"), nb::arg("grad_outputs").none(), nb::arg("retain_graph"),
      nb::arg("allow_unused"), nb::arg("accumulate"));

  cls.def("retain_grad", &retain_grad)
      .def_prop_ro("retains_grad",
                   [](const dc::Tensor& t) {
                     const dc::AutogradMeta* m = dc::autograd_meta(t);
                     return m != nullptr && m->retains_grad;
                   })
      .def("detach_", [](nb::handle self) {
        // Makes self a leaf that does not require grad (torch's detach_ on a non-view).
        if (dc::AutogradMeta* m = dc::autograd_meta(nb::cast<dc::Tensor>(self))) {
          m->grad_fn = nullptr;
          m->output_nr = 0;
          m->requires_grad = false;
        }
        return nb::borrow(self);
      });

  cls.def_prop_rw(
         "requires_grad", [](const dc::Tensor& t) { return dc::requires_grad(t); },
         [](dc::Tensor& t, bool v) { dc::set_requires_grad(t, v); })
      .def(
          "requires_grad_",
          [](nb::handle self, bool v) {
            dc::set_requires_grad(nb::cast<dc::Tensor>(self), v);
            return nb::borrow(self);
          },
          nb::arg("requires_grad") = true)
      .def_prop_rw(
          "grad", [](const dc::Tensor& t) { return tensor_or_none(dc::grad(t)); },
          [](dc::Tensor& t, nb::handle g) {
            dc::set_grad(t, g.is_none() ? dc::Tensor() : nb::cast<dc::Tensor>(g));
          },
          nb::arg("value").none())
      .def_prop_ro("grad_fn",
                   [](const dc::Tensor& t) -> nb::object {
                     auto fn = dc::grad_fn(t);
                     return fn ? nb::cast(fn) : nb::none();
                   })
      .def_prop_ro("is_leaf", [](const dc::Tensor& t) { return dc::is_leaf(t); })
      .def(
          "backward",
          [](const dc::Tensor& t, nb::handle gradient, nb::handle retain_graph, bool create_graph,
             nb::handle inputs) {
            dc::check<dc::NotImplementedError>(!create_graph, "create_graph=True is not supported yet");
            const bool retain = retain_graph.is_none() ? create_graph : nb::cast<bool>(retain_graph);
            const dc::Tensor g = gradient.is_none() ? dc::Tensor() : nb::cast<dc::Tensor>(gradient);
            if (!inputs.is_none()) {
              const auto in = tensor_list(inputs);
              dc::check(!in.empty(), "'inputs' argument to backward() cannot be empty.");
              dc::grad({t}, {g}, in, retain, false, /*accumulate=*/true);
              return;
            }
            dc::backward({t}, {g}, retain);
          },
          nb::arg("gradient").none() = nb::none(), nb::arg("retain_graph").none() = nb::none(),
          nb::arg("create_graph") = false, nb::arg("inputs").none() = nb::none());
}
