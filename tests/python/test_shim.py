"""The `torch` shim (python -m densecore.run): PyTorch programs run unchanged and print what real torch
prints (warnings included), `torch` resolves into densecore only inside densecore.run, and the paths
that would change numerics (autocast to half types, torch.compile) refuse instead of differing."""
import json
import os
import re
import subprocess
import sys

import oracle
import pytest

NANOGPT_IMPORTS = """\
import torch
import torch.nn as nn
from torch.nn import functional as F
from torch.nn.parallel import DistributedDataParallel
from torch.distributed import init_process_group, destroy_process_group
print(torch.cuda.is_available())
scaler = torch.cuda.amp.GradScaler(enabled=True)
print(scaler.is_enabled(), scaler.get_scale(), scaler.state_dict())
torch.backends.cuda.matmul.allow_tf32 = True
torch.backends.cudnn.allow_tf32 = True
print(torch.backends.cuda.matmul.allow_tf32, torch.backends.cudnn.allow_tf32)
dtype = 'bfloat16' if torch.cuda.is_available() and torch.cuda.is_bf16_supported() else 'float16'
print(dtype, torch.cuda.is_bf16_supported())
ptdtype = {'float32': torch.float32, 'bfloat16': torch.bfloat16, 'float16': torch.float16}[dtype]
print(ptdtype, torch.long, hasattr(torch.nn.functional, 'scaled_dot_product_attention') or True)
torch.cuda.manual_seed(1337)
x = torch.ones(3)
print(scaler.scale(x) is x)
class Opt:
    def step(self):
        print("step called")
scaler.unscale_(Opt()); scaler.step(Opt()); scaler.update()
with torch.no_grad():
    print(torch.is_grad_enabled())
with torch.amp.autocast(device_type='cuda', dtype=ptdtype):
    pass
with torch.autocast(device_type='cpu', dtype=torch.float32):
    pass
with torch.amp.autocast(device_type='cpu', enabled=False):
    pass
print(isinstance(torch.Size([2]), tuple), torch.Tensor is type(x), isinstance(torch.float32, torch.dtype))
scaler2 = torch.amp.GradScaler('cuda', enabled=True)
try:
    DistributedDataParallel(None)
except ValueError as e:
    print("DDP:", e)
print(torch.compile(lambda x: x, disable=True) is not None)
"""

ENV = oracle.child_env()


def _python(args, cwd, env=None):
    proc = subprocess.run([sys.executable, *args], capture_output=True, text=True, cwd=cwd, env=env or ENV,
                          timeout=300)
    return proc.returncode, proc.stdout, proc.stderr


# A warning raised inside the library prints "<library file>:<line>: Category: msg" + its source line;
# those two locations differ between torch's files and densecore's, the rest must not.
_LIB_LOCATION = re.compile(r"^\S*(site-packages/torch|python/densecore|/densecore)/\S*?:\d+: ", re.M)


def _normalize(stderr):
    return _LIB_LOCATION.sub("<lib>: ", stderr)


def _both(tmp_path, script, extra=()):
    path = tmp_path / "prog.py"
    path.write_text(script)
    want = _python([str(path), *extra], tmp_path)
    got = _python(["-m", "densecore.run", str(path), *extra], tmp_path)
    return want, got


@pytest.mark.oracle
def test_nanogpt_import_surface_prints_what_torch_prints(tmp_path):
    want, got = _both(tmp_path, NANOGPT_IMPORTS)
    assert want[0] == 0, want[2]
    assert got[0] == 0, got[2]
    assert got[1] == want[1]
    assert _normalize(got[2]) == _normalize(want[2])
    assert "FutureWarning: `torch.cuda.amp.GradScaler(args...)` is deprecated" in got[2]
    assert "GradScaler is enabled, but CUDA is not available.  Disabling." in got[2]


