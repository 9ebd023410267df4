"""The oracle: run the same snippets under real PyTorch and under DenseCore, each in its own process,
and compare the results bit for bit.

Why separate processes: torch's wheel carries its own static MKL and libgomp; sharing one process
with densecore could make a test pass for the wrong reason (see docs/exactness.md).

A case is Python source run with `torch` bound to the library under test (real torch, or densecore
imported as torch) after the shared `setup` source. It must assign its result to `out`: a tensor, a
Python number/bool/str/None, or a (nested) list/tuple/dict of those.

    oracle.assert_cases_equal({"add": "out = torch.tensor([1., 2.]) + 1"})   # one process per library

Nothing passes by accident:
- An exception is a result only where the case declares it: `oracle.raises(IndexError, "x[5]")`. The
  case must raise that class in torch and in DenseCore, with the same message. Where DenseCore's message
  legitimately cannot equal torch's, the case gives a regular expression both messages must match in
  full (`message=r"..."`), with a comment saying why. A sweep probing where torch draws a line (which
  values overflow a dtype) declares `oracle.may_raise(RuntimeError, code)`: the case returns or raises
  that class as torch does, and DenseCore must do the same.
- An exception in a case that declared none, in either library, fails with its traceback; so does a
  case that never assigns `out`. NameError and SyntaxError can never be declared (they are bugs of the
  case), and anything raised by the setup or by the harness itself (encoding a result) fails the test.
- Tensors are compared by dtype, shape, strides, storage offset, requires_grad and raw bytes. The strides
  are the significant ones, by torch's own rule (torch._prims_common.check_significant_strides): those
  of dimensions longer than one, of tensors with elements; the rest address nothing. Where torch leaves a
  result's layout unspecified, the case compares `values_only(t)` (dtype, shape, requires_grad, bytes)
  and says why in a comment.
- torch is called only from tests marked `pytest.mark.oracle` (conftest.py skips them when torch is
  missing, or fails them under DENSECORE_REQUIRE_ORACLE=1).
"""
import os
import pickle
import re
import subprocess
import sys
import textwrap

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
# Whether this run is under the sanitizer build: scripts/sanitize.sh preloads ASan's runtime into every process.
UNDER_ASAN = "libasan" in os.environ.get("LD_PRELOAD", "")

# Classes that only a broken case raises: never a declared result.
_NEVER_DECLARED = ("NameError", "UnboundLocalError", "SyntaxError", "IndentationError", "TabError")

_CHILD = r'''
import math, pickle, struct, sys, traceback
lib = sys.argv[1]
if lib == "torch":
    import torch
    def raw(t):
        t = t.detach().reshape(-1).contiguous()
        return t.view(torch.uint8).numpy().tobytes() if t.numel() else b""
else:
    import densecore as torch
    def raw(t):
        return t._raw_bytes()

class ValuesOnly:
    """A tensor whose layout (strides, storage offset) is not compared: torch leaves it unspecified."""
    def __init__(self, t):
        if not isinstance(t, torch.Tensor):
            raise TypeError(f"values_only() takes a tensor, not {type(t).__name__}")
        self.t = t

def dtype_name(t):
    return str(t.dtype).replace("torch.", "")

def significant_strides(t):
    # torch's own rule (torch._prims_common.check_significant_strides): only the strides of dimensions
    # longer than one, of a tensor with elements, mean anything; the others are None.
    if t.numel() == 0:
        return (None,) * t.dim()
    return tuple(s if n > 1 else None for n, s in zip(t.shape, t.stride()))

def encode(v):
    if isinstance(v, torch.Tensor):
        return ("tensor", dtype_name(v), tuple(v.shape), raw(v), significant_strides(v), v.storage_offset(),
                bool(v.requires_grad))
    if isinstance(v, ValuesOnly):
        t = v.t
        return ("tensor-values", dtype_name(t), tuple(t.shape), raw(t), bool(t.requires_grad))
    if isinstance(v, bool) or v is None or isinstance(v, str):
        return ("py", type(v).__name__, v)
    if isinstance(v, int):
        return ("py", "int", v)
    if isinstance(v, float):  # the bits: NaN payloads and signs count
        return ("float", struct.pack("<d", v).hex())
    if isinstance(v, (list, tuple)):
        return (type(v).__name__, [encode(x) for x in v])
    if isinstance(v, dict):
        return ("dict", [(k, encode(x)) for k, x in v.items()])
    if isinstance(v, torch.dtype):
        return ("dtype", str(v))
    return ("repr", type(v).__name__, repr(v))

cases = pickle.load(sys.stdin.buffer)
results = {}
for name, (setup, code) in cases.items():
    scope = {"torch": torch, "math": math, "values_only": ValuesOnly}
    # The setup and the case's syntax are the harness's business: any exception from them ends the
    # run with its traceback, never becomes a result.
    exec(compile(setup, "<setup>", "exec"), scope)
    compiled = compile(code, f"<case {name}>", "exec")
    try:
        exec(compiled, scope)
    except Exception as e:
        results[name] = ("raised", type(e).__name__, str(e), traceback.format_exc())
        continue
    # Encoding is the harness too: outside the try, so its errors end the run.
    results[name] = ("returned", encode(scope["out"])) if "out" in scope else ("no-out",)
sys.stdout.buffer.write(pickle.dumps(results))
'''


