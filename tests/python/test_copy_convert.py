"""Tensor.to(dtype) / copy_ between every pair of the 10 dtypes against torch, bitwise: NaN/inf/-0.0,
out-of-range values, contiguous, transposed, sliced and broadcast sources, lengths hitting the vector
converter's blocks and the chunk split."""
import itertools

import oracle
import pytest

DTYPES = ["bool", "uint8", "int8", "int16", "int32", "int64", "float16", "bfloat16", "float32", "float64"]

SETUP = r"""
import random
SPECIALS = [float('nan'), -float('nan'), float('inf'), -float('inf'), -0.0, 0.0, 0.5, -0.5, 1.5, 255.5, 256.0,
            -129.5, 200.7, 40000.0, -40000.0, 65519.0, 65520.0, 3e9, -3e9, 1e19, -1e19, 2.0**63, 1e-40,
            3.4028235e38, 1.0000001, 0.1, 1 + 2**-9, 1 + 3 * 2**-12]
def src(name, n, seed):
    r = random.Random(seed)
    xs = [SPECIALS[r.randrange(len(SPECIALS))] if r.random() < 0.5 else r.uniform(-300, 300) for _ in range(n)]
    t = torch.tensor(xs, dtype=torch.float64)
    return t if name == "float64" else t.to(getattr(torch, name))
"""


# Known gap (docs/exactness.md, "Copy"): float16 NaN -> float32 in torch's masked-tail and scalar paths
# gives 0x7FFFFFFF where we give 0x7FC00000; not yet explained. Those pairs run in test_known_gap_*.
GAP_PAIRS = {("float16", "float32")}


def cases_for(lengths, pairs=None):
    cases = {}
    for a, b in pairs or [p for p in itertools.product(DTYPES, DTYPES) if p not in GAP_PAIRS]:
        for n in lengths:
            cases[f"{a}->{b}-{n}"] = f"out = src('{a}', {n}, 1).to(torch.{b})"
        cases[f"{a}->{b}-transposed"] = f"out = src('{a}', 300, 2).view(20, 15).t().to(torch.{b})"
        cases[f"{a}->{b}-sliced"] = f"out = src('{a}', 300, 3)[7::3].to(torch.{b})"
        cases[f"{a}->{b}-expanded"] = f"out = src('{a}', 5, 4)[2:3].expand(40).to(torch.{b})"
        cases[f"{a}->{b}-bcast_rows"] = f"out = src('{a}', 33, 5).expand(3, 33).to(torch.{b})"
        cases[f"{a}->{b}-copy_"] = f"d = torch.zeros(4, 33, dtype=torch.{b}); d.copy_(src('{a}', 33, 6)); out = d"
        cases[f"{a}->{b}-0d"] = f"out = src('{a}', 3, 7)[1:2].view([]).to(torch.{b})"
        cases[f"{a}->{b}-empty"] = f"out = src('{a}', 3, 7)[:0].to(torch.{b})"
    return cases


@pytest.mark.oracle
def test_to_dtype_all_pairs():
    oracle.assert_cases_equal(cases_for([1, 15, 16, 17, 33, 100]), setup=SETUP)


@pytest.mark.oracle
@pytest.mark.xfail(strict=True, reason="known gap: float16 NaN -> float32 bits (docs/exactness.md)")
def test_known_gap_float16_nan_to_float32():
    oracle.assert_cases_equal(cases_for([1, 15, 16, 17, 33, 100], GAP_PAIRS), setup=SETUP)


@pytest.mark.oracle
def test_to_dtype_large_chunked():
    cases = {f"{a}->{b}": f"out = src('{a}', 40013, 9).to(torch.{b})" for a, b in itertools.product(DTYPES, DTYPES)}
    oracle.assert_cases_equal(cases, setup=SETUP)


@pytest.mark.oracle
@pytest.mark.parametrize("env", [{"ATEN_CPU_CAPABILITY": "default"}, {"OMP_NUM_THREADS": "1"}])
def test_to_dtype_capabilities(env):
    oracle.assert_cases_equal(cases_for([17, 100]), setup=SETUP, env=env)
