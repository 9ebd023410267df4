"""torch.optim.Optimizer: param_groups with defaults filled in, per-parameter state, zero_grad,
state_dict/load_state_dict in torch's format (torch/optim/optimizer.py of 2.14.1, without hooks
for devices, graphs or profiling, which a CPU-only engine never needs)."""
from collections import defaultdict
from copy import deepcopy
from itertools import chain
import functools

from .. import _C
from ..autograd.grad_mode import enable_grad, set_grad_enabled  # noqa: F401

Tensor = _C.Tensor

__all__ = ["Optimizer", "required"]


class _RequiredParameter:
    """Singleton class representing a required parameter for an Optimizer."""

    def __repr__(self):
        return "<required parameter>"


required = _RequiredParameter()


def _use_grad_for_differentiable(func):
    """Runs `step` with grad mode = the group's `differentiable` default (False: no autograd)."""

    @functools.wraps(func)
    def _use_grad(*args, **kwargs):
        prev = _C.is_grad_enabled()  # set_grad_enabled's effect without building the context manager
        _C._set_grad_enabled(args[0].defaults["differentiable"])
        try:
            return func(*args, **kwargs)
        finally:
            _C._set_grad_enabled(prev)

    return _use_grad


def _get_scalar_dtype(is_fused=None):
    """The dtype of the `step` counter: float32 (float64 when that is the default dtype)."""
    from .. import float32, float64, get_default_dtype

    return float64 if get_default_dtype() == float64 else float32


def _to_scalar(x):
    """A Python number stays itself; a 1-element tensor with dims is squeezed (optimizer.py)."""
    if isinstance(x, Tensor) and x.dim() != 0:
        return x.squeeze()
    return x


def _get_value(x):
    """step_t.item() outside of compilation."""
    return x.item() if isinstance(x, Tensor) else x


