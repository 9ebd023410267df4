"""torch.cuda for a CPU-only library: no devices. Queries answer as torch does on a machine without a
GPU; seeding and synchronize are no-ops (torch ignores cuda seeds without CUDA; synchronize is a no-op
here so CPU scripts such as nanoGPT's bench.py run, where real torch would raise)."""
from . import cuda_amp as amp  # noqa: F401 (torch.cuda.amp)

_NO_DRIVER = ("Found no NVIDIA driver on your system. Please check that you have an NVIDIA GPU and installed a "
              "driver from http://www.nvidia.com/Download/index.aspx")


def is_available():
    return False


def is_bf16_supported(including_emulation=True):
    return False  # torch: "If CUDA is not available, then it does not support bf16 either"


def device_count():
    return 0


def is_initialized():
    return False


def manual_seed(seed):
    pass


def manual_seed_all(seed):
    pass


def seed():
    pass


def seed_all():
    pass


def synchronize(device=None):
    pass


def empty_cache():
    pass


def _no_driver(*args, **kwargs):
    raise RuntimeError(_NO_DRIVER)


set_device = current_device = get_device_name = get_device_properties = get_device_capability = _no_driver
memory_allocated = max_memory_allocated = reset_peak_memory_stats = _no_driver
