"""topk (values, indices, gradient) and scatter/scatter_add against torch, bitwise.

topk's order of equal keys and of the unsorted tail is whatever topk_impl_loop's std:: algorithm leaves
(partial_sort when k * 64 <= n, else nth_element + sort of the first k - 1), so the cases use many ties,
NaN, -0.0/+0.0, both paths, sorted=False and largest=False, and every dtype torch's kernel accepts.
"""
import oracle
import pytest

SETUP = r"""
import random
SPECIALS = [float('nan'), float('inf'), -float('inf'), -0.0, 0.0]
def vals(shape, dtype="float32", seed=0, specials=0.0, levels=None):
    n = 1
    for s in shape:
        n *= s
    r = random.Random(seed)
    dt = getattr(torch, dtype)
    if dtype in ("int8", "int16", "int32", "int64", "uint8"):
        xs = [r.randint(0, levels or 100) - (0 if dtype == "uint8" else (levels or 100) // 2) for _ in range(n)]
        return torch.tensor(xs, dtype=dt).reshape(shape)
    if dtype == "bool":
        return torch.tensor([r.random() < 0.5 for _ in range(n)]).reshape(shape)
    def one():
        if r.random() < specials:
            return SPECIALS[r.randrange(len(SPECIALS))]
        return float(r.randint(-levels, levels)) if levels else r.uniform(-10, 10)
    return torch.tensor([one() for _ in range(n)], dtype=torch.float64).to(dt).reshape(shape)
"""

FLOATS = ["float32", "float64", "float16", "bfloat16"]
INTS = ["int8", "int16", "int32", "int64", "uint8"]


def topk_cases(dtypes, shapes_k, **kw):
    cases = {}
    for dt in dtypes:
        for shape, k, dim in shapes_k:
            for largest in (True, False):
                for srt in (True, False):
                    for spec, levels in ((0.0, None), (0.2, 3)):
                        x = f"vals({shape}, '{dt}', {len(cases)}, {spec}, {levels})"
                        name = f"{dt}-{shape}-k{k}-d{dim}-{largest}-{srt}-{spec}"
                        cases[name] = f"r = torch.topk({x}, {k}, dim={dim}, largest={largest}, sorted={srt}); out = [r.values, r.indices]"
    return cases


# (shape, k, dim): both algorithm paths (k * 64 <= n and not), k = 0, k = n, first and middle dims.
SHAPES_K = [((65,), 1, -1), ((64,), 1, 0), ((7, 200), 3, 1), ((200, 7), 3, 0), ((5, 130), 2, -1),
            ((5, 130), 3, -1), ((4, 65), 65, 1), ((3, 10), 0, 1), ((3, 10), 10, 1), ((2, 3, 40), 5, 2),
            ((2, 40, 3), 7, 1), ((1000,), 15, 0), ((1000,), 16, 0), ((6, 65), 30, 1)]


@pytest.mark.oracle
def test_topk_floats():
    oracle.assert_cases_equal(topk_cases(FLOATS, SHAPES_K), setup=SETUP)


@pytest.mark.oracle
def test_topk_integers():
    oracle.assert_cases_equal(topk_cases(INTS, SHAPES_K[:8]), setup=SETUP)


@pytest.mark.oracle
def test_topk_layouts_and_edge_shapes():
    cases = {
        "transposed": "r = vals((30, 70), 'float32', 1, 0.1, 4).t().topk(5); out = [r.values, r.indices, r.values.stride()]",
        "sliced": "r = vals((30, 140), 'float32', 2, 0.1, 4)[:, ::2].topk(4, dim=0); out = [r.values, r.indices]",
        "expanded": "r = vals((1, 70), 'float32', 3, 0.1, 4).expand(5, 70).topk(6); out = [r.values, r.indices]",
        "zero_dim": "r = torch.topk(torch.tensor(2.5), 1); out = [r.values, r.indices]",
        "zero_dim_k0": "r = torch.topk(torch.tensor(2.5), 0); out = [r.values, r.indices]",
        "empty_rows": "r = torch.topk(torch.zeros(0, 5), 2); out = [r.values, r.indices]",
        "empty_dim_k0": "r = torch.topk(torch.zeros(3, 0), 0); out = [r.values, r.indices]",
        "kw_and_method": "out = list(torch.zeros(3, 4).topk(k=2, dim=0, largest=False, sorted=True))",
        "namedtuple_repr": "out = repr(torch.topk(torch.tensor([1., 3., 2.]), 2))",
        "big_parallel_rows": "r = vals((3000, 65), 'float32', 4, 0.05, 20).topk(5); out = [r.values, r.indices]",
        # sample.py's top-k filter on logits
        "sample_filter": ("logits = vals((1, 65), 'float32', 5); v, _ = torch.topk(logits, min(200, logits.size(-1)));"
                          " logits[logits < v[:, [-1]]] = -float('Inf'); out = [v, logits]"),
    }
    oracle.assert_cases_equal(cases, setup=SETUP)