@pytest.mark.notorch
def test_torch_resolves_into_densecore_only_inside_run(tmp_path):
    probe = ("import sys, torch, torch.nn.functional\n"
             "print(torch.__file__); print(torch.__version__)\n"
             "print(torch.nn.__name__, torch.cuda.__name__, sys.modules['torch.nn.functional'].__name__)\n")
    rc, out, err = _python(["-m", "densecore.run", "-c", probe], tmp_path)
    assert rc == 0, err
    lines = out.splitlines()
    assert os.sep + "densecore" + os.sep in lines[0]
    assert lines[1] == "2.14.1+densecore"
    assert lines[2] == "densecore.nn densecore._shim.cuda densecore.nn.functional"
    # Outside the shim (same interpreter, densecore importable): torch is whatever is installed, never densecore.
    rc, out, err = _python(["-c", "import os, densecore, densecore.run, importlib.util as u\n"
                                  "s = u.find_spec('torch')\n"
                                  "print(bool(s) and s.origin.startswith(os.path.dirname(densecore.__file__)))"],
                           tmp_path)
    assert (rc, out) == (0, "False\n"), err


@pytest.mark.notorch
def test_install_uninstall_is_reversible(tmp_path):
    code = ("import os, sys, importlib.util as u\nfrom densecore import _shim\n"
            "_shim.install(); import torch, torch.nn.functional; a = torch.__file__\n"
            "_shim.uninstall()\n"
            "left = [m for m in sys.modules if m == 'torch' or m.startswith('torch.')]\n"
            "s = u.find_spec('torch')\n"
            "here = os.path.dirname(_shim.__file__).rsplit(os.sep, 1)[0]\n"
            "print(a.startswith(here), left, s is None or not (s.origin or '').startswith(here))")
    rc, out, err = _python(["-c", code], tmp_path)
    assert rc == 0, err
    assert out.strip() == "True [] True"


@pytest.mark.oracle  # imports the real torch
def test_shim_refuses_when_real_torch_loaded(tmp_path):
    code = "import torch\nfrom densecore import _shim\ntry:\n    _shim.install()\nexcept RuntimeError as e:\n    print(e)"
    rc, out, err = _python(["-c", code], tmp_path)
    assert "already imported" in out, out + err


@pytest.mark.notorch
def test_modes_c_m_and_argv(tmp_path):
    (tmp_path / "mod_prog.py").write_text("import sys, torch\nprint(sys.argv[1:], torch.cuda.is_available())\n")
    rc, out, err = _python(["-m", "densecore.run", "-m", "mod_prog", "a", "--b=1"], tmp_path)
    assert (rc, out) == (0, "['a', '--b=1'] False\n"), err
    rc, out, err = _python(["-m", "densecore.run", "-c", "import sys, torch; print(sys.argv)", "x"], tmp_path)
    assert (rc, out) == (0, "['-c', 'x']\n"), err
    (tmp_path / "s.py").write_text("import sys; print(sys.argv, __name__)\nraise SystemExit(3)\n")
    rc, out, err = _python(["-m", "densecore.run", "s.py", "q"], tmp_path)
    assert (rc, out) == (3, "['s.py', 'q'] __main__\n"), err


@pytest.mark.notorch
def test_missing_torch_submodule_is_a_clean_error(tmp_path):
    rc, out, err = _python(["-m", "densecore.run", "-c", "import torch._dynamo"], tmp_path)
    assert rc == 1 and "ModuleNotFoundError: No module named 'torch._dynamo'" in err, err


@pytest.mark.notorch
def test_numerics_changing_paths_refuse(tmp_path):
    code = """\
import torch
res = []
for make in [lambda: torch.amp.autocast(device_type='cpu', dtype=torch.bfloat16),
             lambda: torch.autocast('cpu'), lambda: torch.amp.autocast('cpu', dtype=torch.float16),
             lambda: torch.compile(torch.nn), lambda: torch.amp.GradScaler('cpu')]:
    try:
        with make():
            pass
        res.append('ran')
    except NotImplementedError as e:
        res.append('NotImplementedError')
print(res)
"""
    rc, out, err = _python(["-m", "densecore.run", "-c", code], tmp_path)
    assert rc == 0, err
    assert out.strip() == str(["NotImplementedError"] * 5)


