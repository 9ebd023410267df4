// Autograd on the Python side: Tensor.requires_grad/grad/grad_fn/is_leaf/backward, grad mode,
// and the read-only node objects torch exposes as grad_fn (name(), next_functions).
#include <nanobind/stl/optional.h>
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

// Typed for the stub as Tensor | None.
nb::typed<nb::object, std::optional<dc::Tensor>> tensor_or_none(const dc::Tensor& t) {
  return t.defined() ? nb::cast(t) : nb::none();
}

std::vector<dc::Tensor> tensor_list(nb::handle obj) {
  std::vector<dc::Tensor> out;
  if (obj.is_none()) return out;
  if (nb::isinstance<dc::Tensor>(obj)) {
    out.push_back(tensor_arg(obj, "backward", "tensors"));
    return out;
  }
  if (!PyTuple_Check(obj.ptr()) && !PyList_Check(obj.ptr()))
    throw dc::TypeError(dc::format("backward(): expected a Tensor or a sequence of Tensors, got {}", Py_TYPE(obj.ptr())->tp_name));
  for (nb::handle item : obj) out.push_back(opt_tensor_arg(item, "backward", "tensors"));
  return out;
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
        const auto roots = tensor_list(tensors), seeds = tensor_list(grad_tensors);
        nb::gil_scoped_release release;  // backward is native work from here on
        dc::backward(roots, seeds, retain_graph);
      },
      nb::arg("tensors"), nb::arg("grad_tensors").none(), nb::arg("retain_graph"));

  m.def(
      "_run_grad",
      [](nb::handle outputs, nb::handle inputs, nb::handle grad_outputs, bool retain_graph, bool allow_unused,
         bool accumulate) {
        const auto outs = tensor_list(outputs), seeds = tensor_list(grad_outputs), ins = tensor_list(inputs);
        std::vector<dc::Tensor> grads;
        {
          nb::gil_scoped_release release;
          grads = dc::grad(outs, seeds, ins, retain_graph, allow_unused, accumulate);
        }
        std::vector<nb::object> out;
        for (const dc::Tensor& g : grads) out.push_back(tensor_or_none(g));
        return out;
      },
      nb::arg("outputs"), nb::arg("inputs"), nb::arg("grad_outputs").none(), nb::arg("retain_graph"),
      nb::arg("allow_unused"), nb::arg("accumulate"));

  cls.def("retain_grad", &dc::retain_grad)
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
          m->requires_grad_ = false;
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
            if (!g.is_none() && !nb::isinstance<dc::Tensor>(g))
              throw dc::TypeError(dc::format("assigned grad expected to be a Tensor or None but got grad of type {}",
                                             Py_TYPE(g.ptr())->tp_name));
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
            const bool retain = retain_graph.is_none() ? create_graph : bool_arg(retain_graph, "backward", "retain_graph");
            const dc::Tensor g = opt_tensor_arg(gradient, "backward", "gradient");
            if (!inputs.is_none()) {
              const auto in = tensor_list(inputs);
              dc::check(!in.empty(), "'inputs' argument to backward() cannot be empty.");
              nb::gil_scoped_release release;
              dc::grad({t}, {g}, in, retain, false, /*accumulate=*/true);
              return;
            }
            nb::gil_scoped_release release;
            dc::backward({t}, {g}, retain);
          },
          nb::arg("gradient").none() = nb::none(), nb::arg("retain_graph").none() = nb::none(),
          nb::arg("create_graph") = false, nb::arg("inputs").none() = nb::none());
}
