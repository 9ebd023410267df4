"""GPT parity: tests/python/gpt_program.py (a tiny char-level GPT trained nanoGPT-style on the project's own
README and docs, the demo's corpus, so no data from outside the repository is needed) runs unchanged under real PyTorch and under `python -m densecore.run`, each in its own process with the same
environment; every loss, grad norm, gradient (before and after clipping), weight, AdamW moment, eval loss,
final state and the sampled text must have identical bits. A mismatch names the first step and tensor.
Also: the shipped demo's own --check (python -m densecore.demo) passes on a shortened run."""
import os
import pickle
import struct
import subprocess
import sys

import oracle
import pytest

pytestmark = pytest.mark.oracle

PROGRAM = os.path.join(os.path.dirname(os.path.abspath(__file__)), "gpt_program.py")

CONFIGS = [  # (dropout, extra environment); OMP_NUM_THREADS None = unset (torch's default thread count)
    pytest.param(0.0, {"OMP_NUM_THREADS": None}, id="dropout0.0-default_threads"),
    pytest.param(0.0, {"OMP_NUM_THREADS": "1"}, id="dropout0.0-1thread"),
    pytest.param(0.2, {"OMP_NUM_THREADS": None}, id="dropout0.2-default_threads"),
    pytest.param(0.2, {"OMP_NUM_THREADS": "1"}, id="dropout0.2-1thread"),
    pytest.param(0.2, {"OMP_NUM_THREADS": None, "ATEN_CPU_CAPABILITY": "avx2"}, id="dropout0.2-avx2"),
]


def _env(extra):
    return oracle.child_env({"ATEN_CPU_CAPABILITY": None, **extra})


@pytest.fixture(scope="module")
def corpus(tmp_path_factory):
    """The demo's training text (densecore._demo_text: the project's README and docs) in a file for both runs."""
    from densecore._demo_text import corpus_text

    path = tmp_path_factory.mktemp("corpus") / "corpus.txt"
    path.write_text(corpus_text(), encoding="utf-8")
    return path


def _run(launcher, out, dropout, env, cwd, text):
    cmd = [sys.executable, *launcher, PROGRAM, str(out), "--dropout", str(dropout), "--text", str(text)]
    proc = subprocess.run(cmd, capture_output=True, text=True, env=env, cwd=cwd, timeout=600)
    assert proc.returncode == 0, f"{' '.join(cmd)} failed ({proc.returncode}):\n{proc.stderr[-4000:]}"
    with open(out, "rb") as f:
        return pickle.load(f)


def _f32(bits):
    return f"{struct.unpack('<f', bits)[0]!r} ({bits.hex()})" if len(bits) == 4 else repr(bits)


def _first_difference(want, got):
    """A description of the first recorded value that differs, in program order, or None."""
    if want["vocab"] != got["vocab"]:
        return "vocabulary"
    for step, (a, b) in enumerate(zip(want["steps"], got["steps"])):
        if step in want["evals"] and want["evals"][step] != got["evals"].get(step):
            return f"eval losses before step {step}: torch {want['evals'][step]} densecore {got['evals'].get(step)}"
        if a["lr"] != b["lr"]:
            return f"step {step}: lr torch {a['lr']!r} densecore {b['lr']!r}"
        for key in ("loss", "norm"):  # float32 bits
            if a[key] != b[key]:
                return f"step {step}: {key} torch {_f32(a[key])} densecore {_f32(b[key])}"
        for key in ("grad", "clipped"):
            for name in a[key]:
                if a[key][name] != b[key].get(name):
                    return f"step {step}: {key} of {name}"
        for name, parts in a["state"].items():
            for label, x, y in zip(("weight", "exp_avg", "exp_avg_sq", "step"), parts, b["state"].get(name, ())):
                if x != y:
                    return f"step {step}: {label} of {name} after opt.step()"
    if len(want["steps"]) != len(got["steps"]):
        return f"step count: torch {len(want['steps'])} densecore {len(got['steps'])}"
    if want["evals"] != got["evals"]:
        return "final eval losses"
    for key in ("final", "final_opt"):
        if want[key] != got[key]:
            names = [n for n in want[key] if want[key][n] != got[key].get(n)]
            return f"{key}: {names[:5]}"
    if want["sample"] != got["sample"]:
        return f"sample: torch {want['sample']!r} densecore {got['sample']!r}"
    return None


@pytest.mark.parametrize("dropout,extra", CONFIGS)
def test_gpt_training_bits_equal_torch(dropout, extra, tmp_path, corpus):
    env = _env(extra)
    want = _run([], tmp_path / "torch.pkl", dropout, env, tmp_path, corpus)
    got = _run(["-m", "densecore.run"], tmp_path / "densecore.pkl", dropout, env, tmp_path, corpus)
    # Each side really ran its own library (the shim must not leak into the plain `python` run).
    assert "densecore" not in want["library"] and got["library"].endswith("+densecore")
    assert len(want["steps"]) == 30 and len(want["final"]) > 0
    where = _first_difference(want, got)
    assert where is None, f"first difference: {where}"


def test_demo_check_passes(tmp_path):
    """The shipped demo (python -m densecore.demo), shortened: its own --check must print PASS."""
    cmd = [sys.executable, "-m", "densecore.demo", "--check", "--steps", "12", "--log-every", "6",
           "--sample-len", "40"]
    proc = subprocess.run(cmd, capture_output=True, text=True, env=_env({}), cwd=tmp_path, timeout=600)
    assert proc.returncode == 0, proc.stdout + proc.stderr[-3000:]
    assert "step    12  train loss" in proc.stdout and "identical bits (all 12 steps, 2 val losses)" in proc.stdout
    assert proc.stdout.rstrip().endswith("PASS: DenseCore and PyTorch agree bit for bit"), proc.stdout
