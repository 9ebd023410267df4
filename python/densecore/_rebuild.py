"""What the GLOBALs of a checkpoint's pickle resolve to on load (torch._utils._rebuild_tensor*, _rebuild_parameter,
torch.device...): torch's functions rebuilt over DenseCore, with the argument checks of torch's parser in torch's
order (so a hostile file raises what torch raises), the layout checks done natively in _C._rebuild_view, and
stand-ins that refuse what DenseCore cannot represent."""
import operator

from . import _C
from . import _weights_only_unpickler as _wou


class _LoadedStorage:
    """What persistent_load hands the rebuild functions (torch's TypedStorage): the record's bytes, held by a
    1-D uint8 tensor, and the dtype the pickle declared for them."""

    def __init__(self, data, dtype):
        self.data, self.dtype = data, dtype

    @property
    def _untyped_storage(self):
        return self

    @property
    def device(self):
        from ._device import device  # noqa: PLC0415

        return device("cpu")

    def nbytes(self):
        return self.data.numel()


class _UnsupportedDtype:
    """A dtype torch allows in weights-only files that DenseCore lacks (complex, float8, quantized...): like a
    torch.dtype it is neither callable nor has attributes; rebuilding a tensor of it raises."""

    def __init__(self, name):
        self.name = name

    def __repr__(self):
        return f"torch.{self.name}"


def _unsupported_function(name, params):
    """Stands for a function torch allows that DenseCore cannot honour (sparse, nested, quantized rebuilds...):
    a call with the wrong arguments raises TypeError as torch's function would, any other call RuntimeError."""
    import inspect  # noqa: PLC0415 (only when loading)

    signature = inspect.Signature([inspect.Parameter(p, inspect.Parameter.POSITIONAL_OR_KEYWORD) for p in params])

    def fail(*args, **kwargs):
        try:
            signature.bind(*args, **kwargs)
        except TypeError as e:
            raise TypeError(f"{name.rsplit('.', 1)[1]}() {e}") from None
        raise RuntimeError(f"densecore.load: {name} is not supported by DenseCore")

    fail.__qualname__ = name
    return fail


# torch's allowed functions DenseCore cannot honour, with their parameters (torch 2.14.1).
_UNSUPPORTED_FUNCTIONS = {
    "torch.serialization._get_layout": ("name",),
    "torch._utils._rebuild_qtensor": ("storage", "storage_offset", "size", "stride", "quantizer_params",
                                      "requires_grad", "backward_hooks"),
    "torch._utils._rebuild_sparse_tensor": ("layout", "data"),
    "torch._utils._rebuild_meta_tensor_no_storage": ("dtype", "size", "stride", "requires_grad"),
    "torch._utils._rebuild_nested_tensor": ("buffer", "sizes", "strides", "storage_offsets"),
    "torch._utils._rebuild_wrapper_subclass": ("cls", "dtype", "size", "stride", "storage_offset", "layout", "device",
                                               "requires_grad"),
    "torch._utils._rebuild_device_tensor_from_numpy": ("data", "dtype", "device", "requires_grad"),
    "torch._utils._rebuild_device_tensor_from_cpu_tensor": ("data", "dtype", "device", "requires_grad"),
}


def _int_type_arg(value, arg):
    """The type check of an int argument of Tensor.set_ (torch's parser: int or __index__, never bool or float)."""
    if isinstance(value, (bool, float)) or not hasattr(type(value), "__index__"):
        raise TypeError(f"set_(): argument '{arg}' must be int, not {type(value).__name__}")


def _int_arg(value, arg):
    """The value of an int argument of Tensor.set_."""
    _int_type_arg(value, arg)
    value = operator.index(value)
    if not -(2**63) <= value < 2**63:
        raise ValueError("Overflow when unpacking long long")
    return value


def _int_list_arg(value, arg):
    """A `tuple of ints` argument of Tensor.set_: a tuple, list or Size of ints, each within int64."""
    if not isinstance(value, (tuple, list)):
        raise TypeError(f"set_(): argument '{arg}' must be tuple of ints, not {type(value).__name__}")
    out = []
    for i, v in enumerate(value):
        if isinstance(v, (bool, float)) or not hasattr(type(v), "__index__"):
            raise TypeError(f"set_(): argument '{arg}' must be tuple of ints, but found element of type "
                            f"{type(v).__name__} at pos {i}")
        v = operator.index(v)
        if not -(2**63) <= v < 2**63:
            raise TypeError(f"set_(): argument '{arg}' failed to unpack the object at pos {i + 1} with error "
                            '"Overflow when unpacking long long"')
        out.append(v)
    return out


def _check_dtype(dtype, fn):
    if isinstance(dtype, _UnsupportedDtype):
        raise RuntimeError(f"densecore.load: dtype torch.{dtype.name} is not supported by DenseCore")
    if type(dtype) is not _C.dtype:
        raise TypeError(f"{fn}(): argument 'dtype' must be torch.dtype, not {type(dtype).__name__}")


def _set_storage(storage, dtype, storage_offset, size, stride):
    """Tensor.set_(storage, storage_offset, size, stride) on a new empty `dtype` tensor: the argument checks of
    torch's parser here, the layout checks (overflow-safe, torch's order and messages) in _C._rebuild_view."""
    if type(storage) is not _LoadedStorage:
        raise TypeError(f"set_(): argument 'source' must be torch.Storage, not {type(storage).__name__}")
    # torch's parser checks types in argument order, unpacking int lists as it goes; the offset's value last
    _int_type_arg(storage_offset, "storage_offset")
    size = _int_list_arg(size, "size")
    stride = None if stride is None else _int_list_arg(stride, "stride")
    if not stride:  # an empty stride list reaches ATen with no data pointer: set_ then ignores it (contiguous)
        stride = None
    if any(v < -(2**62) for v in size + (stride or [])):
        # c10::SymInt reserves ints below -2**62 for symbolic values, which set_'s CPU kernel refuses
        raise RuntimeError("/__w/pytorch/pytorch/build/aten/src/ATen/RegisterCPU_1.cpp:5208: SymIntArrayRef expected "
                           "to contain only concrete integers")
    return _C._rebuild_view(storage.data, dtype, size, stride, _int_arg(storage_offset, "storage_offset"))


