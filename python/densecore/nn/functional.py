"""densecore.nn.functional: torch.nn.functional's names, each a thin forwarder to a C++ op in _C."""
from .. import _C

linear = _C.linear

__all__ = ["linear"]


def _get_softmax_dim(name, ndim, stacklevel):
    import warnings

    warnings.warn(
        f"Implicit dimension choice for {name} has been deprecated. Change the call to include dim=X as an argument.",
        stacklevel=stacklevel,
    )
    return 0 if ndim in (0, 1, 3) else 1


def softmax(input, dim=None, _stacklevel=3, dtype=None):
    """torch.nn.functional.softmax: _C.softmax along `dim` (the legacy implicit dim when None)."""
    if dim is None:
        dim = _get_softmax_dim("softmax", input.dim(), _stacklevel)
    return _C.softmax(input, dim, dtype=dtype)


def log_softmax(input, dim=None, _stacklevel=3, dtype=None):
    """torch.nn.functional.log_softmax: _C.log_softmax along `dim` (the legacy implicit dim when None)."""
    if dim is None:
        dim = _get_softmax_dim("log_softmax", input.dim(), _stacklevel)
    return _C.log_softmax(input, dim, dtype=dtype)


__all__ += ["softmax", "log_softmax"]
