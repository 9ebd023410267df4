"""`python -m densecore.run script.py args...` (or `-c code`, `-m module`): runs a PyTorch program
unchanged with `import torch` resolving to DenseCore (densecore._shim), in this process and in the
Python processes it starts with its environment (multiprocessing spawn/forkserver, subprocess running
sys.executable): PYTHONPATH gains _shim/startup, whose sitecustomize installs the shim there.
Outside densecore.run nothing is shadowed: a plain `import torch` still finds real PyTorch.

Children that cannot get the shim: python -I, -E or -S (no PYTHONPATH or no site), a child given an
environment without our PYTHONPATH entry (env={}, or PYTHONPATH replaced), another interpreter that
cannot import this densecore (its `import torch` raises ImportError, never falls back to real torch)."""
import os
import runpy
import sys
import types

# The directory whose sitecustomize.py installs the shim in child processes.
STARTUP_DIR = os.path.join(os.path.dirname(os.path.abspath(__file__)), "_shim", "startup")

_USAGE = "usage: python -m densecore.run [-c code | -m module | script.py] [args...]"


def _run_code(source, filename, argv):
    """Runs source as the __main__ module, as `python` does for a script or -c (argv[0] as given)."""
    sys.argv = argv
    main = types.ModuleType("__main__")
    main.__builtins__ = __builtins__
    if filename != "<string>":
        main.__file__ = filename
    saved = sys.modules.get("__main__")
    sys.modules["__main__"] = main
    try:
        exec(compile(source, filename, "exec"), main.__dict__)  # noqa: S102 (running the user's program is the point)
    finally:
        sys.modules["__main__"] = saved


def _children_get_shim():
    """Puts STARTUP_DIR first on PYTHONPATH (the user's entries follow, in their order); returns the
    previous value for _restore_pythonpath. Children inherit os.environ; this process's sys.path is
    already set, so only children see it."""
    previous = os.environ.get("PYTHONPATH")
    entries = [] if not previous else previous.split(os.pathsep)
    if STARTUP_DIR not in entries:  # densecore.run under densecore.run: once is enough
        os.environ["PYTHONPATH"] = os.pathsep.join([STARTUP_DIR, *entries])
    return previous


def _restore_pythonpath(previous):
    """main() called in-process leaves the caller's environment as it found it."""
    if previous is None:
        os.environ.pop("PYTHONPATH", None)
    else:
        os.environ["PYTHONPATH"] = previous


def main(argv=None):
    argv = list(sys.argv[1:] if argv is None else argv)
    if not argv or argv[0] in ("-h", "--help"):
        print(_USAGE, file=sys.stderr if not argv else sys.stdout)
        return 2 if not argv else 0
    from . import _shim  # noqa: PLC0415

    _shim.install()
    previous_pythonpath = _children_get_shim()
    try:
        if argv[0] == "-c":
            if len(argv) < 2:
                raise SystemExit("Argument expected for the -c option")
            sys.path[0] = ""
            _run_code(argv[1], "<string>", ["-c", *argv[2:]])
        elif argv[0] == "-m":
            if len(argv) < 2:
                raise SystemExit("Argument expected for the -m option")
            sys.argv = [argv[1], *argv[2:]]
            sys.path[0] = os.getcwd()
            runpy.run_module(argv[1], run_name="__main__", alter_sys=True)
        else:
            path = os.path.abspath(argv[0])  # code and warnings name the absolute path, as python's do
            sys.path[0] = os.path.dirname(path)
            with open(path, "rb") as fh:
                source = fh.read()
            _run_code(source, path, argv)
    finally:
        _restore_pythonpath(previous_pythonpath)
        _shim.uninstall()
    return 0


if __name__ == "__main__":
    sys.exit(main())
