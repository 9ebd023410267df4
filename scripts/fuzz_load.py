#!/usr/bin/env python
"""A bounded, seeded mutation fuzzer for densecore.load.

Inputs are made from a fixed corpus of seeds: valid checkpoints written by DenseCore itself (a nanoGPT-shaped
checkpoint, views with storage offsets, every dtype, a big-endian copy, an all-DEFLATED copy), those cut at every
record boundary, and hand-made hostile files (tests/python/crafted_checkpoints.py: sizes and strides that
overflow, offsets past the end, wrong dtypes, zip bombs, deep nesting, forbidden GLOBALs). Input i is seed
rng.choice(...) with 1 to 4 stacked mutations (bit flips, interesting integers, cuts, splices, pickle-aware edits
of ints and GLOBALs re-zipped with true headers), rng = Random(f"{seed}:{i}"): any input can be remade alone.

Inputs are loaded in worker processes (so a crash is a signal the runner sees, not the end of the run), each
under a memory limit; every tensor a load returns is read at its first and last element. Outcomes: loaded,
raised <class>, crashed (the worker died), timed out. --compare-torch also loads every input with torch in its
own workers and reports where the outcome classes differ.

    python scripts/fuzz_load.py --count 20000 --seed 1            # the CI-sized run
    python scripts/fuzz_load.py --count 1000000 --seed 7 --workers 8   # the nightly run (docs/reliability.md)
    python scripts/fuzz_load.py --seed 1 --only 1234 --dump x.pt   # remake one input
"""
import argparse
import collections
import io
import json
import os
import random
import selectors
import signal
import subprocess
import sys
import tempfile
import time
import zipfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
sys.path.insert(0, os.path.join(ROOT, "tests", "python"))
import crafted_checkpoints as cc  # noqa: E402

# What torch.load itself raises on malformed files (measured with --compare-torch; see docs/reliability.md):
# a DenseCore outcome outside this set is a finding.
ALLOWED = {"RuntimeError", "NotImplementedError", "UnpicklingError", "ValueError", "UnicodeDecodeError", "EOFError",
           "TypeError", "IndexError", "KeyError", "AttributeError", "error", "AssertionError", "OverflowError",
           "LookupError"}


# ---------------------------------------------------------------------------------------------
# Seeds
# ---------------------------------------------------------------------------------------------
class Seed:
    """An archive, and when known its parts (data.pkl bytes, {key: storage bytes}) for pickle-aware mutation.
    `group` is "valid" (written by DenseCore, or a re-zipped copy), "crafted" or "cut" (a truncation)."""

    def __init__(self, name, data, pkl=None, storages=None, group="valid"):
        self.name, self.data, self.pkl, self.storages, self.group = name, data, pkl, storages, group


def _parts(archive):
    """(data.pkl, {key: bytes}) of a valid archive, read with the standard library."""
    with zipfile.ZipFile(io.BytesIO(archive)) as z:
        pkl, storages = None, {}
        for n in z.namelist():
            if n.endswith("/data.pkl"):
                pkl = z.read(n)
            elif "/data/" in n:
                storages[n.rsplit("/", 1)[1]] = z.read(n)
    return pkl, storages


def _densecore_seeds(torch):
    """Valid checkpoints written by DenseCore: (name, object, element sizes of its storages in key order)."""
    from collections import OrderedDict

    def val(*shape, k=1.0):
        n = 1
        for s in shape:
            n *= s
        return (torch.arange(n, dtype=torch.float32) * (0.37 * k) - 1.1).reshape(*shape)

    wte = val(16, 8)
    sd = OrderedDict([("transformer.wte.weight", wte), ("transformer.wpe.weight", val(4, 8, k=0.5)),
                      ("transformer.h.0.ln_1.weight", torch.ones(8)), ("transformer.h.0.attn.c_attn.weight",
                      val(24, 8, k=0.01)), ("lm_head.weight", wte)])
    sd._metadata = OrderedDict([("", {"version": 1}), ("transformer", {"version": 1})])
    state = {i: {"step": torch.tensor(3.0), "exp_avg": v * 0.1} for i, v in enumerate(list(sd.values())[:4])}
    gpt = {"model": sd, "optimizer": {"state": state, "param_groups": [{"lr": 6e-4, "betas": (0.9, 0.99),
           "params": [0, 1, 2, 3]}]}, "model_args": {"n_layer": 1, "n_embd": 8}, "iter_num": 250,
           "best_val_loss": torch.tensor(1.8765), "config": {"dataset": "shakespeare_char", "compile": False}}
    base = torch.arange(24, dtype=torch.float32).reshape(4, 6)
    views = {"row": base[2], "col": base[:, 3], "t": base.t(), "tail": base[1:, 2:], "empty": torch.empty(0)}
    dtypes = {name: (torch.arange(6) - 2).to(getattr(torch, name)) for name in
              ("float64", "float32", "float16", "bfloat16", "int64", "int32", "int16", "int8", "uint8", "bool")}
    misc = [torch.nn.Parameter(torch.ones(3)), torch.tensor(7), torch.Size([2, 3]), torch.float16, 2**70, b"\x00\xff",
            {1, 2}, (1.5, "x", None, True), torch.zeros(2, 0, 3)]
    return [("gpt", gpt), ("views", views), ("dtypes", dtypes), ("misc", misc)]


