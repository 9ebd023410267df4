"""torch.memory_format and its values. DenseCore lays tensors out as torch's preserve_format and
contiguous_format do; channels_last formats exist so programs can name them, and ops refuse them."""


class memory_format:  # noqa: N801 (torch's name)
    def __init__(self, name):
        self._name = name

    def __repr__(self):
        return f"torch.{self._name}"

    def __reduce__(self):
        return self._name


preserve_format = memory_format("preserve_format")
contiguous_format = memory_format("contiguous_format")
channels_last = memory_format("channels_last")
channels_last_3d = memory_format("channels_last_3d")
