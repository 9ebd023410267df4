"""torch.save / torch.load in PyTorch's zip format (torch/serialization.py), without torch installed.

save() writes the archive torch 2.14.1 writes, byte for byte for the objects of a training checkpoint
(dicts, OrderedDict state dicts with _metadata, tensors, Parameters, dtypes, Size, numbers, strings,
tuples, lists): a protocol-2 data.pkl naming torch's rebuild functions, one data/<key> record per
storage (written whole, shared storages once), the miniz zip layout and the serialization id.
load() reads such archives, written by torch or DenseCore, through the weights-only unpickler: it
never runs code from the file, whatever `weights_only` says (see docs/exactness.md).
"""
import contextlib
import os
import pickle
import re
import reprlib
import secrets
import stat
import sys
from collections import Counter, OrderedDict

from . import _C
from . import _weights_only_unpickler as _wou
from ._pickler import Pickler, Reduce
from ._zip import ZipReader, ZipWriter, archive_name, miniz_error
from ._rebuild import (  # noqa: F401 (_rebuild_parameter: nn.Parameter's __reduce_ex__ names it here)
    _UNSUPPORTED_FUNCTIONS, _device_from_file, _LoadedStorage, _new_parameter, _rebuild_from_type_v2,
    _rebuild_parameter, _rebuild_parameter_from_file, _rebuild_parameter_with_state, _rebuild_tensor,
    _rebuild_tensor_v2, _rebuild_tensor_v3, _unsupported_function, _UnsupportedDtype,
)

DEFAULT_PROTOCOL = 2

# torch/storage.py _dtype_to_storage_type_map, for the dtypes DenseCore has.
_STORAGE_NAMES = {
    "float64": "DoubleStorage", "float32": "FloatStorage", "float16": "HalfStorage", "bfloat16": "BFloat16Storage",
    "int64": "LongStorage", "int32": "IntStorage", "int16": "ShortStorage", "int8": "CharStorage",
    "uint8": "ByteStorage", "bool": "BoolStorage",
}
# Storage types torch knows but DenseCore has no dtype for (quantized, complex).
_OTHER_STORAGES = ("ComplexDoubleStorage", "ComplexFloatStorage", "QUInt8Storage", "QInt8Storage", "QInt32Storage",
                   "QUInt4x2Storage", "QUInt2x4Storage")
# dtypes torch allows in weights-only files that DenseCore lacks (torch.storage._new_dtypes etc.).
_OTHER_DTYPES = ("complex32", "complex64", "complex128", "uint16", "uint32", "uint64", "float8_e5m2",
                 "float8_e4m3fn", "float8_e5m2fnuz", "float8_e4m3fnuz", "float8_e8m0fnu", "float4_e2m1fn_x2",
                 "bits8", "bits16", "bits1x8", "bits2x4", "bits4x2", "qint8", "quint8", "qint32", "quint4x2",
                 "quint2x4") + tuple(f"uint{i}" for i in range(1, 8)) + tuple(f"int{i}" for i in range(1, 8))


def _dtype(name):
    return getattr(_C, name)


def _dtype_name(dt):
    return str(dt).replace("torch.", "")


# ---------------------------------------------------------------------------------------------
# Storage types (the rebuild functions themselves are in _rebuild.py)
# ---------------------------------------------------------------------------------------------
class StorageType:
    """torch.serialization.StorageType: what a legacy `torch.FloatStorage` GLOBAL loads as."""

    def __init__(self, name):
        self.name = name
        self._dtype = _dtype(_storage_dtype_name(name)) if name in _STORAGE_NAMES.values() else None

    @property
    def dtype(self):
        if self._dtype is None:  # a storage torch has and DenseCore lacks (complex, quantized)
            raise RuntimeError(f"densecore.load: torch.{self.name} is not supported by DenseCore")
        return self._dtype

    def __str__(self):
        return f"StorageType(dtype={self.dtype})"


def _storage_dtype_name(storage_name):
    for dt, name in _STORAGE_NAMES.items():
        if name == storage_name:
            return dt
    raise RuntimeError(f"densecore.load: torch.{storage_name} is not supported by DenseCore")


