"""torch.load's weights-only unpickler (torch/_weights_only_unpickler.py), rebuilt over DenseCore: only the
protocol-2 opcodes and the GLOBALs torch allows by default (plus add_safe_globals entries) are accepted;
anything else raises pickle.UnpicklingError before any code runs. Messages are torch's."""
import codecs
import struct
from _compat_pickle import IMPORT_MAPPING, NAME_MAPPING
from collections import Counter, OrderedDict
from pickle import UnpicklingError, decode_long
from sys import maxsize

_BLOCKED_MODULES = ("sys", "os", "posix", "nt")
# Hashing a tuple recurses in C with no depth check: tuples nested ~100,000 deep overflow the C stack
# (torch.load segfaults on such a dict key), and tuples sharing sub-tuples make hashing exponential. Keys
# and set elements are walked first, within these bounds.
_MAX_HASH_DEPTH = 1000
_MAX_HASH_ITEMS = 1_000_000
_MIN_BYTEARRAY_BUDGET = 1 << 20
# A loaded tensor can hold 2**40 elements over four floats (stride 0, as torch allows); unpacked as an argument
# list or iterated by a constructor (set, bytearray...) that is 2**40 Python objects: torch.load hangs. No real
# checkpoint passes a tensor where an iterable is expected, so past this many elements it is refused.
_MAX_UNPACKED_TENSOR = 1 << 16
_user_globals = set()  # add_safe_globals entries: callables or (callable, "full.path")


def user_allowed_globals():
    rc = {}
    for f in _user_globals:
        if isinstance(f, tuple):
            if len(f) != 2:
                raise ValueError(
                    f"Expected tuple of length 2 (global, str of callable full path), but got tuple of length: {len(f)}"
                )
            if type(f[1]) is not str:
                raise TypeError(f"Expected second item in tuple to be str of callable full path, but got: {type(f[1])}")
            rc[f[1]] = f[0]
        else:
            rc[f"{f.__module__}.{f.__qualname__}"] = f
    return rc


def check_hashable(obj):
    """Raises RuntimeError if hashing `obj` (a dict key, set element or storage key from the file) could
    crash the interpreter or run for too long; walks its nested tuples without recursing."""
    if not isinstance(obj, tuple):
        return
    stack, seen = [(obj, 1)], 0
    while stack:
        t, depth = stack.pop()
        seen += len(t)
        if depth > _MAX_HASH_DEPTH or seen > _MAX_HASH_ITEMS:
            raise RuntimeError(
                f"densecore.load: a dict key or set element with tuples nested more than {_MAX_HASH_DEPTH} deep or "
                f"more than {_MAX_HASH_ITEMS} items in all is refused: hashing it could crash the interpreter "
                "(torch.load does crash on such files)"
            )
        stack.extend((x, depth + 1) for x in t if isinstance(x, tuple))


def check_unpackable(obj, tensor_type):
    """Raises RuntimeError if `obj`, about to be unpacked or iterated element by element, is a tensor of more
    than _MAX_UNPACKED_TENSOR elements."""
    if isinstance(obj, tensor_type) and obj.numel() > _MAX_UNPACKED_TENSOR:
        raise RuntimeError(f"densecore.load: a tensor of {obj.numel()} elements where the pickle expects an argument "
                           "list or an iterable is refused: unpacking it would take as many steps (torch.load hangs)")


def _check_iterable_hashable(arg):
    """The elements a set/Counter/OrderedDict built from `arg` would hash (a superset: pairs are walked whole)."""
    if isinstance(arg, (list, tuple)):
        for item in arg:
            check_hashable(item)


def bounded_bytearray(budget):
    """builtins.bytearray for one file: bytearray(n) zero-fills n bytes the file never held (a few bytes of
    pickle could ask for terabytes, and torch gives them), so all int arguments together may ask for at most
    `budget` bytes (the size of the pickle, or 1 MiB if more). Protocol 2 writes a real bytearray as
    bytearray(str, "latin-1")."""
    budget = max(budget, _MIN_BYTEARRAY_BUDGET)
    left = [budget]

    def checked_bytearray(*args):
        if args and isinstance(args[0], int) and not isinstance(args[0], bool):
            if args[0] > left[0]:  # (a negative count is bytearray's own ValueError)
                raise RuntimeError(f"densecore.load: bytearray({args[0]}) is refused: a file may ask for at most as "
                                   f"many zero bytes as its pickle holds ({budget} here)")
            left[0] -= max(args[0], 0)
        return bytearray(*args)

    return checked_bytearray


