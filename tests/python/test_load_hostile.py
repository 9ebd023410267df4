"""densecore.load on hand-made hostile and malformed checkpoints (tests/python/crafted_checkpoints.py): every size,
stride, offset and count the file gives is checked before use. Each oracle case loads the same file with torch
and with DenseCore and compares the result (bitwise) or the exception (class, and message where DenseCore takes
torch's); the notorch tests cover what torch itself gets wrong (it crashes, hangs, reads uninitialised memory or
allocates what the file never held) and check that DenseCore fails fast and cleanly there."""
import os
import struct
import time

import crafted_checkpoints as cc
import oracle
import pytest

F = cc.FOUR_FLOATS
LOAD = """t = torch.load(PATH)
out = [t, list(t.stride()), t.storage_offset(), t.requires_grad] if isinstance(t, torch.Tensor) else t"""


def _load_cases(tmp_path, files):
    """{name: code loading tmp_path/<name>.pt}, after writing each file."""
    cases = {}
    for name, data in files.items():
        path = str(tmp_path / f"{name}.pt")
        with open(path, "wb") as fh:
            fh.write(data)
        cases[name] = oracle.same_as_torch(LOAD.replace("PATH", repr(path)))
    return cases


# ---------------------------------------------------------------------------------------------
# Tensor layouts (torch._utils._rebuild_tensor -> Tensor.set_): torch's checks, order and messages
# ---------------------------------------------------------------------------------------------
LAYOUTS = {
    # the case: (size-1)*stride wraps; before the fix this returned a tensor aliasing the heap
    "size_2p62_stride4": ((2**62 + 1,), (4,), 0),
    "one_past_the_end": ((5,), (1,), 0),
    "offset_past_the_end": ((2,), (1,), 3),
    "negative_stride": ((2,), (-1,), 3),
    "negative_stride_on_size_1": ((1,), (-1,), 2),  # allowed; torch rewrites the stride to 1
    "negative_strides_2d": ((2, 1), (1, -5), 0),
    "negative_size": ((-1,), (1,), 0),
    "negative_offset": ((1,), (1,), -1),
    "fewer_strides_than_sizes": ((2, 2), (1,), 0),
    "offset_2p62": ((1,), (1,), 2**62),
    "offset_int64_max": ((1,), (1,), 2**63 - 1),
    "numel_overflows": ((2**32, 2**32), (0, 0), 0),
    "numel_overflows_before_a_zero": ((2**32, 2**32, 0), (1, 1, 1), 0),
    "empty_with_huge_strides": ((0, 2**62), (2**62, 2**62), 0),
    "scalar": ((), (), 3),
    "scalar_past_the_end": ((), (), 4),
    "broadcast_stride_0": ((1000,), (0,), 3),
    "transposed_view": ((2, 2), (1, 2), 0),
    "stride_sum_overflows": ((3, 3), (2**62, 2**62), 0),
}


@pytest.mark.oracle
def test_tensor_layouts_match_torch(tmp_path):
    files = {name: cc.one_tensor_file(size, stride, offset) for name, (size, stride, offset) in LAYOUTS.items()}
    oracle.assert_cases_equal(_load_cases(tmp_path, files))


