"""The oracle: run the same snippets under real PyTorch and under DenseCore, each in its own process,
and compare the results bit for bit.

Why separate processes: torch's wheel carries its own static MKL and libgomp; sharing one process
with densecore could make a test pass for the wrong reason (see docs/exactness.md).

A case is Python source run with `torch` bound to the library under test (real torch, or densecore
imported as torch). It must assign its result to `out`: a tensor, a Python number/bool/str/None,
or a (nested) list/tuple/dict of those. An exception raised by the case is the result too: its
class name and message are compared (class always, message when `match_message=True`).

    results = oracle.run_cases({"add": "out = torch.tensor([1., 2.]) + 1"})
    oracle.assert_cases_equal({"add": ...})   # one subprocess per library for all the cases
"""
import os
import pickle
import subprocess
import sys
import textwrap

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

_CHILD = r'''
import os, pickle, sys, math
lib = sys.argv[1]
if lib == "torch":
    import torch
    def raw(t):
        t = t.detach().reshape(-1).contiguous()
        return t.view(torch.uint8).numpy().tobytes() if t.numel() else b""
    dtype_name = lambda t: str(t.dtype).replace("torch.", "")
else:
    import densecore as torch
    def raw(t):
        return t._raw_bytes()
    dtype_name = lambda t: str(t.dtype).replace("torch.", "")

def encode(v):
    if isinstance(v, torch.Tensor):
        return ("tensor", dtype_name(v), tuple(v.shape), raw(v))
    if isinstance(v, bool) or v is None or isinstance(v, str):
        return ("py", type(v).__name__, v)
    if isinstance(v, int):
        return ("py", "int", v)
    if isinstance(v, float):
        return ("float", v.hex())
    if isinstance(v, (list, tuple)):
        return (type(v).__name__, [encode(x) for x in v])
    if isinstance(v, dict):
        return ("dict", [(k, encode(x)) for k, x in v.items()])
    if isinstance(v, torch.dtype):
        return ("dtype", str(v))
    if type(v).__name__ == "Size":
        return ("size", tuple(v))
    return ("repr", type(v).__name__, repr(v))

cases = pickle.load(sys.stdin.buffer)
results = {}
for name, (setup, code) in cases.items():
    scope = {"torch": torch, "math": math}
    try:
        exec(setup, scope)
        exec(code, scope)
        results[name] = encode(scope.get("out"))
    except Exception as e:  # the exception is the result
        results[name] = ("error", type(e).__name__, str(e))
sys.stdout.buffer.write(pickle.dumps(results))
'''


def shared_data(relpath):
    """A file of the team's shared data folder (never committed here): $DENSECORE_SHARED_DATA, else the
    `shared/data` beside the repository (a developer checkout). None if absent."""
    roots = [os.environ.get("DENSECORE_SHARED_DATA"), os.path.join(os.path.dirname(ROOT), "shared", "data")]
    for root in roots:
        if root and os.path.isfile(os.path.join(root, relpath)):
            return os.path.join(root, relpath)
    return None


def torch_available():
    """Whether the oracle can run, found without importing torch into this process."""
    import importlib.util

    return importlib.util.find_spec("torch") is not None


def child_env(env=None):
    """The environment for a child process that imports densecore (or torch), plus `env`."""
    out = dict(os.environ)
    if os.environ.get("DENSECORE_BUILD_DIR"):  # development build: the package is in the source tree
        out["PYTHONPATH"] = os.path.join(ROOT, "python") + os.pathsep + out.get("PYTHONPATH", "")
    out.update(env or {})
    return out


def run_cases(cases, lib, setup="", env=None):
    """Runs {name: code} under `lib` ("torch" or "densecore") in a fresh process; returns {name: result}."""
    payload = pickle.dumps({k: (textwrap.dedent(setup), textwrap.dedent(v)) for k, v in cases.items()})
    proc = subprocess.run(
        [sys.executable, "-c", _CHILD, lib], input=payload, capture_output=True, env=child_env(env), timeout=600
    )
    if proc.returncode != 0:
        raise RuntimeError(f"{lib} child failed ({proc.returncode}):\n{proc.stderr.decode()[-4000:]}")
    return pickle.loads(proc.stdout)


def describe(result):
    """A short human-readable form of an encoded result, for failure messages."""
    if result[0] == "tensor":
        return f"tensor(dtype={result[1]}, shape={result[2]}, {len(result[3])} bytes)"
    return repr(result)[:300]


def _first_difference(a, b):
    if a[0] == "tensor" and b[0] == "tensor" and a[1:3] == b[1:3]:
        for i, (x, y) in enumerate(zip(a[3], b[3])):
            if x != y:
                return f"first differing byte at {i}"
    return ""


def results_equal(a, b, match_message=False):
    if a[0] == "error" and b[0] == "error":
        return a[1] == b[1] and (not match_message or a[2] == b[2])
    return a == b


def assert_cases_equal(cases, setup="", env=None, match_message=False):
    """Runs every case under torch and densecore and asserts bitwise-equal results."""
    if not torch_available():
        pytest.skip("PyTorch (the oracle) is not installed")
    want = run_cases(cases, "torch", setup, env)
    got = run_cases(cases, "densecore", setup, env)
    bad = []
    for name in cases:
        if not results_equal(want[name], got[name], match_message):
            bad.append(
                f"{name}:\n  torch:     {describe(want[name])}\n  densecore: {describe(got[name])}"
                f"  {_first_difference(want[name], got[name])}"
            )
    assert not bad, f"{len(bad)} of {len(cases)} cases differ:\n" + "\n".join(bad[:20])
