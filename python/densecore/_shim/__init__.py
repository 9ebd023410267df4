"""The `torch` shim: while installed (only inside `python -m densecore.run`), `import torch` and
`import torch.<sub>` give DenseCore's modules, so PyTorch programs run unchanged.

How: a meta path finder placed first on sys.meta_path claims every `torch` / `torch.*` name. `torch`
itself is a small module forwarding attribute reads to `densecore` (with torch's __version__ spelling);
`torch.X.Y` is the module `densecore.X.Y` (or the stand-in named in _ALIASES). Names DenseCore lacks
raise ModuleNotFoundError, never falling through to a real torch on sys.path. uninstall() undoes it.
"""
import importlib
import importlib.machinery
import sys
import types

# torch submodules whose DenseCore counterpart is not densecore.<same path>.
_ALIASES = {
    "torch.cuda": "densecore._shim.cuda",
    "torch.cuda.amp": "densecore._shim.cuda_amp",
    "torch.amp": "densecore._shim.amp",
    "torch.backends": "densecore._shim.backends",
    "torch.distributed": "densecore._shim.distributed",
}
# torch.backends.<x> are attribute namespaces here; `import torch.backends.cudnn` must still work.
_NAMESPACES = ("torch.backends.cuda", "torch.backends.cudnn", "torch.backends.mps", "torch.backends.mkldnn")

_state = {"finder": None, "modules": []}


class _TorchModule(types.ModuleType):
    """`torch`: reads fall through to densecore (then to densecore's subpackages, e.g. torch.optim)."""

    def __getattr__(self, name):
        import densecore  # noqa: PLC0415

        try:
            return getattr(densecore, name)
        except AttributeError:
            pass
        if not name.startswith("__"):
            try:
                return importlib.import_module(f"densecore.{name}")
            except ModuleNotFoundError:
                pass
        raise AttributeError(f"module 'torch' has no attribute '{name}'")

    def __dir__(self):
        import densecore  # noqa: PLC0415

        return sorted(set(dir(densecore)) | set(self.__dict__))


class _AliasLoader:  # the Loader protocol, duck-typed (importlib.abc costs import time)
    def __init__(self, module):
        self.module = module
        self.spec = getattr(module, "__spec__", None)

    def create_module(self, spec):
        return self.module

    def exec_module(self, module):
        # importlib set module.__spec__ to the torch.* spec; keep densecore's module as it was.
        if self.spec is not None:
            module.__spec__ = self.spec


class _TorchFinder:  # the MetaPathFinder protocol, duck-typed
    def find_spec(self, fullname, path=None, target=None):
        if fullname != "torch" and not fullname.startswith("torch."):
            return None
        target_name = _ALIASES.get(fullname, "densecore" + fullname[len("torch"):])
        try:
            module = importlib.import_module(target_name)
        except ModuleNotFoundError:
            raise ModuleNotFoundError(
                f"No module named '{fullname}' (DenseCore's torch shim has no {target_name})", name=fullname
            ) from None
        _state["modules"].append(fullname)
        return importlib.machinery.ModuleSpec(fullname, _AliasLoader(module))


def _make_torch_module():
    import densecore  # noqa: PLC0415

    from .misc import __version__  # noqa: PLC0415

    mod = _TorchModule("torch", "DenseCore standing in for torch (densecore.run).")
    mod.__file__ = densecore.__file__
    mod.__path__ = []  # a package, so `import torch.x` asks the finder
    mod.__version__ = __version__
    mod.__spec__ = importlib.machinery.ModuleSpec("torch", None, origin=densecore.__file__, is_package=True)
    return mod


def install():
    """Make `import torch` resolve to DenseCore in this process. Refuses if a real torch is loaded."""
    if _state["finder"] is not None:
        return
    if "torch" in sys.modules:
        raise RuntimeError("a real torch is already imported in this process; the DenseCore shim would shadow it")
    from . import backends  # noqa: PLC0415

    finder = _TorchFinder()
    sys.meta_path.insert(0, finder)
    _state["finder"] = finder
    sys.modules["torch"] = _make_torch_module()
    _state["modules"].append("torch")
    for name in _NAMESPACES:
        sys.modules[name] = getattr(backends, name.rsplit(".", 1)[1])
        _state["modules"].append(name)


def uninstall():
    """Remove the finder and every torch.* entry the shim created."""
    finder = _state["finder"]
    if finder is None:
        return
    if finder in sys.meta_path:
        sys.meta_path.remove(finder)
    for name in _state["modules"]:
        sys.modules.pop(name, None)
    _state["finder"], _state["modules"] = None, []


def is_installed():
    return _state["finder"] is not None