@pytest.mark.oracle
def test_rebuild_argument_types_match_torch(tmp_path):
    """Wrong types where set_/empty/the requires_grad setter expect ints, tuples and bools: torch's exception
    classes (its TypeError texts list set_'s overloads; DenseCore's name the argument instead)."""
    pid = cc.storage_pid(4)

    def v2(*args, fn="_rebuild_tensor_v2"):
        return cc.pickle_of(cc.p_global("torch._utils", fn) + cc.p_tuple(list(args)) + b"R")

    ints, od = cc.p_ints, cc.P_ORDERED_DICT
    pickles = {
        "offset_float": v2(pid, cc.p_float(0.0), ints((4,)), ints((1,)), cc.P_FALSE, od),
        "offset_bool": v2(pid, cc.P_TRUE, ints((3,)), ints((1,)), cc.P_FALSE, od),
        "offset_2p64": v2(pid, cc.p_int(2**64), ints((1,)), ints((1,)), cc.P_FALSE, od),
        "size_as_list": v2(pid, cc.p_int(0), b"](" + cc.p_int(4) + b"e", ints((1,)), cc.P_FALSE, od),
        "size_int": v2(pid, cc.p_int(0), cc.p_int(4), ints((1,)), cc.P_FALSE, od),
        "size_float_item": v2(pid, cc.p_int(0), cc.p_tuple([cc.p_float(4.0)]), ints((1,)), cc.P_FALSE, od),
        "size_2p63": v2(pid, cc.p_int(0), ints((4, 2**63)), ints((1, 1)), cc.P_FALSE, od),
        "stride_none": v2(pid, cc.p_int(0), ints((4,)), cc.P_NONE, cc.P_FALSE, od),
        "requires_grad_int": v2(pid, cc.p_int(0), ints((4,)), ints((1,)), cc.p_int(1), od),
        "requires_grad_true": v2(pid, cc.p_int(0), ints((2,)), ints((1,)), cc.P_TRUE, od),
        "requires_grad_true_int64": v2(cc.storage_pid(2, "LongStorage"), cc.p_int(0), ints((2,)), ints((1,)),
                                       cc.P_TRUE, od),
        "storage_is_int": v2(cc.p_int(5), cc.p_int(0), ints((2,)), ints((1,)), cc.P_FALSE, od),
        "too_few_args": v2(pid, cc.p_int(0), ints((2,))),
        "v3_dtype_int": v2(pid, cc.p_int(0), ints((2,)), ints((1,)), cc.P_FALSE, od, cc.p_int(3),
                           fn="_rebuild_tensor_v3"),
        "v3_float64_over_floats": v2(pid, cc.p_int(0), ints((2,)), ints((1,)), cc.P_FALSE, od,
                                     cc.p_global("torch", "float64"), fn="_rebuild_tensor_v3"),
        "v3_float64_past_the_end": v2(pid, cc.p_int(0), ints((3,)), ints((1,)), cc.P_FALSE, od,
                                      cc.p_global("torch", "float64"), fn="_rebuild_tensor_v3"),
        "v3_int64_requires_grad": v2(pid, cc.p_int(0), ints((2,)), ints((1,)), cc.P_TRUE, od,
                                     cc.p_global("torch", "int64"), fn="_rebuild_tensor_v3"),
    }
    files = {name: cc.checkpoint(p, {"0": F}) for name, p in pickles.items()}
    cases = _load_cases(tmp_path, files)
    # torch's texts list set_'s overloads, or append a C++ stack trace
    type_errors = {"offset_float", "offset_bool", "size_int", "size_float_item", "size_2p63"}
    oracle.assert_cases_equal({k: oracle.same_as_torch(oracle.code_of(v), message=r".*")
                               for k, v in cases.items() if k in type_errors})
    oracle.assert_cases_equal({k: v for k, v in cases.items() if k not in type_errors})


# ---------------------------------------------------------------------------------------------
# Storage records: the pickle's numel against the record's declared size, before anything is read
# ---------------------------------------------------------------------------------------------
@pytest.mark.oracle
def test_storage_record_sizes_match_torch(tmp_path):
    def pid_file(numel, storage="FloatStorage", records=None, key="0", location="cpu"):
        pkl = cc.pickle_of(cc.rebuild_v2(cc.storage_pid(numel, storage, key, location), 0, (1,), (1,)))
        return cc.checkpoint(pkl, {"0": F} if records is None else records)

    files = {
        "record_shorter_than_numel": pid_file(1000),
        "record_longer_than_numel": pid_file(1),
        "numel_times_itemsize_2p63": pid_file(2**61),
        "odd_record_for_floats": pid_file(1, records={"0": b"abc"}),
        "missing_record": pid_file(4, records={}),
        "numel_true": pid_file(True, storage="ByteStorage", records={"0": b"\x07"}),
        "location_cpu_7": pid_file(4, location="cpu:7"),
        "location_cuda": pid_file(4, location="cuda:0"),
        "byte_storage_as_floats": cc.checkpoint(
            cc.pickle_of(cc.rebuild_v3(cc.storage_pid(16, "ByteStorage"), 0, (4,), (1,), "float32")), {"0": F}),
    }
    cases = _load_cases(tmp_path, files)
    # numel beyond what a size_t holds: pybind's TypeError names the reader object's address in torch
    for name, numel in {"numel_negative": -4, "numel_2p64": 2**64, "numel_float": 4.0}.items():
        pkl = cc.pickle_of(cc.rebuild_v2(cc.storage_pid(4), 0, (1,), (1,)))
        pkl = pkl.replace(cc.p_int(4) + b"tQ", (cc.p_int(numel) if isinstance(numel, int) else cc.p_float(numel))
                          + b"tQ")
        path = str(tmp_path / f"{name}.pt")
        with open(path, "wb") as fh:
            fh.write(cc.checkpoint(pkl, {"0": F}))
        oracle.assert_cases_equal({name: oracle.same_as_torch(LOAD.replace("PATH", repr(path)), message=r".*")})
    oracle.assert_cases_equal(cases)


