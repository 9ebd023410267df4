"""torch.distributed for a single-process CPU library: importable, never initialized. Starting a process
group is not implemented; the queries raise what torch raises without one."""

_NOT_INIT = "Default process group has not been initialized, please make sure to call init_process_group."


def is_available():
    return True


def is_initialized():
    return False


def init_process_group(*args, **kwargs):
    raise NotImplementedError("DenseCore runs in one process: torch.distributed.init_process_group is not supported")


def destroy_process_group(group=None):
    raise AssertionError("Process group cannot be None")


def _not_initialized(*args, **kwargs):
    raise ValueError(_NOT_INIT)


get_rank = get_world_size = barrier = all_reduce = broadcast = _not_initialized
