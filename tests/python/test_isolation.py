"""densecore._C carries its own static MKL with hidden symbols: it exports nothing but PyInit__C and
imports no MKL symbol, so it can never resolve into torch's MKL (or hand torch ours). OpenMP is the
one shared-library dependency (libgomp.so.1); see docs/exactness.md "Matmul" for why the oracle still
runs torch and densecore in separate processes."""
import shutil
import subprocess

import pytest


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
    assert mkl == [], mkl  # OpenMP (GOMP_*, omp_*) is imported from libgomp.so.1; MKL never is


@pytest.mark.notorch
def test_mkl_is_linked_in_and_used():
    # The static MKL really is inside _C: a matmul runs without any MKL shared library loaded.
    import densecore as dc

    a = dc._C._tensor_from_bytes(bytes(4 * 6), [2, 3], dc.float32)
    assert tuple(dc.mm(a, dc._C._tensor_from_bytes(bytes(4 * 12), [3, 4], dc.float32)).shape) == (2, 4)
    with open("/proc/self/maps") as f:
        assert "libmkl" not in f.read()
