"""The zip container of torch.save.

ZipWriter writes it byte for byte as PyTorch's patched miniz does (caffe2/serialize/inline_container.cc
PyTorchStreamWriter + third_party/miniz mz_zip_writer_add_mem_ex_v2): STORED records under one folder, each
record's data 64-byte aligned by an 'FB' local extra field, zeroed local CRC/sizes + data descriptor, zip64 end
records always present, DOS time 0.

ZipReader reads what torch's PyTorchStreamReader (miniz) accepts: STORED or DEFLATED records, zip64 sizes,
names looked up without regard to ASCII case, CRCs not checked (torch does not check them either). Every size,
count and offset it takes from the file is checked against the file's length before it is used, and a DEFLATED
record is inflated in bounded steps that stop at its declared size; errors are torch's miniz messages.
"""
import io
import struct
import zlib

from . import _C

_ALIGNMENT = 64
_U32_MAX = 0xFFFFFFFF
_M64 = (1 << 64) - 1


def _hash_combine(seed, value):
    """c10::hash_combine on 64-bit size_t."""
    return (seed ^ ((value + 0x9E3779B9 + ((seed << 6) & _M64) + (seed >> 2)) & _M64)) & _M64


def archive_name(path):
    """inline_container.cc basename(): after the last '/' or '\\', up to the last '.'."""
    start = max(path.rfind("/"), path.rfind("\\")) + 1
    if start >= len(path):
        return ""
    dot = path.rfind(".", start)
    return path[start : dot if dot != -1 else len(path)]


class ZipWriter:
    """Writes records to a binary file object `out`; call write_end_of_file() once at the end."""

    def __init__(self, out, name):
        if not name:
            raise RuntimeError(f"invalid file name: {name}")
        self.out, self.prefix = out, name + "/"
        self.pos = 0
        self.central = []  # (full_name, flags, crc, size, header_offset)
        self.written = []  # record names in write order (serialization id)
        self.combined_crc = 0

    def _write(self, data):
        # Mirrors ostream_write_func: any write that starts with a data-descriptor signature feeds
        # the CRC combination (torch reads the CRC back from the bytes it writes).
        if len(data) >= 8 and data[:4] == b"PK\x07\x08":
            self.combined_crc = _hash_combine(self.combined_crc, struct.unpack_from("<I", data, 4)[0])
        self.out.write(data)
        self.pos += len(data)

    def write_record(self, name, data):
        data = bytes(data)
        full = (self.prefix + name).encode("utf-8")
        size = len(data)
        if size >= _U32_MAX or self.pos >= _U32_MAX:
            raise NotImplementedError("densecore.save: records or archives of 4 GiB or more (zip64 extras)")
        start = self.pos + 30 + len(full) + 4
        pad = (_ALIGNMENT - start % _ALIGNMENT) % _ALIGNMENT
        extra = b"FB" + struct.pack("<H", pad) + b"Z" * pad
        flags = 0x0808 if size else 0x0800  # data descriptor follows (only when there is data) | UTF-8
        crc = zlib.crc32(data) if size else 0
        header = struct.pack("<IHHHHHIIIHH", 0x04034B50, 0, flags, 0, 0, 0, 0, 0, 0, len(full), len(extra))
        offset = self.pos
        self._write(header + full + extra)
        if size:
            self._write(data)
            self._write(struct.pack("<IIII", 0x08074B50, crc, size, size))
        self.central.append((full, flags, crc, size, offset))
        self.written.append(name)

    def write_end_of_file(self):
        self.write_record("version", b"3\n")
        sid = _C._serialization_id(self.written, self.combined_crc)
        self.write_record(".data/serialization_id", sid.encode("ascii"))
        cd_offset = self.pos
        for full, flags, crc, size, offset in self.central:
            self._write(struct.pack("<IHHHHHHIIIHHHHHII", 0x02014B50, 0, 0, flags, 0, 0, 0, crc, size, size,
                                    len(full), 0, 0, 0, 0, 0, offset) + full)
        cd_size = self.pos - cd_offset
        n = len(self.central)
        eocd64 = self.pos
        self._write(struct.pack("<IQHHIIQQQQ", 0x06064B50, 44, 0x031E, 0x002D, 0, 0, n, n, cd_size, cd_offset))
        self._write(struct.pack("<IIQI", 0x07064B50, 0, eocd64, 1))
        self._write(struct.pack("<IHHHHIIH", 0x06054B50, 0, 0, min(n, 0xFFFF), min(n, 0xFFFF),
                                min(cd_size, _U32_MAX), min(cd_offset, _U32_MAX), 0))


