"""densecore.nn.functional: torch.nn.functional's names, each a thin forwarder to a C++ op in _C."""
from .. import _C

linear = _C.linear
hardshrink = _C.hardshrink  # torch's F.hardshrink is torch.hardshrink

__all__ = ["hardshrink", "linear"]


def _get_softmax_dim(name, ndim, stacklevel):
    import warnings

    warnings.warn(
        f"Implicit dimension choice for {name} has been deprecated. Change the call to include dim=X as an argument.",
        stacklevel=stacklevel,
    )
    return 0 if ndim in (0, 1, 3) else 1


def softmax(input, dim=None, _stacklevel=3, dtype=None):
    """torch.nn.functional.softmax: _C.softmax along `dim` (the legacy implicit dim when None)."""
    if dim is None:
        dim = _get_softmax_dim("softmax", input.dim(), _stacklevel)
    return _C.softmax(input, dim, dtype=dtype)


def log_softmax(input, dim=None, _stacklevel=3, dtype=None):
    """torch.nn.functional.log_softmax: _C.log_softmax along `dim` (the legacy implicit dim when None)."""
    if dim is None:
        dim = _get_softmax_dim("log_softmax", input.dim(), _stacklevel)
    return _C.log_softmax(input, dim, dtype=dtype)


__all__ += ["softmax", "log_softmax"]


def scaled_dot_product_attention(query, key, value, attn_mask=None, dropout_p=0.0, is_causal=False, scale=None,
                                 enable_gqa=False):
    """torch.nn.functional.scaled_dot_product_attention: _C's flash kernel or math path, chosen as torch's CPU does."""
    return _C.scaled_dot_product_attention(query, key, value, attn_mask, float(dropout_p), is_causal,
                                           scale=scale, enable_gqa=enable_gqa)


__all__ += ["scaled_dot_product_attention"]


def embedding(input, weight, padding_idx=None, max_norm=None, norm_type=2.0, scale_grad_by_freq=False,
              sparse=False):
    """torch.nn.functional.embedding: padding_idx checked and wrapped as torch's, then _C.embedding."""
    if padding_idx is not None:
        if padding_idx > 0:
            assert padding_idx < weight.size(0), "Padding_idx must be within num_embeddings"
        elif padding_idx < 0:
            assert padding_idx >= -weight.size(0), "Padding_idx must be within num_embeddings"
            padding_idx = weight.size(0) + padding_idx
    else:
        padding_idx = -1
    if max_norm is not None:
        raise NotImplementedError("densecore: embedding max_norm is not supported")
    return _C.embedding(weight, input, padding_idx, scale_grad_by_freq, sparse)


def one_hot(input, num_classes=-1):
    """torch.nn.functional.one_hot: int64 zeros with a 1 at each index along a new last dim."""
    return _C._nn_one_hot(input, num_classes)


def layer_norm(input, normalized_shape, weight=None, bias=None, eps=1e-5):
    """torch.nn.functional.layer_norm: native_layer_norm's output (NativeLayerNormBackward0)."""
    return _C.layer_norm(input, normalized_shape, weight, bias, eps)


def gelu(input, approximate="none"):
    """torch.nn.functional.gelu (approximate 'none' = erf form, 'tanh')."""
    return _C._nn_gelu(input, approximate)


def relu(input, inplace=False):
    """torch.nn.functional.relu: torch.relu / relu_ (clamp_min(x, 0), ReluBackward0)."""
    return input.relu_() if inplace else _C.relu(input)


def dropout(input, p=0.5, training=True, inplace=False):
    """torch.nn.functional.dropout: on CPU bernoulli_(1 - p) noise, div_(1 - p), then a recorded mul."""
    if p < 0.0 or p > 1.0:
        raise ValueError(f"dropout probability has to be between 0 and 1, but got {p}")
    return _C.dropout_(input, p, training) if inplace else _C.dropout(input, p, training)


__all__ += ["embedding", "layer_norm", "gelu", "relu", "dropout", "one_hot"]


_REDUCTIONS = {"none": 0, "mean": 1, "sum": 2}


def _reduction_enum(size_average, reduce, reduction):
    """torch.nn._reduction: the legacy size_average/reduce pair, else get_enum(reduction)."""
    if size_average is None and reduce is None and type(reduction) is str and reduction in _REDUCTIONS:
        return _REDUCTIONS[reduction]
    import warnings

    if size_average is not None or reduce is not None:
        size_average = True if size_average is None else size_average
        reduce = True if reduce is None else reduce
        reduction = "mean" if size_average and reduce else "sum" if reduce else "none"
        warnings.warn(f"size_average and reduce args will be deprecated, please use reduction='{reduction}' instead.",
                      stacklevel=3)
    if reduction == "elementwise_mean":
        warnings.warn("reduction='elementwise_mean' is deprecated. Please use reduction='mean' instead.", stacklevel=3)
        return 1
    if not isinstance(reduction, str) or reduction not in _REDUCTIONS:
        raise ValueError(f"{reduction} is not a valid value for reduction")
    return _REDUCTIONS[reduction]


def nll_loss(input, target, weight=None, size_average=None, ignore_index=-100, reduce=None, reduction="mean"):
    """torch.nn.functional.nll_loss: _C._nll_loss_nd (NllLossBackward0)."""
    return _C._nll_loss_nd(input, target, weight, _reduction_enum(size_average, reduce, reduction), ignore_index)


def cross_entropy(input, target, weight=None, size_average=None, ignore_index=-100, reduce=None, reduction="mean",
                  label_smoothing=0.0):
    """torch.nn.functional.cross_entropy: log_softmax over the class dim, then nll_loss_nd."""
    return _C._cross_entropy_loss(input, target, weight, _reduction_enum(size_average, reduce, reduction),
                                  ignore_index, label_smoothing)


def mse_loss(input, target, size_average=None, reduce=None, reduction="mean", weight=None):
    """torch.nn.functional.mse_loss (unweighted, same-shape operands): _C._mse_loss (MseLossBackward0)."""
    if weight is not None or input.size() != target.size():
        raise NotImplementedError("densecore: mse_loss with weight= or broadcasting operands is not supported yet")
    return _C._mse_loss(input, target, _reduction_enum(size_average, reduce, reduction))


__all__ += ["nll_loss", "cross_entropy", "mse_loss"]
