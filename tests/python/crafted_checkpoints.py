"""Hand-made checkpoint files for the loader tests and scripts/fuzz_load.py: protocol-2 pickle opcodes and zip
archives laid out byte by byte, so a test can write what torch.save never would (sizes that overflow, offsets
past the end, records that inflate to gigabytes, headers that lie). Needs neither torch nor DenseCore."""
import struct
import zlib


# ---------------------------------------------------------------------------------------------
# Pickle opcodes (protocol 2, the subset torch's weights-only unpickler reads)
# ---------------------------------------------------------------------------------------------
def p_int(v):
    if 0 <= v < 256:
        return b"K" + bytes([v])
    if 0 <= v < 65536:
        return b"M" + struct.pack("<H", v)
    if -(2**31) <= v < 2**31:
        return b"J" + struct.pack("<i", v)
    n = (v.bit_length() + 8) // 8
    return b"\x8a" + bytes([n]) + v.to_bytes(n, "little", signed=True)


def p_float(v):
    return b"G" + struct.pack(">d", v)


def p_str(s):
    b = s.encode("utf-8")
    return b"X" + struct.pack("<I", len(b)) + b


def p_tuple(items):
    return b"(" + b"".join(items) + b"t"


def p_ints(values):
    return p_tuple([p_int(v) for v in values])


def p_global(module, name):
    return b"c" + module.encode() + b"\n" + name.encode() + b"\n"


P_NONE, P_TRUE, P_FALSE = b"N", b"\x88", b"\x89"
P_ORDERED_DICT = p_global("collections", "OrderedDict") + b")R"


def storage_pid(numel, storage="FloatStorage", key="0", location="cpu"):
    """The persistent id torch.save writes for a storage, followed by BINPERSID."""
    return p_tuple([p_str("storage"), p_global("torch", storage), p_str(key), p_str(location), p_int(numel)]) + b"Q"


def rebuild_v2(pid, offset, size, stride, requires_grad=P_FALSE):
    """_rebuild_tensor_v2(storage, offset, size, stride, requires_grad, OrderedDict()) as opcodes (no PROTO/STOP)."""
    args = [pid, p_int(offset) if isinstance(offset, int) else offset,
            p_ints(size) if isinstance(size, (tuple, list)) else size,
            p_ints(stride) if isinstance(stride, (tuple, list)) else stride, requires_grad, P_ORDERED_DICT]
    return p_global("torch._utils", "_rebuild_tensor_v2") + p_tuple(args) + b"R"


def rebuild_v3(pid, offset, size, stride, dtype, requires_grad=P_FALSE):
    args = [pid, p_int(offset), p_ints(size), p_ints(stride), requires_grad, P_ORDERED_DICT, p_global("torch", dtype)]
    return p_global("torch._utils", "_rebuild_tensor_v3") + p_tuple(args) + b"R"


def pickle_of(body):
    """A whole data.pkl: PROTO 2, the opcodes of one object, STOP."""
    return b"\x80\x02" + body + b"."


def tensor_pickle(size, stride, offset=0, numel=4, storage="FloatStorage", key="0"):
    """data.pkl of a single tensor over storage `key` of `numel` elements."""
    return pickle_of(rebuild_v2(storage_pid(numel, storage, key), offset, size, stride))


# ---------------------------------------------------------------------------------------------
# Zip archives
# ---------------------------------------------------------------------------------------------
class Entry:
    """One record as it will be laid out: `payload` is the bytes stored in the file (already deflated when
    method is 8); the header fields default to the truthful values and can each be overridden."""

    def __init__(self, name, data, method=0, usize=None, csize=None, crc=None, flags=0, offset=None,
                 central_extra=b""):
        self.name = name.encode("utf-8", "surrogateescape") if isinstance(name, str) else name
        self.method, self.flags = method, flags
        if method == 8:
            c = zlib.compressobj(9, zlib.DEFLATED, -15)
            self.payload = c.compress(data) + c.flush()
        else:
            self.payload = data
        self.usize = len(data) if usize is None else usize
        self.csize = len(self.payload) if csize is None else csize
        self.crc = zlib.crc32(data) if crc is None else crc
        self.offset = offset  # the central directory's local-header offset; None: where it really is
        self.central_extra = central_extra  # extra field of the central directory entry (zip64 sizes...)


