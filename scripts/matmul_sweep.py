#!/usr/bin/env python
"""The matmul exactness sweep: mm / addmm / a @ b / bmm / F.linear over every dim 1..300 plus
512/768/1024, with transposed and sliced operands, compared bit for bit between torch and densecore
(each in its own process, tests/python/oracle.py). Inputs are built in both processes from the same
bytes (a deterministic float32 pool), so no RNG is needed.

    DENSECORE_BUILD_DIR=$PWD/build/mm/python/src python scripts/matmul_sweep.py          # 4 configs
    ... python scripts/matmul_sweep.py --configs native-default --limit 50

Results are compared as (shape, dtype, sha1 of the raw bytes); a differing case is re-run with the
full bytes to count differing elements. tests/python/test_matmul.py runs a subset of `cases()`.
"""
import argparse
import os
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "tests", "python"))

# Runs in each child before the cases: the input pool and layout helpers, identical on both sides.
SETUP = r'''
import array, hashlib, sys, types
POOL_N = 1 << 21
# The oracle runs this setup before every case: build the pool once per process.
if "_matmul_sweep_pool" not in sys.modules:
    _m = types.ModuleType("_matmul_sweep_pool")
    _m.pool = array.array('f', [((i * 7919) % 1000 - 500) / 97.0 + ((i * 104729) % 89) / 8191.0
                                for i in range(POOL_N)]).tobytes()
    sys.modules["_matmul_sweep_pool"] = _m
_pool = sys.modules["_matmul_sweep_pool"].pool
_DC = hasattr(torch._C, "_tensor_from_bytes")

def _numel(shape):
    n = 1
    for s in shape:
        n *= s
    return n

def mk(*shape, off=0):
    """A contiguous float32 tensor of `shape` holding pool[off : off + numel]."""
    n = _numel(shape)
    off %= POOL_N - n + 1
    data = _pool[4 * off: 4 * (off + n)]
    return _from_bytes(data, shape, "float32")

def _from_bytes(data, shape, dtype):
    if _DC:
        return torch._C._tensor_from_bytes(data, list(shape), getattr(torch, dtype))
    if not data:
        return torch.zeros(shape, dtype=getattr(torch, dtype))
    return torch.frombuffer(bytearray(data), dtype=getattr(torch, dtype)).reshape(shape).clone()

_CODES = {"bool": "B", "float64": "d", "int64": "q", "int32": "i", "int16": "h", "int8": "b", "uint8": "B"}

def mkt(*shape, dtype="int32", off=0):
    """A contiguous tensor of another dtype: small integers (as doubles for float64)."""
    n = _numel(shape)
    lo = 0 if dtype in ("uint8", "bool") else -100
    vals = [((i + off) * 7919) % 200 + lo for i in range(n)]
    if dtype == "bool":
        vals = [v & 1 for v in vals]
    if dtype == "float64":
        vals = [v / 7.0 for v in vals]
    return _from_bytes(array.array(_CODES[dtype], vals).tobytes(), shape, dtype)

def strided(x, size, stride, offset=0):
    return torch.as_strided(x, size, stride, offset)

def tr(rows, cols, off=0):
    """A (rows, cols) operand stored transposed: a (cols, rows) buffer seen with strides (1, rows)."""
    return strided(mk(cols, rows, off=off), (rows, cols), (1, rows))

def sl(rows, cols, pad, off=0):
    """A (rows, cols) slice of a (rows + 1, cols + pad) buffer, starting at element 1 of row 1."""
    base = mk(rows + 1, cols + pad, off=off)
    return strided(base, (rows, cols), (cols + pad, 1), cols + pad + 1)

def digest(t):
    if _DC:
        raw = t._raw_bytes()
    else:
        raw = t.contiguous().reshape(-1).view(torch.uint8).numpy().tobytes() if t.numel() else b""
    return (tuple(t.shape), str(t.dtype), hashlib.sha1(raw).hexdigest())
'''

SPECIAL = [512, 768, 1024]
OTHERS = [1, 2, 3, 7, 16, 17, 31, 64, 100, 129, 256, 300]


def _other(d, salt):
    # A deterministic partner size for dim d (varies the other two dims across the sweep).
    return OTHERS[(d * 31 + salt * 7) % len(OTHERS)]


def _mm_variants(m, k, n, tag, o):
    F = "torch.nn.functional"
    return {
        f"mm/{tag}": f"r = torch.mm(mk({m},{k},off={o}), mk({k},{n},off={o + 13}))",
        f"mm_tA/{tag}": f"r = torch.mm(tr({m},{k},off={o}), mk({k},{n},off={o + 5}))",
        f"mm_tB/{tag}": f"r = torch.mm(mk({m},{k},off={o}), tr({k},{n},off={o + 3}))",
        f"mm_tAB/{tag}": f"r = torch.mm(tr({m},{k},off={o}), tr({k},{n},off={o + 3}))",
        f"mm_slice/{tag}": f"r = torch.mm(sl({m},{k},3,off={o}), sl({k},{n},5,off={o + 2}))",
        f"addmm/{tag}": f"r = torch.addmm(mk({n},off={o + 1}), mk({m},{k},off={o}), mk({k},{n},off={o + 7}))",
        f"addmm_2d/{tag}": f"r = torch.addmm(mk({m},{n},off={o + 1}), mk({m},{k},off={o}), tr({k},{n},off={o + 7}))",
        f"addmm_ba/{tag}": f"r = torch.addmm(mk({n},off={o + 1}), mk({m},{k},off={o}), mk({k},{n},off={o + 7}), beta=0.5, alpha=-1.25)",
        f"addmm_b0/{tag}": f"r = torch.addmm(mk({n},off={o + 1}), mk({m},{k},off={o}), mk({k},{n},off={o + 7}), beta=0, alpha=3)",
        f"matmul/{tag}": f"r = mk({m},{k},off={o}) @ mk({k},{n},off={o + 11})",
        f"linear/{tag}": f"r = {F}.linear(mk({m},{k},off={o}), mk({n},{k},off={o + 17}), mk({n},off={o + 2}))",
        f"linear_nb/{tag}": f"r = {F}.linear(mk({m},{k},off={o}), mk({n},{k},off={o + 17}))",
    }