def _read_global(readline):
    module = readline()[:-1].decode("utf-8")
    name = readline()[:-1].decode("utf-8")
    if (module, name) in NAME_MAPPING:
        module, name = NAME_MAPPING[(module, name)]
    elif module in IMPORT_MAPPING:
        module = IMPORT_MAPPING[module]
    return module, name


def _unsupported_global(full_path):
    if full_path.startswith("builtins"):
        rest = full_path[len("builtins"):]
        full_path = rest[1:] if rest.startswith(".") else "builtins" + rest
    return UnpicklingError(
        f"Unsupported global: GLOBAL {full_path} was not an allowed global by default. "
        f"Please use `torch.serialization.add_safe_globals([{full_path}])` or the "
        f"`torch.serialization.safe_globals([{full_path}])` context manager to allowlist this global "
        "if you trust this class/function."
    )


_DTENSOR_GLOBALS = (
    "torch.distributed.device_mesh.DeviceMesh", "torch.distributed.tensor._dtensor_spec.DTensorSpec",
    "torch.distributed.tensor._dtensor_spec.TensorMeta", "torch.distributed.tensor.DTensor",
    "torch.distributed.tensor.placement_types.Partial", "torch.distributed.tensor.placement_types.Replicate",
    "torch.distributed.tensor.placement_types.Shard",
)
_NJT_GLOBALS = ("torch.nested._internal.nested_tensor.NestedTensor",
                "torch.nested._internal.nested_tensor._rebuild_njt", "torch._dynamo.decorators._DimRange")