@pytest.mark.oracle
def test_compressed_and_unusual_zips_match_torch(tmp_path):
    """Archives torch's miniz reader accepts though torch.save never writes them: DEFLATED records, zip64 end
    records, names in another case, duplicate names, a record past its declared size being ignored."""
    pkl = cc.tensor_pickle((4,), (1,))
    files = {
        "deflated_storage": cc.checkpoint(pkl, {"0": F}, deflate=("data/0",)),
        "deflated_pickle": cc.checkpoint(pkl, {"0": F}, deflate=("data.pkl",)),
        "zip64_end_records": cc.zip_bytes([cc.Entry("archive/data.pkl", pkl), cc.Entry("archive/data/0", F),
                                           cc.Entry("archive/version", b"3\n")], zip64=True),
        "zip64_record_sizes": cc.zip_bytes([cc.Entry("archive/data.pkl", pkl), cc.zip64_sized("archive/data/0", F),
                                            cc.Entry("archive/version", b"3\n")], zip64=True),
        "zip64_sizes_without_extra": cc.zip_bytes([cc.Entry("archive/data.pkl", pkl),
                                                   cc.Entry("archive/data/0", F, usize=0xFFFFFFFF, csize=0xFFFFFFFF),
                                                   cc.Entry("archive/version", b"3\n")], zip64=True),
        "upper_case_names": cc.zip_bytes([cc.Entry("archive/DATA.PKL", pkl), cc.Entry("archive/Data/0", F),
                                          cc.Entry("archive/VERSION", b"3\n")]),
        "duplicate_record": cc.checkpoint(pkl, {"0": F}, extra=[cc.Entry("archive/data/0", F[::-1])]),
        "no_byteorder_record": cc.checkpoint(pkl, {"0": F}, byteorder=None),
        "dot_data_version_wins": cc.checkpoint(pkl, {"0": F}, version=b"99\n",
                                               extra=[cc.Entry("archive/.data/version", b"3\n")]),
    }
    oracle.assert_cases_equal(_load_cases(tmp_path, files))


# ---------------------------------------------------------------------------------------------
# Zip structure: sizes, counts and offsets in the headers
# ---------------------------------------------------------------------------------------------
def _with_central_field(archive, entry_index, offset_in_header, fmt, value):
    """`archive` with one field of the entry_index-th central directory header replaced."""
    at = -1
    for _ in range(entry_index + 1):
        at = archive.index(b"PK\x01\x02", at + 1)
    out = bytearray(archive)
    struct.pack_into(fmt, out, at + offset_in_header, value)
    return bytes(out)


@pytest.mark.oracle
def test_zip_headers_match_torch(tmp_path):
    pkl = cc.tensor_pickle((4,), (1,))
    good = cc.checkpoint(pkl, {"0": F})
    eocd = good.rindex(b"PK\x05\x06")
    files = {
        "truncated_to_10_bytes": good[:10],
        "truncated_in_first_record": good[:100],
        "truncated_before_directory_end": good[: len(good) - 1],
        "local_header_offset_past_end": _with_central_field(good, 2, 42, "<I", 10**6),
        "sizes_past_end": _with_central_field(_with_central_field(good, 2, 20, "<I", 10**6), 2, 24, "<I", 10**6),
        "stored_sizes_disagree": _with_central_field(good, 2, 24, "<I", 12),
        # miniz reads method and time as one 32-bit word: with a time set, the sizes are not compared
        "stored_sizes_disagree_time_set": _with_central_field(_with_central_field(good, 2, 24, "<I", 12), 2, 12, "<H",
                                                              0x0100),
        # 0xFFFFFFFF passes the directory checks (it means "see zip64"): reading 4 GiB then fails, unallocated
        "stored_pickle_declares_4gib": _with_central_field(good, 0, 24, "<I", 0xFFFFFFFF),
        "method_12": _with_central_field(good, 2, 10, "<H", 12),
        "encrypted_flag": _with_central_field(good, 2, 8, "<H", 1),
        "multidisk": good[: eocd + 4] + struct.pack("<H", 1) + good[eocd + 6 :],
        "directory_offset_past_end": good[: eocd + 16] + struct.pack("<I", len(good)) + good[eocd + 20 :],
        "entry_count_too_big": good[: eocd + 8] + struct.pack("<HH", 200, 200) + good[eocd + 12 :],
        "local_signature_broken": _break_local_signature(good, 2),
        "zero_entries": _zero_entries(good),
        "file_not_in_folder": cc.zip_bytes([cc.Entry("data.pkl", pkl), cc.Entry("archive/version", b"3\n")]),
        "two_folders": cc.zip_bytes([cc.Entry("archive/data.pkl", pkl), cc.Entry("other/data/0", F),
                                     cc.Entry("archive/version", b"3\n")]),
        "no_data_pkl": cc.zip_bytes([cc.Entry("archive/data/0", F), cc.Entry("archive/version", b"3\n")]),
        "deflated_record_declares_more": cc.zip_bytes([cc.Entry("archive/data.pkl", pkl, method=8, usize=1000),
                                                       cc.Entry("archive/data/0", F),
                                                       cc.Entry("archive/version", b"3\n")]),
    }
    oracle.assert_cases_equal(_load_cases(tmp_path, files))


