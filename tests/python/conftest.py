import os
import sys

import pytest

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)  # so tests can `import oracle`
# Development builds (scripts/dev_build.sh) import the package from the source tree and _C from
# DENSECORE_BUILD_DIR; otherwise the installed densecore is tested.
if os.environ.get("DENSECORE_BUILD_DIR"):
    sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(HERE)), "python"))

import oracle  # noqa: E402  (needs the path above)

# CI sets this (scripts/test.sh): there a missing torch must fail the oracle tests, not skip them.
REQUIRE_ORACLE = os.environ.get("DENSECORE_REQUIRE_ORACLE") == "1"


def pytest_collection_modifyitems(config, items):
    """Every test says whether it needs torch: exactly one of the markers oracle / notorch. Then the runs that
    repeat another run on this CPU, or belong to the long sweep, are skipped with their reason (a skip, not a
    deselection, so that the summary names each one under pytest-xdist too)."""
    unmarked = [item.nodeid for item in items
                if (item.get_closest_marker("oracle") is None) == (item.get_closest_marker("notorch") is None)]
    if unmarked:
        raise pytest.UsageError("tests need exactly one of pytest.mark.oracle / pytest.mark.notorch:\n  "
                                + "\n  ".join(unmarked[:20]))
    if LONG_SWEEP:
        return
    for item in items:
        why = _not_in_this_run(item)
        if why:
            item.add_marker(pytest.mark.skip(reason=why))


# DENSECORE_LONG_SWEEP=1 runs every environment a test is parametrized with. Without it (CI), two kinds of run
# are skipped, each named with its reason in the summary:
# - ATEN_CPU_CAPABILITY=default: ATen's scalar build, which no x86 CPU we support runs unless told to (the
#   promise is AVX2 and AVX-512); it stays in the long sweep, whose results docs/reliability.md records.
# - ATEN_CPU_CAPABILITY=avx2 on a CPU without AVX-512: there both libraries already choose AVX2 natively (ATen
#   from cpuinfo, DenseCore from CPUID; MKL never reads the variable), so the run repeats the native one.
LONG_SWEEP = os.environ.get("DENSECORE_LONG_SWEEP") == "1"


def _cpu_flags():
    try:
        with open("/proc/cpuinfo") as f:
            line = next((ln for ln in f if ln.startswith("flags")), "")
    except OSError:
        return set()
    return set(line.split(":", 1)[-1].split())


_FLAGS = _cpu_flags()
NATIVE_IS_AVX2 = {"avx2", "fma"} <= _FLAGS and not any(f.startswith("avx512") for f in _FLAGS)


def _environment(item):
    """The extra environment a parametrized oracle test runs its children in: an `env`/`extra` dict, a `cap`
    name (test_creation.py) or a `config` name of its module's CONFIGS."""
    params = getattr(getattr(item, "callspec", None), "params", {})
    for name, value in params.items():
        if isinstance(value, dict) and name in ("env", "extra"):
            return value
        if name == "cap" and isinstance(value, str):
            return {"ATEN_CPU_CAPABILITY": value}
        if name == "config" and isinstance(getattr(item.module, "CONFIGS", None), dict):
            return item.module.CONFIGS[value] or {}
    return {}


def _not_in_this_run(item):
    capability = _environment(item).get("ATEN_CPU_CAPABILITY")
    if capability == "default":
        return "ATEN_CPU_CAPABILITY=default is in the long sweep (DENSECORE_LONG_SWEEP=1)"
    if capability == "avx2" and NATIVE_IS_AVX2:
        return "ATEN_CPU_CAPABILITY=avx2 repeats the native run on this CPU (no AVX-512)"
    return None


def pytest_runtest_setup(item):
    is_oracle = item.get_closest_marker("oracle") is not None
    oracle.current_test.update(name=item.nodeid, oracle=is_oracle)
    if is_oracle and not oracle.torch_available():
        if REQUIRE_ORACLE:
            pytest.fail("PyTorch (the oracle) is not installed, and DENSECORE_REQUIRE_ORACLE=1 requires it",
                        pytrace=False)
        pytest.skip("PyTorch (the oracle) is not installed")


@pytest.hookimpl(wrapper=True)
def pytest_runtest_call(item):
    """A notorch test must not import torch (into this process; oracle tests run it in children)."""
    had_torch = "torch" in sys.modules
    result = yield
    if item.get_closest_marker("notorch") is not None and not had_torch and "torch" in sys.modules:
        pytest.fail(f"{item.nodeid} is marked notorch but imported torch", pytrace=False)
    return result

def pytest_terminal_summary(terminalreporter):
    """No silent skips: every test that did not run is named, with its reason, whatever -r/-q say. The core
    tests need no data from outside the repository; a test that does (or a missing oracle, or a CPU without
    AVX-512) shows up here, and so does each run left to the long sweep or repeating another on this CPU
    (pytest_collection_modifyitems). These lines are a report, not a failure: a clean clone never has outside
    data, so failing on it would fail every CI run; a missing torch fails in CI through DENSECORE_REQUIRE_ORACLE=1."""
    skipped = terminalreporter.stats.get("skipped", [])
    if not skipped:
        return
    terminalreporter.section(f"did not run ({len(skipped)})")
    for report in skipped:
        reason = report.longrepr[2] if isinstance(report.longrepr, tuple) else str(report.longrepr)
        terminalreporter.write_line(f"did not run: {report.nodeid}: {reason.removeprefix('Skipped: ')}")
