"""densecore.save to a path replaces the file atomically: it writes `.<name>.tmp-<random>` beside the target,
fsyncs it and renames it over the target, so a save that fails (an exception, a full disk, a file-size limit)
or is killed leaves the previous file as it was. torch.save truncates the target first; these tests are about
DenseCore's guarantee, except where they compare an error with torch's. File bytes equal to torch.save's are
checked in test_serialization.py."""
import os
import signal
import subprocess
import sys
import time

import oracle
import pytest

# Saves a small checkpoint, then keeps its bytes (the file a failed save must leave intact).
PREVIOUS = """import os
PATH = {path!r}
torch.save({{"v": torch.arange(10.0)}}, PATH)
before = open(PATH, "rb").read()
def left_alone():
    return open(PATH, "rb").read() == before and not [n for n in os.listdir(os.path.dirname(PATH)) if ".tmp-" in n]
"""


def _spawn(code):
    """A DenseCore child process running `code` (import densecore as torch first), stdout piped."""
    return subprocess.Popen([sys.executable, "-c", "import densecore as torch\n" + code], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, env=oracle.child_env())


def _run_densecore(code):
    return oracle.outcomes({"c": code}, "densecore")["c"]


@pytest.mark.notorch
def test_save_killed_mid_write_leaves_previous_file(tmp_path):
    """SIGKILL while a 128 MB checkpoint is being written over a small one: the small one is still there, byte
    for byte (and loads); only the hidden temporary file is left behind."""
    path = tmp_path / "ckpt.pt"
    child = _spawn(PREVIOUS.format(path=str(path)) + 'print("saved", flush=True)\n'
                   'torch.save({"w": torch.ones(32 << 20)}, PATH)\nprint("done", flush=True)\n')
    try:
        assert child.stdout.readline() == b"saved\n", child.stderr.read().decode()[-2000:]
        before = path.read_bytes()
        caught = False
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline and child.poll() is None:
            partial = [p for p in tmp_path.iterdir() if p.name.startswith(".ckpt.pt.tmp-")]
            if partial and partial[0].stat().st_size > (1 << 20):
                child.kill()
                caught = True
                break
            time.sleep(0.001)
        child.wait(timeout=60)
    finally:
        if child.poll() is None:
            child.kill()
            child.wait()
    assert caught, "the save finished before it could be interrupted"
    assert child.returncode == -signal.SIGKILL
    assert path.read_bytes() == before
    assert _run_densecore(f"out = torch.load({str(path)!r})['v']") == _run_densecore("out = torch.arange(10.0)")
    assert [p.name.startswith(".ckpt.pt.tmp-") for p in tmp_path.iterdir() if p != path] == [True]


@pytest.mark.notorch
def test_save_over_file_size_limit_raises_and_leaves_previous_file(tmp_path):
    """RLIMIT_FSIZE below the new checkpoint's size: the save raises RuntimeError, the previous file is intact,
    no temporary file is left. (CPython ignores SIGXFSZ from startup, so the write fails with EFBIG.)"""
    code = PREVIOUS.format(path=str(tmp_path / "ckpt.pt")) + """import resource
resource.setrlimit(resource.RLIMIT_FSIZE, (1 << 20, 1 << 20))
try:
    torch.save({"w": torch.ones(1 << 20)}, PATH)
    out = "saved"
except RuntimeError as e:
    out = [str(e), left_alone()]
"""
    res = _run_densecore(code)
    assert res == ("list", [("py", "str", f"densecore.save: writing {tmp_path / 'ckpt.pt'} failed: File too large"),
                            ("py", "bool", True)]), res


@pytest.mark.notorch
def test_save_killed_by_sigxfsz_leaves_previous_file(tmp_path):
    """The same limit with SIGXFSZ back at the kernel's default (as in a process that embeds Python): the process
    dies of it mid-write; the previous file is intact."""
    path = tmp_path / "ckpt.pt"
    child = _spawn(PREVIOUS.format(path=str(path)) + """import resource, signal
signal.signal(signal.SIGXFSZ, signal.SIG_DFL)
print("saved", flush=True)
resource.setrlimit(resource.RLIMIT_FSIZE, (1 << 20, 1 << 20))
torch.save({"w": torch.ones(1 << 20)}, PATH)
""")
    assert child.stdout.readline() == b"saved\n"
    before = path.read_bytes()
    child.wait(timeout=120)
    assert child.returncode == -signal.SIGXFSZ, child.stderr.read().decode()[-2000:]
    assert path.read_bytes() == before


