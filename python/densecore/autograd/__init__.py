"""torch.autograd: backward and grad-mode switches."""
from .. import _C
from .grad_mode import enable_grad, inference_mode, no_grad, set_grad_enabled

__all__ = ["backward", "enable_grad", "grad", "inference_mode", "no_grad", "set_grad_enabled"]


def backward(tensors, grad_tensors=None, retain_graph=None, create_graph=False, inputs=None):
    """Accumulates gradients of `tensors` into the leaves' .grad (torch.autograd.backward)."""
    if create_graph or inputs is not None:
        raise NotImplementedError("create_graph and inputs are not supported yet")
    if isinstance(tensors, _C.Tensor):
        tensors = [tensors]
    if grad_tensors is None or isinstance(grad_tensors, _C.Tensor):
        grad_tensors = [grad_tensors] * len(tensors) if grad_tensors is None else [grad_tensors]
    _C._run_backward(list(tensors), list(grad_tensors), bool(retain_graph) if retain_graph is not None else False)


def grad(outputs, inputs, grad_outputs=None, retain_graph=None, create_graph=False, only_inputs=True,
         allow_unused=None, is_grads_batched=False, materialize_grads=False):
    """Gradients of `outputs` w.r.t. `inputs`, without touching .grad (torch.autograd.grad)."""
    if create_graph or is_grads_batched:
        raise NotImplementedError("create_graph and is_grads_batched are not supported yet")
    single = isinstance(inputs, _C.Tensor)
    inputs = [inputs] if single else list(inputs)
    outputs = [outputs] if isinstance(outputs, _C.Tensor) else list(outputs)
    if grad_outputs is None:
        grad_outputs = [None] * len(outputs)
    elif isinstance(grad_outputs, _C.Tensor):
        grad_outputs = [grad_outputs]
    if allow_unused is None:
        allow_unused = materialize_grads
    retain = create_graph if retain_graph is None else bool(retain_graph)
    result = _C._run_grad(outputs, inputs, list(grad_outputs), retain, bool(allow_unused), False)
    if materialize_grads:
        from .. import zeros_like
        result = [zeros_like(i) if g is None else g for g, i in zip(result, inputs)]
    return tuple(result)
