"""densecore._C carries its own static MKL with hidden symbols: it exports nothing but PyInit__C and
imports no MKL symbol, so it can never resolve into torch's MKL (or hand torch ours). OpenMP is the
one shared-library dependency: libgomp.so.1 in a plain build, densecore.libs/libgomp-<hash>.so.1.0.0 in the
repaired wheel (scripts/repair_wheel.sh). The last test loads both libraries into one process and checks
where the loader bound each symbol; docs/exactness.md "Isolation" says which libgomp each library runs on,
and why the oracle still runs torch and densecore in separate processes."""
import glob
import os
import re
import shutil
import subprocess
import sys

import pytest

import oracle


def _module_path():
    import densecore._C as c

    return c.__file__


def _dynamic_symbols(flag, kinds=None):
    """Names from `nm -D flag`, optionally only those whose symbol type letter is in `kinds`."""
    out = subprocess.run(["nm", "-D", flag, _module_path()], capture_output=True, text=True, check=True)
    rows = [line.split() for line in out.stdout.splitlines() if line.strip()]
    return [r[-1] for r in rows if kinds is None or r[-2] in kinds]


def _is_blas_or_openmp(name):
    n = name.split("@")[0].lower()
    return any(s in n for s in ("mkl", "gomp", "omp_", "cblas", "gemm", "gemv", "blas", "sdot"))


@pytest.mark.notorch
@pytest.mark.skipif(shutil.which("nm") is None, reason="needs binutils' nm")
def test_module_exports_only_its_init_function():
    # Strong definitions: only the init function. (Weak/unique vague-linkage libstdc++ template
    # statics may also appear; they are not MKL or OpenMP, checked next.)
    assert _dynamic_symbols("--defined-only", kinds="TDBR") == ["PyInit__C"]
    exported_runtime = [s for s in _dynamic_symbols("--defined-only") if _is_blas_or_openmp(s)]
    assert exported_runtime == [], exported_runtime


@pytest.mark.notorch
@pytest.mark.skipif(shutil.which("nm") is None, reason="needs binutils' nm")
def test_module_imports_no_mkl_symbols():
    undefined = _dynamic_symbols("--undefined-only")
    mkl = [s for s in undefined if _is_blas_or_openmp(s) and not s.split("@")[0].startswith(("GOMP_", "omp_"))]
    assert mkl == [], mkl  # OpenMP (GOMP_*, omp_*) is imported from libgomp; MKL never is


@pytest.mark.notorch
def test_mkl_is_linked_in_and_used():
    # The static MKL really is inside _C: a matmul runs without any MKL shared library loaded.
    import densecore as dc

    a = dc._C._tensor_from_bytes(bytes(4 * 6), [2, 3], dc.float32)
    assert tuple(dc.mm(a, dc._C._tensor_from_bytes(bytes(4 * 12), [3, 4], dc.float32)).shape) == (2, 4)
    with open("/proc/self/maps") as f:
        assert "libmkl" not in f.read()


# One process holding both libraries, each import order, with the loader's LD_DEBUG=bindings log of every
# symbol it bound: where each of _C's imports and each of torch's OpenMP imports went.
_BOTH = r"""
import os, sys
for name in sys.argv[1:]:
    __import__(name)
import densecore._C, torch
print(os.path.realpath(densecore._C.__file__))
print(os.path.realpath(os.path.dirname(torch.__file__)))
"""
_BINDING = re.compile(r"binding file (\S+) \[\d+\] to (\S+) \[\d+\]: normal symbol `([^']+)'")


def _is_openmp(name):
    return name.startswith(("GOMP_", "omp_"))


