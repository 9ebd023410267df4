"""The Tensor methods written in Python (torch/_tensor.py's share of torch.Tensor), in one place.

The Tensor class itself is the binding's (densecore._C.Tensor); what it cannot express on its own --
printing, the CPU device, storages for torch.save, torch's norm argument handling -- is defined here and
attached once, by attach_python_methods(), when the package is imported.
"""
from . import _C
from ._device import device as _device
from ._tensor_str import tensor_repr as _tensor_repr
from .linalg import norm_ as _norm_
from .serialization import _untyped_storage


def _device_of(self):
    return _device("cpu")


def _is_cpu(self):
    return True


def _norm(self, p="fro", dim=None, keepdim=False, dtype=None):
    return _norm_(self, p, dim, keepdim, dtype=dtype)


def attach_python_methods():
    tensor = _C.Tensor
    tensor.device = property(_device_of)
    tensor.is_cpu = property(_is_cpu)
    tensor.__repr__ = _tensor_repr
    tensor.__str__ = _tensor_repr
    tensor.untyped_storage = _untyped_storage
    tensor.norm = _norm
