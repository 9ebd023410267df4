"""torch.finfo / torch.iinfo (torch/csrc/TypeInfo.cpp): std::numeric_limits of each dtype, printed
as C++'s ostream prints doubles (6 significant digits, like "%g")."""
from . import _C

# bits, eps, max, smallest_normal, resolution (= 10 ** -digits10)
_FLOAT_LIMITS = {
    "float16": (16, 2.0**-10, 65504.0, 2.0**-14, 0.001),
    "bfloat16": (16, 2.0**-7, 3.3895313892515355e38, 2.0**-126, 0.01),
    "float32": (32, 2.0**-23, 3.4028234663852886e38, 2.0**-126, 1e-06),
    "float64": (64, 2.0**-52, 1.7976931348623157e308, 2.2250738585072014e-308, 1e-15),
}
_INT_LIMITS = {
    "uint8": (8, 0, 255),
    "int8": (8, -128, 127),
    "int16": (16, -32768, 32767),
    "int32": (32, -(2**31), 2**31 - 1),
    "int64": (64, -(2**63), 2**63 - 1),
}


def _name(dtype):
    return str(dtype).replace("torch.", "")


class finfo:
    def __init__(self, type=None):  # noqa: A002 (torch's parameter name)
        dtype = _C.get_default_dtype() if type is None else type
        if _name(dtype) not in _FLOAT_LIMITS:
            raise TypeError("torch.finfo() requires a floating point input type. Use torch.iinfo to handle 'torch.finfo'")
        self.dtype = _name(dtype)
        self.bits, self.eps, self.max, self.smallest_normal, self.resolution = _FLOAT_LIMITS[self.dtype]
        self.min = -self.max
        self.tiny = self.smallest_normal

    def __eq__(self, other):
        return isinstance(other, finfo) and self.dtype == other.dtype

    def __hash__(self):
        return hash(("finfo", self.dtype))

    def __repr__(self):
        return (f"finfo(resolution={self.resolution:g}, min={self.min:g}, max={self.max:g}, eps={self.eps:g}, "
                f"smallest_normal={self.smallest_normal:g}, tiny={self.tiny:g}, dtype={self.dtype})")

    __str__ = __repr__


class iinfo:
    def __init__(self, type):  # noqa: A002 (torch's parameter name)
        name = _name(type)
        if name == "bool":
            raise TypeError("torch.bool is not supported by torch.iinfo")
        if name not in _INT_LIMITS:
            raise TypeError("torch.iinfo() requires an integer input type. Use torch.finfo to handle 'torch.iinfo'")
        self.dtype = name
        self.bits, self.min, self.max = _INT_LIMITS[name]

    def __eq__(self, other):
        return isinstance(other, iinfo) and self.dtype == other.dtype

    def __hash__(self):
        return hash(("iinfo", self.dtype))

    def __repr__(self):
        return f"iinfo(min={float(self.min):g}, max={float(self.max):g}, dtype={self.dtype})"

    __str__ = __repr__