def _nd_variants(m, k, n, tag, o):
    F = "torch.nn.functional"
    b = 1 + (m % 3)
    t = max(1, m // b)
    return {
        f"linear3d/{tag}": f"r = {F}.linear(mk({b},{t},{k},off={o}), mk({n},{k},off={o + 17}), mk({n},off={o + 2}))",
        f"linear3d_nb/{tag}": f"r = {F}.linear(mk({b},{t},{k},off={o}), mk({n},{k},off={o + 17}))",
        f"linear3d_nc/{tag}": f"r = {F}.linear(strided(mk({t},{b},{k},off={o}), ({b},{t},{k}), ({k},{b * k},1)), mk({n},{k},off={o + 17}), mk({n},off={o + 2}))",
        f"bmm/{tag}": f"r = torch.bmm(mk({b},{t},{k},off={o}), mk({b},{k},{n},off={o + 9}))",
        f"matmul3d/{tag}": f"r = torch.matmul(mk({b},{t},{k},off={o}), mk({k},{n},off={o + 9}))",
        f"matmul_bcast/{tag}": f"r = torch.matmul(mk(2,1,{t},{k},off={o}), mk({b},{k},{n},off={o + 9}))",
        f"mv/{tag}": f"r = torch.matmul(mk({m},{k},off={o}), mk({k},off={o + 9}))",
        f"vm/{tag}": f"r = torch.matmul(mk({k},off={o}), mk({k},{n},off={o + 9}))",
    }


def cases():
    """{name: code}: each code sets `r`; the child stores digest(r) in `out`."""
    out = {}
    for d in list(range(1, 301)) + SPECIAL:
        a, b = _other(d, 1), _other(d, 2)
        role = d % 3  # which of (m, k, n) is d
        m, k, n = [(d, a, b), (a, d, b), (a, b, d)][role]
        if d in SPECIAL:
            m, k, n = d, d, d
        tag = f"{m}x{k}x{n}"
        o = d * 101
        out.update(_mm_variants(m, k, n, tag, o))
        if d % 4 == 0 or d in SPECIAL or d < 20:
            out.update(_nd_variants(m, k, n, tag, o))
    return {name: code + "\nout = digest(r)" for name, code in out.items()}


def subset(n_target=300):
    """A deterministic spread of about n_target cases (every op, small to 1024)."""
    all_cases = cases()
    names = sorted(all_cases)
    step = max(1, len(names) // n_target)
    picked = names[::step]
    picked += [k for k in names if k.endswith("/1024x1024x1024") and k.startswith(("mm/", "linear/"))]
    return {k: all_cases[k] for k in dict.fromkeys(picked)}


CONFIGS = {
    "native-default": {},
    "native-1thread": {"OMP_NUM_THREADS": "1"},
    "avx2-default": {"ATEN_CPU_CAPABILITY": "avx2"},
    "avx2-1thread": {"ATEN_CPU_CAPABILITY": "avx2", "OMP_NUM_THREADS": "1"},
}


def compare(case_map, env, chunk=400):
    """Runs the cases under both libraries; returns the list of differing names."""
    import oracle

    names = list(case_map)
    bad = []
    for i in range(0, len(names), chunk):
        part = {k: case_map[k] for k in names[i: i + chunk]}
        want = oracle.run_cases(part, "torch", SETUP, env)
        got = oracle.run_cases(part, "densecore", SETUP, env)
        bad += [k for k in part if want[k] != got[k]]
    return bad


def explain(names, case_map, env):
    """For differing cases: counts of differing float32 elements (re-run with full bytes)."""
    import struct

    import oracle

    full = {k: case_map[k].replace("out = digest(r)", "out = r") for k in names}
    want = oracle.run_cases(full, "torch", SETUP, env)
    got = oracle.run_cases(full, "densecore", SETUP, env)
    lines = []
    for k in names:
        w, g = want[k], got[k]
        if w[0] != "tensor" or g[0] != "tensor" or w[1:3] != g[1:3]:
            lines.append(f"{k}: torch {oracle.describe(w)} vs densecore {oracle.describe(g)}")
            continue
        n = len(w[3]) // 4
        a, b = struct.unpack(f"{n}f", w[3]), struct.unpack(f"{n}f", g[3])
        diff = sum(x != y for x, y in zip(a, b))
        lines.append(f"{k}: {diff} of {n} elements differ")
    return lines


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--configs", default=",".join(CONFIGS))
    ap.add_argument("--limit", type=int, default=0, help="run only a spread of about this many cases")
    args = ap.parse_args()
    case_map = subset(args.limit) if args.limit else cases()
    failed = False
    for cfg in args.configs.split(","):
        t0 = time.time()
        bad = compare(case_map, CONFIGS[cfg])
        print(f"{cfg}: {len(case_map)} cases, {len(case_map) - len(bad)} identical "
              f"({time.time() - t0:.0f} s)", flush=True)
        for line in explain(bad, case_map, CONFIGS[cfg]) if bad else []:
            print("   ", line)
        failed |= bool(bad)
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
