"""A protocol-2 pickler that writes what CPython's C pickler writes for torch.save's data.pkl, but names
torch's globals (torch._utils._rebuild_tensor_v2, torch FloatStorage, ...) without importing torch.

Memoization follows Modules/_pickle.c (3.11) exactly: atoms (None, bool, int, float) are never
memoized; str, tuples of 1+ items, GLOBALs, lists, dicts and REDUCE results are (BINPUT), and a
second sight of the same object is a BINGET. So identical Python object graphs give identical bytes.
"""
import _compat_pickle
import copyreg
import pickle
import struct
from collections import OrderedDict

_BATCHSIZE = 1000


class Global:
    """A GLOBAL to write: module and name as torch's pickle names them."""

    __slots__ = ("module", "name")

    def __init__(self, module, name):
        self.module, self.name = module, name


class Reduce:
    """An object to write as `func(*args)` (+ BUILD state); `obj` is what gets memoized."""

    __slots__ = ("func", "args", "state")

    def __init__(self, func, args, state=None):
        self.func, self.args, self.state = func, args, state


class Pickler:
    """save(obj) appends opcodes to self.out. `reducer(obj)` may return a Reduce for objects it knows
    (tensors, dtypes...); `persistent_id(obj)` returns a pid tuple for storages or None."""

    def __init__(self, reducer=None, persistent_id=None):
        self.out = bytearray(b"\x80\x02")  # PROTO 2
        self.memo = {}  # id(obj) -> (index, obj): holding obj keeps ids unique, as the C memo does
        self.globals = {}  # (module, name) -> the Global object standing for it
        self.reducer = reducer or self.generic_reduce
        self.persistent_id = persistent_id or (lambda obj: None)

    def dump(self, obj):
        self.save(obj)
        self.out += b"."
        return bytes(self.out)

    # -- memo -----------------------------------------------------------------------------------
    def memoize(self, obj):
        idx = len(self.memo)
        self.memo[id(obj)] = (idx, obj)
        self.out += b"q" + bytes([idx]) if idx < 256 else b"r" + struct.pack("<I", idx)

    def get(self, obj):
        idx = self.memo[id(obj)][0]
        self.out += b"h" + bytes([idx]) if idx < 256 else b"j" + struct.pack("<I", idx)

    # -- dispatch -------------------------------------------------------------------------------
    def save(self, obj, pers_save=False):
        if not pers_save:
            pid = self.persistent_id(obj)
            if pid is not None:
                self.save(pid, pers_save=True)
                self.out += b"Q"  # BINPERSID
                return
        t = type(obj)
        if obj is None:
            self.out += b"N"
        elif obj is True or obj is False:
            self.out += b"\x88" if obj else b"\x89"
        elif t is int:
            self.save_int(obj)
        elif t is float:
            self.out += b"G" + struct.pack(">d", obj)
        elif id(obj) in self.memo:
            self.get(obj)
        elif t is str:
            data = obj.encode("utf-8", "surrogatepass")
            self.out += b"X" + struct.pack("<I", len(data)) + data
            self.memoize(obj)
        elif t is bytes:
            self.save_bytes(obj)
        elif t is bytearray:  # save_bytearray below protocol 5: bytearray(bytes(obj))
            self.save_reduce(Reduce(self.global_of("__builtin__", "bytearray"), (bytes(obj),)), obj)
        elif t is dict:
            self.out += b"}"
            self.memoize(obj)
            self.dict_items_exact(obj)
        elif t is list:
            self.out += b"]"
            self.memoize(obj)
            self.list_items_exact(obj)
        elif t is tuple:
            self.save_tuple(obj)
        elif t is Global:
            self.save_global(obj)
        else:
            self.save_other(obj)

    def save_int(self, v):
        if 0 <= v < 256:
            self.out += b"K" + bytes([v])
        elif 0 <= v < 65536:
            self.out += b"M" + struct.pack("<H", v)
        elif -(2**31) <= v < 2**31:
            self.out += b"J" + struct.pack("<i", v)
        else:
            data = pickle.encode_long(v)
            if len(data) < 256:
                self.out += b"\x8a" + bytes([len(data)]) + data
            else:
                self.out += b"\x8b" + struct.pack("<i", len(data)) + data

    def save_bytes(self, b):
        # Protocol < 3 has no bytes opcode: _codecs.encode(latin-1 str, "latin1"), or bytes() if empty.
        if not b:
            self.save_reduce(Reduce(self.global_of("__builtin__", "bytes"), ()), b)
        else:
            self.save_reduce(Reduce(self.global_of("_codecs", "encode"), (b.decode("latin1"), "latin1")), b)

    def save_tuple(self, obj):
        n = len(obj)
        if n == 0:
            self.out += b")"
            return
        if n <= 3:
            for x in obj:
                self.save(x)
            if id(obj) in self.memo:  # recursive tuple: drop the items, fetch the memoized one
                self.out += b"0" * n
                self.get(obj)
                return
            self.out += (b"\x85", b"\x86", b"\x87")[n - 1]
        else:
            self.out += b"("
            for x in obj:
                self.save(x)
            if id(obj) in self.memo:
                self.out += b"1"  # POP_MARK
                self.get(obj)
                return
            self.out += b"t"
        self.memoize(obj)

    def global_of(self, module, name):
        """One Global object per name, so a repeated global is a BINGET like the C pickler's."""
        key = (module, name)
        if key not in self.globals:
            self.globals[key] = Global(module, name)
        return self.globals[key]

    def save_global(self, g, obj=None):
        """GLOBAL g, memoizing `obj` (the object the global stands for) or g itself."""
        self.out += b"c" + g.module.encode("utf-8") + b"\n" + g.name.encode("utf-8") + b"\n"
        self.memoize(g if obj is None else obj)

    def save_reduce(self, r, obj):
        if isinstance(r.func, Global) and r.func.name == "__newobj__":
            cls, args = r.args[0], r.args[1:]
            self.save(cls)
            self.save(args)
            self.out += b"\x81"  # NEWOBJ
        else:
            self.save(r.func)
            self.save(r.args)
            self.out += b"R"
        if id(obj) in self.memo:
            self.out += b"0"
            self.get(obj)
            return
        self.memoize(obj)
        return True

    def save_other(self, obj):
        r = self.reducer(obj)  # a Reduce, or None when the reducer wrote a GLOBAL itself
        if r is None or not self.save_reduce(r, obj):
            return
        if isinstance(obj, OrderedDict):  # OrderedDict.__reduce__ hands its items as an iterator
            self.dict_items(iter(obj.items()))
        if r.state is not None:
            self.save(r.state)
            self.out += b"b"  # BUILD

    # -- containers -----------------------------------------------------------------------------
    def list_items_exact(self, obj):
        if not obj:
            return
        if len(obj) == 1:
            self.save(obj[0])
            self.out += b"a"
            return
        total = 0
        while total < len(obj):
            self.out += b"("
            for x in obj[total : total + _BATCHSIZE]:
                self.save(x)
            total += min(_BATCHSIZE, len(obj) - total)
            self.out += b"e"

    def dict_items_exact(self, obj):
        if not obj:
            return
        items = list(obj.items())
        if len(items) == 1:
            self.save(items[0][0])
            self.save(items[0][1])
            self.out += b"s"
            return
        i = 0
        while True:  # the C loop writes an empty MARK/SETITEMS batch when len % 1000 == 0
            batch = items[i : i + _BATCHSIZE]
            self.out += b"("
            for k, v in batch:
                self.save(k)
                self.save(v)
            self.out += b"u"
            i += len(batch)
            if len(batch) != _BATCHSIZE:
                break

    def dict_items(self, it):
        """batch_dict for an items iterator (OrderedDict's dictitems): SETITEM for a lone item."""
        while True:
            first = next(it, None)
            if first is None:
                return
            second = next(it, None)
            if second is None:
                self.save(first[0])
                self.save(first[1])
                self.out += b"s"
                return
            self.out += b"("
            n = 0
            for k, v in [first, second]:
                self.save(k)
                self.save(v)
                n += 1
            for k, v in it:
                self.save(k)
                self.save(v)
                n += 1
                if n == _BATCHSIZE:
                    break
            self.out += b"u"
            if n < _BATCHSIZE:
                return

    # -- anything else: the standard reduce protocol --------------------------------------------
    def generic_reduce(self, obj):
        if isinstance(obj, type) or callable(obj) and hasattr(obj, "__qualname__") and not hasattr(obj, "__self__"):
            self.save_global(self.global_of(*self.py2_name(obj.__module__, obj.__qualname__)), obj)
            return None
        rv = copyreg.dispatch_table.get(type(obj))
        rv = rv(obj) if rv else obj.__reduce_ex__(2)
        if isinstance(rv, str):
            self.save_global(self.global_of(*self.py2_name(type(obj).__module__, rv)), obj)
            return None
        func, args = rv[0], rv[1]
        state = rv[2] if len(rv) > 2 else None
        if len(rv) > 3 and (rv[3] is not None or len(rv) > 4 and rv[4] is not None):
            raise pickle.PicklingError(f"densecore.save cannot pickle {type(obj).__name__} (list/dict items)")
        if func is copyreg.__newobj__:
            return Reduce(self.global_of("copyreg", "__newobj__"), (self.as_global(args[0]),) + tuple(args[1:]), state)
        return Reduce(self.as_global(func), args, state)

    def as_global(self, f):
        return self.global_of(*self.py2_name(f.__module__, f.__qualname__))

    @staticmethod
    def py2_name(module, name):
        """fix_imports for protocol 2: the Python 2 names (builtins -> __builtin__)."""
        if (module, name) in _compat_pickle.REVERSE_NAME_MAPPING:
            return _compat_pickle.REVERSE_NAME_MAPPING[(module, name)]
        return _compat_pickle.REVERSE_IMPORT_MAPPING.get(module, module), name

