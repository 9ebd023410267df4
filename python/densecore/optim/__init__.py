"""densecore.optim: torch.optim's optimizers (single-tensor CPU paths of torch 2.14.1) and schedulers."""
from . import lr_scheduler  # noqa: F401
from .adam import Adam
from .adamw import AdamW
from .optimizer import Optimizer
from .sgd import SGD

__all__ = ["Adam", "AdamW", "Optimizer", "SGD", "lr_scheduler"]
