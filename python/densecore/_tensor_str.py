"""Tensor printing: repr/str exactly as torch 2.14.1 prints (torch/_tensor_str.py), and the print options.

The text is built from Python values read out of the tensor (tolist/item), so it never depends on
tensor ops: formatting a float16 element formats the double that equals it, as torch does.
"""
import contextlib
import math

from . import _C


class _PrintOptions:
    """torch's print options (a plain class: dataclasses would cost import time)."""

    FIELDS = ("precision", "threshold", "edgeitems", "linewidth", "sci_mode")

    def __init__(self):
        self.precision, self.threshold, self.edgeitems, self.linewidth, self.sci_mode = 4, 1000, 3, 80, None


PRINT_OPTS = _PrintOptions()

_PROFILES = {
    "default": dict(precision=4, threshold=1000, edgeitems=3, linewidth=80),
    "short": dict(precision=2, threshold=1000, edgeitems=2, linewidth=80),
    "full": dict(precision=4, threshold=math.inf, edgeitems=3, linewidth=80),
}


def set_printoptions(precision=None, threshold=None, edgeitems=None, linewidth=None, profile=None, sci_mode=None):
    """torch.set_printoptions: a profile first, then each given option; sci_mode is always assigned."""
    if profile is not None and profile in _PROFILES:
        for key, value in _PROFILES[profile].items():
            setattr(PRINT_OPTS, key, value)
    for key, value in (("precision", precision), ("threshold", threshold), ("edgeitems", edgeitems),
                       ("linewidth", linewidth)):
        if value is not None:
            setattr(PRINT_OPTS, key, value)
    PRINT_OPTS.sci_mode = sci_mode


def get_printoptions():
    return {key: getattr(PRINT_OPTS, key) for key in _PrintOptions.FIELDS}


@contextlib.contextmanager
def printoptions(**kwargs):
    old = get_printoptions()
    set_printoptions(**kwargs)
    try:
        yield
    finally:
        set_printoptions(**old)


# ---- the elements a formatter sees -------------------------------------------------------------

def _flat(values):
    """Python values of a nested list (or a bare scalar), in row-major order."""
    if not isinstance(values, list):
        yield values
        return
    for v in values:
        yield from _flat(v)


def _rows(t):
    return [_C._select0(t, i) for i in range(t.shape[0])]


def _summarized_values(t):
    """The elements torch's get_summarized_data keeps (edge items of every dim), row-major."""
    edge = PRINT_OPTS.edgeitems
    if t.dim() == 0:
        return [t.item()]
    if t.dim() == 1:
        values = t.tolist()
        return values[:edge] + values[-edge:] if len(values) > 2 * edge else values
    if not edge:
        return []
    rows = _rows(t)
    if len(rows) > 2 * edge:
        rows = rows[:edge] + rows[-edge:]
    return [v for r in rows for v in _summarized_values(r)]


class _Formatter:
    """Width and notation shared by every element (torch's _Formatter)."""

    def __init__(self, values, floating):
        self.floating = floating
        self.int_mode = True
        self.sci_mode = False
        self.max_width = 1
        if not floating:
            for v in values:
                self.max_width = max(self.max_width, len(f"{v}"))
            return
        finite = [v for v in values if math.isfinite(v) and v != 0]
        if not finite:
            return
        magnitudes = [abs(v) for v in finite]
        lo, hi = min(magnitudes), max(magnitudes)
        self.int_mode = all(v == math.ceil(v) for v in finite)
        if PRINT_OPTS.sci_mode is None:
            self.sci_mode = hi / lo > 1000.0 or hi > 1.0e8 or lo < 1.0e-4
        else:
            self.sci_mode = PRINT_OPTS.sci_mode
        p = PRINT_OPTS.precision
        for v in finite:
            if self.sci_mode:
                width = len(f"{v:.{p}e}")
            elif self.int_mode:
                width = len(f"{v:.0f}") + 1  # room for the trailing "."
            else:
                width = len(f"{v:.{p}f}")
            self.max_width = max(self.max_width, width)

    def format(self, value):
        p = PRINT_OPTS.precision
        if not self.floating:
            text = f"{value}"
        elif self.sci_mode:
            text = f"{value:{self.max_width}.{p}e}"
        elif self.int_mode:
            text = f"{value:.0f}"
            if not (math.isinf(value) or math.isnan(value)):
                text += "."
        else:
            text = f"{value:.{p}f}"
        return (self.max_width - len(text)) * " " + text


