"""torch.optim.SGD: torch 2.14.1's `_single_tensor_sgd` op by op (torch/optim/sgd.py)."""
from .. import _C
from ..autograd.grad_mode import enable_grad
from .optimizer import Optimizer, _to_scalar, _use_grad_for_differentiable

Tensor = _C.Tensor

__all__ = ["SGD", "sgd"]


def _clone(t):
    """torch.clone (a contiguous copy) through empty_like + copy_."""
    from .. import empty_like

    return empty_like(t).copy_(t)


class SGD(Optimizer):
    def __init__(self, params, lr=1e-3, momentum=0, dampening=0, weight_decay=0, nesterov=False, *,
                 maximize=False, foreach=None, differentiable=False, fused=None):
        if isinstance(lr, Tensor) and lr.numel() != 1:
            raise ValueError("Tensor lr must be 1-element")
        if lr < 0.0:
            raise ValueError(f"Invalid learning rate: {lr}")
        if momentum < 0.0:
            raise ValueError(f"Invalid momentum value: {momentum}")
        if weight_decay < 0.0:
            raise ValueError(f"Invalid weight_decay value: {weight_decay}")
        defaults = {
            "lr": lr, "momentum": momentum, "dampening": dampening, "weight_decay": weight_decay,
            "nesterov": nesterov, "maximize": maximize, "foreach": foreach, "differentiable": differentiable,
            "fused": fused,
        }
        if nesterov and (momentum <= 0 or dampening != 0):
            raise ValueError("Nesterov momentum requires a momentum and zero dampening")
        super().__init__(params, defaults)
        if fused:
            raise NotImplementedError("fused=True (the fused CPU SGD kernel) is not supported in densecore yet")

    def __setstate__(self, state):
        super().__setstate__(state)
        for group in self.param_groups:
            group.setdefault("nesterov", False)
            group.setdefault("maximize", False)
            group.setdefault("foreach", None)
            group.setdefault("differentiable", False)
            group.setdefault("fused", False)

    def _init_group(self, group, params, grads, momentum_buffer_list, states=None):
        """torch's _init_group; `states` (when given) also collects each parameter's state dict, for the
        momentum buffers to be stored back without a second lookup."""
        with_momentum = group["momentum"] != 0
        for p in group["params"]:
            grad = p.grad
            if grad is not None:
                params.append(p)
                grads.append(grad)
                if with_momentum:
                    state = self.state[p]
                    momentum_buffer_list.append(state.get("momentum_buffer"))
                    if states is not None:
                        states.append(state)
        return False

    @_use_grad_for_differentiable
    def step(self, closure=None):
        """Performs a single optimization step (closure: re-evaluates the model, returns the loss)."""
        loss = None
        if closure is not None:
            with enable_grad():
                loss = closure()
        for group in self.param_groups:
            params, grads, momentum_buffer_list, states = [], [], [], []
            self._init_group(group, params, grads, momentum_buffer_list, states)
            sgd(params, grads, momentum_buffer_list, weight_decay=group["weight_decay"], momentum=group["momentum"],
                lr=group["lr"], dampening=group["dampening"], nesterov=group["nesterov"], maximize=group["maximize"])
            for state, momentum_buffer in zip(states, momentum_buffer_list):
                state["momentum_buffer"] = momentum_buffer
        return loss


def sgd(params, d_p_list, momentum_buffer_list, *, weight_decay, momentum, lr, dampening, nesterov, maximize,
        **unused):
    """Functional SGD: torch's single-tensor loop (what it picks for CPU tensors). Where the fused C++ step covers
    the group (lists of float32 contiguous tensors, every momentum buffer made, grad mode off), it runs instead,
    with the loop's bits (tests/python/test_optim.py); otherwise the loop itself."""
    lr = _to_scalar(lr)
    if _C._sgd_step_fused(params, d_p_list, momentum_buffer_list, lr, momentum, dampening, weight_decay, nesterov,
                          maximize):
        return
    _single_tensor_sgd(params, d_p_list, momentum_buffer_list, weight_decay=weight_decay, momentum=momentum, lr=lr,
                       dampening=dampening, nesterov=nesterov, maximize=maximize)


def _single_tensor_sgd(params, d_p_list, momentum_buffer_list, *, weight_decay, momentum, lr, dampening, nesterov,
                       maximize):
    """torch/optim/sgd.py _single_tensor_sgd, op by op."""
    for i, param in enumerate(params):
        grad = d_p_list[i] if not maximize else -d_p_list[i]
        if weight_decay != 0:
            grad = grad.add(param, alpha=weight_decay)
        if momentum != 0:
            buf = momentum_buffer_list[i]
            if buf is None:
                buf = _clone(grad.detach())
                momentum_buffer_list[i] = buf
            else:
                buf.mul_(momentum).add_(grad, alpha=1 - dampening)
            if nesterov:
                grad = grad.add(buf, alpha=momentum)
            else:
                grad = buf
        param.add_(grad, alpha=-lr)
