"""densecore.nn: torch.nn's shape: modules, Parameter, init and the functional API."""
from . import functional  # noqa: F401
from . import init  # noqa: F401
from .modules import *  # noqa: F401,F403
from .modules import __all__ as _modules_all
from .parameter import Buffer, Parameter  # noqa: F401

__all__ = ["Buffer", "Parameter", "functional", "init"] + list(_modules_all)
from . import utils  # noqa: E402,F401
