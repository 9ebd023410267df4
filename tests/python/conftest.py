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
    """Every test says whether it needs torch: exactly one of the markers oracle / notorch."""
    unmarked = [item.nodeid for item in items
                if (item.get_closest_marker("oracle") is None) == (item.get_closest_marker("notorch") is None)]
    if unmarked:
        raise pytest.UsageError("tests need exactly one of pytest.mark.oracle / pytest.mark.notorch:\n  "
                                + "\n  ".join(unmarked[:20]))


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
    AVX-512) shows up here. These lines are a report, not a failure: a clean clone never has outside data, so
    failing on it would fail every CI run; a missing torch fails in CI through DENSECORE_REQUIRE_ORACLE=1."""
    skipped = terminalreporter.stats.get("skipped", [])
    if not skipped:
        return
    terminalreporter.section(f"could not run ({len(skipped)})")
    for report in skipped:
        reason = report.longrepr[2] if isinstance(report.longrepr, tuple) else str(report.longrepr)
        terminalreporter.write_line(f"could not run: {report.nodeid}: {reason.removeprefix('Skipped: ')}")
