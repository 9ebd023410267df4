// The backward engine (torch/csrc/autograd/engine.cpp, single CPU thread): dependency counts per
// edge, a ready queue that runs the largest sequence number first (AccumulateGrad at once), input
// buffers that sum contributions in arrival order (old + new), and validate_outputs' sum_to/cast.
#pragma once

#include <vector>

#include "densecore/core/tensor.h"

namespace dc {

/// torch.autograd.backward(tensors, grad_tensors, retain_graph): accumulates into leaves' .grad.
/// An undefined entry of grad_tensors means "ones" (only allowed for one-element outputs).
void backward(const std::vector<Tensor>& tensors, const std::vector<Tensor>& grad_tensors,
              bool retain_graph);

/// torch.autograd.grad(outputs, inputs, grad_outputs, retain_graph, allow_unused): the gradients of
/// `outputs` w.r.t. `inputs`, captured where they arrive, without touching any .grad; only the nodes
/// on a path to an input run. With accumulate=true (backward(inputs=...)): only the listed leaves'
/// .grad is accumulated, and nothing is returned.
std::vector<Tensor> grad(const std::vector<Tensor>& outputs, const std::vector<Tensor>& grad_outputs,
                         const std::vector<Tensor>& inputs, bool retain_graph, bool allow_unused,
                         bool accumulate = false);

}  // namespace dc