# ---------------------------------------------------------------------------------------------
# Reading
# ---------------------------------------------------------------------------------------------
_MINIZ_HINT = (
    ". This is an internal miniz error. If you are seeing this error, there is a high likelihood that your "
    "checkpoint file is corrupted. This can happen if the checkpoint was not saved properly, was transferred "
    "incorrectly, or the file was modified after saving."
)
_EOCD = struct.Struct("<IHHHHIIH")  # end of central directory
_EOCD64_LOCATOR = struct.Struct("<IIQI")
_EOCD64 = struct.Struct("<IQHHIIQQQQ")
_CENTRAL = struct.Struct("<IHHHHHHIIIHHHHHII")  # central directory file header (without the name)
_LOCAL = struct.Struct("<IHHHHHIIIHH")  # local file header (without the name)
_EOCD_SEARCH = 0xFFFF + _EOCD.size  # the EOCD sits within the last 64 KiB + its size (a comment precedes it)
_INFLATE_STEP = 1 << 20  # compressed bytes read per step
# Deflate codes at most 258 bytes in 2 bits, so no stream inflates by more than 1032 to 1: a record declaring
# more is corrupt, and is refused before any memory is set aside for it.
_MAX_INFLATE_RATIO = 1032


def miniz_error(what, detail):
    """torch's PyTorchStreamReader::valid(): `what` is e.g. "reading zip archive" or "reading file data/0"."""
    return RuntimeError(f"PytorchStreamReader failed {what}: {detail}{_MINIZ_HINT}")


def _corrupt():
    return miniz_error("reading zip archive", "invalid header or archive is corrupted")


class ZipEntry:
    __slots__ = ("name", "method", "flags", "csize", "usize", "header_offset")

    def __init__(self, name, method, flags, csize, usize, header_offset):
        self.name, self.method, self.flags = name, method, flags
        self.csize, self.usize, self.header_offset = csize, usize, header_offset


