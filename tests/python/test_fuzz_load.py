"""The bounded fuzz run over densecore.load (scripts/fuzz_load.py) at a CI-friendly size: no input crashes a
worker or hangs, and every exception is of a class torch.load raises on malformed files too. The harness itself
is checked to report an injected crash and hang, and to remake an input from its seed and index."""
import json
import os
import signal
import subprocess
import sys

import oracle
import pytest

pytestmark = pytest.mark.notorch

SCRIPT = os.path.join(oracle.ROOT, "scripts", "fuzz_load.py")


def _fuzz(tmp_path, *args, timeout=600):
    report = tmp_path / "report.json"
    proc = subprocess.run([sys.executable, SCRIPT, "--json", str(report), *args], capture_output=True, text=True,
                          env=oracle.child_env(), timeout=timeout)
    assert report.exists(), proc.stderr[-3000:]
    return proc.returncode, json.loads(report.read_text())


# 20,000 inputs (about 20 s); the sanitizer stage (scripts/sanitize.sh) runs 2,000, each load there being
# several times slower.
COUNT = int(os.environ.get("DENSECORE_FUZZ_COUNT", "20000"))


def test_mutated_checkpoints_load_or_raise_cleanly(tmp_path):
    code, report = _fuzz(tmp_path, "--count", str(COUNT), "--seed", "1", "--workers", "2")
    ours = report["densecore"]
    assert code == 0 and ours["findings"] == {}, ours
    assert ours["inputs"] == COUNT
    sys.path.insert(0, os.path.dirname(SCRIPT))
    try:
        import fuzz_load  # noqa: PLC0415 (the script's own list of torch's exception classes)
    finally:
        sys.path.pop(0)
    outcomes = set(ours["outcomes"])
    assert outcomes - {"loaded"} <= fuzz_load.ALLOWED, outcomes
    # not a degenerate run: inputs get past the zip layer into the unpickler and the rebuild, and some load
    assert ours["outcomes"].get("loaded", 0) > COUNT // 100 and len(outcomes) >= 6, ours["outcomes"]


def test_harness_reports_a_crash_and_a_hang(tmp_path):
    code, report = _fuzz(tmp_path, "--count", "60", "--seed", "1", "--workers", "2", "--batch", "20", "--timeout",
                         "2", "--inject-crash", "17", "--inject-hang", "41")
    assert code == 1
    findings = report["densecore"]["findings"]
    # A worker killed by SIGSEGV; under AddressSanitizer (scripts/sanitize.sh) its handler catches the signal
    # and exits with status 1 instead. Either way the harness must report a crash at input 17.
    crashed = {f"crashed(signal {int(signal.SIGSEGV)})"} | ({"crashed(exit 1)"} if oracle.UNDER_ASAN else set())
    assert set(findings) == {"17", "41"} and findings["17"] in crashed and findings["41"] == "timeout", report
    assert report["densecore"]["inputs"] == 60


def test_an_input_is_remade_from_seed_and_index(tmp_path):
    dumps = []
    for n in range(2):
        path = tmp_path / f"input{n}.pt"
        subprocess.run([sys.executable, SCRIPT, "--seed", "5", "--only", "123", "--dump", str(path)], check=True,
                       capture_output=True, env=oracle.child_env(), timeout=300)
        dumps.append(path.read_bytes())
    assert dumps[0] == dumps[1] and len(dumps[0]) > 0