def _big_endian(archive, dtypes):
    """`archive` (DenseCore's save of the dtypes dict) with its storages byte-swapped and byteorder "big"."""
    pkl, storages = _parts(archive)
    sizes = [t.element_size() for t in dtypes.values()]
    swapped = {k: b"".join(v[i : i + sizes[int(k)]][::-1] for i in range(0, len(v), sizes[int(k)]))
               for k, v in storages.items()}
    return pkl, swapped


def _crafted_seeds():
    """Hostile headers and pickles (the test suite's cases, and more)."""
    f = cc.FOUR_FLOATS
    layouts = [((2**62 + 1,), (4,), 0), ((5,), (1,), 0), ((2,), (1,), 3), ((2,), (-1,), 3), ((1,), (-1,), 2),
               ((-1,), (1,), 0), ((1,), (1,), -1), ((2, 2), (1,), 0), ((1,), (1,), 2**62), ((2**32, 2**32), (0, 0), 0),
               ((2**32, 2**32, 0), (1, 1, 1), 0), ((0, 2**62), (2**62, 2**62), 0), ((), (), 3), ((1000,), (0,), 3),
               ((2, 2), (1, 2), 0), ((3, 3), (2**62, 2**62), 0), ((2**40,), (0,), 0)]
    out = [(f"layout{i}", cc.one_tensor_file(*lay)) for i, lay in enumerate(layouts)]
    pid = cc.storage_pid(4)
    out.append(("v3_int64_over_floats", cc.checkpoint(cc.pickle_of(cc.rebuild_v3(pid, 0, (2,), (1,), "int64")),
                                                      {"0": f})))
    out.append(("numel_huge", cc.checkpoint(cc.pickle_of(cc.rebuild_v2(cc.storage_pid(2**61), 0, (1,), (1,))),
                                            {"0": f})))
    bomb = cc.Entry("archive/data/0", b"")
    bomb.method, bomb.payload = 8, cc.raw_deflate(b"\0" * (2 << 20))
    bomb.csize, bomb.usize = len(bomb.payload), 16
    out.append(("bomb", cc.zip_bytes([cc.Entry("archive/data.pkl", cc.tensor_pickle((4,), (1,))), bomb,
                                      cc.Entry("archive/version", b"3\n")])))
    for name, (module, fn) in {"os_system": ("os", "system"), "eval": ("builtins", "eval"),
                               "subprocess": ("subprocess", "call"), "torch_load": ("torch", "load")}.items():
        call = cc.p_global(module, fn) + cc.p_tuple([cc.p_str("true")]) + b"R"
        out.append((f"global_{name}", cc.checkpoint(cc.pickle_of(call), {})))
    out.append(("deep_list", cc.checkpoint(cc.pickle_of(b"]" * 5000 + b"a" * 4999), {})))
    out.append(("deep_tuple_key", cc.checkpoint(cc.pickle_of(b"}" + b")" + b"\x85" * 3000 + cc.p_int(1) + b"s"), {})))
    out.append(("nested_dicts", cc.checkpoint(cc.pickle_of(b"}" + (cc.p_str("k") + b"}") * 200 + b"s" * 200), {})))
    out.append(("bytearray", cc.checkpoint(cc.pickle_of(cc.p_global("builtins", "bytearray")
                                                        + cc.p_tuple([cc.p_int(64)]) + b"R"), {})))
    out.append(("deflated_pickle", cc.checkpoint(cc.tensor_pickle((4,), (1,)), {"0": f},
                                                 deflate=("data.pkl", "data/0"))))
    out.append(("zip64", cc.zip_bytes([cc.Entry("archive/data.pkl", cc.tensor_pickle((4,), (1,))),
                                       cc.Entry("archive/data/0", f), cc.Entry("archive/version", b"3\n")], zip64=True)))
    out.append(("version_junk", cc.checkpoint(cc.tensor_pickle((4,), (1,)), {"0": f}, version=b"99999999999999999999")))
    return out