class Raises:
    """A case that raises `exc_name` in torch and in DenseCore (always, or where torch does: raises() and
    may_raise())."""

    def __init__(self, exc, code, message=None, always=True):
        self.exc_name = exc if isinstance(exc, str) else exc.__name__
        self.any_class = self.exc_name == ANY_ERROR
        if self.exc_name in _NEVER_DECLARED:
            raise ValueError(f"{self.exc_name} is a bug of the case, not a result")
        self.code = code
        self.message = message
        self.always = always

    def map_code(self, fn):
        """The same declaration around fn(code) (for cases built from templates)."""
        return Raises(self.exc_name, fn(self.code), self.message, self.always)

    def __repr__(self):
        kind = "raises" if self.always else "may_raise"
        return f"{kind}({self.exc_name}, {self.code!r}, message={self.message!r})"


def raises(exc, code, message=None):
    """Declares that `code` raises `exc` (a class or its name) in both libraries. The messages must be
    equal; `message`, a regular expression both must match in full, is for the cases where DenseCore's
    message legitimately cannot equal torch's (say why beside it)."""
    return Raises(exc, code, message)


# same_as_torch(): the exception, if any, is whatever torch raises.
ANY_ERROR = "<torch's>"


def same_as_torch(code, message=None):
    """Declares a case whose outcome is torch's, whatever it is: equal values, or the same exception class
    and message. For generated inputs (hostile files, walks over many ops) where which class torch raises
    depends on the input and is the thing compared. Harness errors (NameError, SyntaxError, ...) still fail."""
    return Raises(ANY_ERROR, code, message, always=False)


def may_raise(exc, code):
    """Declares that `code` probes a line torch draws: it returns, or raises `exc` (a class or its name)
    with a message DenseCore must equal, wherever torch does."""
    return Raises(exc, code, always=False)


def declare(cases, raising):
    """cases with each case named in `raising` ({name: exception class name}) declared as raising it (for
    case tables built from templates, where the declaration cannot sit beside the code)."""
    unknown = sorted(set(raising) - set(cases))
    assert not unknown, f"declared cases that do not exist: {unknown}"
    return {k: raises(raising[k], v) if k in raising else v for k, v in cases.items()}


def code_of(case):
    return case.code if isinstance(case, Raises) else case


def map_code(case, fn):
    """fn applied to a case's source, keeping its declaration."""
    return case.map_code(fn) if isinstance(case, Raises) else fn(case)


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


# Set by conftest.py before each test: whether the running test is marked `oracle`.
current_test = {"name": None, "oracle": False}