def _bindings(order, tmp_path):
    """({(file, symbol): file it was bound to}, _C's path, torch's folder) after importing `order`."""
    log = tmp_path / f"ld-{'-'.join(order)}"
    env = oracle.child_env({"LD_DEBUG": "bindings", "LD_DEBUG_OUTPUT": str(log)})
    run = subprocess.run([sys.executable, "-c", _BOTH, *order], capture_output=True, text=True, env=env,
                         cwd=str(tmp_path), timeout=600)
    assert run.returncode == 0, run.stderr[-4000:]
    module, torch_dir = run.stdout.split()
    bound = {}
    for part in tmp_path.glob(log.name + ".*"):  # LD_DEBUG_OUTPUT appends the process id
        for match in _BINDING.finditer(part.read_text(errors="replace")):
            src, dst, symbol = match.groups()
            bound[(os.path.realpath(src), symbol)] = os.path.realpath(dst)
    return bound, module, torch_dir


@pytest.mark.oracle
@pytest.mark.parametrize("order", [("torch", "densecore"), ("densecore", "torch")], ids="-then-".join)
def test_one_process_with_torch(order, tmp_path):
    """MKL never crosses between the two libraries, and each library's OpenMP calls all go to ONE libgomp (never
    split between two runtimes), in either import order. Which libgomp: docs/exactness.md "Isolation". With the
    repaired wheel's renamed densecore.libs/libgomp-<hash>.so, densecore imported first keeps its own runtime
    and torch keeps its own; torch imported first has put its libgomp.so.1 in the global scope (torch loads
    libtorch_global_deps.so with RTLD_GLOBAL), which the loader searches before _C's own dependencies, so _C's
    OpenMP symbols bind to torch's libgomp (the vendored copy is loaded but unused). An unrepaired build needs
    libgomp.so.1 by that soname, so the process holds one libgomp, shared, in both orders."""
    oracle.require_oracle_marker()
    bound, module, torch_dir = _bindings(order, tmp_path)
    in_torch = lambda path: path.startswith(torch_dir + os.sep)  # noqa: E731
    ours = (os.path.dirname(module) + os.sep, os.path.dirname(os.path.dirname(module)) + os.sep + "densecore.libs")

    from_module = {symbol: dst for (src, symbol), dst in bound.items() if src == module}
    assert from_module, "LD_DEBUG logged no binding of _C: cannot check"
    # (libstdc++'s STB_GNU_UNIQUE template statics are one per process by design, whoever defined them first:
    # not a runtime's state, so only the MKL/BLAS/OpenMP family is checked in either direction.)
    crossing = sorted(s for s, dst in from_module.items() if in_torch(dst) and _is_blas_or_openmp(s)
                      and not _is_openmp(s))
    assert crossing == [], f"_C bound these to torch's libraries: {crossing}"
    blas = sorted(s for s in from_module if _is_blas_or_openmp(s) and not _is_openmp(s))
    assert blas == [], f"_C imported MKL/BLAS symbols: {blas}"
    module_gomp = {dst for s, dst in from_module.items() if _is_openmp(s)}
    assert len(module_gomp) == 1, f"_C's OpenMP symbols went to several libraries: {module_gomp}"

    from_torch = {(src, s): dst for (src, s), dst in bound.items() if in_torch(src)}
    into_ours = sorted(f"{os.path.basename(src)}: {s}" for (src, s), dst in from_torch.items()
                       if dst.startswith(ours) and _is_blas_or_openmp(s))
    assert into_ours == [], f"torch bound these to densecore's files: {into_ours}"
    torch_gomp = {dst for (_, s), dst in from_torch.items() if _is_openmp(s)}
    assert len(torch_gomp) == 1, f"torch's OpenMP symbols went to several libraries: {torch_gomp}"

    vendored = os.path.basename(next(iter(module_gomp))).startswith("libgomp-") or any(
        os.path.basename(p).startswith("libgomp-") for p in glob.glob(ours[1] + "/*"))
    if vendored and order[0] == "densecore":
        assert module_gomp.pop().startswith(ours[1]), "_C's OpenMP should be its own vendored libgomp"
        assert torch_gomp.pop().startswith(torch_dir), "torch's OpenMP should be its own libgomp"
    else:
        assert module_gomp == torch_gomp, f"one libgomp shared was expected: _C {module_gomp}, torch {torch_gomp}"