class ZipReader:
    """The records of the zip archive in the seekable binary file `f`, from its current position on (torch's
    reader treats that position as the start of the archive)."""

    def __init__(self, f):
        self.f = f
        self.start = f.tell()
        f.seek(0, 2)
        self.size = f.tell() - self.start
        if self.size < _EOCD.size:
            raise miniz_error("reading zip archive", "not a ZIP archive")
        count, cd_size, cd_offset = self._end_of_central_directory()
        self.entries = self._central_directory(count, cd_size, cd_offset)
        self.by_name = {}
        for e in self.entries:  # miniz compares names ignoring ASCII case; the first of duplicates wins
            self.by_name.setdefault(e.name.lower(), e)

    # -- layout --------------------------------------------------------------------------------
    def _read_at(self, offset, n):
        """n bytes at `offset` (checked to lie inside the archive)."""
        if offset < 0 or n < 0 or offset + n > self.size:
            raise _corrupt()
        self.f.seek(self.start + offset)
        data = self.f.read(n)
        if len(data) != n:
            raise miniz_error("reading zip archive", "file read failed")
        return data

    def _end_of_central_directory(self):
        """(entry count, directory size, directory offset) from the end records, checked as miniz checks them."""
        tail_len = min(self.size, _EOCD_SEARCH)
        tail = self._read_at(self.size - tail_len, tail_len)
        pos = tail.rfind(b"PK\x05\x06", 0, tail_len - _EOCD.size + 4)  # a whole record must follow
        if pos < 0:
            raise miniz_error("reading zip archive", "failed finding central directory")
        eocd_at = self.size - tail_len + pos
        _, disk, cd_disk, count_here, count, cd_size, cd_offset, _ = _EOCD.unpack_from(tail, pos)
        zip64 = self._zip64_end(eocd_at)
        if zip64 is not None:
            disks, (_, record_size, _, _, disk, cd_disk, count_here, count, cd_size, cd_offset) = zip64
            if record_size < _EOCD64.size - 12:
                raise _corrupt()
            if disks != 1:
                raise miniz_error("reading zip archive", "unsupported multidisk archive")
            if count > _U32_MAX or count_here > _U32_MAX:
                raise miniz_error("reading zip archive", "too many files")
            if cd_size > _U32_MAX:
                raise miniz_error("reading zip archive", "unsupported central directory size")
        if count != count_here or ((disk | cd_disk) != 0 and (disk != 1 or cd_disk != 1)):
            raise miniz_error("reading zip archive", "unsupported multidisk archive")
        if cd_size < count * _CENTRAL.size or cd_offset + cd_size > self.size:
            raise _corrupt()
        return count, cd_size, cd_offset

    def _zip64_end(self, eocd_at):
        """(disk count, zip64 end record fields) when a zip64 locator precedes the end record and points at a
        zip64 end record; None otherwise (then the 32-bit fields stand)."""
        if eocd_at < _EOCD64_LOCATOR.size:
            return None
        sig, _, eocd64_at, disks = _EOCD64_LOCATOR.unpack(self._read_at(eocd_at - _EOCD64_LOCATOR.size,
                                                                        _EOCD64_LOCATOR.size))
        if sig != 0x07064B50:
            return None
        if eocd64_at > self.size - _EOCD64.size:
            raise miniz_error("reading zip archive", "not a ZIP archive")
        record = _EOCD64.unpack(self._read_at(eocd64_at, _EOCD64.size))
        return (disks, record) if record[0] == 0x06064B50 else None

    def _central_directory(self, count, cd_size, cd_offset):
        cd = self._read_at(cd_offset, cd_size)
        entries, pos = [], 0
        for _ in range(count):
            if pos + _CENTRAL.size > cd_size:
                raise _corrupt()
            (sig, _, _, flags, method, mtime, _, _, csize, usize, name_len, extra_len, comment_len, disk, _, _,
             offset) = _CENTRAL.unpack_from(cd, pos)
            end = pos + _CENTRAL.size + name_len + extra_len + comment_len
            if sig != 0x02014B50 or end > cd_size:
                raise _corrupt()
            name = cd[pos + _CENTRAL.size : pos + _CENTRAL.size + name_len]
            extra = cd[pos + _CENTRAL.size + name_len : pos + _CENTRAL.size + name_len + extra_len]
            # miniz checks the 32-bit fields as written (0xFFFFFFFF: "see the zip64 field", checked on reading),
            # and takes an entry as STORED only if method and modification time (read as one 32-bit word) are 0
            stored = method == 0 and mtime == 0
            if csize != _U32_MAX and usize != _U32_MAX and ((stored and usize != csize) or (usize and not csize)):
                raise _corrupt()
            if flags & 0x2000:  # central directory encrypted ("masked" local headers)
                raise miniz_error("reading zip archive", "unsupported encryption")
            if disk not in (0, 1):
                raise miniz_error("reading zip archive", "unsupported multidisk archive")
            if csize != _U32_MAX and offset + _LOCAL.size + csize > self.size:
                raise _corrupt()
            usize, csize, offset = _zip64_sizes(extra, usize, csize, offset)
            entries.append(ZipEntry(name, method, flags, csize, usize, offset))
            pos = end
        return entries

    # -- records ---------------------------------------------------------------------------------
    def names(self):
        """Record names (bytes) in central-directory order."""
        return [e.name for e in self.entries]

    def find(self, name):
        """The entry of `name` (str, the full name in the archive), or None."""
        return self.by_name.get(name.encode("utf-8", "surrogateescape").lower())

    def check(self, e, what):
        """Where record `e`'s data starts (None for an empty record), after every check that needs no more than
        its headers: encryption, method, the local header, the data inside the file, a DEFLATED size deflate
        could produce. Nothing is allocated; torch's reader fails on these before anything else too."""
        return self._data_offset(e, what)

    def _data_offset(self, e, what):
        if e.flags & 0x41:  # encrypted, or strongly encrypted
            raise miniz_error(f"retrieving file meta-data for {what}", "unsupported encryption")
        if e.flags & 0x20:  # compressed patched data
            raise miniz_error(f"retrieving file meta-data for {what}", "unsupported feature")
        if e.method not in (0, 8):
            raise miniz_error(f"retrieving file meta-data for {what}", "unsupported method")
        if e.csize == 0:  # miniz extracts an empty record without reading its local header
            if e.usize:  # (torch would hand back e.usize uninitialised bytes)
                raise miniz_error(f"reading file {what}", "unexpected decompressed size")
            return None
        header = self._read_at(e.header_offset, _LOCAL.size)
        sig, *_, name_len, extra_len = _LOCAL.unpack(header)
        data_at = e.header_offset + _LOCAL.size + name_len + extra_len
        if sig != 0x04034B50 or data_at + e.csize > self.size:
            raise miniz_error(f"reading file {what}", "invalid header or archive is corrupted")
        if e.method == 0 and data_at + e.usize > self.size:  # STORED reads usize bytes (they can differ from
            raise miniz_error(f"reading file {what}", "file read failed")  # csize when one is 0xFFFFFFFF)
        if e.method == 8 and e.usize > e.csize * _MAX_INFLATE_RATIO:
            raise miniz_error(f"reading file {what}", "unexpected decompressed size")
        return data_at

    def read(self, e, what):
        """The whole record `e` as a bytearray; `what` names it in errors (torch's name without the folder).
        Its headers are checked before the e.usize bytes are allocated."""
        self.check(e, what)
        out = bytearray(e.usize)
        self.read_into(e, memoryview(out), what)
        return out

    def read_into(self, e, view, what):
        """Fills the writable memoryview `view` (e.usize bytes) with record `e`."""
        data_at = self._data_offset(e, what)
        if data_at is None:  # an empty record
            return
        if e.method == 0:
            self.f.seek(self.start + data_at)
            _read_exactly_into(self.f, view, what)
        else:
            filled = 0
            for chunk in _inflated(self.f, self.start + data_at, e.csize, e.usize, what):
                view[filled : filled + len(chunk)] = chunk
                filled += len(chunk)

    def stream(self, e, what, whole_up_to):
        """A file-like reader (read, readline) over record `e`: read whole if STORED or at most `whole_up_to`
        bytes; otherwise inflated only as far as the reader asks, so a huge declared size costs nothing until
        it is read."""
        if e.method == 0 or e.usize <= whole_up_to:
            return io.BytesIO(bytes(self.read(e, what)))
        data_at = self._data_offset(e, what)  # not None: usize > whole_up_to >= 0 so csize > 0
        return _InflateStream(self.f, self.start + data_at, e.csize, e.usize, what)


