"""torch.cuda.amp: the deprecated spellings of torch.amp's GradScaler and autocast for 'cuda'
(torch/cuda/amp/grad_scaler.py, autocast_mode.py), with their FutureWarnings."""
import warnings

from . import amp as _amp


class GradScaler(_amp.GradScaler):
    """torch.cuda.amp.GradScaler(args...) = torch.amp.GradScaler("cuda", args...) plus a FutureWarning."""

    def __init__(self, init_scale=2.0**16, growth_factor=2.0, backoff_factor=0.5, growth_interval=2000,
                 enabled=True):
        # typing_extensions.deprecated on __init__: the warning points at the caller's line.
        warnings.warn("`torch.cuda.amp.GradScaler(args...)` is deprecated. "
                      "Please use `torch.amp.GradScaler('cuda', args...)` instead.", FutureWarning, stacklevel=2)
        super().__init__(
            "cuda", init_scale=init_scale, growth_factor=growth_factor, backoff_factor=backoff_factor,
            growth_interval=growth_interval, enabled=enabled)


class autocast(_amp.autocast):  # noqa: N801 (torch's name)
    def __init__(self, enabled=True, dtype=None, cache_enabled=True):
        warnings.warn("`torch.cuda.amp.autocast(args...)` is deprecated. "
                      "Please use `torch.amp.autocast('cuda', args...)` instead.", FutureWarning, stacklevel=2)
        import densecore  # noqa: PLC0415

        super().__init__("cuda", dtype=densecore.float16 if dtype is None else dtype, enabled=enabled,
                         cache_enabled=cache_enabled)


def common_amp_definitely_not_available():
    return True
