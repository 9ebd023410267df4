"""nn.Parameter: a Tensor subclass that modules register as a parameter; requires grad by default."""
from .. import _C


class Parameter(_C.Tensor):
    """A leaf tensor sharing `data`'s storage (torch's Tensor._make_subclass(cls, data, requires_grad))."""

    def __init__(self, data=None, requires_grad=True):
        if data is None:
            data = _C.empty(0)
        super().__init__(data)  # an alias of data's storage, with no autograd history
        if requires_grad:
            self.requires_grad_(True)

    def __repr__(self):
        return "Parameter containing:\n" + super().__repr__()

    def __reduce_ex__(self, protocol):
        from ..serialization import _rebuild_parameter  # noqa: PLC0415 (only when pickling)

        return (_rebuild_parameter, (self.detach(), self.requires_grad))


class Buffer:
    """torch.nn.Buffer marker: assigning Buffer(t) to a module attribute registers t as a buffer."""

    def __init__(self, data, persistent=True):
        self.data = data
        self.persistent = persistent
