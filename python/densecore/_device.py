"""torch.device for the one device DenseCore has: the CPU."""


class device:
    __slots__ = ("type", "index")

    def __init__(self, type="cpu", index=None):  # noqa: A002 (torch's parameter name)
        if isinstance(type, device):
            type, index = type.type, type.index
        if isinstance(type, str) and ":" in type:
            type, idx = type.split(":", 1)
            index = int(idx)
        if type not in ("cpu", "cuda", "mps", "meta"):
            raise RuntimeError(
                "Expected one of cpu, cuda, mps, meta device type at start of device string: " + str(type)
            )
        self.type = type
        self.index = index

    def __repr__(self):
        return f"device(type='{self.type}')" if self.index is None else f"device(type='{self.type}', index={self.index})"

    def __str__(self):
        return self.type if self.index is None else f"{self.type}:{self.index}"

    def __eq__(self, other):
        if isinstance(other, str):
            other = device(other)
        return isinstance(other, device) and (self.type, self.index) == (other.type, other.index)

    def __hash__(self):
        return hash((self.type, self.index))
