"""Bad arguments raise a Python exception torch would raise, never a crash or C++ text (issue 7, item 3).

The walk calls every public callable of densecore, densecore.nn.functional and Tensor with
arguments of the wrong type or out of range, in a child process (a crash fails the test). Each
call must return or raise one of the exception classes torch's arg parser and ops raise; no
message may carry C++ internals (std::bad_cast, std::bad_alloc, nanobind). A few exact cases are
compared with torch, message included.
"""
import os
import pickle
import subprocess
import sys

import oracle
import pytest

ALLOWED = {"TypeError", "ValueError", "RuntimeError", "IndexError", "NotImplementedError", "OverflowError",
           "KeyError", "AttributeError"}
CPP_TEXT = ("std::", "bad_cast", "bad_alloc", "nanobind", "basic_string", "c10::")
NOT_CALLED = {"load", "save", "compile", "manual_seed", "seed", "set_num_threads", "set_default_dtype",
              "set_printoptions", "set_rng_state", "use_deterministic_algorithms"}

CHILD = r'''
import pickle, sys, warnings
warnings.simplefilter("ignore")
import densecore as torch
import densecore.nn.functional as F
names = pickle.loads(sys.stdin.buffer.read())
bad_values = ["a", object(), [object()], None, 2**70, -2**70, -1, 3.5, float("nan"), (2**62, 2**62), torch.float16,
              torch.ones(2, 3, dtype=torch.int64)]
res = []
for where, name in names:
    for v in bad_values:
        for form in ("pos1", "pos2", "kw"):
            x = torch.ones(2, 3)
            try:
                if where == "method":
                    f = getattr(x, name)
                    out = f(v) if form == "pos1" else f(0, v) if form == "pos2" else f(dim=v)
                else:
                    f = getattr(torch if where == "torch" else F, name)
                    out = f(v) if form == "pos1" else f(x, v) if form == "pos2" else f(x, dim=v)
                res.append((where, name, repr(v)[:30], form, "ok", ""))
            except Exception as e:
                res.append((where, name, repr(v)[:30], form, type(e).__name__, str(e)[:300]))
sys.stdout.buffer.write(pickle.dumps(res))
'''


def _names():
    import densecore
    import densecore.nn.functional as F

    def public(obj):
        return [n for n in dir(obj) if not n.startswith("_") and n not in NOT_CALLED and callable(getattr(obj, n, None))]

    return ([("torch", n) for n in public(densecore) if not isinstance(getattr(densecore, n), type)]
            + [("F", n) for n in public(F)] + [("method", n) for n in public(densecore.Tensor)])


@pytest.mark.notorch
def test_wrong_argument_types_raise_python_exceptions():
    env = dict(os.environ)
    if env.get("DENSECORE_BUILD_DIR"):
        env["PYTHONPATH"] = os.path.join(oracle.ROOT, "python") + os.pathsep + env.get("PYTHONPATH", "")
    proc = subprocess.run([sys.executable, "-c", CHILD], input=pickle.dumps(_names()), capture_output=True, env=env,
                          timeout=900)
    assert proc.returncode == 0, f"the walk crashed ({proc.returncode}):\n{proc.stderr.decode()[-3000:]}"
    results = pickle.loads(proc.stdout)
    assert len(results) > 3000
    bad = [r for r in results if r[4] != "ok" and (r[4] not in ALLOWED or any(c in r[5] for c in CPP_TEXT))]
    assert not bad, f"{len(bad)} calls raised the wrong way:\n" + "\n".join(map(str, bad[:30]))


EXACT = {
    "tensor_dtype_str": oracle.raises(TypeError, "out = torch.tensor([1.0], dtype='bool')"),
    "zeros_dtype_int": oracle.raises(TypeError, "out = torch.zeros(3, dtype=5)"),
    "grad_assigned_int": oracle.raises(TypeError, "p = torch.ones(3, requires_grad=True); p.grad = 5"),
    "cat_int": oracle.raises(TypeError, "out = torch.cat(5)"),
}


@pytest.mark.oracle
def test_wrong_argument_messages_match_torch():
    oracle.assert_cases_equal(EXACT)


# torch's message lists every overload of the op ("received an invalid combination of arguments");
# DenseCore's names the argument and the type it wanted. Same class; the overload listing comes with
# the single argument parser (issue 8).
CLASS_ONLY = {
    "view_str": oracle.raises(TypeError, "out = torch.ones(3).view('a')", message=r"view\(\).*"),
    "sum_dim_str": oracle.raises(TypeError, "out = torch.ones(3).sum(dim='a')", message=r"sum\(\).*"),
}


@pytest.mark.oracle
def test_wrong_argument_classes_match_torch():
    oracle.assert_cases_equal(CLASS_ONLY)


# An int argument is an int or an __index__ object, never a bool or a float (python/src/int_args.h): a bool
# taken as 1 would be a silently different shape or dim. torch checks only the first item of an int list for
# bool, so view(24, True) is (24, 1) in both. The messages differ as in CLASS_ONLY (torch lists overloads).
def _bool_refused(code):
    return oracle.raises(TypeError, code, message=r"(?s).+")


