import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)  # so tests can `import oracle`
# Development builds (scripts/dev_build.sh) import the package from the source tree and _C from
# DENSECORE_BUILD_DIR; otherwise the installed densecore is tested.
if os.environ.get("DENSECORE_BUILD_DIR"):
    sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(HERE)), "python"))


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
