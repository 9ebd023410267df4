"""torch.nn.utils.clip_grad of torch 2.14.1 on CPU: per-grad vector_norm (what _foreach_norm runs
per tensor), the norm of the stacked norms, clip_coef = max_norm / (total + 1e-6) evaluated as
torch does (Tensor.__rtruediv__ = reciprocal() * max_norm), clamp(max=1.0), mul_ every grad."""
import functools

from ... import _C
from ...autograd.grad_mode import no_grad

Tensor = _C.Tensor

__all__ = ["clip_grad_norm", "clip_grad_norm_", "clip_grad_value_", "clip_grads_with_norm_", "get_total_norm"]


def _no_grad(func):
    @functools.wraps(func)
    def wrapper(*args, **kwargs):
        with no_grad():
            return func(*args, **kwargs)

    return wrapper


def _tensor_list(tensors):
    if isinstance(tensors, Tensor):
        return [tensors]
    return list(tensors)


@_no_grad
def get_total_norm(tensors, norm_type=2.0, error_if_nonfinite=False, foreach=None):
    """The norm of the per-tensor norms (grouped by dtype; one group for float32 grads)."""
    from ... import linalg, stack, tensor

    tensors = _tensor_list(tensors)
    norm_type = float(norm_type)
    if len(tensors) == 0:
        return tensor(0.0)
    groups = {}
    for t in tensors:  # _group_tensors_by_device_and_dtype: first-seen order of dtypes
        groups.setdefault(t.dtype, []).append(t)
    norms = []
    for ts in groups.values():
        norms.extend([linalg.vector_norm(g, norm_type) for g in ts])
    total_norm = linalg.vector_norm(stack(norms), norm_type)
    if error_if_nonfinite and (bool(total_norm.isnan()) or bool(total_norm.isinf())):
        raise RuntimeError(
            f"The total norm of order {norm_type} for gradients from `parameters` is non-finite, so it cannot be "
            "clipped. To disable this error and scale the gradients by the non-finite norm anyway, set "
            "`error_if_nonfinite=False`"
        )
    return total_norm


@_no_grad
def clip_grads_with_norm_(parameters, max_norm, total_norm, foreach=None):
    """Scales the grads of `parameters` by min(1, max_norm / (total_norm + 1e-6))."""
    from ... import clamp

    parameters = _tensor_list(parameters)
    grads = [p.grad for p in parameters if p.grad is not None]
    max_norm = float(max_norm)
    if len(grads) == 0:
        return
    clip_coef = max_norm / (total_norm + 1e-6)
    clip_coef_clamped = clamp(clip_coef, max=1.0)
    for g in grads:
        g.mul_(clip_coef_clamped)


@_no_grad
def clip_grad_norm_(parameters, max_norm, norm_type=2.0, error_if_nonfinite=False, foreach=None):
    """Clips the gradient norm of an iterable of parameters in place; returns the total norm."""
    if isinstance(parameters, Tensor):
        parameters = [parameters]
    else:
        parameters = list(parameters)
    grads = [p.grad for p in parameters if p.grad is not None]
    total_norm = get_total_norm(grads, norm_type, error_if_nonfinite, foreach)
    clip_grads_with_norm_(parameters, max_norm, total_norm, foreach)
    return total_norm


def clip_grad_norm(parameters, max_norm, norm_type=2.0, error_if_nonfinite=False, foreach=None):
    import warnings

    warnings.warn("`torch.nn.utils.clip_grad_norm` is now deprecated in favor of `torch.nn.utils.clip_grad_norm_`.",
                  FutureWarning, stacklevel=2)
    return clip_grad_norm_(parameters, max_norm, norm_type, error_if_nonfinite, foreach)


@_no_grad
def clip_grad_value_(parameters, clip_value, foreach=None):
    """Clamps every grad to [-clip_value, clip_value] in place (clamp_min_ then clamp_max_)."""
    parameters = _tensor_list(parameters)
    clip_value = float(clip_value)
    for p in parameters:
        if p.grad is not None:
            p.grad.clamp_(min=-clip_value, max=clip_value)
