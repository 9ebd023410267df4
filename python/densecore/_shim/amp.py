"""torch.amp for DenseCore: autocast and GradScaler behave as torch 2.14.1 does where that keeps float32
math (disabled paths: CUDA absent, unsupported dtype, enabled=False) and refuse the paths that would
change numerics (CPU autocast to bfloat16/float16, an enabled CPU GradScaler) with NotImplementedError,
rather than silently computing something else (torch/amp/autocast_mode.py, grad_scaler.py)."""
import functools
import warnings

_DEVICE_TYPES = ("cpu", "cuda", "ipu", "xpu", "mkldnn", "opengl", "opencl", "ideep", "hip", "ve", "fpga", "maia",
                 "xla", "lazy", "vulkan", "mps", "meta", "hpu", "mtia", "privateuseone")
_AUTOCAST_DEVICES = ("cpu", "cuda", "mps", "xpu", "hpu", "xla", "ipu", "mtia", "maia")


def is_autocast_available(device_type):
    return device_type in _AUTOCAST_DEVICES


def _default_dtype(device_type):
    import densecore  # noqa: PLC0415

    return densecore.bfloat16 if device_type == "cpu" else densecore.float16


class autocast:  # noqa: N801 (torch's name)
    """A context manager / decorator. Enabled autocast would run ops in bfloat16/float16, which DenseCore
    does not reproduce: entering such a region raises NotImplementedError."""

    def __init__(self, device_type, dtype=None, enabled=True, cache_enabled=None):
        import densecore  # noqa: PLC0415

        if not isinstance(device_type, str):
            raise ValueError(f"Expected `device_type` of type `str`, got: `{type(device_type)}`")
        if device_type.split(":")[0] not in _DEVICE_TYPES:  # torch parses it as a device first
            raise RuntimeError("Expected one of " + ", ".join(_DEVICE_TYPES)
                               + f" device type at start of device string: {device_type}")
        self.fast_dtype = _default_dtype(device_type) if dtype is None else dtype
        self.device = device_type
        if not is_autocast_available(device_type):
            raise RuntimeError(f"User specified an unsupported autocast device_type '{self.device}'")
        supported = [densecore.bfloat16, densecore.float16]
        if enabled:
            if device_type == "cuda":  # amp_definitely_not_available(): no CUDA here
                warnings.warn("CUDA is not available or torch_xla is imported. Disabling autocast.", stacklevel=2)
                enabled = False
            elif self.fast_dtype not in supported:
                name = device_type.upper()
                warnings.warn(
                    f"In {name} autocast, but the target dtype is not supported. Disabling autocast.\n"
                    f"{name} Autocast only supports dtypes of " + ", ".join(map(str, supported)) + " currently.",
                    stacklevel=2,
                )
                enabled = False
        self._enabled = enabled

    def __enter__(self):
        if self._enabled:
            raise NotImplementedError(
                f"DenseCore does not implement autocast to {self.fast_dtype} on '{self.device}': torch would run "
                "matmuls and other ops in reduced precision there, and DenseCore only reproduces float32 math. "
                "Use nullcontext() or autocast(..., enabled=False)."
            )
        return self

    def __exit__(self, exc_type, exc_val, exc_tb):
        return False

    def __call__(self, func):
        @functools.wraps(func)
        def decorate_autocast(*args, **kwargs):
            with self:
                return func(*args, **kwargs)

        return decorate_autocast


class GradScaler:
    """torch.amp.GradScaler. Without CUDA a 'cuda' scaler disables itself (with torch's warning) and every
    method is torch's disabled pass-through; an enabled scaler on another device is not implemented."""

    def __init__(self, device="cuda", init_scale=2.0**16, growth_factor=2.0, backoff_factor=0.5,
                 growth_interval=2000, enabled=True):
        self._device = device
        self._enabled = enabled
        if self._device == "cuda" and enabled:
            warnings.warn("torch.cuda.amp.GradScaler is enabled, but CUDA is not available.  Disabling.",
                          stacklevel=2)
            self._enabled = False
        if self._enabled:
            raise NotImplementedError(
                f"DenseCore does not implement an enabled GradScaler on '{device}' (loss scaling with inf checks); "
                "pass enabled=False"
            )

    def scale(self, outputs):
        return outputs

    def unscale_(self, optimizer):
        pass

    def step(self, optimizer, *args, **kwargs):
        return optimizer.step(*args, **kwargs)

    def update(self, new_scale=None):
        pass

    def get_scale(self):
        return 1.0

    def is_enabled(self):
        return self._enabled

    def state_dict(self):
        return {}

    def load_state_dict(self, state_dict):
        pass

    def __getstate__(self):
        return self.__dict__.copy()

    def __setstate__(self, state):
        self.__dict__.update(state)