def _flagged(entry, flags):
    entry.flags = flags
    return entry


def _break_local_signature(archive, entry_index):
    at = -1
    for _ in range(entry_index + 1):
        at = archive.index(b"PK\x03\x04", at + 1)
    return archive[:at] + b"PK\x03\x05" + archive[at + 4 :]


def _zero_entries(archive):
    """The same bytes with a central directory of no entries (the first local header still there)."""
    cd, eocd = archive.index(b"PK\x01\x02"), archive.rindex(b"PK\x05\x06")
    return archive[:cd] + archive[eocd : eocd + 8] + b"\0" * 8 + struct.pack("<I", cd) + b"\0\0"


@pytest.mark.oracle
def test_version_and_side_records_match_torch(tmp_path):
    pkl = cc.tensor_pickle((4,), (1,))
    versions = {"none": None, "abc": b"abc\n", "zero": b"0\n", "eleven": b"11\n", "ten": b"10", "minus_one": b"-1",
                "spaces": b"  7", "trailing_text": b"3abc", "too_long": b"99999999999999999999999", "empty": b"",
                "hex": b"0x3", "plus": b"+3", "wraps_to_minus_one": b"18446744073709551615",
                "minus_wraps_to_one": b"-18446744073709551615"}
    files = {f"version_{k}": cc.checkpoint(pkl, {"0": F}, version=v) for k, v in versions.items()}
    files["byteorder_middle"] = cc.checkpoint(pkl, {"0": F}, byteorder=b"middle")
    files["storage_alignment_junk"] = cc.checkpoint(pkl, {"0": F},
                                                    extra=[cc.Entry("archive/.storage_alignment", b"1e3")])
    files["storage_alignment_spaces"] = cc.checkpoint(pkl, {"0": F},
                                                      extra=[cc.Entry("archive/.storage_alignment", b" 64\n")])
    files["format_version_junk"] = cc.checkpoint(pkl, {"0": F}, extra=[cc.Entry("archive/.format_version", b"\xff")])
    files["torchscript"] = cc.checkpoint(pkl, {"0": F}, extra=[cc.Entry("archive/constants.pkl", b"")])
    oracle.assert_cases_equal(_load_cases(tmp_path, files))


# ---------------------------------------------------------------------------------------------
# Big-endian checkpoints: swapped natively to torch's bits
# ---------------------------------------------------------------------------------------------
BIG_ENDIAN_SOURCE = r'''
import struct, zipfile
d = {"f32": torch.arange(5, dtype=torch.float32) / 3, "f64": torch.arange(3, dtype=torch.float64) / 7,
     "i64": torch.arange(4) * -(2**40), "i32": torch.arange(3, dtype=torch.int32) - 7,
     "i16": torch.arange(3, dtype=torch.int16) * 300, "f16": torch.arange(4, dtype=torch.float16) / 3,
     "bf16": torch.arange(4, dtype=torch.bfloat16) / 3, "u8": torch.arange(250, 256, dtype=torch.uint8),
     "bool": torch.arange(3) > 0, "i8": torch.arange(3, dtype=torch.int8) - 1, "empty": torch.empty(0)}
torch.save(d, SRC)
sizes = [t.element_size() for t in d.values()]  # storage keys are "0", "1"... in this order
with zipfile.ZipFile(SRC) as zin, zipfile.ZipFile(DST, "w", zipfile.ZIP_STORED) as zout:
    for info in zin.infolist():
        data = zin.read(info)
        if info.filename.endswith("/byteorder"):
            data = b"big"
        elif "/data/" in info.filename:
            n = sizes[int(info.filename.rsplit("/", 1)[1])]
            data = b"".join(data[i : i + n][::-1] for i in range(0, len(data), n))
        zout.writestr(info.filename, data)
out = True
'''


@pytest.mark.oracle
def test_big_endian_file_loads_to_torchs_bits(tmp_path):
    """A checkpoint whose storages are big-endian (byteorder record "big", as torch.save writes on such a
    machine; made here by swapping a torch file): torch swaps it on load, DenseCore must give the same bits."""
    src, dst = str(tmp_path / "little.pt"), str(tmp_path / "big.pt")
    made = oracle.run_cases({"make": BIG_ENDIAN_SOURCE.replace("SRC", repr(src)).replace("DST", repr(dst))},
                            "torch")
    assert made["make"] == ("py", "bool", True), made
    code = "d = torch.load(PATH)\nout = [[k, v, list(v.stride())] for k, v in d.items()]"
    cases = {"big": code.replace("PATH", repr(dst)), "little": code.replace("PATH", repr(src))}
    oracle.assert_cases_equal(cases)
    ours = oracle.run_cases(cases, "densecore")
    assert ours["big"] == ours["little"]