def build_seeds():
    import densecore as torch

    seeds = []
    for name, obj in _densecore_seeds(torch):
        b = io.BytesIO()
        torch.save(obj, b)
        data = b.getvalue()
        pkl, storages = _parts(data)
        seeds.append(Seed(name, data, pkl, storages))
        seeds.append(Seed(name + "_deflated", cc.checkpoint(pkl, storages, deflate=("data.pkl",) + tuple(
            f"data/{k}" for k in storages)), pkl, storages))
        if name == "dtypes":
            pkl_be, storages_be = _big_endian(data, obj)
            seeds.append(Seed("dtypes_big_endian", cc.checkpoint(pkl_be, storages_be, byteorder=b"big"), pkl_be,
                              storages_be))
        if name == "gpt":
            cuts = sorted({c for s, e in cc.record_spans(data) for c in (s, e) if 0 < c < len(data)})
            seeds += [Seed(f"gpt_cut_{c}", data[:c], group="cut") for c in cuts]
    for name, data in _crafted_seeds():
        try:
            pkl, storages = _parts(data)
        except Exception:  # noqa: BLE001 (a seed the standard library cannot read: byte-level mutation only)
            pkl, storages = None, None
        seeds.append(Seed(name, data, pkl, storages, group="crafted"))
    return seeds


# ---------------------------------------------------------------------------------------------
# Mutations
# ---------------------------------------------------------------------------------------------
INTERESTING = [0, 1, 2, 3, 4, 7, 8, 16, 63, 64, 255, 256, 4095, 65535, 65536, 2**31 - 1, 2**31, 2**32 - 1, 2**32,
               2**62, 2**62 + 1, 2**63 - 1, 2**63, 2**64 - 1, -1, -2, -(2**31), -(2**63)]
OTHER_GLOBALS = [("torch", "FloatStorage"), ("torch", "LongStorage"), ("torch", "HalfStorage"), ("torch", "BoolStorage"),
                 ("torch", "ComplexFloatStorage"), ("torch", "float64"), ("torch", "int64"), ("torch", "Size"),
                 ("torch", "Tensor"), ("torch", "device"), ("collections", "OrderedDict"), ("builtins", "set"),
                 ("builtins", "bytearray"), ("_codecs", "encode"), ("torch._utils", "_rebuild_tensor"),
                 ("torch._utils", "_rebuild_tensor_v3"), ("torch._utils", "_rebuild_parameter"),
                 ("torch._tensor", "_rebuild_from_type_v2"), ("torch.nn.parameter", "Parameter"),
                 ("torch._utils", "_rebuild_sparse_tensor"), ("os", "system"), ("builtins", "getattr")]


def _flip_bits(b, rng):
    for _ in range(rng.randint(1, 8)):
        i = rng.randrange(len(b))
        b[i] ^= 1 << rng.randrange(8)


def _interesting_byte(b, rng):
    b[rng.randrange(len(b))] = rng.choice((0, 1, 0x7F, 0x80, 0xFF))


def _interesting_int(b, rng):
    width = rng.choice((2, 4, 8))
    if len(b) >= width:
        i = rng.randrange(len(b) - width + 1)
        b[i : i + width] = (rng.choice(INTERESTING) % (1 << (8 * width))).to_bytes(width, "little")


def _cut(b, rng):
    del b[rng.randrange(len(b)) :]


def _delete(b, rng):
    i = rng.randrange(len(b))
    del b[i : i + rng.randint(1, 64)]


def _insert(b, rng):
    i = rng.randrange(len(b) + 1)
    b[i:i] = bytes(rng.randrange(256) for _ in range(rng.randint(1, 16)))


