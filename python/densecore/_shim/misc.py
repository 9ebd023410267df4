"""torch.compile and torch.__version__ for the shim."""
import re


def compile(model=None, *, fullgraph=False, dynamic=None, backend="inductor", mode=None, options=None,  # noqa: A001
            disable=False):
    """torch.compile. disable=True returns the model unchanged, as torch does. Anything else raises:
    Inductor's fused kernels round differently from eager ops, so handing the eager model back would
    silently break "same bits as torch" (nanoGPT: run with --compile=False, whose path is exact)."""
    if disable:
        return model if model is not None else (lambda m: m)
    raise NotImplementedError(
        "DenseCore does not implement torch.compile (its generated kernels do not round like eager PyTorch); "
        "run eagerly, e.g. nanoGPT's --compile=False, or pass disable=True"
    )


class TorchVersion(str):
    """torch.__version__ under the shim: '2.14.1+densecore' = the torch release whose bits DenseCore
    reproduces, with a local tag saying it is not torch. Compares as a version, like torch's TorchVersion."""

    @staticmethod
    def _key(v):
        if isinstance(v, tuple):
            return v
        m = re.match(r"(\d+(?:\.\d+)*)", str(v))
        return tuple(int(x) for x in m.group(1).split(".")) if m else ()

    def _cmp(self, other):
        a, b = self._key(self), self._key(other)
        n = max(len(a), len(b))
        a, b = a + (0,) * (n - len(a)), b + (0,) * (n - len(b))
        return (a > b) - (a < b)

    def __lt__(self, other):
        return self._cmp(other) < 0

    def __le__(self, other):
        return self._cmp(other) <= 0

    def __gt__(self, other):
        return self._cmp(other) > 0

    def __ge__(self, other):
        return self._cmp(other) >= 0

    __hash__ = str.__hash__


__version__ = TorchVersion("2.14.1+densecore")