class Optimizer:
    """Base class of all optimizers: holds param_groups (dicts) and state (keyed by parameter)."""

    def __init__(self, params, defaults):
        self.defaults = defaults
        if isinstance(params, Tensor):
            raise TypeError(
                "params argument given to the optimizer should be an iterable of Tensors or dicts, but got "
                + _typename(params)
            )
        self.state = defaultdict(dict)
        self.param_groups = []
        param_groups = list(params)
        if len(param_groups) == 0:
            raise ValueError("optimizer got an empty parameter list")
        if not isinstance(param_groups[0], dict):
            param_groups = [{"params": param_groups}]
        for param_group in param_groups:
            self.add_param_group(param_group)

    def __getstate__(self):
        return {"defaults": self.defaults, "state": self.state, "param_groups": self.param_groups}

    def __setstate__(self, state):
        self.__dict__.update(state)

    def __repr__(self):
        format_string = self.__class__.__name__ + " ("
        for i, group in enumerate(self.param_groups):
            format_string += "\n"
            format_string += f"Parameter Group {i}\n"
            for key in sorted(group.keys()):
                if key != "params":
                    format_string += f"    {key}: {group[key]}\n"
        format_string += ")"
        return format_string

    def add_param_group(self, param_group):
        """Adds a group: params as a list, names split from (name, tensor) pairs, defaults filled."""
        if not isinstance(param_group, dict):
            raise TypeError(f"param_group must be a dict, but got {type(param_group)}")
        params = param_group["params"]
        if isinstance(params, Tensor):
            param_group["params"] = [params]
        elif isinstance(params, set):
            raise TypeError(
                "optimizer parameters need to be organized in ordered collections, but "
                "the ordering of tensors in sets will change between runs. Please use a list instead."
            )
        else:
            param_group["params"] = list(params)
        tensors, names = [], []
        for param in param_group["params"]:
            if isinstance(param, tuple):
                names.append(param[0])
                tensors.append(param[1])
            else:
                tensors.append(param)
        param_group["params"] = tensors
        if names:
            if len(names) != len(tensors):
                raise ValueError("all optimizer params should be with/without names. Some param names are missing")
            param_group["param_names"] = names
        for param in param_group["params"]:
            if not isinstance(param, Tensor):
                raise TypeError("optimizer can only optimize Tensors, but one of the params is " + _typename(param))
            if not self.defaults.get("differentiable", None) and not (param.is_leaf or getattr(param, "retains_grad", False)):
                raise ValueError("can't optimize a non-leaf Tensor")
        for name, default in self.defaults.items():
            if default is required and name not in param_group:
                raise ValueError(f"parameter group didn't specify a value of required optimization parameter {name}")
            param_group.setdefault(name, default)
        params = param_group["params"]
        if len(params) != len({id(p) for p in params}):
            import warnings

            warnings.warn(
                "optimizer contains a parameter group with duplicate parameters; "
                "in future, this will cause an error; "
                "see github.com/pytorch/pytorch/issues/40967 for more information",
                stacklevel=3,
            )
        param_set = set()
        for group in self.param_groups:
            param_set.update(id(p) for p in group["params"])
            if ("param_names" in param_group) != ("param_names" in group):
                txt = "with names" if "param_names" in param_group else "without names"
                raise ValueError(
                    "all optimizer param groups should be with/without names. "
                    f"cannot add param group {txt} to the optimizer"
                )
        if not param_set.isdisjoint({id(p) for p in param_group["params"]}):
            raise ValueError("some parameters appear in more than one parameter group")
        self.param_groups.append(param_group)

    def zero_grad(self, set_to_none=True):
        """Drops every parameter's .grad (or zeroes it in place with set_to_none=False)."""
        for group in self.param_groups:
            for p in group["params"]:
                if p.grad is not None:
                    if set_to_none:
                        p.grad = None
                    else:
                        if p.grad.grad_fn is not None:
                            p.grad.detach_()
                        else:
                            p.grad.requires_grad_(False)
                        p.grad.zero_()

    def state_dict(self):
        """{'state': {param index: state}, 'param_groups': [group with 'params' as indices]}."""
        param_mappings = {}
        start_index = 0

        def pack_group(group):
            nonlocal start_index
            packed = {k: v for k, v in group.items() if k != "params"}
            param_mappings.update(
                {id(p): i for i, p in enumerate(group["params"], start_index) if id(p) not in param_mappings}
            )
            packed["params"] = [param_mappings[id(p)] for p in group["params"]]
            start_index += len(packed["params"])
            return packed

        param_groups = [pack_group(g) for g in self.param_groups]
        packed_state = {(param_mappings[id(k)] if isinstance(k, Tensor) else k): v for k, v in self.state.items()}
        return {"state": packed_state, "param_groups": param_groups}

    @staticmethod
    def _process_value_according_to_param_policy(param, value, param_id, param_groups, key=None):
        fused = capturable = False
        for pg in param_groups:
            if param_id in pg["params"]:
                fused = pg.get("fused", False)
                capturable = pg.get("capturable", False)
                break
        if key == "step":
            if capturable or fused:
                from .. import float32

                return value.to(dtype=float32)
            return value
        if param.dtype.is_floating_point:
            return value.to(dtype=param.dtype)
        return value

    def load_state_dict(self, state_dict):
        """Loads a state_dict(): ids zipped with this optimizer's params in order, tensors cast."""
        state_dict = state_dict.copy()
        groups = self.param_groups
        saved_groups = deepcopy(state_dict["param_groups"])
        if len(groups) != len(saved_groups):
            raise ValueError("loaded state dict has a different number of parameter groups")
        if any(len(g["params"]) != len(s["params"]) for g, s in zip(groups, saved_groups)):
            raise ValueError(
                "loaded state dict contains a parameter group that doesn't match the size of optimizer's group"
            )
        id_map = dict(
            zip(chain.from_iterable(g["params"] for g in saved_groups), chain.from_iterable(g["params"] for g in groups))
        )

        def _cast(param, value, param_id, param_groups, key=None):
            if isinstance(value, Tensor):
                return Optimizer._process_value_according_to_param_policy(param, value, param_id, param_groups, key)
            if isinstance(value, dict):
                return {k: _cast(param, v, param_id, param_groups, key=k) for k, v in value.items()}
            if isinstance(value, (list, tuple)):
                return type(value)(_cast(param, v, param_id, param_groups) for v in value)
            return value

        state = defaultdict(dict)
        for k, v in state_dict["state"].items():
            if k in id_map:
                param = id_map[k]
                state[param] = _cast(param, v, param_id=k, param_groups=state_dict["param_groups"])
            else:
                state[k] = v

        def update_group(group, new_group):
            new_group["params"] = group["params"]
            if "param_names" in group and "param_names" not in new_group:
                new_group["param_names"] = group["param_names"]
            return new_group

        param_groups = [update_group(g, ng) for g, ng in zip(groups, saved_groups)]
        self.__setstate__({"state": state, "param_groups": param_groups})

    def step(self, closure=None):
        raise NotImplementedError


def _typename(obj):
    if isinstance(obj, Tensor):
        return "torch.FloatTensor" if obj.dtype.is_floating_point else "torch.Tensor"
    module = getattr(type(obj), "__module__", "")
    name = type(obj).__qualname__
    return name if module in ("builtins", "", None) else f"{module}.{name}"