def _duplicate(b, rng):
    i = rng.randrange(len(b))
    j = min(len(b), i + rng.randint(1, 256))
    k = rng.randrange(len(b) + 1)
    b[k:k] = b[i:j]


BYTE_MUTATIONS = [_flip_bits, _interesting_byte, _interesting_int, _interesting_int, _cut, _delete, _insert,
                  _duplicate]


def _pickle_ops(pkl):
    import pickletools

    return list(pickletools.genops(pkl))


def _mutate_pickle(pkl, rng):
    """A pickle-aware edit: an int argument set to an interesting value, a GLOBAL swapped, an opcode dropped or
    repeated. Falls back to byte mutations where the pickle no longer parses."""
    try:
        ops = _pickle_ops(pkl)
    except Exception:  # noqa: BLE001
        b = bytearray(pkl)
        if b:
            rng.choice(BYTE_MUTATIONS)(b, rng)
        return bytes(b)
    ends = [pos for _, _, pos in ops[1:]] + [len(pkl)]
    choice = rng.random()
    ints = [(i, op) for i, op in enumerate(ops) if op[0].name in ("BININT", "BININT1", "BININT2", "LONG1")]
    globals_ = [i for i, op in enumerate(ops) if op[0].name == "GLOBAL"]
    if choice < 0.55 and ints:
        i, _ = rng.choice(ints)
        return pkl[: ops[i][2]] + cc.p_int(rng.choice(INTERESTING)) + pkl[ends[i] :]
    if choice < 0.75 and globals_:
        i = rng.choice(globals_)
        return pkl[: ops[i][2]] + cc.p_global(*rng.choice(OTHER_GLOBALS)) + pkl[ends[i] :]
    i = rng.randrange(len(ops))
    if choice < 0.9:
        return pkl[: ops[i][2]] + pkl[ends[i] :]  # drop an opcode
    return pkl[: ends[i]] + pkl[ops[i][2] : ends[i]] + pkl[ends[i] :]  # repeat one


# How often each seed group is drawn: truncations fail at the zip directory whatever else is done to them, so
# they are drawn rarely; most inputs start from a valid or crafted file and get past the zip layer.
GROUP_WEIGHTS = {"valid": 6, "crafted": 3, "cut": 1}


def make_input(seeds, seed, index):
    """Input `index` of run `seed`: (seed name, bytes)."""
    rng = random.Random(f"{seed}:{index}")
    group = rng.choices(list(GROUP_WEIGHTS), weights=list(GROUP_WEIGHTS.values()))[0]
    s = rng.choice([x for x in seeds if x.group == group])
    if s.pkl is not None and rng.random() < 0.6:
        pkl, storages = s.pkl, dict(s.storages)
        for _ in range(rng.randint(1, 3)):
            pkl = _mutate_pickle(pkl, rng)
        if storages and rng.random() < 0.2:
            k = rng.choice(sorted(storages))
            b = bytearray(storages[k])
            if b:
                rng.choice(BYTE_MUTATIONS)(b, rng)
            storages[k] = bytes(b)
        deflate = ("data.pkl", "data/0") if rng.random() < 0.2 else ()
        return s.name, cc.checkpoint(pkl, storages, deflate=deflate)
    b = bytearray(s.data)
    for _ in range(rng.randint(1, 4)):
        if len(b) == 0:
            break
        if rng.random() < 0.1:
            other = rng.choice(seeds).data
            i = rng.randrange(len(b))
            b[i:] = other[rng.randrange(len(other) + 1) :] if other else b""
        else:
            rng.choice(BYTE_MUTATIONS)(b, rng)
    return s.name, bytes(b)


# ---------------------------------------------------------------------------------------------
# Worker: loads inputs, reports "index outcome seconds" per line
# ---------------------------------------------------------------------------------------------
class _Timeout(BaseException):
    pass


def _touch(torch, obj, budget=10_000):
    """Reads the first and last element of every tensor reachable from `obj` (a view past its storage would
    fault here), walking containers without recursion within a budget of nodes."""
    stack, seen = [obj], 0
    while stack and seen < budget:
        x = stack.pop()
        seen += 1
        if isinstance(x, torch.Tensor):
            if x.numel():
                x[(0,) * x.dim()].item()
                x[tuple(s - 1 for s in x.shape)].item()
        elif isinstance(x, dict):
            stack.extend(x.values())
        elif isinstance(x, (list, tuple, set)):
            stack.extend(x)


