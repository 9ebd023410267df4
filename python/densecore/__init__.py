"""DenseCore: a C++20 deep-learning engine with PyTorch's API and PyTorch 2.14.1's exact bits on CPU."""
import os as _os

# Development builds: DENSECORE_BUILD_DIR names a CMake build folder holding _C (scripts/dev_build.sh).
if _os.environ.get("DENSECORE_BUILD_DIR"):
    __path__.insert(0, _os.environ["DENSECORE_BUILD_DIR"])  # noqa: F821 (package __path__)

from . import _C  # noqa: E402
from ._C import *  # noqa: E402,F401,F403
from ._C import Tensor, dtype  # noqa: E402,F401
from ._size import Size  # noqa: E402
from ._device import device  # noqa: E402
from ._tensor_str import set_printoptions, get_printoptions, printoptions  # noqa: E402,F401
from ._type_info import finfo, iinfo  # noqa: E402,F401
from ._memory_format import memory_format, preserve_format, contiguous_format, channels_last, channels_last_3d  # noqa: E402,F401
from . import nn  # noqa: E402,F401

from ._tensor import attach_python_methods as _attach_python_methods  # noqa: E402

_C._set_size_type(Size)
_attach_python_methods()  # printing, device, untyped_storage, norm (densecore/_tensor.py)

__version__ = "0.1.0"

# torch.save/torch.load, and torch's CPU-only namespaces (so `import densecore as torch` runs torch code).
from . import serialization  # noqa: E402
from .serialization import save, load  # noqa: E402,F401
from ._shim import amp, backends, cuda, distributed  # noqa: E402,F401
from ._shim.amp import autocast  # noqa: E402,F401
from ._shim.misc import compile  # noqa: E402,F401,A004

# torch.optim, torch.linalg.vector_norm and torch.norm / Tensor.norm (densecore/optim, linalg.py).
from . import linalg, optim  # noqa: E402,F401

norm = linalg.norm_

# torch.autograd and the grad-mode switches at top level (torch.no_grad, torch.is_grad_enabled, ...).
from . import autograd  # noqa: E402,F401
from .autograd import no_grad, enable_grad, set_grad_enabled, inference_mode  # noqa: E402,F401
from ._C import is_grad_enabled  # noqa: E402,F401