class Unpickler:
    """`allowed` maps "module.name" to the DenseCore object standing for it; `persistent_load(pid)`
    turns a storage pid into a storage; `tensor_type`/`parameter_type` are for NEWOBJ/BUILD (NEWOBJ of the
    parameter type calls `new_parameter`), and NEWOBJ constructs `whole_types` (and the tensor type) fully
    rather than through a bare __new__; `tensor_takers` may be called with big tensors as arguments."""

    def __init__(self, file, allowed, persistent_load, tensor_type, parameter_type, encoding="utf-8", whole_types=(),
                 new_parameter=None, tensor_takers=()):
        self.read, self.readline = file.read, file.readline
        self.allowed, self.persistent_load = allowed, persistent_load
        self.tensor_type, self.parameter_type = tensor_type, parameter_type
        self.new_parameter = new_parameter or parameter_type
        self.whole_types = (tensor_type, *whole_types)
        self.tensor_takers = (tensor_type, parameter_type, *tensor_takers)
        self.encoding = encoding
        self.memo = {}

    def lookup_global(self, module, name):
        full_path = f"{module}.{name}"
        if module in _BLOCKED_MODULES:
            raise UnpicklingError(f"Trying to load unsupported GLOBAL {full_path} whose module {module} is blocked.")
        if full_path in self.allowed:
            return self.allowed[full_path]
        user = user_allowed_globals()
        if full_path in user:
            return user[full_path]
        if full_path in _NJT_GLOBALS:
            raise UnpicklingError("``torch.nested`` and ``torch._dynamo`` must be imported to load nested jagged tensors (NJTs)")
        if full_path in _DTENSOR_GLOBALS:
            raise UnpicklingError("``torch.distributed.tensor`` must be imported to load DTensors")
        raise _unsupported_global(full_path)

    def is_allowed(self, obj):
        return any(obj is v for v in self.allowed.values()) or any(obj is v for v in user_allowed_globals().values())

    def load(self):
        self.metastack, self.stack = [], []
        while True:
            key = self.read(1)
            if not key:
                raise EOFError
            op = self.OPS.get(key[0])
            if op is None:
                raise UnpicklingError(f"Unsupported operand {key[0]}")
            if op(self) is _STOP:
                return self.stack.pop()

    # -- opcodes (the subset torch allows) ------------------------------------------------------
    def op_global(self):
        self.stack.append(self.lookup_global(*_read_global(self.readline)))

    def check_arguments(self, func, args):
        """Guards against what calling func(*args) would unpack, iterate or hash (see check_unpackable and
        check_hashable); tensors are fine as arguments of the functions that take tensors."""
        check_unpackable(args, self.tensor_type)
        if type(args) is tuple and not any(func is f for f in self.tensor_takers):
            for a in args:
                check_unpackable(a, self.tensor_type)

    def op_newobj(self):
        args, cls = self.stack.pop(), self.stack.pop()
        self.check_arguments(cls, args)
        if _hashes_its_argument(cls, args):
            _check_iterable_hashable(args[0])
        if cls is self.parameter_type:
            self.stack.append(self.new_parameter(*args))
        elif any(cls is c for c in self.whole_types):
            # torch's Tensor and device are C types whose __new__ builds the whole object; DenseCore's stand-ins
            # build theirs in __init__, so they are called, never handed back half made.
            self.stack.append(cls(*args))
        elif self.is_allowed(cls):
            self.stack.append(cls.__new__(cls, *args))
        else:
            raise UnpicklingError(
                f"Can only create new object for nn.Parameter or classes allowlisted via `add_safe_globals` but got {cls}"
            )

    def op_reduce(self):
        args, func = self.stack.pop(), self.stack[-1]
        if not self.is_allowed(func):
            msg = f"Trying to call reduce for unrecognized function {func}"
            if hasattr(func, "__self__"):
                msg += f" which belongs to {func.__self__}"
            raise UnpicklingError(msg)
        self.check_arguments(func, args)
        if _hashes_its_argument(func, args):
            _check_iterable_hashable(args[0])
        if func is self.parameter_type:
            func = self.new_parameter
        self.stack[-1] = func(*args)

    def op_build(self):
        state, inst = self.stack.pop(), self.stack[-1]
        check_unpackable(state, self.tensor_type)
        if type(inst) is self.parameter_type or type(inst) is OrderedDict:
            inst.__dict__.update(state)
        elif self.is_allowed(type(inst)) and type(inst) is not self.tensor_type:
            if hasattr(inst, "__setstate__"):
                inst.__setstate__(state)
            else:
                slotstate = None
                if isinstance(state, tuple) and len(state) == 2:
                    state, slotstate = state
                if state:
                    inst.__dict__.update(state)
                for k, v in (slotstate or {}).items():
                    setattr(inst, k, v)
        else:
            raise UnpicklingError(
                "Can only build Tensor, Parameter, OrderedDict or types allowlisted "
                f"via `add_safe_globals`, but got {type(inst)}"
            )

    def check_list(self, obj):
        if type(obj) is not list and not (isinstance(obj, list) and self.is_allowed(type(obj))):
            raise UnpicklingError(f"Can only append to lists, but got {type(obj)}")

    def check_dict(self, opname):
        if type(self.stack[-1]) not in (dict, OrderedDict, Counter):
            raise UnpicklingError(
                f"Can only {opname} for dict, collections.OrderedDict, collections.Counter, but got {type(self.stack[-1])}"
            )

    def op_append(self):
        item = self.stack.pop()
        self.check_list(self.stack[-1])
        self.stack[-1].append(item)

    def op_appends(self):
        items = self.pop_mark()
        self.check_list(self.stack[-1])
        self.stack[-1].extend(items)

    def op_setitem(self):
        v, k = self.stack.pop(), self.stack.pop()
        self.check_dict("SETITEM")
        check_hashable(k)
        self.stack[-1][k] = v

    def op_setitems(self):
        items = self.pop_mark()
        self.check_dict("SETITEMS")
        for i in range(0, len(items), 2):
            check_hashable(items[i])
            self.stack[-1][items[i]] = items[i + 1]

    def op_mark(self):
        self.metastack.append(self.stack)
        self.stack = []

    def pop_mark(self):
        items, self.stack = self.stack, self.metastack.pop()
        return items

    def op_tuple(self):
        items = self.pop_mark()  # before reading self.stack: pop_mark replaces it
        self.stack.append(tuple(items))

    def op_tuple_n(self, n):
        items = tuple(self.stack[i - n] for i in range(n))  # IndexError on a short stack, as in torch
        self.stack[-n:] = [items]

    def op_binpersid(self):
        pid = self.stack.pop()
        if type(pid) is not tuple and type(pid) is not int:
            raise UnpicklingError(f"persistent_load id must be tuple or int, but got {type(pid)}")
        if type(pid) is tuple and len(pid) > 0 and _decode_ascii(pid[0]) != "storage":
            raise UnpicklingError(f"Only persistent_load of storage is allowed, but got {type(pid[0])}")
        self.stack.append(self.persistent_load(pid))

    def op_binunicode(self):
        n = struct.unpack("<I", self.read(4))[0]
        if n > maxsize:
            raise UnpicklingError("String is too long")
        self.stack.append(str(self.read(n), "utf-8", "surrogatepass"))

    def op_short_binstring(self):
        data = self.read(self.read(1)[0])
        self.stack.append(data.decode(self.encoding, "strict") if self.encoding != "bytes" else data)

    def op_get(self, wide):
        idx = struct.unpack("<I", self.read(4))[0] if wide else self.read(1)[0]
        self.stack.append(self.memo[idx])

    def op_put(self, wide):
        idx = struct.unpack("<I", self.read(4))[0] if wide else self.read(1)[0]
        self.memo[idx] = self.stack[-1]

    def op_proto(self):
        proto = self.read(1)[0]
        if proto != 2:
            import warnings  # noqa: PLC0415

            warnings.warn(
                f"Detected pickle protocol {proto} in the checkpoint, which was "
                "not the default pickle protocol used by `torch.load` (2). The weights_only "
                "Unpickler might not support all instructions implemented by this protocol, "
                "please file an issue for adding support if you encounter this.",
                stacklevel=4,
            )

    def push(self, value):
        self.stack.append(value)