def worker(lib, seed, memory_mb, inject_crash, inject_hang):
    import resource

    # AddressSanitizer reserves terabytes of address space for its shadow memory, so an address-space limit
    # stops it from starting; under ASan, allocator_may_return_null=1 makes oversized requests fail instead.
    if memory_mb and "libasan" not in os.environ.get("LD_PRELOAD", ""):
        limit = memory_mb << 20
        resource.setrlimit(resource.RLIMIT_AS, (limit, limit))
    if lib == "torch":
        import torch

        def load(data):
            return torch.load(io.BytesIO(data), weights_only=True)
    else:
        import densecore as torch

        load = lambda data: torch.load(io.BytesIO(data))  # noqa: E731
    import warnings

    warnings.simplefilter("ignore")
    seeds = build_seeds()

    def on_alarm(signum, frame):
        raise _Timeout

    signal.signal(signal.SIGALRM, on_alarm)
    out = sys.stdout
    for line in sys.stdin:
        start, end, timeout = (int(x) for x in line.split())
        for i in range(start, end):
            _, data = make_input(seeds, seed, i)
            if i == inject_crash:
                os.kill(os.getpid(), signal.SIGSEGV)
            t0 = time.perf_counter()
            signal.alarm(timeout)
            try:
                if i == inject_hang:
                    while True:
                        time.sleep(1)
                obj = load(data)
                _touch(torch, obj)
                outcome = "loaded"
            except _Timeout:
                outcome = "timeout"
            except BaseException as e:  # noqa: BLE001 (every exception is an outcome to count)
                outcome = type(e).__name__
            finally:
                signal.alarm(0)
            out.write(f"{i} {outcome} {time.perf_counter() - t0:.6f}\n")
            out.flush()
        out.write("done\n")
        out.flush()


# ---------------------------------------------------------------------------------------------
# Runner: hands index batches to workers, notices deaths and silences
# ---------------------------------------------------------------------------------------------
class _Worker:
    def __init__(self, args, lib):
        cmd = [sys.executable, os.path.abspath(__file__), "--worker", lib, "--seed", str(args.seed),
               "--memory-mb", str(args.memory_mb), "--inject-crash", str(args.inject_crash),
               "--inject-hang", str(args.inject_hang)]
        self.stderr = tempfile.TemporaryFile()
        self.proc = subprocess.Popen(cmd, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=self.stderr)
        self.buf = b""
        self.reported = 0  # results received: a worker that dies before its first one is a broken harness
        self.batch = None  # [next index expected, end]
        self.deadline = None

    def send(self, start, end, timeout):
        self.batch = [start, end]
        self.proc.stdin.write(f"{start} {end} {timeout}\n".encode())
        self.proc.stdin.flush()

    def kill(self):
        if self.proc.poll() is None:
            self.proc.kill()
        self.proc.wait()


def run(args, lib):
    """{index: (outcome, seconds)} for every index of the run, loaded with `lib` in args.workers processes."""
    results = {}
    todo = collections.deque((s, min(s + args.batch, args.count)) for s in range(0, args.count, args.batch))
    sel = selectors.DefaultSelector()
    workers = []

    def start_worker():
        w = _Worker(args, lib)
        sel.register(w.proc.stdout, selectors.EVENT_READ, w)
        workers.append(w)
        return w

    def feed(w):
        if todo:
            w.send(*todo.popleft(), args.timeout)
            w.deadline = time.monotonic() + args.timeout + args.startup
        else:
            w.batch = None

    def replace(w, outcome):
        """w died or went silent at its next index: record it, restart a worker on the rest of the batch."""
        sel.unregister(w.proc.stdout)
        w.kill()
        workers.remove(w)
        if w.batch is None:  # idle: nothing was running
            return
        i, end = w.batch
        if i < end:  # (i == end: it died after its last result, before saying "done")
            results[i] = (outcome, float(args.timeout))
        if i + 1 < end:
            todo.appendleft((i + 1, end))
        feed(start_worker())

    for _ in range(args.workers):
        feed(start_worker())
    while any(w.batch for w in workers):
        for key, _ in sel.select(timeout=1.0):
            w = key.data
            chunk = os.read(w.proc.stdout.fileno(), 1 << 16)
            if not chunk:
                w.proc.wait()
                if w.proc.returncode > 0 and not w.reported:
                    w.stderr.seek(0)
                    raise SystemExit(f"a {lib} worker failed to start:\n" + w.stderr.read().decode()[-3000:])
                replace(w, f"crashed(signal {-w.proc.returncode})" if w.proc.returncode < 0 else
                        f"crashed(exit {w.proc.returncode})")
                continue
            w.buf += chunk
            *lines, w.buf = w.buf.split(b"\n")
            for line in lines:
                if line == b"done":
                    feed(w)
                    continue
                i, outcome, seconds = line.decode().split()
                results[int(i)] = (outcome, float(seconds))
                w.reported += 1
                w.batch[0] = int(i) + 1
                w.deadline = time.monotonic() + args.timeout + 2
        now = time.monotonic()
        for w in list(workers):
            if w.batch and now > w.deadline:
                replace(w, "timeout")
    for w in workers:
        w.proc.stdin.close()
        w.kill()
    return results