def child_env(env=None):
    """The environment of a library's process: ours, the development build's package path, then `env`
    (a value of None removes that variable)."""
    merged = dict(os.environ)
    if os.environ.get("DENSECORE_BUILD_DIR"):  # development build: the package is in the source tree
        merged["PYTHONPATH"] = os.path.join(ROOT, "python") + os.pathsep + merged.get("PYTHONPATH", "")
    for key, value in (env or {}).items():
        if value is None:
            merged.pop(key, None)
        else:
            merged[key] = value
    return merged


def require_oracle_marker():
    """Fails a test that runs torch without the `oracle` marker (it would not be skipped without torch).
    Outside pytest (scripts/matmul_sweep.py) there is no test to mark."""
    if current_test["name"] is not None and not current_test["oracle"]:
        raise AssertionError(f"{current_test['name']} runs torch but is not marked pytest.mark.oracle")


class Results(dict):
    """{case name: encoded result}; a raised exception is ("error", class name, message) with its
    traceback in .tracebacks[name]; a case that never assigned `out` is ("no-out",)."""

    def __init__(self):
        super().__init__()
        self.tracebacks = {}


def _collect(cases, lib, setup, env):
    if lib == "torch":
        require_oracle_marker()
    payload = pickle.dumps({k: (textwrap.dedent(setup), textwrap.dedent(code_of(v))) for k, v in cases.items()})
    proc = subprocess.run(
        [sys.executable, "-c", _CHILD, lib], input=payload, capture_output=True, env=child_env(env), timeout=600
    )
    if proc.returncode != 0:
        raise RuntimeError(f"{lib} process failed ({proc.returncode}): the setup, a case's syntax or the "
                           f"harness raised:\n{proc.stderr.decode()[-4000:]}")
    results = Results()
    for name, r in pickle.loads(proc.stdout).items():
        if r[0] == "raised":
            results[name] = ("error", r[1], r[2])
            results.tracebacks[name] = r[3]
        else:
            results[name] = r[1] if r[0] == "returned" else ("no-out",)
    return results


def _problem(case, results, name, lib):
    """What is wrong with one library's result of a case on its own, or None."""
    r = results[name]
    declared = case.exc_name if isinstance(case, Raises) else None
    if r[0] == "error" and declared == ANY_ERROR and r[1] not in _NEVER_DECLARED:
        return None
    if r[0] == "error" and r[1] != declared:
        what = f"declared {declared}, raised {r[1]}" if declared else f"raised {r[1]} (no error was declared)"
        return f"{lib} {what}:\n{_indent(results.tracebacks[name][-3000:])}"
    if r[0] == "no-out" and not (declared and case.always):
        return f"{lib} finished without assigning `out`"
    if r[0] != "error" and declared and case.always:
        return f"declared {declared}, but {lib} returned {describe(r)}"
    return None


def outcomes(cases, lib, setup="", env=None):
    """Runs {name: case} under `lib` and returns what each case did, raising or not, unjudged: for tests
    whose subject is the exception itself (a crafted file, a killed save). Harness errors still end the run."""
    results = _collect(cases, lib, setup, env)
    bad = [f"{name}: {results[name][1]}" for name in cases
           if results[name][0] == "error" and results[name][1] in _NEVER_DECLARED]
    assert not bad, f"harness errors under {lib}:\n" + "\n".join(bad[:10])
    return results


def run_cases(cases, lib, setup="", env=None):
    """Runs {name: case} under `lib` ("torch" or "densecore") in a fresh process and returns its Results.
    Fails when a case raises without declaring it, declares an exception and does not raise it, or
    never assigns `out`."""
    results = _collect(cases, lib, setup, env)
    bad = [f"{name}: {p}" for name, case in cases.items() if (p := _problem(case, results, name, lib))]
    assert not bad, f"{len(bad)} of {len(cases)} cases failed under {lib}:\n" + "\n".join(bad[:10])
    return results


def _indent(text):
    return textwrap.indent(text.rstrip(), "    ")


# Encoded tensors: (kind, dtype, shape, bytes, ...) with strides, storage offset, requires_grad after
# ("tensor") or requires_grad only ("tensor-values"); scripts/matmul_sweep.py reads the bytes at [3].
_TENSOR_FIELDS = ("dtype", "shape", "bytes", "strides", "storage offset", "requires_grad")