# ---- layout ------------------------------------------------------------------------------------

def _vector_str(t, indent, summarize, fmt):
    edge = PRINT_OPTS.edgeitems
    per_line = max(1, math.floor((PRINT_OPTS.linewidth - indent) / (fmt.max_width + 2)))
    values = t.tolist()
    if summarize and not edge:
        items = ["..."]
    elif summarize and len(values) > 2 * edge:
        items = [fmt.format(v) for v in values[:edge]] + [" ..."] + [fmt.format(v) for v in values[-edge:]]
    else:
        items = [fmt.format(v) for v in values]
    lines = [", ".join(items[i:i + per_line]) for i in range(0, len(items), per_line)]
    return "[" + ("," + "\n" + " " * (indent + 1)).join(lines) + "]"


def _nested_str(t, indent, summarize, fmt):
    dim = t.dim()
    if dim == 0:
        return fmt.format(t.item())
    if dim == 1:
        return _vector_str(t, indent, summarize, fmt)
    edge = PRINT_OPTS.edgeitems
    n = t.shape[0]
    if summarize and n > 2 * edge:
        head = [_nested_str(_C._select0(t, i), indent + 1, summarize, fmt) for i in range(edge)]
        tail = [_nested_str(_C._select0(t, i), indent + 1, summarize, fmt) for i in range(n - edge, n)]
        slices = head + ["..."] + tail
    else:
        slices = [_nested_str(_C._select0(t, i), indent + 1, summarize, fmt) for i in range(n)]
    return "[" + ("," + "\n" * (dim - 1) + " " * (indent + 1)).join(slices) + "]"


def _tensor_str(t, indent):
    if t.numel() == 0:
        return "[]"
    summarize = t.numel() > PRINT_OPTS.threshold
    values = _summarized_values(t) if summarize else list(_flat(t.tolist()))
    fmt = _Formatter(values, t.dtype.is_floating_point)
    return _nested_str(t, indent, summarize, fmt)


def _add_suffixes(text, suffixes, indent):
    parts = [text]
    last_line_len = len(text) - text.rfind("\n") + 1
    for suffix in suffixes:
        if last_line_len + len(suffix) + 2 > PRINT_OPTS.linewidth:
            parts.append(",\n" + " " * indent + suffix)
            last_line_len = indent + len(suffix)
        else:
            parts.append(", " + suffix)
            last_line_len += len(suffix) + 2
    parts.append(")")
    return "".join(parts)


def _grad_suffix(t):
    """grad_fn=<Name> or requires_grad=True, once autograd exists (absent attributes mean neither)."""
    try:
        grad_fn = getattr(t, "grad_fn", None)
    except RuntimeError:
        return "grad_fn=<Invalid>"
    if grad_fn is not None:
        # DenseCore's nodes are one bound class; name() is torch's node class name (MulBackward0).
        return f"grad_fn=<{grad_fn.name()}>"
    if getattr(t, "requires_grad", False):
        return "requires_grad=True"
    return None


def tensor_repr(t):
    """repr(t) / str(t) as torch's _str_intern for a plain strided CPU tensor."""
    prefix = "tensor("
    indent = len(prefix)
    default = _C.get_default_dtype()
    suffixes = []
    if t.numel() == 0:
        if t.dim() != 1:
            suffixes.append("size=" + str(tuple(t.shape)))
        if t.dtype != default:
            suffixes.append("dtype=" + str(t.dtype))
        body = "[]"
    else:
        if not PRINT_OPTS.edgeitems:
            suffixes.append("size=" + str(tuple(t.shape)))
        if t.dtype not in (default, _C.int64, _C.bool):
            suffixes.append("dtype=" + str(t.dtype))
        body = _tensor_str(t, indent)
    grad = _grad_suffix(t)
    if grad is not None:
        suffixes.append(grad)
    return _add_suffixes(prefix + body, suffixes, indent)