def summarize(results, label):
    counts = collections.Counter(o for o, _ in results.values())
    bad = {i: o for i, (o, _) in results.items()
           if o.startswith("crashed") or o == "timeout" or (o != "loaded" and o not in ALLOWED)}
    slowest = sorted(((s, i) for i, (_, s) in results.items()), reverse=True)[:5]
    return {"library": label, "inputs": len(results), "outcomes": dict(counts.most_common()),
            "findings": {str(i): o for i, o in sorted(bad.items())},
            "slowest": [[i, round(s, 4)] for s, i in slowest]}


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--count", type=int, default=20000, help="inputs to make and load")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--workers", type=int, default=os.cpu_count() or 2)
    ap.add_argument("--batch", type=int, default=500, help="inputs per request to a worker")
    ap.add_argument("--timeout", type=int, default=10, help="seconds one input may take")
    ap.add_argument("--startup", type=int, default=60, help="seconds a new worker may take to start")
    ap.add_argument("--memory-mb", type=int, default=4096, help="address-space limit of each worker (0: none)")
    ap.add_argument("--json", help="write the summary here")
    ap.add_argument("--outcomes", help="write every input's outcome(s) here, one line each")
    ap.add_argument("--compare-torch", action="store_true", help="also load every input with torch and compare")
    ap.add_argument("--only", type=int, help="print input ONLY's seed and outcome classes, and --dump it")
    ap.add_argument("--dump", help="with --only: write the input to this file")
    ap.add_argument("--worker", choices=["densecore", "torch"], help=argparse.SUPPRESS)
    ap.add_argument("--inject-crash", type=int, default=-1, help=argparse.SUPPRESS)  # harness self-test
    ap.add_argument("--inject-hang", type=int, default=-1, help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.worker:
        return worker(args.worker, args.seed, args.memory_mb, args.inject_crash, args.inject_hang)
    if args.only is not None:
        name, data = make_input(build_seeds(), args.seed, args.only)
        if args.dump:
            with open(args.dump, "wb") as fh:
                fh.write(data)
        print(f"input {args.only} of seed {args.seed}: from seed file {name!r}, {len(data)} bytes")
        return 0
    t0 = time.monotonic()
    ours = run(args, "densecore")
    report = {"seed": args.seed, "count": args.count, "workers": args.workers,
              "seconds": round(time.monotonic() - t0, 1), "densecore": summarize(ours, "densecore")}
    if args.compare_torch:
        theirs = run(args, "torch")
        report["torch"] = summarize(theirs, "torch")
        pairs = collections.Counter((theirs[i][0], ours[i][0]) for i in ours if theirs[i][0] != ours[i][0])
        examples = {}
        for i in sorted(ours):
            key = (theirs[i][0], ours[i][0])
            if key[0] != key[1]:
                examples.setdefault(key, i)
        report["differences"] = [[t, d, n, examples[(t, d)]] for (t, d), n in pairs.most_common()]
    if args.outcomes:
        with open(args.outcomes, "w") as fh:
            for i in sorted(ours):
                fh.write(f"{i} {ours[i][0]}" + (f" {theirs[i][0]}" if args.compare_torch else "") + "\n")
    text = json.dumps(report, indent=1)
    if args.json:
        with open(args.json, "w") as fh:
            fh.write(text + "\n")
    print(text)
    return 1 if report["densecore"]["findings"] else 0


if __name__ == "__main__":
    sys.exit(main())
