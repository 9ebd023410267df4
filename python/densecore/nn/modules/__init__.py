"""torch.nn.modules: the layer classes."""
from .activation import GELU, Hardshrink, ReLU, Softmax, Tanh
from .container import ModuleDict, ModuleList, Sequential
from .dropout import Dropout
from .linear import Identity, Linear
from .module import Module
from .normalization import LayerNorm
from .sparse import Embedding

__all__ = ["Dropout", "Embedding", "GELU", "Hardshrink", "Identity", "LayerNorm", "Linear", "Module", "ModuleDict",
           "ModuleList", "ReLU", "Sequential", "Softmax", "Tanh"]
