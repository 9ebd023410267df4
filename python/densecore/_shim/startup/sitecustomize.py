"""Keeps DenseCore's `torch` shim in the Python processes a `python -m densecore.run` program starts.

densecore.run puts this directory first on PYTHONPATH. Children inherit the environment (multiprocessing
spawn and forkserver, subprocess.run([sys.executable, ...]), os.system("python ...")), so their `site`
imports this module before any of their own code runs. Why a sitecustomize on PYTHONPATH: of CPython's
startup hooks, .pth files are read only from site directories (one written there would act in every
python of that environment), usercustomize is skipped in virtual environments, and PYTHONSTARTUP is
for interactive sessions. An environment variable reaches exactly the processes densecore.run starts,
so nothing changes for any other, and nothing is written anywhere.

What it does, cheaply: a finder for the name `torch`, nothing else. densecore (about 0.2 s to import)
loads only when the child first imports torch; a child that never does (pip, a tool) pays nothing and
does not need densecore to be importable. Then it runs the sitecustomize this module shadows, if any.
Nothing here imports densecore at startup.
"""
import importlib.machinery
import os
import sys

_HERE = os.path.dirname(os.path.abspath(__file__))
# The densecore package this directory belongs to: the parent's, whose __init__ torch names as its origin.
_DENSECORE_INIT = os.path.join(os.path.dirname(os.path.dirname(_HERE)), "__init__.py")


class _InstallShimLoader:  # the Loader protocol, duck-typed
    """Installs the shim when `torch` is first imported, and hands over the torch module it made."""

    def create_module(self, spec):
        try:
            from densecore import _shim  # noqa: PLC0415 (deferred: the reason this loader exists)
        except ImportError as e:
            raise ImportError(
                f"import torch: this process was started by `python -m densecore.run`, which makes torch "
                f"DenseCore in its child processes, but densecore cannot be imported here ({e})", name="torch"
            ) from e
        _shim.install()
        # Only now: after a failure, the next `import torch` must fail the same way, not find a real torch.
        _remove_first_import_finder()
        module = sys.modules["torch"]
        self.shim_spec, self.shim_loader = module.__spec__, module.__loader__
        return module

    def exec_module(self, module):
        # The shim's torch module is complete; importlib just set its __spec__/__loader__ to this
        # loader's: give back the ones the shim made, so torch looks the same as in the parent.
        module.__spec__, module.__loader__ = self.shim_spec, self.shim_loader


class _FirstImportFinder:  # the MetaPathFinder protocol, duck-typed
    """Claims `torch` until it is first imported. `torch.<sub>` always imports `torch` first, after
    which the shim's own finder (placed first by install()) answers."""

    def find_spec(self, fullname, path=None, target=None):
        if fullname != "torch":
            return None
        # The origin the shim's torch module will have: find_spec('torch') before the import says where.
        return importlib.machinery.ModuleSpec("torch", _InstallShimLoader(), origin=_DENSECORE_INIT, is_package=True)


def _remove_first_import_finder():
    sys.meta_path[:] = [f for f in sys.meta_path if not isinstance(f, _FirstImportFinder)]


def _same_dir(entry):
    return os.path.abspath(entry or os.curdir) == _HERE


def _run_shadowed_sitecustomize():
    """Runs the sitecustomize that `site` would have imported without this directory on the path (the
    user's, a distribution's), as the module `sitecustomize`: the import of this module then yields it."""
    rest = [entry for entry in sys.path if not _same_dir(entry)]
    spec = importlib.machinery.PathFinder.find_spec("sitecustomize", rest)
    if spec is None:
        return
    from importlib.util import module_from_spec  # noqa: PLC0415 (~10 ms: paid only when there is one)

    module = module_from_spec(spec)
    sys.modules["sitecustomize"] = module
    spec.loader.exec_module(module)  # its errors reach site, which reports them as for any sitecustomize


if "torch" not in sys.modules:
    sys.meta_path.insert(0, _FirstImportFinder())
_run_shadowed_sitecustomize()
