"""torch.nn.parallel: importable (nanoGPT imports DistributedDataParallel unconditionally); wrapping a
model is not supported in one CPU process, and fails as torch does without a process group."""

_NOT_INIT = "Default process group has not been initialized, please make sure to call init_process_group."


class DistributedDataParallel:
    def __init__(self, module, *args, **kwargs):
        raise ValueError(_NOT_INIT)


class DataParallel:
    def __init__(self, module, *args, **kwargs):
        raise NotImplementedError("DenseCore has no CUDA devices: torch.nn.DataParallel is not supported")
