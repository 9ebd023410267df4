"""torch.save / torch.load (densecore.serialization) against real PyTorch: a nanoGPT-shaped checkpoint
written by either library is read by both with identical bits and storage sharing, DenseCore writes
the same file bytes torch writes, and hostile pickles are refused without running anything."""
import os
import pickle
import zipfile

import oracle
import pytest

pytestmark = pytest.mark.oracle

# A checkpoint shaped like nanoGPT's train.py writes: model state dict with tied weights and _metadata,
# an AdamW state dict with 0-d float32 `step` tensors, a 0-d best_val_loss, model_args, iter_num, config.
CKPT = r'''
from collections import OrderedDict
def val(*shape, k=1.0):
    n = 1
    for s in shape:
        n *= s
    return (torch.arange(n, dtype=torch.float32) * (0.37 * k) - 1.1).reshape(*shape)
wte = val(16, 8)
sd = OrderedDict()
sd["transformer.wte.weight"] = wte.detach()
sd["transformer.wpe.weight"] = val(4, 8, k=0.5)
sd["transformer.h.0.ln_1.weight"] = torch.ones(8)
sd["transformer.h.0.attn.c_attn.weight"] = val(24, 8, k=0.01)
sd["transformer.h.0.attn.c_proj.weight"] = val(8, 8, k=-0.02)
sd["transformer.ln_f.weight"] = torch.ones(8)
sd["lm_head.weight"] = wte.detach()
sd._metadata = OrderedDict([("", {"version": 1}), ("transformer", {"version": 1}),
                            ("transformer.wte", {"version": 1}), ("lm_head", {"version": 1})])
state = {}
for i, (k, v) in enumerate(sd.items()):
    if k == "lm_head.weight":
        continue
    state[i] = {"step": torch.tensor(3.0), "exp_avg": v * 0.1, "exp_avg_sq": v * v * 0.01}
betas = (0.9, 0.99)
group = dict(lr=0.0006, betas=betas, eps=1e-08, weight_decay=0.1, amsgrad=False, maximize=False, foreach=None,
             capturable=False, differentiable=False, fused=None, decoupled_weight_decay=True)
groups = [dict(group, params=[0, 1, 3, 4]), dict(group, weight_decay=0.0, params=[2, 5])]
model_args = dict(n_layer=1, n_head=2, n_embd=8, block_size=4, bias=False, vocab_size=16, dropout=0.0)
config = dict(out_dir="out-shakespeare-char", eval_interval=250, log_interval=1, always_save_checkpoint=False,
              init_from="scratch", wandb_log=False, dataset="shakespeare_char", batch_size=12,
              learning_rate=1e-3, beta2=0.99, device="cpu", dtype="float16", compile=False, min_lr=1e-4)
ckpt = {"model": sd, "optimizer": {"state": state, "param_groups": groups}, "model_args": model_args,
        "iter_num": 250, "best_val_loss": torch.tensor(1.8765), "config": config}
'''

# Other objects: views with storage offsets (saved with the whole storage), empty/0-d/int/bool tensors,
# dtypes, Size, big ints, bytes, sets, nested lists.
MISC = r'''
base = torch.arange(24, dtype=torch.float32).reshape(4, 6)
misc = {"row": base[2], "col": base[:, 3], "t": base.t(), "tail": base[1:, 2:], "empty": torch.empty(0),
        "i64": torch.arange(5), "i32": torch.arange(3, dtype=torch.int32) - 7, "bool": torch.arange(4) > 1,
        "f64": torch.arange(3, dtype=torch.float64) / 3, "f16": torch.arange(4, dtype=torch.float16) / 3,
        "bf16": torch.arange(4, dtype=torch.bfloat16) / 3, "u8": torch.arange(250, 256, dtype=torch.uint8),
        "dtype": torch.float16, "size": torch.Size([2, 3]), "big": 2**70, "neg": -5, "b": b"\x00\xff",
        "s": {1, 2}, "nested": [[1, (2.5, "x")], None, True], "zero_d_int": torch.tensor(7)}
'''


def _run(lib, code, env=None):
    return oracle.run_cases({"c": code}, lib, env=env)["c"]


def _write(lib, path, body, var):
    res = _run(lib, f"{body}\ntorch.save({var}, {path!r})\nout = True")
    assert res == ("py", "bool", True), res


# What a reader reports about a loaded checkpoint: every leaf (tensors bitwise), container types,
# and which tensors share storage / where they sit in it.
READ = r'''
def walk(x):
    if isinstance(x, torch.Tensor):
        return [x, x.requires_grad, type(x).__name__, x.storage_offset(), tuple(x.stride())]
    if isinstance(x, dict):
        return [type(x).__name__, [[k, walk(v)] for k, v in x.items()]]
    if isinstance(x, (list, tuple)):
        return [type(x).__name__, [walk(v) for v in x]]
    if isinstance(x, set):
        return ["set", sorted(x)]
    if isinstance(x, torch.dtype):
        return ["dtype", str(x)]
    if isinstance(x, (bytes, torch.Size)):
        return [type(x).__name__, list(x)]
    return x
ck = torch.load(PATH, map_location=MAP, weights_only=True)
model = ck["model"] if "model" in ck else {}
sharing = [model["transformer.wte.weight"].data_ptr() == model["lm_head.weight"].data_ptr()] if model else []
if "row" in ck:
    ptrs = {k: v.untyped_storage().data_ptr() for k, v in ck.items() if isinstance(v, torch.Tensor)}
    sharing = [ptrs["row"] == ptrs["col"] == ptrs["t"] == ptrs["tail"], ptrs["row"] == ptrs["i64"]]
meta = list(getattr(model, "_metadata", {}).items())
out = [walk(ck), sharing, meta]
'''


