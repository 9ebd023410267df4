"""nn.Module: registration of parameters, buffers and submodules through attribute assignment,
traversal in registration order, state_dict/load_state_dict, train/eval, apply, to, zero_grad.
Follows torch/nn/modules/module.py's observable behaviour (orders, keys, messages)."""
from collections import OrderedDict, namedtuple

from ... import _C
from ..parameter import Buffer, Parameter

_IncompatibleKeys = namedtuple("IncompatibleKeys", ["missing_keys", "unexpected_keys"])


def weight_and_bias(module):
    """module.weight and module.bias for a layer's forward, read from _parameters where they live.

    `self.weight` reaches Module.__getattr__ only after CPython 3.11 has built and dropped an AttributeError
    (about 1 us each: the batch-1 MLP step of issue 10 makes 4 such reads, an eighth of its time). If either
    name is not a registered parameter (a parametrization, a plain tensor attribute), the attributes are read
    as usual.
    """
    params = module.__dict__["_parameters"]
    if "weight" in params and "bias" in params:
        return params["weight"], params["bias"]
    return module.weight, module.bias


class _IncompatibleKeysResult(_IncompatibleKeys):
    def __repr__(self):
        if not self.missing_keys and not self.unexpected_keys:
            return "<All keys matched successfully>"
        return super().__repr__()

    __str__ = __repr__


def _addindent(s, num_spaces):
    lines = s.split("\n")
    if len(lines) == 1:
        return s
    first = lines.pop(0)
    return first + "\n" + "\n".join(" " * num_spaces + line for line in lines)