INT_ARGUMENTS = {
    "view_bool_first": _bool_refused("out = torch.zeros(24).view(True, 24)"),
    "view_tuple_bool_first": _bool_refused("out = torch.zeros(24).view((True, 24))"),
    "view_bool_later": "out = torch.zeros(24).view(24, True)",
    "view_tuple_bool_later": "out = torch.zeros(24).view((24, True))",
    "view_size_keyword_int": _bool_refused("out = torch.zeros(24).view(size=24)"),
    "view_size_keyword_tuple": "out = torch.zeros(24).view(size=(4, 6))",
    "view_overflow": _bool_refused("out = torch.zeros(24).view(2 ** 70)"),
    "view_float": _bool_refused("out = torch.zeros(3).view(3, 1.5)"),
    "view_numpy_int": "import numpy as np\nout = torch.zeros(24).view(np.int64(4), 6)",
    "view_int_tensor": "out = torch.zeros(24).view(torch.tensor(4), 6)",
    "reshape_bool": _bool_refused("out = torch.zeros(24).reshape((True, 24))"),
    "reshape_shape_keyword_int": _bool_refused("out = torch.zeros(24).reshape(shape=24)"),
    "expand_bool": _bool_refused("out = torch.zeros(1, 24).expand(True, 24)"),
    "permute_bool": _bool_refused("out = torch.ones(2, 3).permute(True, 0)"),
    "zeros_bool": _bool_refused("out = torch.zeros(True, 3)"),
    "zeros_tuple_bool": _bool_refused("out = torch.zeros((True, 3))"),
    "zeros_later_bool": "out = torch.zeros(3, True)",
    "full_int_size": _bool_refused("out = torch.full(3, 1.0)"),
    "randn_bool": _bool_refused("out = torch.randn(True, 2)"),
    "randint_size_bool": _bool_refused("out = torch.randint(5, (True,))"),
    "sum_dim_bool": _bool_refused("out = torch.ones(2, 3).sum(dim=True)"),
    "sum_dim_tuple_bool": _bool_refused("out = torch.ones(2, 3).sum((True,))"),
    "sum_dim_int": "out = torch.ones(2, 3).sum(dim=1)",
    "mean_dims_bool_later": "out = torch.ones(2, 3).mean((0, True))",
    "sum_dim_int_tensor": "out = torch.ones(2, 3).sum(dim=torch.tensor(1))",
    "softmax_bool": _bool_refused("out = torch.ones(2, 3).softmax(True)"),
    "transpose_bool": _bool_refused("out = torch.ones(2, 3).transpose(True, 0)"),
    "transpose_float_tensor": _bool_refused("out = torch.ones(2, 3).transpose(torch.tensor(0.), 1)"),
    "transpose_numpy_int": "import numpy as np\nout = torch.ones(2, 3).transpose(np.int64(0), 1)",
    "unsqueeze_bool": _bool_refused("out = torch.zeros(3).unsqueeze(True)"),
    "squeeze_bool": _bool_refused("out = torch.zeros(2, 1).squeeze(True)"),
    "size_bool": _bool_refused("out = torch.ones(2, 3).size(True)"),
    "flatten_bool": _bool_refused("out = torch.zeros(2, 3, 4).flatten(True)"),
    "split_bool": _bool_refused("out = torch.ones(2, 3).split(True)"),
    "chunk_dim_bool": _bool_refused("out = torch.ones(2, 3).chunk(2, True)"),
    "narrow_bool": _bool_refused("out = torch.ones(2, 3).narrow(True, 0, 1)"),
    "select_bool": _bool_refused("out = torch.ones(2, 3).select(True, 0)"),
    "cat_dim_bool": _bool_refused("m = torch.ones(2, 3)\nout = torch.cat([m, m], dim=True)"),
    "stack_dim_bool": _bool_refused("m = torch.ones(2, 3)\nout = torch.stack([m, m], dim=True)"),
    "argmax_bool": _bool_refused("out = torch.ones(2, 3).argmax(True)"),
    "max_dim_bool": _bool_refused("out = torch.ones(2, 3).max(True)"),
    "topk_bool": _bool_refused("out = torch.ones(2, 3).topk(True)"),
    "layer_norm_int_shape": _bool_refused("out = torch.nn.functional.layer_norm(torch.ones(24), 24)"),
    "multinomial_bool": _bool_refused("out = torch.multinomial(torch.ones(3), True)"),
    "eye_bool": _bool_refused("out = torch.eye(True)"),
    "randperm_bool": _bool_refused("out = torch.randperm(True)"),
    "cross_entropy_ignore_index_bool": _bool_refused(
        "out = torch.nn.functional.cross_entropy(torch.zeros(2, 3), torch.tensor([0, 1]), ignore_index=True)"),
    "movedim_int": "out = torch.zeros(2, 3, 4).movedim(0, 2)",
    "linear_bool_features": "out = torch.nn.Linear(True, 2).weight.shape[1] * torch.ones(1)",
}


@pytest.mark.oracle
def test_int_arguments_follow_torchs_rule():
    oracle.assert_cases_equal(INT_ARGUMENTS)