def zip64_sized(name, data):
    """An entry whose central directory sizes are 0xFFFFFFFF with the true ones in a zip64 extra field (what
    torch.save writes for records of 4 GiB or more, here for a small one)."""
    extra = struct.pack("<HHQQ", 1, 16, len(data), len(data))
    return Entry(name, data, usize=0xFFFFFFFF, csize=0xFFFFFFFF, central_extra=extra)


def raw_deflate(data):
    c = zlib.compressobj(9, zlib.DEFLATED, -15)
    return c.compress(data) + c.flush()


def zip_bytes(entries, zip64=False, disk=0):
    """A zip archive of `entries` (Entry objects) in order: local headers and payloads, the central directory,
    optionally zip64 end records (as torch writes them), and the end-of-central-directory record."""
    out, central = bytearray(), bytearray()
    for e in entries:
        at = len(out)
        out += struct.pack("<IHHHHHIIIHH", 0x04034B50, 20, e.flags, e.method, 0, 0, e.crc, e.csize & 0xFFFFFFFF,
                           e.usize & 0xFFFFFFFF, len(e.name), 0) + e.name + e.payload
        central += struct.pack("<IHHHHHHIIIHHHHHII", 0x02014B50, 20, 20, e.flags, e.method, 0, 0, e.crc,
                               e.csize & 0xFFFFFFFF, e.usize & 0xFFFFFFFF, len(e.name), len(e.central_extra), 0,
                               0, 0, 0, (at if e.offset is None else e.offset) & 0xFFFFFFFF) + e.name + \
            e.central_extra
    cd_at, n = len(out), len(entries)
    out += central
    if zip64:
        eocd64 = len(out)
        out += struct.pack("<IQHHIIQQQQ", 0x06064B50, 44, 0x031E, 0x002D, disk, 0, n, n, len(central), cd_at)
        out += struct.pack("<IIQI", 0x07064B50, 0, eocd64, 1)
    out += struct.pack("<IHHHHIIH", 0x06054B50, disk, 0, n, n, len(central), cd_at, 0)
    return bytes(out)


def checkpoint(data_pkl, storages, prefix="archive", byteorder=b"little", version=b"3\n", deflate=(),
               extra=()):
    """A torch.save-like archive: data.pkl, byteorder (None: omitted), data/<key> for each storage, version.
    Records named in `deflate` ("data.pkl", "data/0"...) are DEFLATED; `extra` entries are appended."""
    def entry(name, data):
        return Entry(f"{prefix}/{name}", data, method=8 if name in deflate else 0)

    entries = [entry("data.pkl", data_pkl)]
    if byteorder is not None:
        entries.append(entry("byteorder", byteorder))
    entries += [entry(f"data/{k}", v) for k, v in storages.items()]
    if version is not None:
        entries.append(entry("version", version))
    return zip_bytes(entries + list(extra))


FOUR_FLOATS = struct.pack("<4f", 1.0, 2.0, 3.0, 4.0)


def one_tensor_file(size, stride, offset=0, numel=4, data=FOUR_FLOATS, **kwargs):
    """A checkpoint holding one float tensor with the given layout over `data`."""
    return checkpoint(tensor_pickle(size, stride, offset, numel), {"0": data}, **kwargs)


def record_spans(archive):
    """(start, end) of every local header + payload in a zip made by zip_bytes or torch.save, for cutting
    an archive at its record boundaries."""
    spans, pos = [], 0
    while archive[pos : pos + 4] == b"PK\x03\x04":
        csize, _, name_len, extra_len = struct.unpack_from("<IIHH", archive, pos + 18)
        flags = struct.unpack_from("<H", archive, pos + 6)[0]
        end = pos + 30 + name_len + extra_len + csize
        if flags & 0x08:  # torch.save zeroes the local sizes and writes a data descriptor
            end = _descriptor_end(archive, pos + 30 + name_len + extra_len)
        spans.append((pos, end))
        pos = end
    return spans


def _descriptor_end(archive, data_at):
    """torch.save records with a data descriptor: find it (PK\\x07\\x08 crc csize usize) after the payload."""
    at = archive.find(b"PK\x07\x08", data_at)
    while at >= 0:
        csize = struct.unpack_from("<I", archive, at + 8)[0]
        if at - data_at == csize:
            return at + 16
        at = archive.find(b"PK\x07\x08", at + 1)
    return len(archive)