def _set_requires_grad(t, requires_grad, message):
    if requires_grad and not (t.dtype.is_floating_point or t.dtype.is_complex):
        raise RuntimeError(message)
    if requires_grad:
        t.requires_grad_(True)


def _rebuild_tensor(storage, storage_offset, size, stride):
    # torch: torch.empty((0,), dtype=storage.dtype, device=storage._untyped_storage.device).set_(...), so
    # a non-storage fails on the same attribute as there.
    dtype = storage.dtype
    untyped = storage._untyped_storage
    _ = untyped.device
    return _set_storage(untyped, dtype, storage_offset, size, stride)


def _rebuild_tensor_v2(storage, storage_offset, size, stride, requires_grad, backward_hooks, metadata=None):
    t = _rebuild_tensor(storage, storage_offset, size, stride)
    if type(requires_grad) is not bool:  # the Tensor.requires_grad setter
        raise RuntimeError("requires_grad must be a bool")
    _set_requires_grad(t, requires_grad, "only Tensors of floating point and complex dtype can require gradients")
    if metadata:
        raise NotImplementedError(f"densecore.load: tensor metadata {sorted(metadata)} (conj/neg bits) is not supported")
    return t


def _rebuild_tensor_v3(storage, storage_offset, size, stride, requires_grad, backward_hooks, dtype, metadata=None):
    untyped = storage._untyped_storage
    _ = untyped.device
    _check_dtype(dtype, "empty")
    if type(requires_grad) is not bool:  # torch.empty(..., requires_grad=requires_grad)
        raise TypeError(f"empty(): argument 'requires_grad' must be bool, not {type(requires_grad).__name__}")
    if requires_grad and not (dtype.is_floating_point or dtype.is_complex):
        raise RuntimeError("Only Tensors of floating point and complex dtype can require gradients")
    t = _set_storage(untyped, dtype, storage_offset, size, stride)
    _set_requires_grad(t, requires_grad, "Only Tensors of floating point and complex dtype can require gradients")
    if metadata:
        raise NotImplementedError(f"densecore.load: tensor metadata {sorted(metadata)} (conj/neg bits) is not supported")
    return t


def _rebuild_parameter(data, requires_grad, backward_hooks=None):
    """What nn.Parameter's __reduce_ex__ names (Python pickling of a DenseCore Parameter)."""
    return _new_parameter(data, requires_grad)


def _rebuild_parameter_from_file(data, requires_grad, backward_hooks):
    """torch._utils._rebuild_parameter as a file calls it: torch's three required parameters."""
    return _new_parameter(data, requires_grad)


def _new_parameter(data=None, requires_grad=True):
    """nn.Parameter(data, requires_grad) with torch's checks on what a file may pass."""
    from .nn.parameter import Parameter  # noqa: PLC0415

    if data is not None and not isinstance(data, _C.Tensor):  # torch's Parameter.__new__ calls data.detach()
        raise AttributeError(f"'{type(data).__name__}' object has no attribute 'detach'")
    if type(requires_grad) is not bool:
        raise TypeError("_make_subclass(): argument 'require_grad' (position 3) must be bool, not "
                        f"{type(requires_grad).__name__}")
    return Parameter(data, requires_grad)


def _rebuild_parameter_with_state(data, requires_grad, backward_hooks, state):
    param = _rebuild_parameter(data, requires_grad)
    for k, v in (state or {}).items():
        setattr(param, k, v)
    return param


def _rebuild_from_type_v2(func, new_type, args, state):
    _wou.check_unpackable(args, _C.Tensor)
    ret = func(*args)
    if new_type is not type(ret) and new_type is not _C.Tensor:
        raise NotImplementedError(f"densecore.load: tensor subclass {new_type} is not supported")
    for k, v in (state or {}).items():
        setattr(ret, k, v)
    return ret


def _device_from_file(*args):
    """torch.device as a file may call it (REDUCE or NEWOBJ), with the argument checks of torch's parser:
    (str or bytes type, int index) or (device) or (int index of the accelerator)."""
    from ._device import device  # noqa: PLC0415

    def index_value(v, position):
        if type(v) is not int:
            raise TypeError(f"device(): argument 'index' (position {position}) must be int, not {type(v).__name__}")
        if not -(2**63) <= v < 2**63:
            raise ValueError("Overflow when unpacking long long")
        if v < 0:
            raise RuntimeError("Device index must not be negative")
        return v

    first = args[0] if args else None
    if not args or len(args) > 2 or not isinstance(first, (str, bytes, device, int)) or isinstance(first, bool):
        got = ", ".join(type(a).__name__ for a in args)
        raise TypeError(f"device() received an invalid combination of arguments - got ({got}), but expected one of:\n"
                        " * (torch.device device)\n * (str type, int index = -1)\n")
    if isinstance(first, int):  # an accelerator index: torch makes it a cuda device here
        return device("cuda", index_value(first, 1))
    index = None if len(args) < 2 or args[1] is None else index_value(args[1], 2)
    return device(first.decode() if isinstance(first, bytes) else first, index)