_STOP = object()
_HASHING_CONSTRUCTORS = (set, Counter, OrderedDict)


def _hashes_its_argument(func, args):
    return any(func is c for c in _HASHING_CONSTRUCTORS) and type(args) is tuple and len(args) > 0


def _decode_ascii(s):
    return str(s, "ascii") if isinstance(s, bytes) else s


Unpickler.OPS = {
    ord("c"): Unpickler.op_global, 0x81: Unpickler.op_newobj, ord("R"): Unpickler.op_reduce,
    ord("b"): Unpickler.op_build, ord("a"): Unpickler.op_append, ord("e"): Unpickler.op_appends,
    ord("s"): Unpickler.op_setitem, ord("u"): Unpickler.op_setitems, ord("("): Unpickler.op_mark,
    ord("t"): Unpickler.op_tuple,
    0x85: lambda u: u.op_tuple_n(1), 0x86: lambda u: u.op_tuple_n(2), 0x87: lambda u: u.op_tuple_n(3),
    ord("N"): lambda u: u.push(None), 0x89: lambda u: u.push(False), 0x88: lambda u: u.push(True),
    ord(")"): lambda u: u.push(()), ord("]"): lambda u: u.push([]), ord("}"): lambda u: u.push({}),
    0x8F: lambda u: u.push(set()),
    ord("J"): lambda u: u.push(struct.unpack("<i", u.read(4))[0]),
    ord("K"): lambda u: u.push(u.read(1)[0]),
    ord("M"): lambda u: u.push(struct.unpack("<H", u.read(2))[0]),
    ord("G"): lambda u: u.push(struct.unpack(">d", u.read(8))[0]),
    ord("X"): Unpickler.op_binunicode, ord("U"): Unpickler.op_short_binstring,
    ord("Q"): Unpickler.op_binpersid,
    ord("h"): lambda u: u.op_get(False), ord("j"): lambda u: u.op_get(True),
    ord("q"): lambda u: u.op_put(False), ord("r"): lambda u: u.op_put(True),
    0x8A: lambda u: u.push(decode_long(u.read(u.read(1)[0]))),
    0x80: Unpickler.op_proto, ord("."): lambda u: _STOP,
}

# _codecs.encode: how protocol 2 spells bytes.
encode = codecs.encode