# ---------------------------------------------------------------------------------------------
# Where torch itself misbehaves, or DenseCore refuses by design
# ---------------------------------------------------------------------------------------------
def _densecore_load(path, code=LOAD):
    """DenseCore's result, loaded in a child process (so a crash fails the test instead of killing pytest)."""
    return oracle.outcomes({"c": code.replace("PATH", repr(str(path)))}, "densecore")["c"]


def _write(path, data):
    with open(path, "wb") as fh:
        fh.write(data)
    return path


def _seconds(encoded):
    """A float from oracle.py's encoding, ("float", the hex of its 8 little-endian bytes)."""
    return struct.unpack("<d", bytes.fromhex(encoded[1]))[0]


@pytest.mark.notorch
def test_storage_record_inflating_far_past_its_size_fails_fast(tmp_path):
    """200 MB of zeros deflated into 200 KB, for a 4-float tensor: torch inflates it all (about 5 s here) and
    then compares sizes; DenseCore compares the declared size first."""
    bomb = cc.raw_deflate(b"\0" * (200 << 20))

    def archive(declared, pkl=cc.tensor_pickle((4,), (1,))):
        e = cc.Entry("archive/data/0", b"")
        e.method, e.payload, e.csize, e.usize = 8, bomb, len(bomb), declared
        return cc.zip_bytes([cc.Entry("archive/data.pkl", pkl), e, cc.Entry("archive/version", b"3\n")])

    def size_error(declared):
        return ("error", "RuntimeError", f"record size ({declared} bytes) does not match expected size (16 bytes = "
                "16 elements * 1 bytes/element) for dtype Byte")

    four_gib = 2**32 - 1
    byte_pickle = cc.pickle_of(cc.rebuild_v2(cc.storage_pid(four_gib, "ByteStorage"), 0, (four_gib,), (1,)))
    cases = {
        # declared as the 16 bytes the tensor needs: inflating stops there (torch's too) and zeros load
        "declared_16": (archive(16), ("tensor", "float32", (4,), bytes(16), (1,), 0, False)),
        # a size deflate could produce, but not what the tensor needs: refused before inflating (torch
        # inflates the 200 MB first, then gives the same message)
        "declared_200M": (archive(200 << 20), size_error(200 << 20)),
        # more than 200 KB can inflate to, whether or not the pickle agrees: refused before any memory is set
        # aside (torch allocates 4 GiB, inflates 200 MB, then fails with the same message)
        "declared_4G": (archive(four_gib), ("error", "RuntimeError", None)),
        "declared_4G_as_the_pickle_says": (archive(four_gib, byte_pickle), ("error", "RuntimeError", None)),
    }
    code = "import time\nt0 = time.perf_counter()\ntry:\n    out = torch.load(PATH)\nexcept Exception as e:\n" \
           "    out = ['error', type(e).__name__, str(e)]\nout = [out, time.perf_counter() - t0]"
    for name, (data, want) in cases.items():
        res = _densecore_load(_write(tmp_path / f"{name}.pt", data), code)
        got, seconds = res[1][0], _seconds(res[1][1])
        if want[0] == "tensor":
            assert got == want, (name, got)
        else:
            assert got[0] == "list" and got[1][1] == ("py", "str", want[1]), (name, got)
            if want[2] is not None:
                assert got[1][2] == ("py", "str", want[2]), (name, got)
            else:
                assert "failed reading file data/0: unexpected decompressed size" in got[1][2][2], (name, got)
        assert seconds < 0.5, (name, seconds)


@pytest.mark.notorch
def test_pickle_record_inflating_to_200mb_fails_at_its_first_bytes(tmp_path):
    """data.pkl deflated from 200 MB of zeros: DenseCore inflates it as the unpickler reads, so the first
    (invalid) opcode fails at once, without the 200 MB (torch reads the whole record first)."""
    bomb = cc.zip_bytes([cc.Entry("archive/data.pkl", b"\0" * (200 << 20), method=8),
                         cc.Entry("archive/version", b"3\n")])
    code = "import time, pickle\nt0 = time.perf_counter()\ntry:\n    torch.load(PATH)\n" \
           "except pickle.UnpicklingError as e:\n    out = [str(e).endswith('Unsupported operand 0' + " \
           "torch.serialization._DOCS_MESSAGE), time.perf_counter() - t0]"
    res = _densecore_load(_write(tmp_path / "bomb.pt", bomb), code)
    assert res[1][0] == ("py", "bool", True), res
    assert _seconds(res[1][1]) < 0.5, res


