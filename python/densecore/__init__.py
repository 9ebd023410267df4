"""DenseCore: a C++20 deep-learning engine with PyTorch's API and PyTorch 2.14.1's exact bits on CPU."""
import os as _os

# Development builds: DENSECORE_BUILD_DIR names a CMake build folder holding _C (see CONTRIBUTING.md).
if _os.environ.get("DENSECORE_BUILD_DIR"):
    __path__.insert(0, _os.environ["DENSECORE_BUILD_DIR"])  # noqa: F821 (package __path__)

from . import _C  # noqa: E402
from ._C import *  # noqa: E402,F401,F403
from ._C import Tensor, dtype  # noqa: E402,F401
from ._size import Size  # noqa: E402
from ._device import device  # noqa: E402

_C._set_size_type(Size)
Tensor.device = property(lambda self: device("cpu"))
Tensor.is_cpu = property(lambda self: True)

__version__ = "0.1.0"
