"""The zip container of torch.save, byte for byte as PyTorch's patched miniz writes it
(caffe2/serialize/inline_container.cc PyTorchStreamWriter + third_party/miniz mz_zip_writer_add_mem_ex_v2):
STORED records under one folder, each record's data 64-byte aligned by an 'FB' local extra field,
zeroed local CRC/sizes + data descriptor, zip64 end records always present, DOS time 0."""
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