class UntypedStorage:
    """torch.UntypedStorage as far as DenseCore needs it: the bytes behind a tensor, with identity."""

    def __init__(self, tensor):
        self._tensor = tensor

    @property
    def _cdata(self):
        return self._tensor._storage_key()

    def data_ptr(self):
        return self._tensor._storage_data_ptr() if self.nbytes() else 0

    def nbytes(self):
        return self._tensor._storage_nbytes()

    size = nbytes
    __len__ = nbytes

    @property
    def device(self):
        from ._device import device  # noqa: PLC0415

        return device("cpu")

    def __repr__(self):
        return f"<densecore UntypedStorage of {self.nbytes()} bytes>"


def _untyped_storage(self):
    """Tensor.untyped_storage()."""
    return UntypedStorage(self)


# ---------------------------------------------------------------------------------------------
# save
# ---------------------------------------------------------------------------------------------
class _Storages:
    """torch's _save.persistent_id: one key per storage in first-encounter order."""

    def __init__(self):
        self.id_map = {}  # storage identity -> key str
        self.storages = {}  # key -> tensor holding the storage
        self.dtypes = {}  # data_ptr -> dtype, to refuse one storage saved as two dtypes

    def persistent_id(self, obj, pickler):
        if type(obj) is not _StorageRef:
            return None
        t = obj.tensor
        ptr = t._storage_data_ptr() if t._storage_nbytes() else 0
        if ptr:
            if self.dtypes.setdefault(ptr, t.dtype) != t.dtype:
                raise RuntimeError("Cannot save multiple tensors or storages that view the same data as different types")
        key = self.id_map.setdefault(t._storage_key(), str(len(self.id_map)))
        self.storages[key] = t
        storage_type = pickler.global_of("torch", _STORAGE_NAMES[_dtype_name(t.dtype)])
        return ("storage", storage_type, key, "cpu", t._storage_nbytes() // t.element_size())


class _StorageRef:
    __slots__ = ("tensor",)

    def __init__(self, tensor):
        self.tensor = tensor


def _reducer(pickler):
    from ._device import device  # noqa: PLC0415
    from ._size import Size  # noqa: PLC0415
    from .nn.parameter import Parameter  # noqa: PLC0415

    def reduce(obj):
        t = type(obj)
        if t is _C.Tensor:  # Tensor._reduce_ex_internal
            args = (_StorageRef(obj), obj.storage_offset(), tuple(obj.size()), obj.stride(), obj.requires_grad,
                    OrderedDict())
            return Reduce(pickler.global_of("torch._utils", "_rebuild_tensor_v2"), args)
        if t is Parameter:  # Parameter.__reduce_ex__
            return Reduce(pickler.global_of("torch._utils", "_rebuild_parameter"),
                          (obj.detach(), obj.requires_grad, OrderedDict()))
        if isinstance(obj, _C.Tensor):
            raise pickle.PicklingError(f"densecore.save: tensor subclass {t.__name__} is not supported")
        if t is OrderedDict:  # OrderedDict.__reduce__: class, (), instance dict; items follow
            return Reduce(pickler.global_of("collections", "OrderedDict"), (), vars(obj) or None)
        if t is _C.dtype:  # dtype.__reduce__ returns its name: GLOBAL torch <name>
            pickler.save_global(pickler.global_of("torch", _dtype_name(obj)), obj)
            return None
        if t is Size:
            return Reduce(pickler.global_of("torch", "Size"), (tuple(obj),))
        if t is device:
            args = (obj.type,) if obj.index is None else (obj.type, obj.index)
            return Reduce(pickler.global_of("torch", "device"), args)
        return pickler.generic_reduce(obj)

    return reduce


def _pickle(obj):
    """(data.pkl bytes, {key: tensor owning the storage})."""
    storages = _Storages()
    pickler = Pickler()
    pickler.reducer = _reducer(pickler)
    pickler.persistent_id = lambda o: storages.persistent_id(o, pickler)
    return pickler.dump(obj), storages.storages


def save(obj, f, pickle_module=pickle, pickle_protocol=DEFAULT_PROTOCOL, _use_new_zipfile_serialization=True,
         _disable_byteorder_record=False):
    """torch.save: `obj` to the path or binary file object `f` in PyTorch's zip format. A path is replaced
    atomically: a failed or interrupted save leaves the previous file as it was (see _replacing)."""
    if not _use_new_zipfile_serialization:
        raise NotImplementedError("densecore.save: the legacy (non-zip) format is not supported")
    if pickle_module is not pickle or pickle_protocol != DEFAULT_PROTOCOL:
        raise NotImplementedError("densecore.save writes pickle protocol 2 with its own pickler only")
    data_pkl, storages = _pickle(obj)
    with _open_for_write(f) as (out, name):
        zf = ZipWriter(out, name)
        zf.write_record("data.pkl", data_pkl)
        zf.write_record(".format_version", b"1")
        zf.write_record(".storage_alignment", b"64")
        if not _disable_byteorder_record:
            zf.write_record("byteorder", sys.byteorder.encode())
        for key, t in storages.items():
            zf.write_record(f"data/{key}", t._storage_bytes())
        zf.write_end_of_file()


@contextlib.contextmanager
def _open_for_write(f):
    if isinstance(f, (str, os.PathLike)):
        path = os.fspath(f)
        parent = os.path.dirname(path)
        if parent and not os.path.isdir(parent):
            raise RuntimeError(f"Parent directory {parent} does not exist.")
        name = archive_name(path) if path.isascii() else "archive"  # torch streams non-ASCII paths
        try:
            with _replacing(path) as out:
                yield out, name
        except OSError as e:  # torch raises RuntimeError for any failed write (with a less useful message)
            raise RuntimeError(f"densecore.save: writing {path} failed: {e.strerror or e}") from e
    else:
        if not hasattr(f, "write"):
            raise AttributeError("expected 'f' to be string, path, or a file-like object with a 'write' attribute")
        yield f, "archive"
        if hasattr(f, "flush"):
            f.flush()


@contextlib.contextmanager
def _replacing(path):
    """A new file that takes `path`'s place only once complete: written as `.<name>.tmp-<random>` in the same
    folder, flushed and fsynced, renamed over `path`, then the folder fsynced. If anything fails before the
    rename (an exception, a full disk, a file-size limit) the temporary file is removed and `path` is untouched;
    a process killed mid-write leaves `path` untouched too (and its hidden temporary file behind). A symlink
    is followed (its target is replaced); a path that is not a regular file (/dev/null, a FIFO) is written in
    place, since it cannot be replaced."""
    target = os.path.realpath(path) if os.path.islink(path) else path
    try:
        old = os.stat(target)
    except FileNotFoundError:
        old = None
    if old is not None and stat.S_ISDIR(old.st_mode):
        raise RuntimeError("[enforce fail at inline_container.cc:747] . open file failed with strerror: Is a directory")
    if old is not None and not stat.S_ISREG(old.st_mode):
        with open(target, "wb") as out:
            yield out
        return
    folder = os.path.dirname(target) or "."
    fd, tmp = _create_temporary(folder, os.path.basename(target))
    try:
        with os.fdopen(fd, "wb") as out:
            yield out
            out.flush()
            os.fsync(out.fileno())
        if old is not None:
            _copy_mode_and_owner(old, tmp)
        os.replace(tmp, target)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise
    _fsync_folder(folder)


def _create_temporary(folder, name):
    """(fd, path) of a new file `.<name>.tmp-<random>` in `folder`, created as open(path, "wb") would (mode
    0o666 less the umask)."""
    for _ in range(100):
        tmp = os.path.join(folder, f".{name}.tmp-{secrets.token_hex(4)}")
        try:
            return os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_CLOEXEC", 0), 0o666), tmp
        except FileExistsError:
            continue
    raise FileExistsError(f"no free temporary name for {name} in {folder}")


def _copy_mode_and_owner(old, tmp):
    """What overwriting in place would have kept: the replaced file's permissions, and its owner when we may set it."""
    os.chmod(tmp, stat.S_IMODE(old.st_mode))
    if hasattr(os, "chown") and (old.st_uid, old.st_gid) != (os.geteuid(), os.getegid()):
        with contextlib.suppress(PermissionError):
            os.chown(tmp, old.st_uid, old.st_gid)


def _fsync_folder(folder):
    """Makes the rename durable. Some filesystems cannot fsync a folder; the file itself is already synced."""
    if not hasattr(os, "O_DIRECTORY"):
        return
    with contextlib.suppress(OSError):
        fd = os.open(folder, os.O_RDONLY | os.O_DIRECTORY)
        try:
            os.fsync(fd)
        finally:
            os.close(fd)


# ---------------------------------------------------------------------------------------------
# load
# ---------------------------------------------------------------------------------------------
_UNSAFE_MESSAGE = (
    "In PyTorch 2.6, we changed the default value of the `weights_only` argument in `torch.load` "
    "from `False` to `True`. Re-running `torch.load` with `weights_only` set to `False` will likely succeed, "
    "but it can result in arbitrary code execution. Do it only if you got the file from a "
    "trusted source."
)
_DOCS_MESSAGE = (
    "\n\nCheck the documentation of torch.load to learn more about types accepted by default with "
    "weights_only https://pytorch.org/docs/stable/generated/torch.load.html."
)


def _weights_only_message(message):
    """torch.load's _get_wo_message: the preamble torch puts before a WeightsUnpickler error."""
    if re.search(r"GLOBAL (\S+) was not an allowed global by default.", message):
        updated = (
            "Weights only load failed. This file can still be loaded, to do so you have two options, "
            "\033[1mdo those steps only if you trust the source of the checkpoint\033[0m. "
            f"\n\t(1) {_UNSAFE_MESSAGE}\n\t(2) Alternatively, to load with `weights_only=True` please check "
            "the recommended steps in the following error message.\n\tWeightsUnpickler error: " + message
        )
    elif re.search(r"(\S+) must be (\S+) to load", message):
        return f"Weights only load failed. {message}\n {_UNSAFE_MESSAGE}\n"
    else:
        updated = f"Weights only load failed. {_UNSAFE_MESSAGE}\n"
        if not re.search(r"whose module (\S+) is blocked", message):
            updated += ("Please file an issue with the following so that we can make "
                        "`weights_only=True` compatible with your use case: WeightsUnpickler error: ")
        updated += "\n\n" + message
    return updated + _DOCS_MESSAGE


def _allowed_globals(pickle_size):
    """torch's _get_allowed_globals, resolved to DenseCore objects (for a data.pkl of `pickle_size` bytes)."""
    from ._size import Size  # noqa: PLC0415
    from .nn.parameter import Parameter  # noqa: PLC0415

    rc = {
        "collections.OrderedDict": OrderedDict, "collections.Counter": Counter,
        "torch.nn.parameter.Parameter": Parameter,
        "torch.Size": Size, "torch.Tensor": _C.Tensor, "torch.device": _device_from_file,
        "_codecs.encode": _wou.encode, "builtins.bytearray": _wou.bounded_bytearray(pickle_size), "builtins.set": set,
        "builtins.complex": complex,
        "torch._utils._rebuild_tensor_v2": _rebuild_tensor_v2, "torch._utils._rebuild_tensor_v3": _rebuild_tensor_v3,
        "torch._utils._rebuild_tensor": _rebuild_tensor, "torch._utils._rebuild_parameter": _rebuild_parameter_from_file,
        "torch._utils._rebuild_parameter_with_state": _rebuild_parameter_with_state,
        "torch._tensor._rebuild_from_type_v2": _rebuild_from_type_v2,
        "torch.storage.UntypedStorage": UntypedStorage,
    }
    for name, params in _UNSUPPORTED_FUNCTIONS.items():
        rc[name] = _unsupported_function(name, params)
    for dt in _STORAGE_NAMES:
        rc[f"torch.{dt}"] = _dtype(dt)
    for dt in _OTHER_DTYPES:
        rc[f"torch.{dt}"] = _UnsupportedDtype(dt)
    for name in list(_STORAGE_NAMES.values()) + list(_OTHER_STORAGES):
        st = StorageType(name)
        rc[f"torch.{name}"] = st
        rc[f"torch.cuda.{name}"] = st
    return rc


def _element_size(dtype):
    """torch._utils._element_size."""
    if type(dtype) is not _C.dtype:
        raise RuntimeError(f"expected torch.dtype, but got {type(dtype)}")
    return dtype.itemsize


def _decode_ascii(s):
    """torch.serialization._maybe_decode_ascii."""
    return s.decode("ascii") if isinstance(s, bytes) else s


class _Loader:
    """torch's _load over a ZipReader: storages read once per key from data/<key>, each checked against the
    size the pickle declares before a byte of it is read, placed by map_location."""

    def __init__(self, zf, prefix, map_location):
        self.zf, self.prefix, self.map_location = zf, prefix, map_location
        self.loaded = {}
        if self.has(".format_version"):  # torch reads it (so a record it cannot read fails here too)
            self.record(".format_version")
        self.swap = self.byteorder() != sys.byteorder
        if self.has(".storage_alignment"):
            int(self.record(".storage_alignment"))  # torch parses it (ValueError if it is not a number)

    def entry(self, name):
        e = self.zf.find(self.prefix + name)
        if e is None:
            raise miniz_error(f"locating file {name}", "file not found")
        return e

    def record(self, name):
        return bytes(self.zf.read(self.entry(name), name))

    def has(self, name):
        return self.zf.find(self.prefix + name) is not None

    def byteorder(self):
        if not self.has("byteorder"):
            return "little"
        data = self.record("byteorder")
        if data not in (b"little", b"big"):
            raise ValueError("Unknown endianness type: " + data.decode())
        return data.decode()

    def persistent_load(self, pid):
        if not isinstance(pid, tuple):
            raise AssertionError(f"saved_id must be a tuple, got {type(pid).__name__}")
        typename = _decode_ascii(pid[0])
        if typename != "storage":
            raise AssertionError(f"Unknown typename for persistent_load, expected 'storage' but got '{typename}'")
        storage_type, key, location, numel = pid[1:]
        dtype = _C.uint8 if storage_type is UntypedStorage else storage_type.dtype
        _wou.check_hashable(key)
        if key in self.loaded:
            return self.loaded[key]
        nbytes = numel * _element_size(dtype)
        storage = self.load_storage(dtype, nbytes, key, _decode_ascii(location))
        if nbytes:  # torch keeps only storages with data, so empty ones are never shared
            self.loaded[key] = storage
        return storage

    def load_storage(self, dtype, nbytes, key, location):
        name = f"data/{key}"
        if type(nbytes) is not int or not 0 <= nbytes < 2**64:  # what pybind11 refuses as a size_t
            raise TypeError(
                "get_storage_from_record(): incompatible function arguments. The following argument types are "
                "supported:\n    1. (self: torch._C.PyTorchFileReader, arg0: str, arg1: typing.SupportsInt | "
                "typing.SupportsIndex, arg2: object) -> torch.Tensor\n\nInvoked with: <torch.PyTorchFileReader>, "
                f"{reprlib.repr(name)}, {reprlib.repr(nbytes)}, <class 'torch.storage.UntypedStorage'>"
            )
        e = self.entry(name)
        self.zf.check(e, name)  # the header checks torch's reader makes first
        if e.usize != nbytes:  # checked before anything is read or allocated (torch checks after reading)
            raise RuntimeError(f"record size ({e.usize} bytes) does not match expected size ({nbytes} bytes = "
                               f"{nbytes} elements * 1 bytes/element) for dtype Byte")
        data, view = _C._storage_buffer(nbytes)  # read straight into the storage, then swapped in place
        try:
            self.zf.read_into(e, view, name)
        finally:
            _release(view, data)
        if self.swap and dtype.itemsize > 1:
            _C._byteswap_(data, dtype.itemsize)
        return self.restore(_LoadedStorage(data, dtype), location)

    def restore(self, storage, location):
        m = self.map_location
        if m is None:
            target = location
        elif isinstance(m, dict):
            target = m.get(location, location)
        elif isinstance(m, (str, bytes)):
            target = m.decode() if isinstance(m, bytes) else m
        elif type(m).__name__ == "device":
            target = str(m)
        else:
            result = m(storage, location)
            return _to_location(storage, location) if result is None else result
        return _to_location(storage, target)


_PINNED = []  # storages whose memoryview a file object kept: never freed, so the view cannot outlive them


def _release(view, storage):
    """Ends `view` (over `storage`'s memory, which it does not keep alive); if a file object still holds a slice
    of it, the storage is kept for the life of the process instead."""
    try:
        view.release()
    except BufferError:
        _PINNED.append(storage)
        raise


def _to_location(storage, location):
    """default_restore_location for a CPU-only library: cpu works, cuda/mps/... raise torch's errors."""
    if not isinstance(location, str):
        raise TypeError(f"expected string or bytes-like object, got '{type(location).__name__}'")
    if location == "cpu":
        return storage
    backend = location.split(":")[0]
    if backend in ("cuda", "xpu", "mtia", "hpu", "mps"):
        name = "mps" if backend == "mps" else backend
        raise RuntimeError(
            f"Attempting to deserialize object on a {name.upper()} device but torch.{name}.is_available() is False. "
            "If you are running on a CPU-only machine, please use torch.load with "
            "map_location=torch.device('cpu') to map your storages to the CPU."
        )
    raise RuntimeError(f"don't know how to restore data location of torch.storage.UntypedStorage (tagged with {location})")


def load(f, map_location=None, pickle_module=None, *, weights_only=None, mmap=None, **pickle_load_args):
    """torch.load for zip archives (torch >= 1.6 format), always through the weights-only unpickler.
    Every size and offset read from the file is checked before use; see docs/reliability.md."""
    if pickle_module is not None and weights_only is not False:
        raise RuntimeError("Can not safely load weights when explicit pickle_module is specified")
    encoding = pickle_load_args.pop("encoding", "utf-8")
    if mmap and not isinstance(f, (str, os.PathLike)):
        raise ValueError("f must be a file path in order to use the mmap argument")
    with _open_for_read(f) as fh:
        magic = fh.read(4)
        fh.seek(-len(magic), 1)
        if magic != b"PK\x03\x04":
            return _load_not_zip(fh, f, mmap, encoding)
        return _load_zip(_open_archive(fh), map_location, encoding)


_VERSION_MIN, _VERSION_MAX = 1, 10  # caffe2::serialize::kMinSupportedFileFormatVersion / kMax... in 2.14.1


def _open_archive(fh):
    """PyTorchStreamReader::init: the zip directory, the folder all records sit in, the format version."""
    zf = ZipReader(fh)
    names = zf.names()
    if not names:
        raise RuntimeError("[enforce fail at inline_container.cc:171] . archive does not contain any files")
    first = names[0]
    if b"/" not in first:
        raise _enforce_error(180, b"file in archive is not in a subdirectory: " + first)
    zf.prefix = first[: first.index(b"/") + 1].decode("utf-8", "surrogateescape")
    _check_version(zf)
    sid = zf.find(zf.prefix + ".data/serialization_id")
    zf.serialization_id = None if sid is None else bytes(zf.read(sid, ".data/serialization_id"))
    return zf


def _enforce_error(line, text):
    """A CAFFE_ENFORCE failure of inline_container.cc whose message holds bytes from the file: torch passes the
    message on as a C string decoded as strict UTF-8, so it ends at a NUL and invalid bytes raise
    UnicodeDecodeError."""
    text = text.split(b"\0", 1)[0]  # the message is a C string: a NUL ends it
    return RuntimeError((f"[enforce fail at inline_container.cc:{line}] . ".encode() + text).decode("utf-8"))


def _record_names(zf):
    """PyTorchStreamReader::getAllRecords (what torch's TorchScript check lists): every name must be in the
    archive's folder; returned without it, decoded as strict UTF-8 (as pybind11 hands them to Python)."""
    prefix = zf.prefix.encode("utf-8", "surrogateescape")
    names = [n.split(b"\0", 1)[0] for n in zf.names()]  # read into a C string: a NUL ends the name
    for n in names:
        if not n.startswith(prefix):
            raise _enforce_error(340, b"file in archive is not in a subdirectory " + prefix + b": " + n)
    return [n[len(prefix) :].decode("utf-8") for n in names]


def _check_version(zf):
    name = ".data/version" if zf.find(zf.prefix + ".data/version") else "version"
    e = zf.find(zf.prefix + name)
    if e is None:
        raise RuntimeError('Expected hasRecord("version") to be true, but got false.  (Could this error message be '
                           "improved?  If so, please report an enhancement request to PyTorch.)")
    text = zf.read(e, name)
    version = _stoull(text)
    if version < _VERSION_MIN:
        raise RuntimeError(f"[enforce fail at inline_container.cc:219] . Attempted to read a PyTorch file with version "
                           f"{version}, but the minimum supported version for reading is {_VERSION_MIN}. Your PyTorch "
                           "script module file is too old. Please regenerate it with latest version of PyTorch to "
                           "mitigate this issue.")
    if version > _VERSION_MAX:
        raise RuntimeError(f"[enforce fail at inline_container.cc:230] . Attempted to read a PyTorch file with version "
                           f"{version}, but the maximum supported version for reading is {_VERSION_MAX}. The version "
                           "of your PyTorch installation may be too old, please upgrade PyTorch to latest version to "
                           "mitigate this issue.")


def _stoull(text):
    """The record parsed as torch parses it: std::stoull (leading space, a sign, decimal digits, wrapping
    modulo 2**64 when negative), read back as a signed int64."""
    m = re.match(rb"[ \t\n\v\f\r]*([+-]?)([0-9]+)", text)
    if not m:
        raise _enforce_error(215, b"Couldn't parse the version " + bytes(text) + b" as Long Long.")
    value = int(m.group(2))
    if value >= 2**64:
        raise IndexError("stoull")
    if m.group(1) == b"-":
        value = -value % 2**64
    return value - 2**64 if value >= 2**63 else value


# data.pkl is read whole, as torch reads it, up to this size; a larger DEFLATED one is inflated as the unpickler
# reads it, so a pickle record that inflates to gigabytes fails at its first bad opcode.
_PICKLE_READ_WHOLE = 64 << 20


def _load_zip(zf, map_location, encoding):
    prefix = zf.prefix
    if "constants.pkl" in _record_names(zf):
        raise RuntimeError("Cannot use ``weights_only=True`` with TorchScript archives passed to ``torch.load``. "
                           + _UNSAFE_MESSAGE)
    loader = _Loader(zf, prefix, map_location)
    entry = loader.entry("data.pkl")
    stream = zf.stream(entry, "data.pkl", whole_up_to=_PICKLE_READ_WHOLE)
    result = _unpickle(stream, loader.persistent_load, encoding, entry.usize)
    if hasattr(stream, "drain"):  # torch reads the whole record before unpickling: a short one fails there
        stream.drain()
    if zf.serialization_id is not None:  # torch logs it as a str after loading
        zf.serialization_id.decode("utf-8")
    return result


def _unpickle(fh, persistent_load, encoding, pickle_size):
    from .nn.parameter import Parameter  # noqa: PLC0415

    u = _wou.Unpickler(fh, _allowed_globals(pickle_size), persistent_load, _C.Tensor, Parameter, encoding,
                       whole_types=(_device_from_file,), new_parameter=_new_parameter,
                       tensor_takers=(_rebuild_parameter_from_file, _rebuild_parameter_with_state))
    try:
        return u.load()
    except pickle.UnpicklingError as e:
        raise pickle.UnpicklingError(_weights_only_message(str(e))) from None


def _load_not_zip(fh, f, mmap, encoding):
    """Legacy (pre-1.6) files: torch reads the magic number with the safe unpickler first, so a hostile
    pickle fails the same way; the legacy layout itself is not supported."""
    if mmap:
        name = "" if not isinstance(f, str) else f"{f}, "
        raise RuntimeError("mmap can only be used with files saved with "
                           f"`torch.save({name}_use_new_zipfile_serialization=True), "
                           "please torch.save your checkpoint with this option in order to use mmap.")

    def no_pid(pid):
        raise pickle.UnpicklingError("unsupported persistent id encountered")

    magic = _unpickle(fh, no_pid, encoding, _remaining_size(fh))
    if magic != 0x1950A86A20F9469CFC6C:
        raise RuntimeError("Invalid magic number; corrupt file?")
    raise NotImplementedError("densecore.load: the legacy (pre-zip) torch.save format is not supported")


def _remaining_size(fh):
    here = fh.tell()
    end = fh.seek(0, 2)
    fh.seek(here)
    return end - here


@contextlib.contextmanager
def _open_for_read(f):
    if isinstance(f, (str, os.PathLike)):
        with open(f, "rb") as fh:
            yield fh
    else:
        yield f


# ---------------------------------------------------------------------------------------------
# torch.serialization's allow-list API
# ---------------------------------------------------------------------------------------------
def add_safe_globals(safe_globals):
    _wou._user_globals.update(safe_globals)


def get_safe_globals():
    return list(_wou._user_globals)


def clear_safe_globals():
    _wou._user_globals.clear()


@contextlib.contextmanager
def safe_globals(safe_globals):
    add_safe_globals(safe_globals)
    try:
        yield
    finally:
        _wou._user_globals.difference_update(safe_globals)


__all__ = ["save", "load", "add_safe_globals", "get_safe_globals", "clear_safe_globals", "safe_globals",
           "StorageType", "UntypedStorage"]