@pytest.mark.parametrize("what", ["ckpt", "misc"])
def test_densecore_writes_torchs_bytes(tmp_path, what):
    """Same program, same file name: torch.save and densecore.save produce identical files."""
    body = CKPT if what == "ckpt" else MISC
    files = {}
    for lib in ("torch", "densecore"):
        d = tmp_path / lib
        d.mkdir()
        path = str(d / "ckpt.pt")
        _write(lib, path, body, what)
        files[lib] = open(path, "rb").read()
    names = {lib: zipfile.ZipFile(tmp_path / lib / "ckpt.pt").namelist() for lib in files}
    assert names["densecore"] == names["torch"]
    za, zb = (zipfile.ZipFile(tmp_path / lib / "ckpt.pt") for lib in ("torch", "densecore"))
    for n in names["torch"]:
        assert za.read(n) == zb.read(n), n
    assert files["densecore"] == files["torch"]


MAP_LOCATIONS = ["None", "'cpu'", "torch.device('cpu')", "{'cpu': 'cpu'}", "lambda storage, loc: storage"]


@pytest.mark.parametrize("what", ["ckpt", "misc"])
def test_cross_library_round_trip(tmp_path, what):
    """Written by torch or DenseCore, read by torch or DenseCore (weights_only=True, every map_location
    form): the same values, bits, types, strides, offsets and storage sharing in all combinations."""
    body = CKPT if what == "ckpt" else MISC
    reads = {}
    for writer in ("torch", "densecore"):
        path = str(tmp_path / f"{writer}.pt")
        _write(writer, path, body, what)
        cases = {m: READ.replace("PATH", repr(path)).replace("MAP", m) for m in MAP_LOCATIONS}
        for reader in ("torch", "densecore"):
            for m, res in oracle.run_cases(cases, reader).items():
                reads[(writer, reader, m)] = res
    want = reads[("torch", "torch", "None")]
    assert want[0] != "error", want
    for key, got in reads.items():
        assert got == want, f"{key}: {oracle.describe(got)}"


def test_tied_weights_one_storage_in_torch(tmp_path):
    path = str(tmp_path / "tied.pt")
    _write("densecore", path, CKPT, "ckpt")
    code = f"""ck = torch.load({path!r}, weights_only=True)
m = ck["model"]
a, b = m["transformer.wte.weight"], m["lm_head.weight"]
out = [a.untyped_storage().data_ptr() == b.untyped_storage().data_ptr(), a is b, type(m).__name__,
       ck["best_val_loss"].dim(), ck["optimizer"]["state"][0]["step"].dtype == torch.float32]"""
    assert _run("torch", code) == _run("densecore", code)
    assert _run("torch", code)[1][0] == ("py", "bool", True)


# ---------------------------------------------------------------------------------------------
# Hostile files: refused before anything runs.
# ---------------------------------------------------------------------------------------------
def _pickle_calling(module, name, arg):
    """A protocol-2 pickle of module.name(arg) (what pickle writes for a __reduce__ returning it)."""
    return b"\x80\x02c" + module + b"\n" + name + b"\n(X" + len(arg).to_bytes(4, "little") + arg + b"tR."


def _zip_with(path, data_pkl):
    with zipfile.ZipFile(path, "w", zipfile.ZIP_STORED) as z:
        z.writestr("evil/data.pkl", data_pkl)
        z.writestr("evil/version", "3\n")
        z.writestr("evil/byteorder", "little")


HOSTILE = {
    "os.system": (b"os", b"system"), "posix.system": (b"posix", b"system"), "builtins.eval": (b"builtins", b"eval"),
    "__builtin__.exec": (b"__builtin__", b"exec"), "subprocess.call": (b"subprocess", b"call"),
    "nt.system": (b"nt", b"system"), "sys.exit": (b"sys", b"exit"),
}