class Module:
    """Base class of every layer; subclasses define forward()."""

    training: bool
    _version = 1

    def __init__(self, *args, **kwargs):
        if args or kwargs:
            raise TypeError(f"{type(self).__name__}.__init__() takes 1 positional argument but more were given")
        object.__setattr__(self, "training", True)
        object.__setattr__(self, "_parameters", OrderedDict())
        object.__setattr__(self, "_buffers", OrderedDict())
        object.__setattr__(self, "_non_persistent_buffers_set", set())
        object.__setattr__(self, "_modules", OrderedDict())
        object.__setattr__(self, "_forward_hooks", OrderedDict())
        object.__setattr__(self, "_forward_pre_hooks", OrderedDict())

    def forward(self, *args, **kwargs):
        raise NotImplementedError(f'Module [{type(self).__name__}] is missing the required "forward" function')

    def __call__(self, *args, **kwargs):
        if not (self._forward_pre_hooks or self._forward_hooks):  # torch's _call_impl fast path
            return self.forward(*args, **kwargs)
        for hook in self._forward_pre_hooks.values():
            result = hook(self, args)
            if result is not None:
                args = result if isinstance(result, tuple) else (result,)
        out = self.forward(*args, **kwargs)
        for hook in self._forward_hooks.values():
            result = hook(self, args, out)
            if result is not None:
                out = result
        return out

    # ---- registration ----
    def register_parameter(self, name, param):
        if "_parameters" not in self.__dict__:
            raise AttributeError("cannot assign parameter before Module.__init__() call")
        self._check_name(name, "parameter")
        if hasattr(self, name) and name not in self._parameters:
            raise KeyError(f"attribute '{name}' already exists")
        if param is None:
            self._parameters[name] = None
        elif not isinstance(param, Parameter):
            raise TypeError(
                f"cannot assign '{type(param).__module__}.{type(param).__name__}' object to parameter '{name}' "
                "(torch.nn.Parameter or None required)"
            )
        else:
            self._parameters[name] = param

    def register_buffer(self, name, tensor, persistent=True):
        if "_buffers" not in self.__dict__:
            raise AttributeError("cannot assign buffer before Module.__init__() call")
        self._check_name(name, "buffer")
        if hasattr(self, name) and name not in self._buffers:
            raise KeyError(f"attribute '{name}' already exists")
        if tensor is not None and not isinstance(tensor, _C.Tensor):
            raise TypeError(
                f"cannot assign '{type(tensor).__module__}.{type(tensor).__name__}' object to buffer '{name}' "
                "(torch Tensor or None required)"
            )
        self._buffers[name] = tensor
        if persistent:
            self._non_persistent_buffers_set.discard(name)
        else:
            self._non_persistent_buffers_set.add(name)

    def add_module(self, name, module):
        if not isinstance(module, Module) and module is not None:
            raise TypeError(f"{type(module).__module__}.{type(module).__name__} is not a Module subclass")
        self._check_name(name, "module")
        if hasattr(self, name) and name not in self._modules:
            raise KeyError(f"attribute '{name}' already exists")
        self._modules[name] = module

    register_module = add_module

    @staticmethod
    def _check_name(name, kind):
        if not isinstance(name, str):
            raise TypeError(f"{kind} name should be a string. Got {type(name).__name__}")
        if "." in name:
            raise KeyError(f'{kind} name can\'t contain "."')
        if name == "":
            raise KeyError(f'{kind} name can\'t be empty string ""')

    def __setattr__(self, name, value):
        def remove_from(*dicts):
            for d in dicts:
                if name in d:
                    del d[name]

        params = self.__dict__.get("_parameters")
        if isinstance(value, Parameter):
            if params is None:
                raise AttributeError("cannot assign parameters before Module.__init__() call")
            remove_from(self.__dict__, self._buffers, self._modules, self._non_persistent_buffers_set)
            self.register_parameter(name, value)
            return
        if params is not None and name in params:
            if value is not None:
                raise TypeError(
                    f"cannot assign '{type(value).__module__}.{type(value).__name__}' as parameter '{name}' "
                    "(torch.nn.Parameter or None expected)"
                )
            self.register_parameter(name, value)
            return
        modules = self.__dict__.get("_modules")
        if isinstance(value, Module):
            if modules is None:
                raise AttributeError("cannot assign module before Module.__init__() call")
            remove_from(self.__dict__, self._parameters, self._buffers, self._non_persistent_buffers_set)
            modules[name] = value
            return
        if modules is not None and name in modules:
            if value is not None:
                raise TypeError(
                    f"cannot assign '{type(value).__module__}.{type(value).__name__}' as child module '{name}' "
                    "(torch.nn.Module or None expected)"
                )
            modules[name] = value
            return
        if isinstance(value, Buffer):
            self.register_buffer(name, value.data, value.persistent)
            return
        buffers = self.__dict__.get("_buffers")
        if buffers is not None and name in buffers:
            if value is not None and not isinstance(value, _C.Tensor):
                raise TypeError(
                    f"cannot assign '{type(value).__module__}.{type(value).__name__}' as buffer '{name}' "
                    "(torch.nn.Buffer, torch.Tensor or None expected)"
                )
            buffers[name] = value
            return
        object.__setattr__(self, name, value)

    def __getattr__(self, name):
        # Reached for every parameter, buffer and submodule read (`self.weight`), after CPython has built
        # and dropped an AttributeError: one dict lookup per store keeps the rest short (issue 10).
        d = self.__dict__
        params = d.get("_parameters")
        if params is not None and name in params:
            return params[name]
        buffers = d.get("_buffers")
        if buffers is not None and name in buffers:
            return buffers[name]
        modules = d.get("_modules")
        if modules is not None and name in modules:
            return modules[name]
        raise AttributeError(f"'{type(self).__name__}' object has no attribute '{name}'")

    def __delattr__(self, name):
        for store in (self._parameters, self._buffers, self._modules):
            if name in store:
                del store[name]
                self._non_persistent_buffers_set.discard(name)
                return
        object.__delattr__(self, name)

    def __dir__(self):
        return sorted(set(dir(type(self)) + list(self.__dict__) + list(self._parameters)
                          + list(self._modules) + list(self._buffers)))

    # ---- traversal ----
    def named_modules(self, memo=None, prefix="", remove_duplicate=True):
        if memo is None:
            memo = set()
        if self in memo:
            return
        if remove_duplicate:
            memo.add(self)
        yield prefix, self
        for name, module in self._modules.items():
            if module is None:
                continue
            sub = prefix + ("." if prefix else "") + name
            yield from module.named_modules(memo, sub, remove_duplicate)

    def modules(self):
        for _, m in self.named_modules():
            yield m

    def named_children(self):
        memo = set()
        for name, module in self._modules.items():
            if module is not None and module not in memo:
                memo.add(module)
                yield name, module

    def children(self):
        for _, m in self.named_children():
            yield m

    def _named_members(self, get_members, prefix="", recurse=True, remove_duplicate=True):
        memo = set()
        modules = self.named_modules(prefix=prefix, remove_duplicate=remove_duplicate) if recurse else [(prefix, self)]
        for module_prefix, module in modules:
            for k, v in get_members(module):
                if v is None or id(v) in memo:
                    continue
                if remove_duplicate:
                    memo.add(id(v))
                yield module_prefix + ("." if module_prefix else "") + k, v

    def named_parameters(self, prefix="", recurse=True, remove_duplicate=True):
        yield from self._named_members(lambda m: m._parameters.items(), prefix, recurse, remove_duplicate)

    def parameters(self, recurse=True):
        for _, p in self.named_parameters(recurse=recurse):
            yield p

    def named_buffers(self, prefix="", recurse=True, remove_duplicate=True):
        yield from self._named_members(lambda m: m._buffers.items(), prefix, recurse, remove_duplicate)

    def buffers(self, recurse=True):
        for _, b in self.named_buffers(recurse=recurse):
            yield b

    def get_submodule(self, target):
        mod = self
        for item in target.split(".") if target else []:
            if not hasattr(mod, item) or not isinstance(getattr(mod, item), Module):
                raise AttributeError(f"{mod._get_name()} has no attribute `{item}`")
            mod = getattr(mod, item)
        return mod

    def get_parameter(self, target):
        module_path, _, name = target.rpartition(".")
        mod = self.get_submodule(module_path)
        if name not in mod._parameters:
            raise AttributeError(f"{mod._get_name()} has no parameter `{name}`")
        return mod._parameters[name]

    # ---- modes and transforms ----
    def train(self, mode=True):
        if not isinstance(mode, bool):
            raise ValueError("training mode is expected to be boolean")
        self.training = mode
        for module in self.children():
            module.train(mode)
        return self

    def eval(self):
        return self.train(False)

    def requires_grad_(self, requires_grad=True):
        for p in self.parameters():
            p.requires_grad_(requires_grad)
        return self

    def apply(self, fn):
        for module in self.children():
            module.apply(fn)
        fn(self)
        return self

    def _apply(self, fn):
        for module in self.children():
            module._apply(fn)
        from ...autograd import no_grad  # noqa: PLC0415

        for key, param in self._parameters.items():
            if param is None:
                continue
            with no_grad():
                new = fn(param)
            if new is not param:
                p = Parameter(new, param.requires_grad)
                if param.grad is not None:
                    p.grad = fn(param.grad)
                self._parameters[key] = p
        for key, buf in self._buffers.items():
            if buf is not None:
                self._buffers[key] = fn(buf)
        return self

    def to(self, *args, **kwargs):
        dtype = kwargs.get("dtype")
        for a in args:
            if isinstance(a, _C.dtype):
                dtype = a
            elif isinstance(a, _C.Tensor):
                dtype = a.dtype
        if dtype is not None and not dtype.is_floating_point:
            raise TypeError(f"nn.Module.to only accepts floating point or complex dtypes, but got desired dtype={dtype}")
        if dtype is None:
            return self  # devices: DenseCore has only the CPU
        return self._apply(lambda t: t.to(dtype) if t.is_floating_point() else t)

    def cpu(self):
        return self

    def float(self):
        return self._apply(lambda t: t.float() if t.is_floating_point() else t)

    def double(self):
        return self._apply(lambda t: t.double() if t.is_floating_point() else t)

    def half(self):
        return self._apply(lambda t: t.half() if t.is_floating_point() else t)

    def bfloat16(self):
        return self._apply(lambda t: t.bfloat16() if t.is_floating_point() else t)

    def zero_grad(self, set_to_none=True):
        for p in self.parameters():
            if p.grad is None:
                continue
            if set_to_none:
                p.grad = None
            else:
                p.grad.detach_().zero_() if p.grad.grad_fn is not None else p.grad.zero_()

    # ---- hooks ----
    def register_forward_hook(self, hook):
        key = len(self._forward_hooks)
        while key in self._forward_hooks:
            key += 1
        self._forward_hooks[key] = hook
        return _RemovableHandle(self._forward_hooks, key)

    def register_forward_pre_hook(self, hook):
        key = len(self._forward_pre_hooks)
        while key in self._forward_pre_hooks:
            key += 1
        self._forward_pre_hooks[key] = hook
        return _RemovableHandle(self._forward_pre_hooks, key)

    # ---- state dict ----
    def _save_to_state_dict(self, destination, prefix, keep_vars):
        for name, param in self._parameters.items():
            if param is not None:
                destination[prefix + name] = param if keep_vars else param.detach()
        for name, buf in self._buffers.items():
            if buf is not None and name not in self._non_persistent_buffers_set:
                destination[prefix + name] = buf if keep_vars else buf.detach()

    def state_dict(self, *args, destination=None, prefix="", keep_vars=False):
        if args:  # torch's deprecated positional form (destination, prefix, keep_vars)
            destination = args[0] if len(args) > 0 else destination
            prefix = args[1] if len(args) > 1 else prefix
            keep_vars = args[2] if len(args) > 2 else keep_vars
        if destination is None:
            destination = OrderedDict()
            destination._metadata = OrderedDict()
        if hasattr(destination, "_metadata"):
            destination._metadata[prefix[:-1]] = {"version": self._version}
        self._save_to_state_dict(destination, prefix, keep_vars)
        for name, module in self._modules.items():
            if module is not None:
                module.state_dict(destination=destination, prefix=prefix + name + ".", keep_vars=keep_vars)
        return destination

    def _load_from_state_dict(self, state_dict, prefix, strict, missing_keys, unexpected_keys, error_msgs, assign):
        from ...autograd import no_grad  # noqa: PLC0415

        persistent_buffers = {k: v for k, v in self._buffers.items() if k not in self._non_persistent_buffers_set}
        local_state = {k: v for k, v in {**self._parameters, **persistent_buffers}.items() if v is not None}
        for name, param in local_state.items():
            key = prefix + name
            if key not in state_dict:
                if strict:
                    missing_keys.append(key)
                continue
            input_param = state_dict[key]
            if not isinstance(input_param, _C.Tensor):
                error_msgs.append(
                    f'While copying the parameter named "{key}", expected torch.Tensor or Tensor-like object '
                    f"from checkpoint but received {type(input_param)}"
                )
                continue
            if tuple(input_param.shape) != tuple(param.shape):
                error_msgs.append(
                    f"size mismatch for {key}: copying a param with shape {input_param.shape} from checkpoint, "
                    f"the shape in current model is {param.shape}."
                )
                continue
            try:
                with no_grad():
                    if assign:
                        new = input_param if not isinstance(param, Parameter) else Parameter(input_param, param.requires_grad)
                        if name in self._parameters:
                            self._parameters[name] = new
                        else:
                            self._buffers[name] = input_param
                    else:
                        param.copy_(input_param)
            except Exception as ex:  # noqa: BLE001 (torch reports every failure together)
                error_msgs.append(
                    f'While copying the parameter named "{key}", whose dimensions in the model are {param.shape} '
                    f"and whose dimensions in the checkpoint are {input_param.shape}, an exception occurred : {ex.args}."
                )
        if strict:
            for key in state_dict.keys():
                if key.startswith(prefix):
                    input_name = key[len(prefix):].split(".", 1)
                    if input_name[0] not in self._modules and input_name[0] not in local_state:
                        unexpected_keys.append(key)

    def load_state_dict(self, state_dict, strict=True, assign=False):
        if not isinstance(state_dict, dict):
            raise TypeError(f"Expected state_dict to be dict-like, got {type(state_dict)}.")
        missing_keys, unexpected_keys, error_msgs = [], [], []

        def load(module, local_state_dict, prefix=""):
            module._load_from_state_dict(local_state_dict, prefix, True, missing_keys, unexpected_keys,
                                         error_msgs, assign)
            for name, child in module._modules.items():
                if child is not None:
                    child_prefix = prefix + name + "."
                    child_state = {k: v for k, v in local_state_dict.items() if k.startswith(child_prefix)}
                    load(child, child_state, child_prefix)

        load(self, dict(state_dict))
        if strict:
            if unexpected_keys:
                error_msgs.insert(0, "Unexpected key(s) in state_dict: {}. ".format(
                    ", ".join(f'"{k}"' for k in unexpected_keys)))
            if missing_keys:
                error_msgs.insert(0, "Missing key(s) in state_dict: {}. ".format(
                    ", ".join(f'"{k}"' for k in missing_keys)))
        if error_msgs:
            raise RuntimeError("Error(s) in loading state_dict for {}:\n\t{}".format(
                type(self).__name__, "\n\t".join(error_msgs)))
        return _IncompatibleKeysResult(missing_keys, unexpected_keys)

    # ---- printing ----
    def extra_repr(self):
        return ""

    def _get_name(self):
        return type(self).__name__

    def __repr__(self):
        extra_lines = self.extra_repr().split("\n") if self.extra_repr() else []
        child_lines = [f"({key}): " + _addindent(repr(module), 2) for key, module in self._modules.items()]
        lines = extra_lines + child_lines
        main = self._get_name() + "("
        if lines:
            if len(extra_lines) == 1 and not child_lines:
                main += extra_lines[0]
            else:
                main += "\n  " + "\n  ".join(lines) + "\n"
        return main + ")"


class _RemovableHandle:
    def __init__(self, store, key):
        self._store, self.id = store, key

    def remove(self):
        self._store.pop(self.id, None)

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.remove()
