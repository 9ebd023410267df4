"""The type information a user's checker reads: the stub _C.pyi generated next to _C at build time, and py.typed.

Run against the installed wheel (scripts/test.sh) this checks what ships; against a development build
(DENSECORE_BUILD_DIR) it checks what the build made. mypy itself runs over tests/typing/ in scripts/test.sh.
"""
import os

import pytest

import densecore
from densecore import _C

pytestmark = pytest.mark.notorch


def _asan_loaded():
    with open("/proc/self/maps", encoding="utf-8") as f:
        return "libasan" in f.read()


@pytest.fixture(scope="module")
def stub():
    if _asan_loaded():
        pytest.skip("a sanitizer build makes no stub (python/src/CMakeLists.txt says why)")
    path = os.path.join(os.path.dirname(_C.__file__), "_C.pyi")
    assert os.path.isfile(path), f"no stub next to {_C.__file__}"
    with open(path, encoding="utf-8") as f:
        return f.read()


@pytest.mark.parametrize("entry", [
    "class Tensor:", "class dtype:", "class Generator:",
    "def zeros(", "def randn(", "def matmul(", "def backward(", "def is_grad_enabled(",
    "float32: dtype",
])
def test_stub_names_the_binding(stub, entry):
    assert entry in stub


def test_stub_types_results_as_tensor(stub):
    """Functions that return a new or the same Tensor say so (TensorObject in python/src/bindings.h)."""
    for line in ["def randn(*args, **kwargs) -> Tensor:", "def relu(self) -> Tensor:",
                 "def __add__(self, arg: object, /) -> Tensor:"]:
        assert line in stub


def test_stub_types_are_not_shadowed(stub):
    """torch.int/float/bool are dtypes and Tensor.dtype a property, so the stub spells the types out where those
    names would shadow them (tools/unshadow_stub.py)."""
    assert "import builtins" in stub and "_dtype = dtype" in stub
    assert "def dim(self) -> builtins.int:" in stub
    assert "def dtype(self) -> _dtype:" in stub
    signatures = [line for line in stub.splitlines() if line.lstrip().startswith("def ")]
    for bare in ["-> int:", "-> bool:", ": bool =", ": int =", ": dtype |"]:
        assert not [line for line in signatures if bare in line], bare


def test_stub_has_the_python_tensor_members(stub):
    """device, is_cpu, norm, untyped_storage are attached in Python (densecore/_tensor.py); stub_patterns.txt."""
    for name in ["def device(self) -> _device:", "def is_cpu(self)", "def norm(self", "def untyped_storage(self)"]:
        assert name in stub


def test_package_is_marked_typed():
    assert os.path.isfile(os.path.join(os.path.dirname(densecore.__file__), "py.typed"))