@pytest.mark.parametrize("kind", sorted(HOSTILE))
@pytest.mark.parametrize("container", ["zip", "raw"])
def test_hostile_pickle_runs_nothing(tmp_path, kind, container):
    marker = tmp_path / "pwned"
    module, name = HOSTILE[kind]
    if name in (b"system", b"call"):
        arg = f"touch {marker}".encode()
    elif name == b"exit":
        arg = b"3"
    else:
        arg = f"open({str(marker)!r}, 'w').close()".encode()
    data = _pickle_calling(module, name, arg)
    if name == b"call":
        data = data.replace(b"(X", b"((X").replace(b"tR.", b"ttR.")  # subprocess.call([...]) style args
    path = str(tmp_path / "evil.pt")
    if container == "zip":
        _zip_with(path, data)
    else:
        open(path, "wb").write(data)
    cases = {f"{wo}": oracle.raises("UnpicklingError", f"torch.load({path!r}, weights_only={wo})")
             for wo in ("True", "None")}
    got = oracle.run_cases(cases, "densecore")
    # DenseCore never unpickles unsafely, not even with weights_only=False
    oracle.run_cases({"False": oracle.raises("UnpicklingError", f"torch.load({path!r}, weights_only=False)")}, "densecore")
    assert not marker.exists()
    want = oracle.run_cases(cases, "torch")
    assert not marker.exists()
    for k in cases:
        assert got[k] == want[k], f"{k}:\n torch:     {want[k]}\n densecore: {got[k]}"


HOSTILE_STREAMS = {
    # a protocol-4 pickle (FRAME) of a plain dict, STACK_GLOBAL, a BUILD on an int, a
    # SETITEM on a list, an APPEND on a dict, a persistent id that is not a storage, a REDUCE of a
    # non-callable allowed global, INST (text opcode), an allowed global with the wrong module
    "frame": pickle.dumps({"a": 1}, protocol=4),
    "stack_global": b"\x80\x02X\x02\x00\x00\x00osX\x06\x00\x00\x00system\x93.",
    "build_int": b"\x80\x02K\x01}b.",
    "setitem_list": b"\x80\x02]K\x01K\x02s.",
    "append_dict": b"\x80\x02}K\x01a.",
    "pid_not_storage": b"\x80\x02X\x03\x00\x00\x00abc\x85Q.",
    "inst": b"\x80\x02(ios\nsystem\nX\x04\x00\x00\x00true.",
    "torch_tensor_build": b"\x80\x02ctorch\nTensor\n)\x81}b.",
    "unknown_torch_global": b"\x80\x02ctorch\nload\n.",
    "empty": b"",
}


@pytest.mark.parametrize("kind", sorted(HOSTILE_STREAMS))
def test_malformed_or_disallowed_streams(tmp_path, kind):
    path = str(tmp_path / "bad.pt")
    _zip_with(path, HOSTILE_STREAMS[kind])
    load = f"torch.load({path!r})"
    if kind == "torch_tensor_build":  # torch can BUILD a bare Tensor (legacy set_); DenseCore refuses
        oracle.run_cases({"load": oracle.raises("UnpicklingError", load)}, "densecore")
        return
    oracle.assert_cases_equal({"load": oracle.raises(EOFError if kind == "empty" else "UnpicklingError", load)})


def test_cuda_location_needs_map_location(tmp_path):
    """A storage tagged cuda:0: both libraries refuse it without CUDA, and map_location='cpu' loads it."""
    src = str(tmp_path / "src.pt")
    _write("torch", src, "x = {'w': torch.arange(6.0)}", "x")
    with zipfile.ZipFile(src) as z:
        records = [(i.filename, z.read(i)) for i in z.infolist()]
    path = str(tmp_path / "cuda.pt")
    with zipfile.ZipFile(path, "w", zipfile.ZIP_STORED) as z:
        for name, data in records:
            if name.endswith("data.pkl"):
                data = data.replace(b"X\x03\x00\x00\x00cpu", b"X\x06\x00\x00\x00cuda:0")
            z.writestr(name, data)
    cases = {"default": oracle.raises(RuntimeError, f"torch.load({path!r})"), "cpu": f"out = torch.load({path!r}, map_location='cpu')['w']",
             "dict": f"out = torch.load({path!r}, map_location={{'cuda:0': 'cpu'}})['w']"}
    oracle.assert_cases_equal(cases)


def test_save_errors_and_file_objects(tmp_path):
    d = str(tmp_path)
    cases = {
        "no-parent": oracle.raises(RuntimeError, f"torch.save({{'a': 1}}, {os.path.join(d, 'missing', 'x.pt')!r})"),
        "bytesio": "import io\nb = io.BytesIO(); torch.save({'w': torch.arange(3.0)}, b); out = b.getvalue()",
        "bytesio-load": "import io\nb = io.BytesIO(); torch.save({'w': torch.arange(3.0)}, b); b.seek(0)\n"
                        "out = torch.load(b)['w']",
        "no-ext": f"p = {os.path.join(d, 'noext')!r}\ntorch.save([torch.ones(2)], p); out = open(p, 'rb').read()",
        "missing-file": oracle.raises(FileNotFoundError, f"torch.load({os.path.join(d, 'nope.pt')!r})"),
        # torch's legacy (non-zip) reader takes b'hello' for a pickle and fails on its magic number
        "not-a-checkpoint": oracle.raises(KeyError, f"p = {os.path.join(d, 'junk.pt')!r}\nopen(p, 'wb').write(b'hello')\ntorch.load(p)"),
    }
    oracle.assert_cases_equal(cases)