@pytest.mark.notorch
def test_corrupt_deflate_stream_is_an_error(tmp_path):
    """torch's miniz returns uninitialised memory as the tensor's data here; DenseCore raises."""
    e = cc.Entry("archive/data/0", b"")
    e.method, e.payload, e.csize, e.usize = 8, b"\xff" * 30, 30, 16
    archive = cc.zip_bytes([cc.Entry("archive/data.pkl", cc.tensor_pickle((4,), (1,))), e,
                            cc.Entry("archive/version", b"3\n")])
    res = _densecore_load(_write(tmp_path / "garbage.pt", archive))
    assert res[:2] == ("error", "RuntimeError") and "decompression failed" in res[2], res


DEEP = 200_000  # tuples nested this deep overflow the C stack when hashed (CPython has no guard there)


@pytest.mark.notorch
@pytest.mark.parametrize("where", ["dict_key", "set_element", "storage_key"])
def test_deeply_nested_tuple_that_would_be_hashed_is_refused(tmp_path, where):
    """torch.load segfaults on these (hashing the key recurses ~200,000 levels in C)."""
    nested = b")" + b"\x85" * DEEP
    if where == "dict_key":
        pkl = cc.pickle_of(b"}" + nested + cc.p_int(1) + b"s")
    elif where == "set_element":
        pkl = cc.pickle_of(cc.p_global("builtins", "set") + b"(]" + nested + b"atR")
    else:
        pid = cc.p_tuple([cc.p_str("storage"), cc.p_global("torch", "FloatStorage"), nested, cc.p_str("cpu"),
                          cc.p_int(4)]) + b"Q"
        pkl = cc.pickle_of(cc.rebuild_v2(pid, 0, (4,), (1,)))
    res = _densecore_load(_write(tmp_path / "deep.pt", cc.checkpoint(pkl, {"0": F})))
    assert res[:2] == ("error", "RuntimeError") and "hashing it could crash" in res[2], res


@pytest.mark.notorch
def test_tuples_sharing_parts_are_not_hashed_exponentially(tmp_path):
    """t = (t, t) sixty times: hashing visits 2**60 tuples (torch hangs); refused within the budget."""
    body = b"}" + b")"
    for i in range(60):
        body += b"q" + bytes([i]) + b"h" + bytes([i]) + b"\x86"
    pkl = cc.pickle_of(body + cc.p_int(1) + b"s")
    t0 = time.perf_counter()
    res = _densecore_load(_write(tmp_path / "dag.pt", cc.checkpoint(pkl, {"0": F})))
    assert res[:2] == ("error", "RuntimeError") and "hashing it could crash" in res[2], res
    assert time.perf_counter() - t0 < 30


@pytest.mark.notorch
def test_deeply_nested_value_loads(tmp_path):
    """Depth alone is fine where nothing hashes it: the same nesting as a dict value loads."""
    pkl = cc.pickle_of(b"}" + cc.p_int(1) + b")" + b"\x85" * DEEP + b"s")
    code = "d = torch.load(PATH)\nt, n = d[1], 0\nwhile t:\n    t, n = t[0], n + 1\nout = n"
    assert _densecore_load(_write(tmp_path / "deep_value.pt", cc.checkpoint(pkl, {"0": F})), code) == \
        ("py", "int", DEEP)


@pytest.mark.notorch
def test_bytearray_of_a_length_is_refused(tmp_path):
    """bytearray(n) from a file would zero-fill n bytes the file never held (torch allocates them)."""
    pkl = cc.pickle_of(cc.p_global("builtins", "bytearray") + cc.p_tuple([cc.p_int(2**31 - 1)]) + b"R")
    res = _densecore_load(_write(tmp_path / "ba.pt", cc.checkpoint(pkl, {})))
    assert res[:2] == ("error", "RuntimeError") and "bytearray(2147483647) is refused" in res[2], res
    pkl = cc.pickle_of(cc.p_global("builtins", "bytearray") + cc.p_tuple([cc.p_str("ab"), cc.p_str("latin-1")]) + b"R")
    res = _densecore_load(_write(tmp_path / "ba_ok.pt", cc.checkpoint(pkl, {})), "out = list(torch.load(PATH))")
    assert res == ("list", [("py", "int", 97), ("py", "int", 98)]), res


@pytest.mark.notorch
@pytest.mark.parametrize("layout", [((2**62,), (0,), 0), ((0,), (1,), 2**62)])
def test_layout_dense_core_cannot_address_is_refused(tmp_path, layout):
    """torch accepts 2**62 floats of stride 0, or an empty tensor at element 2**62, though nothing could copy
    the one or address the other in int64 bytes; DenseCore refuses both (until the core checks this itself)."""
    res = _densecore_load(_write(tmp_path / "big.pt", cc.one_tensor_file(*layout)))
    assert res[:2] == ("error", "RuntimeError") and "DenseCore cannot address it" in res[2], res


