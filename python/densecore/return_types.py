"""torch.return_types: the named tuples reductions with a dim and topk return (values, indices)."""


def _make(name):
    def __new__(cls, seq):
        return tuple.__new__(cls, seq)

    def __repr__(self):
        return f"torch.return_types.{name}(\nvalues={self[0]!r},\nindices={self[1]!r})"

    return type(name, (tuple,), {
        "__new__": __new__,
        "__repr__": __repr__,
        "__module__": "torch.return_types",
        "values": property(lambda self: self[0]),
        "indices": property(lambda self: self[1]),
        "n_fields": 2,
        "n_sequence_fields": 2,
    })


max = _make("max")  # noqa: A001
min = _make("min")  # noqa: A001
topk = _make("topk")

__all__ = ["max", "min", "topk"]