@pytest.mark.oracle
def test_import_densecore_as_torch():
    cases = {
        "cuda": "out = [torch.cuda.is_available(), torch.cuda.is_bf16_supported(), torch.cuda.device_count()]",
        "backends": "torch.backends.cuda.matmul.allow_tf32 = True\n"
                    "out = [torch.backends.cuda.matmul.allow_tf32, torch.backends.cudnn.allow_tf32]",
        "scaler-off": "s = torch.amp.GradScaler('cuda', enabled=False)\nout = [s.is_enabled(), s.get_scale()]",
        "autocast-default-cpu": "a = torch.autocast('cpu', enabled=False)\nout = [str(a.fast_dtype), a.device]",
        "autocast-unknown-device": oracle.raises(RuntimeError, "torch.autocast('tpu')"),
        "autocast-bad-type": oracle.raises(ValueError, "torch.autocast(0)"),
        "dist-rank": oracle.raises(ValueError, "torch.distributed.get_rank()"),
        "dist-init": "out = torch.distributed.is_initialized()",
        "cpu-capability": "out = torch.backends.cpu.get_cpu_capability()",
    }
    oracle.assert_cases_equal(cases)
    oracle.assert_cases_equal({"cpu-capability-avx2": "out = torch.backends.cpu.get_cpu_capability()"},
                              env={"ATEN_CPU_CAPABILITY": "avx2"})


# Child processes of a densecore.run program. Each program prints one JSON line {"parent": report,
# "child": report}: torch's version tag, the Tensor class's module, a tiny op and the densecore file, so
# the child proves it runs DenseCore, and the same copy as its parent (this checkout's in development).
REPORT_SOURCE = """\
import json
def report():
    import torch, densecore
    return [torch.__version__, torch.Tensor.__module__, (torch.ones(2) + 1).tolist(), densecore.__file__]
"""

MULTIPROCESSING_PROGRAM = REPORT_SOURCE + """\
import multiprocessing, sys
import torch  # at the top, as programs do: a spawn child runs this again as __mp_main__

def child(queue):
    queue.put(report())

if __name__ == "__main__":
    ctx = multiprocessing.get_context(sys.argv[1])
    queue = ctx.Queue()
    proc = ctx.Process(target=child, args=(queue,))
    proc.start()
    proc.join(timeout=240)
    got = queue.get(timeout=10) if proc.exitcode == 0 else f"child exit code {proc.exitcode}"
    print(json.dumps({"parent": report(), "child": got}))
"""

SUBPROCESS_PROGRAM = REPORT_SOURCE + """\
import subprocess, sys
import torch
child = subprocess.run([sys.executable, "-c", REPORT_SOURCE + "print(json.dumps(report()))"],
                       capture_output=True, text=True)
got = json.loads(child.stdout) if child.returncode == 0 else child.stderr
print(json.dumps({"parent": report(), "child": got}))
""".replace("REPORT_SOURCE +", repr(REPORT_SOURCE) + " +")

DENSECORE_REPORT = ["2.14.1+densecore", "densecore._C", [2.0, 2.0]]


def _run_program(tmp_path, program, args=(), env=None):
    path = tmp_path / "prog.py"
    path.write_text(program)
    rc, out, err = _python(["-m", "densecore.run", str(path), *args], tmp_path, env=env)
    assert rc == 0, err
    return json.loads(out.splitlines()[-1])


def _assert_child_runs_parents_densecore(reports):
    assert reports["parent"][:3] == DENSECORE_REPORT, reports
    assert reports["child"] == reports["parent"], reports
    if os.environ.get("DENSECORE_BUILD_DIR"):  # development: the checkout's package, not an installed one
        assert reports["child"][3] == os.path.join(oracle.ROOT, "python", "densecore", "__init__.py"), reports