@pytest.mark.notorch
def test_newobj_of_tensor_builds_a_whole_tensor(tmp_path):
    """NEWOBJ torch.Tensor: torch's __new__ makes an empty tensor; DenseCore's must not hand back a
    half-made one."""
    pkl = cc.pickle_of(cc.p_global("torch", "Tensor") + b")\x81")
    res = _densecore_load(_write(tmp_path / "t.pt", cc.checkpoint(pkl, {})), "out = torch.load(PATH)")
    assert res == ("tensor", "float32", (0,), b"", (None,), 0, False), res


@pytest.mark.notorch
def test_failed_load_keeps_no_storage_alive(tmp_path):
    """A file whose second tensor is bad: the first storage read is released with the failure."""
    pkl = cc.pickle_of(b"(" + cc.rebuild_v2(cc.storage_pid(4, key="0"), 0, (4,), (1,))
                       + cc.rebuild_v2(cc.storage_pid(4, key="1"), 0, (5,), (1,)) + b"l")
    path = _write(tmp_path / "half.pt", cc.checkpoint(pkl, {"0": F, "1": F}))
    code = """import gc, weakref
import densecore.serialization as s
made = []
init = s._LoadedStorage.__init__
def tracking_init(self, *a):
    init(self, *a)
    made.append(weakref.ref(self))
s._LoadedStorage.__init__ = tracking_init
try:
    torch.load(PATH)
except RuntimeError as e:
    message = str(e)
gc.collect()
out = [message, len(made), sum(r() is not None for r in made)]"""
    res = _densecore_load(path, code)
    assert res == ("list", [("py", "str", "Trying to resize storage that is not resizable"), ("py", "int", 2),
                            ("py", "int", 0)]), res


@pytest.mark.notorch
def test_every_truncation_of_a_real_checkpoint_fails_cleanly():
    """A DenseCore checkpoint cut at every record boundary (and a byte either side) and at every byte of its
    directory: each load raises (RuntimeError for a broken zip), none crashes or hangs; the whole file loads."""
    code = r"""
import io, sys
sys.path.insert(0, HERE)
import crafted_checkpoints as cc
b = io.BytesIO()
torch.save({"w": torch.arange(12.0).reshape(3, 4), "b": torch.ones(3, dtype=torch.int64), "n": 3}, b)
data = b.getvalue()
cuts = {c + d for s, e in cc.record_spans(data) for c in (s, e) for d in (-1, 0, 1) if 0 < c + d < len(data)}
cuts |= set(range(len(data) - 200, len(data)))  # inside the central directory and the end records
outcomes = set()
for cut in sorted(cuts):
    try:
        torch.load(io.BytesIO(data[:cut]))
        outcomes.add("loaded")
    except Exception as e:
        outcomes.add(type(e).__name__)
out = [len(cuts), sorted(outcomes), torch.load(io.BytesIO(data))["n"]]
""".replace("HERE", repr(os.path.dirname(os.path.abspath(__file__))))
    res = oracle.outcomes({"c": code}, "densecore")["c"]
    assert res[0] == "list", res
    count, outcomes, n = res[1][0][2], [o[2] for o in res[1][1][1]], res[1][2][2]
    assert count > 200 and n == 3, res
    assert outcomes == ["RuntimeError", "UnpicklingError"], outcomes  # cut before the zip magic: not a zip


