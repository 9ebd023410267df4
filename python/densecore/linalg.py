"""densecore.linalg: torch.linalg's vector_norm (and torch.norm's common forms) over _C."""
from . import _C

__all__ = ["vector_norm", "norm_"]


def vector_norm(x, ord=2, dim=None, keepdim=False, *, dtype=None, out=None):
    """torch.linalg.vector_norm: ||x||_ord over `dim` (all dims when None)."""
    if out is not None:
        raise NotImplementedError("linalg.vector_norm(out=...) is not supported in densecore yet")
    return _C.linalg_vector_norm(x, ord, dim, keepdim, dtype=dtype)


def norm_(input, p="fro", dim=None, keepdim=False, out=None, dtype=None):
    """torch.norm (torch/functional.py): 'fro' and numbers go to linalg.vector_norm."""
    if isinstance(dim, int):
        dim = [dim]
    if isinstance(p, str):
        if p == "fro" and (dim is None or len(dim) <= 2):
            return vector_norm(input, 2, dim, keepdim, dtype=dtype, out=out)
        raise NotImplementedError(f"torch.norm with p={p!r} is not supported in densecore yet")
    return vector_norm(input, 2.0 if p is None else p, dim, keepdim, dtype=dtype, out=out)