@pytest.mark.oracle
def test_file_size_limit_error_class_matches_torch(tmp_path):
    """torch raises RuntimeError too (its message, "unexpected pos ...", says less; and its file is cut short)."""
    cases = {}
    for lib in ("torch", "densecore"):
        d = tmp_path / lib
        d.mkdir()
        cases[lib] = PREVIOUS.format(path=str(d / "ckpt.pt")) + """import resource
resource.setrlimit(resource.RLIMIT_FSIZE, (1 << 20, 1 << 20))
torch.save({"w": torch.ones(1 << 20)}, PATH)
"""
    want, got = oracle.outcomes({"c": cases["torch"]}, "torch")["c"], _run_densecore(cases["densecore"])
    assert want[:2] == got[:2] == ("error", "RuntimeError"), (want, got)


@pytest.mark.notorch
def test_failed_pickling_leaves_previous_file(tmp_path):
    code = PREVIOUS.format(path=str(tmp_path / "ckpt.pt")) + """try:
    torch.save({"w": torch.ones(3), "f": lambda: 0}, PATH)
    out = "saved"
except Exception as e:
    out = [type(e).__name__, left_alone()]
"""
    res = _run_densecore(code)
    assert res[0] == "list" and res[1][1] == ("py", "bool", True), res


@pytest.mark.notorch
def test_replaced_file_keeps_permissions_and_new_file_gets_umask_mode(tmp_path):
    code = PREVIOUS.format(path=str(tmp_path / "ckpt.pt")) + """import stat
os.chmod(PATH, 0o640)
torch.save({"w": torch.ones(3)}, PATH)
kept = stat.S_IMODE(os.stat(PATH).st_mode)
mask = os.umask(0o022)
os.umask(mask)
fresh = os.path.join(os.path.dirname(PATH), "fresh.pt")
torch.save({"w": torch.ones(3)}, fresh)
out = [kept, stat.S_IMODE(os.stat(fresh).st_mode) == 0o666 & ~mask]
"""
    assert _run_densecore(code) == ("list", [("py", "int", 0o640), ("py", "bool", True)])


@pytest.mark.notorch
def test_save_through_symlink_replaces_its_target(tmp_path):
    code = PREVIOUS.format(path=str(tmp_path / "real.pt")) + """link = os.path.join(os.path.dirname(PATH), "link.pt")
os.symlink(PATH, link)
torch.save({"w": torch.arange(3.0)}, link)
out = [os.path.islink(link), torch.load(PATH)["w"]]
"""
    assert _run_densecore(code) == ("list", [("py", "bool", True), _run_densecore("out = torch.arange(3.0)")])


@pytest.mark.notorch
def test_save_to_fifo_writes_in_place(tmp_path):
    """A path that is not a regular file (a FIFO here, /dev/null in practice) cannot be replaced: it is written
    as torch writes it, and gets the bytes a file would."""
    fifo = str(tmp_path / "pipe")
    os.mkfifo(fifo)
    code = f"""import threading
got = []
reader = threading.Thread(target=lambda: got.append(open({fifo!r}, "rb").read()))
reader.start()
torch.save({{"w": torch.arange(3.0)}}, {fifo!r})
reader.join()
import os, stat
os.mkdir({str(tmp_path / "ref")!r})
torch.save({{"w": torch.arange(3.0)}}, {str(tmp_path / "ref" / "pipe")!r})
out = [len(got[0]) > 0, got[0] == open({str(tmp_path / "ref" / "pipe")!r}, "rb").read(),
       stat.S_ISFIFO(os.stat({fifo!r}).st_mode)]
"""
    assert _run_densecore(code) == ("list", [("py", "bool", True)] * 3)


@pytest.mark.oracle
def test_save_to_a_directory_raises_torchs_error(tmp_path):
    oracle.assert_cases_equal({"dir": oracle.raises(RuntimeError, f"torch.save({{'a': 1}}, {str(tmp_path)!r})")})
