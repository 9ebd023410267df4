"""densecore.nn: torch.nn's shape. For now only the functional API (nn.functional)."""
from . import functional  # noqa: F401