@pytest.mark.notorch
@pytest.mark.parametrize("start_method", ["spawn", "forkserver", "fork"])
def test_multiprocessing_child_gets_the_shim(tmp_path, start_method):
    _assert_child_runs_parents_densecore(_run_program(tmp_path, MULTIPROCESSING_PROGRAM, [start_method]))


@pytest.mark.notorch
def test_subprocess_python_child_gets_the_shim(tmp_path):
    _assert_child_runs_parents_densecore(_run_program(tmp_path, SUBPROCESS_PROGRAM))


USER_SITECUSTOMIZE = "import builtins\nbuiltins.user_sitecustomize_ran = __file__\n"
USER_PATH_PROGRAM = SUBPROCESS_PROGRAM.replace(
    '"print(json.dumps(report()))"',
    '"import builtins, sitecustomize, sys, user_module\\n'
    'print(json.dumps(report() + [builtins.user_sitecustomize_ran, sitecustomize.__file__, user_module.VALUE,'
    ' sys.path]))"')


@pytest.mark.notorch
def test_child_keeps_users_sitecustomize_and_pythonpath(tmp_path):
    """Our sitecustomize shadows the user's one (ours is first on PYTHONPATH): it must still run, as the
    module `sitecustomize`, and the user's PYTHONPATH entries keep their order after ours."""
    user_site, user_lib = tmp_path / "user_site", tmp_path / "user_lib"
    user_site.mkdir()
    user_lib.mkdir()
    (user_site / "sitecustomize.py").write_text(USER_SITECUSTOMIZE)
    (user_lib / "user_module.py").write_text("VALUE = 'user module'\n")
    env = dict(ENV, PYTHONPATH=os.pathsep.join([str(user_site), str(user_lib), ENV.get("PYTHONPATH", "")]))
    reports = _run_program(tmp_path, USER_PATH_PROGRAM, env=env)
    child = reports["child"]
    assert isinstance(child, list), child
    assert child[:4] == reports["parent"], reports
    user_site_file = str(user_site / "sitecustomize.py")
    assert child[4:7] == [user_site_file, user_site_file, "user module"]
    path = child[7]
    ours = path.index(os.path.join(os.path.dirname(child[3]), "_shim", "startup"))
    assert ours < path.index(str(user_site)) < path.index(str(user_lib)), path


# A child's view: would `import torch` give the shim (find_spec answers from our sitecustomize), or did our
# sitecustomize run? find_spec does not import torch; a torch that is not installed is not the shim either.
# The probe does not import densecore, so it runs in any environment (env={} has no DENSECORE_BUILD_DIR).
def _shim_probe(package_dir):
    return ("import importlib.util, sys\n"
            f"here = {package_dir!r}\n"
            "spec = importlib.util.find_spec('torch')\n"
            "torch_is_shim = spec is not None and (spec.origin is None or spec.origin.startswith(here))\n"
            "ours = getattr(sys.modules.get('sitecustomize'), '__file__', '').startswith(here)\n"
            "print(torch_is_shim or ours)\n")


def _densecore_dir(tmp_path):
    rc, out, err = _python(["-c", "import densecore; print(densecore.__file__)"], tmp_path)
    assert rc == 0, err
    return os.path.dirname(out.strip())


@pytest.mark.notorch
def test_run_main_in_process_leaves_no_trace(tmp_path):
    """run.main() called in-process: its children get the shim while it runs; afterwards this process's
    PYTHONPATH is what it was, and a child started then imports whatever `torch` is installed."""
    probe = _shim_probe(_densecore_dir(tmp_path))
    probe_child = f"subprocess.run([sys.executable, '-c', {probe!r}], capture_output=True, text=True).stdout"
    code = ("import os, subprocess, sys\nfrom densecore import run\n"
            "before = os.environ.get('PYTHONPATH')\n"
            f"run.main(['-c', {'import subprocess, sys; print(' + probe_child + ')'!r}])\n"
            "print(os.environ.get('PYTHONPATH') == before)\n"
            f"print({probe_child})")
    rc, out, err = _python(["-c", code], tmp_path)
    assert rc == 0, err
    assert out.split() == ["True", "True", "False"], out + err