@pytest.mark.oracle
def test_cases_found_by_differential_fuzzing_match_torch(tmp_path):
    """Inputs where scripts/fuzz_load.py --compare-torch once found DenseCore raising another class than torch."""
    pkl = cc.tensor_pickle((4,), (1,))
    masked = cc.checkpoint(pkl, {"0": F})
    masked = _with_central_field(masked, 2, 8, "<H", 0x2000)

    def reduce(module, name, *args):
        return cc.pickle_of(cc.p_global(module, name) + cc.p_tuple(list(args)) + b"R")

    tensor = cc.rebuild_v2(cc.storage_pid(4), 0, (4,), (1,))
    files = {
        "masked_central_directory": masked,
        "record_name_not_utf8": cc.checkpoint(pkl, {"0": F}, extra=[cc.Entry(b"archive/data/\x80", b"")]),
        "name_outside_folder_not_utf8": cc.checkpoint(pkl, {"0": F}, extra=[cc.Entry(b"archive\xafdata/0", b"")]),
        "version_not_utf8": cc.checkpoint(pkl, {"0": F}, version=b"\xff\n"),
        "empty_stride_list": cc.checkpoint(cc.pickle_of(cc.rebuild_v2(cc.storage_pid(4), 0, (2, 2), ())), {"0": F}),
        "parameter_of_str": reduce("torch.nn.parameter", "Parameter", cc.p_str("x")),
        "device_without_arguments": reduce("torch", "device"),
        "complex_storage_called": reduce("torch", "ComplexFloatStorage"),
        "parameter_of_tensor": cc.checkpoint(reduce("torch._utils", "_rebuild_parameter", tensor, cc.P_TRUE,
                                                    cc.P_ORDERED_DICT), {"0": F}),
        "serialization_id_unreadable": cc.checkpoint(b"\0", {"0": F}, extra=[_flagged(
            cc.Entry("archive/.data/serialization_id", b"1234"), 0x20)]),
        "serialization_id_not_utf8": cc.checkpoint(pkl, {"0": F},
                                                   extra=[cc.Entry("archive/.data/serialization_id", b"\xff")]),
        "nul_in_record_name": cc.checkpoint(pkl, {"0": F}, extra=[cc.Entry(b"archive/x\0\x80", b"")]),
        "patched_data_flag": cc.zip_bytes([cc.Entry("archive/data.pkl", pkl), _flagged(cc.Entry("archive/data/0", F),
                                                                                        0x20),
                                           cc.Entry("archive/version", b"3\n")]),
        "stride_below_symint_range": cc.checkpoint(cc.pickle_of(cc.rebuild_v2(cc.storage_pid(4), 0, (1,),
                                                                              (-(2**62) - 1,))), {"0": F}),
        "size_below_symint_range_and_a_zero": cc.checkpoint(cc.pickle_of(cc.rebuild_v2(cc.storage_pid(4), 0,
                                                                                       (-(2**63), 0), (1, 1))),
                                                            {"0": F}),
        "empty_record_broken_local_header": _break_local_signature(cc.checkpoint(
            cc.pickle_of(cc.rebuild_v2(cc.storage_pid(0, key="1"), 0, (0,), (1,))), {"0": F, "1": b""}), 3),
        "bytearray_of_negative_count": cc.checkpoint(reduce("builtins", "bytearray", cc.p_int(-1)), {}),
        "device_index_str": reduce("torch", "device", cc.p_str("cuda"), cc.p_str("x")),
        "device_index_negative": reduce("torch", "device", cc.p_str("cpu"), cc.p_int(-2)),
        "device_accelerator_index": reduce("torch", "device", cc.p_int(3)),
    }
    files = {k: v if v[:2] == b"PK" else cc.checkpoint(v, {}) for k, v in files.items()}
    oracle.assert_cases_equal(_load_cases(tmp_path, files))
    class_only = {
        "parameter_requires_grad_int": cc.checkpoint(reduce("torch._utils", "_rebuild_parameter", tensor, cc.p_int(1),
                                                            cc.P_ORDERED_DICT), {"0": F}),
        "sparse_rebuild_without_arguments": cc.checkpoint(reduce("torch._utils", "_rebuild_sparse_tensor"), {}),
        "device_of_list": cc.checkpoint(reduce("torch", "device", b"](" + cc.p_int(1) + b"e"), {}),
        "tensor_class_as_storage_type": cc.checkpoint(cc.pickle_of(cc.rebuild_v2(
            cc.storage_pid(4).replace(cc.p_global("torch", "FloatStorage"), cc.p_global("torch", "Tensor")), 0, (4,),
            (1,))), {"0": F}),
    }
    # the class only: torch's messages name its own argument parser's overloads and internals
    oracle.assert_cases_equal({k: oracle.same_as_torch(oracle.code_of(v), message=r".*")
                               for k, v in _load_cases(tmp_path, class_only).items()})


@pytest.mark.notorch
@pytest.mark.parametrize("how", ["argument_list", "set_of_it", "from_type_args"])
def test_huge_stride_0_tensor_is_not_unpacked_element_by_element(tmp_path, how):
    """A 2**40-element stride-0 view of four floats (loadable, as in torch) used where the pickle wants an
    argument list or an iterable: torch.load iterates it (hangs); DenseCore refuses at once."""
    huge = cc.rebuild_v2(cc.storage_pid(4), 0, (2**40,), (0,))
    if how == "argument_list":
        body = cc.p_global("torch._utils", "_rebuild_tensor_v2") + huge + b"R"
    elif how == "set_of_it":
        body = cc.p_global("builtins", "set") + b"(" + huge + b"tR"
    else:
        body = cc.p_global("torch._tensor", "_rebuild_from_type_v2") + cc.p_tuple(
            [cc.p_global("builtins", "set"), cc.p_global("torch", "Tensor"), huge, cc.P_NONE]) + b"R"
    t0 = time.perf_counter()
    res = _densecore_load(_write(tmp_path / "huge.pt", cc.checkpoint(cc.pickle_of(body), {"0": F})))
    assert res[:2] == ("error", "RuntimeError") and "1099511627776 elements" in res[2], res
    assert time.perf_counter() - t0 < 30