def _tensor_difference(a, b):
    fields = _TENSOR_FIELDS if a[0] == "tensor" else ("dtype", "shape", "bytes", "requires_grad")
    for label, x, y in zip(fields, a[1:], b[1:]):
        if x != y:
            if label != "bytes":
                return f"{label} {x} vs {y}"
            at = next((i for i, (p, q) in enumerate(zip(x, y)) if p != q), min(len(x), len(y)))
            return f"bytes differ from byte {at} (of {len(x)}: {x[at:at + 8].hex()} vs {y[at:at + 8].hex()})"
    return None


def difference(a, b, path="out"):
    """Where two encoded results first differ ("out[1]: strides (1, 3) vs (3, 1)"), or None."""
    if a == b:
        return None
    if a[0] != b[0]:
        return f"{path}: {describe(a)} vs {describe(b)}"
    if a[0] in ("tensor", "tensor-values"):
        return f"{path}: {_tensor_difference(a, b)}"
    if a[0] in ("list", "tuple") and len(a[1]) == len(b[1]):
        return next(d for i, (x, y) in enumerate(zip(a[1], b[1])) if (d := difference(x, y, f"{path}[{i}]")))
    if a[0] == "dict" and [k for k, _ in a[1]] == [k for k, _ in b[1]]:
        return next(d for (k, x), (_, y) in zip(a[1], b[1]) if (d := difference(x, y, f"{path}[{k!r}]")))
    return f"{path}: {describe(a)} vs {describe(b)}"


def describe(result):
    """A short human-readable form of an encoded result, for failure messages."""
    if result[0] == "tensor":
        return (f"tensor(dtype={result[1]}, shape={result[2]}, stride={result[4]}, offset={result[5]}, "
                f"requires_grad={result[6]}, {len(result[3])} bytes)")
    if result[0] == "tensor-values":
        return f"values_only(dtype={result[1]}, shape={result[2]}, requires_grad={result[4]}, {len(result[3])} bytes)"
    return repr(result)[:300]


def _mismatch(case, want, got):
    """Why DenseCore's result of `case` is not torch's (both free of _problem()s), or None."""
    if want[0] == "error" and got[0] != "error":
        return f"torch raised {want[1]}: {want[2]!r}\n  densecore returned {describe(got)}"
    if got[0] == "error" and want[0] != "error":
        return f"torch returned {describe(want)}\n  densecore raised {got[1]}: {got[2]!r}"
    if want[0] == "error":
        if want[1] != got[1]:
            return f"torch raised {want[1]}: {want[2]!r}\n  densecore raised {got[1]}: {got[2]!r}"
        if case.message is None:
            return None if got[2] == want[2] else f"messages differ:\n  torch:     {want[2]!r}\n  densecore: {got[2]!r}"
        for lib, result in (("torch", want), ("densecore", got)):
            if not re.fullmatch(case.message, result[2], re.DOTALL):
                return f"{lib}'s message {result[2]!r} does not match {case.message!r}"
        return None
    where = difference(want, got)
    return f"first difference at {where}" if where else None


def assert_cases_equal(cases, setup="", env=None):
    """Runs every case under torch and densecore and asserts equal results: bitwise-equal values, or the
    declared exception with equal messages."""
    want = _collect(cases, "torch", setup, env)
    got = _collect(cases, "densecore", setup, env)
    bad = []
    for name, case in cases.items():
        problems = [p for p in (_problem(case, want, name, "torch"), _problem(case, got, name, "densecore")) if p]
        if problems and want[name][0] == "error" and got[name][0] != "error":
            problems.insert(0, f"torch raised {want[name][1]}: {want[name][2]!r}")
        why = "\n  ".join(problems) or _mismatch(case, want[name], got[name])
        if why:
            bad.append(f"{name}:\n  {why}")
    assert not bad, f"{len(bad)} of {len(cases)} cases differ:\n" + "\n".join(bad[:20])