@pytest.mark.notorch
def test_plain_child_after_run_has_no_shim(tmp_path):
    rc, out, err = _python(["-m", "densecore.run", "-c", "import torch"], tmp_path)
    assert rc == 0, err
    rc, out, err = _python(["-c", _shim_probe(_densecore_dir(tmp_path))], tmp_path)
    assert (rc, out) == (0, "False\n"), err


@pytest.mark.notorch
@pytest.mark.parametrize("how", ["-I", "-E", "-S", "env={}"])
def test_documented_limits_children_without_the_shim(tmp_path, how):
    """python -I/-E ignore PYTHONPATH, -S skips site (so sitecustomize), and env={} drops PYTHONPATH: those
    children import whatever torch is installed (README, docs/exactness.md)."""
    flags, env = ([], "{}") if how == "env={}" else ([how], "None")
    program = ("import subprocess, sys\n"
               f"child = subprocess.run([sys.executable, *{flags!r}, '-c', {_shim_probe(_densecore_dir(tmp_path))!r}],"
               f" capture_output=True, text=True, env={env})\n"
               "print(child.stdout or child.stderr, end='')\n")
    rc, out, err = _python(["-m", "densecore.run", "-c", program], tmp_path)
    assert (rc, out) == (0, "False\n"), out + err


@pytest.mark.notorch
def test_child_without_densecore_refuses_torch_instead_of_falling_back(tmp_path):
    """A child that inherits the shim but cannot import densecore (another interpreter, a broken path) gets
    an ImportError naming densecore.run at every `import torch`, never an installed torch."""
    broken = tmp_path / "broken"
    (broken / "densecore").mkdir(parents=True)
    (broken / "densecore" / "__init__.py").write_text("raise ImportError('simulated: no densecore here')\n")
    child = ("import sys\nfor attempt in range(2):\n    try:\n        import torch\n        print(torch.__file__)\n"
             "    except ImportError as e:\n        print('densecore.run' in str(e) and 'simulated' in str(e))\n")
    program = ("import os, subprocess, sys\n"
               f"env = dict(os.environ, PYTHONPATH={str(broken)!r} + os.pathsep + os.environ['PYTHONPATH'])\n"
               f"print(subprocess.run([sys.executable, '-c', {child!r}], env=env, capture_output=True,"
               " text=True).stdout, end='')\n")
    rc, out, err = _python(["-m", "densecore.run", "-c", program], tmp_path)
    assert (rc, out) == (0, "True\nTrue\n"), out + err


@pytest.mark.notorch
def test_run_inside_run_adds_its_path_once(tmp_path):
    """A densecore.run program starting `python -m densecore.run`: the child has the shim, and our
    PYTHONPATH entry once (run.main sees it is already there)."""
    inner = ("import os, torch\nentries = os.environ['PYTHONPATH'].split(os.pathsep)\n"
             "print(torch.__version__, entries.count(os.environ['STARTUP_DIR']))")
    program = ("import os, subprocess, sys\nfrom densecore import run\n"
               "env = dict(os.environ, STARTUP_DIR=run.STARTUP_DIR)\n"
               f"print(subprocess.run([sys.executable, '-m', 'densecore.run', '-c', {inner!r}], env=env,"
               " capture_output=True, text=True).stdout, end='')\n")
    rc, out, err = _python(["-m", "densecore.run", "-c", program], tmp_path)
    assert (rc, out) == (0, "2.14.1+densecore 1\n"), out + err