def _zip64_sizes(extra, usize, csize, offset):
    """Replaces the 32-bit fields that are 0xFFFFFFFF by the values of the zip64 extended-information extra
    field, when there is one (miniz takes 0xFFFFFFFF literally when the entry has no such field)."""
    wanted = [v == _U32_MAX for v in (usize, csize, offset)]
    pos = 0
    while any(wanted) and pos + 4 <= len(extra):
        tag, n = struct.unpack_from("<HH", extra, pos)
        body = extra[pos + 4 : pos + 4 + n]
        if tag == 1:
            values, at = [usize, csize, offset], 0
            for i, w in enumerate(wanted):
                if w:
                    if at + 8 > len(body):
                        raise _corrupt()
                    values[i] = struct.unpack_from("<Q", body, at)[0]
                    at += 8
            return tuple(values)
        pos += 4 + n
    return usize, csize, offset


def _inflated(f, offset, csize, usize, what):
    """Yields the inflated bytes of the raw deflate stream of `csize` bytes at absolute `offset` in f, in
    chunks of at most one step, and stops once `usize` bytes came out (torch's miniz stops at the declared
    size too). Seeks before every read, so other records can be read between two chunks."""
    d = zlib.decompressobj(-15)
    left_in, left_out, pending = csize, usize, b""
    while left_out:
        if not pending and left_in:
            f.seek(offset)
            pending = f.read(min(left_in, _INFLATE_STEP))
            if not pending:
                raise miniz_error(f"reading file {what}", "file read failed")
            offset += len(pending)
            left_in -= len(pending)
        try:
            chunk = d.decompress(pending, min(left_out, _INFLATE_STEP))
        except zlib.error:
            raise miniz_error(f"reading file {what}", "decompression failed") from None
        pending = d.unconsumed_tail
        if not chunk and (d.eof or (not pending and not left_in)):
            raise miniz_error(f"reading file {what}", "unexpected decompressed size")
        left_out -= len(chunk)
        if chunk:
            yield chunk


def _read_exactly_into(f, view, what):
    filled = 0
    while filled < len(view):
        n = f.readinto(view[filled:]) if hasattr(f, "readinto") else _read_into_via_read(f, view[filled:])
        if not n:
            raise miniz_error(f"reading file {what}", "file read failed")
        filled += n


def _read_into_via_read(f, view):
    data = f.read(len(view))
    view[: len(data)] = data
    return len(data)


class _InflateStream:
    """read(n)/readline() over a DEFLATED record, inflating on demand; never yields more than the declared size.
    A corrupt or short stream raises torch's miniz error when the reader gets to it."""

    def __init__(self, f, offset, csize, usize, what):
        self.chunks = _inflated(f, offset, csize, usize, what)
        self.buf = bytearray()
        self.done = False

    def _more(self):
        chunk = next(self.chunks, None)
        if chunk is None:
            self.done = True
        else:
            self.buf += chunk

    def read(self, n=-1):
        while (n < 0 or len(self.buf) < n) and not self.done:
            self._more()
        data = bytes(self.buf if n < 0 else self.buf[:n])
        del self.buf[: len(data)]
        return data

    def readline(self):
        while b"\n" not in self.buf and not self.done:
            self._more()
        end = self.buf.find(b"\n")
        return self.read(end + 1 if end >= 0 else len(self.buf))

    def drain(self):
        """Inflates (and drops) the rest of the record, so a stream that ends short is reported as torch
        reports it (it reads the whole record first); memory stays bounded by one step."""
        self.buf.clear()
        for _ in self.chunks:
            pass
        self.done = True