@pytest.mark.oracle
def test_topk_gradient():
    cases = {}
    for dt in ("float32", "float64"):
        for shape, k, dim in [((6, 40), 4, 1), ((40, 6), 5, 0), ((130,), 2, 0), ((4, 9), 9, -1)]:
            cases[f"grad-{dt}-{shape}-{k}"] = (
                f"x = vals({shape}, '{dt}', 7, 0.1, 3).requires_grad_(); v, i = x.topk({k}, dim={dim});"
                f" (v * vals(v.shape, '{dt}', 8)).sum().backward(); out = [x.grad, v.grad_fn.name()]")
    cases["grad-zero_dim"] = "x = torch.tensor(1.5, requires_grad=True); x.topk(1).values.backward(); out = x.grad"
    cases["grad-neg_zero"] = ("x = torch.tensor([1., 2., 3.], requires_grad=True); v = x.topk(2).values;"
                              " v.backward(torch.tensor([-0.0, 5.0])); out = x.grad")
    oracle.assert_cases_equal(cases, setup=SETUP)


@pytest.mark.oracle
@pytest.mark.parametrize("env", [{"ATEN_CPU_CAPABILITY": "avx2"}, {"OMP_NUM_THREADS": "1"}])
def test_topk_capabilities_and_threads(env):
    cases = topk_cases(["float32", "bfloat16"], SHAPES_K[2:6])
    cases["big"] = "r = vals((3000, 65), 'float32', 4, 0.05, 20).topk(5); out = [r.values, r.indices]"
    oracle.assert_cases_equal(cases, setup=SETUP, env=env)


@pytest.mark.oracle
def test_topk_bad_inputs_raise_like_torch():
    cases = {
        "k_too_big": oracle.raises(RuntimeError, "out = torch.topk(torch.zeros(3), 4)"),
        "k_negative": oracle.raises(RuntimeError, "out = torch.topk(torch.zeros(3), -1)"),
        "k_zero_dim_2": oracle.raises(RuntimeError, "out = torch.topk(torch.tensor(1.), 2)"),
        "dim_out_of_range": oracle.raises(IndexError, "out = torch.topk(torch.zeros(3), 1, dim=1)"),
        "bool": oracle.raises(RuntimeError, "out = torch.topk(torch.tensor([True, False]), 1)"),
    }
    oracle.assert_cases_equal(cases, setup=SETUP)


@pytest.mark.oracle
def test_scatter_and_scatter_add():
    cases = {}
    for dt in ("float32", "float64", "int64", "bfloat16"):
        cases[f"scatter-{dt}"] = (f"s = vals((3, 5), '{dt}', 1); i = torch.tensor([[0, 1, 2, 0, 0], [2, 0, 0, 1, 2]]);"
                                  f" out = torch.zeros(3, 5, dtype=s.dtype).scatter_(0, i, s)")
        cases[f"scatter_add-{dt}"] = (f"s = vals((2, 5), '{dt}', 2); i = torch.tensor([[0, 1, 2, 0, 0], [2, 0, 0, 1, 2]]);"
                                      f" out = torch.ones(3, 5, dtype=s.dtype).scatter_add(0, i, s)")
    cases["scatter_dim1_duplicates"] = ("s = vals((2, 4), 'float32', 3); i = torch.tensor([[1, 1, 0, 1], [3, 3, 3, 0]]);"
                                        " out = torch.scatter(torch.zeros(2, 4), 1, i, s)")
    cases["scatter_neg_zero"] = ("out = torch.ones(3).scatter_(0, torch.tensor([1]), torch.tensor([-0.0]))")
    cases["scatter_add_neg_zero"] = ("out = torch.zeros(3).scatter_add_(0, torch.tensor([1]), torch.tensor([-0.0]))")
    cases["scatter_small_index"] = ("s = vals((4, 6), 'float32', 4); out = torch.zeros(3, 6).scatter_(1, torch.tensor([[5], [0]]), s)")
    oracle.assert_cases_equal(cases, setup=SETUP)


@pytest.mark.oracle
def test_scatter_bad_inputs_raise_like_torch():
    keep = "x = torch.zeros(3, 4); y = x.clone()"
    cases = {
        "index_out_of_range": oracle.raises(RuntimeError, f"{keep}\ntry:\n    x.scatter_(0, torch.tensor([[3, 0, 0, 0]]), torch.ones(1, 4))\nfinally:\n    assert torch.equal(x, y)"),
        "negative_index": oracle.raises(RuntimeError, "out = torch.zeros(3).scatter_(0, torch.tensor([-1]), torch.ones(1))"),
        "index_dtype": "out = torch.zeros(3).scatter_(0, torch.tensor([1], dtype=torch.int32), torch.ones(1))",
        "src_dtype": oracle.raises(RuntimeError, "out = torch.zeros(3).scatter_(0, torch.tensor([1]), torch.ones(1, dtype=torch.float64))"),
        "ndim": oracle.raises(RuntimeError, "out = torch.zeros(3, 2).scatter_(0, torch.tensor([1]), torch.ones(1))"),
        "index_bigger_than_src": oracle.raises(RuntimeError, "out = torch.zeros(3, 2).scatter_(0, torch.tensor([[1, 0], [0, 1]]), torch.ones(1, 2))"),
    }
    oracle.assert_cases_equal(cases, setup=SETUP)
