"""Tensor.to(dtype) / copy_ between every pair of the 10 dtypes against torch, bitwise: NaN/inf/-0.0,
out-of-range values, contiguous, transposed, sliced and broadcast sources, lengths hitting the vector
converter's blocks and the chunk split; float16 <-> float32 through Copy.cpp's fbgemm shortcut and around it
(NaN payloads per element, at native, avx2, default and one thread)."""
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


def cases_for(lengths, pairs=None):
    cases = {}
    for a, b in pairs or itertools.product(DTYPES, DTYPES):
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
def test_to_dtype_large_chunked():
    cases = {f"{a}->{b}": f"out = src('{a}', 40013, 9).to(torch.{b})" for a, b in itertools.product(DTYPES, DTYPES)}
    oracle.assert_cases_equal(cases, setup=SETUP)


@pytest.mark.oracle
@pytest.mark.parametrize("env", [{"ATEN_CPU_CAPABILITY": "default"}, {"OMP_NUM_THREADS": "1"}])
def test_to_dtype_capabilities(env):
    oracle.assert_cases_equal(cases_for([17, 100]), setup=SETUP, env=env)


# ---- float16 <-> float32 through Copy.cpp's fbgemm shortcut (kernels/baseline/copy_fbgemm.cpp) ----------------
# Bit patterns, not values: NaN payloads of both signs (fbgemm's reference tail maps every float16 NaN to
# 0x7FFFFFFF, the vector blocks keep payloads), infinities, denormals of both types, rounding edges.
FBGEMM_SETUP = r"""
import random
H_SPECIAL = [0x7E00, 0xFE00, 0x7C01, 0xFC01, 0x7FFF, 0xFFFF, 0x7D55, 0xFD55, 0x7C00, 0xFC00, 0x0000, 0x8000,
             0x0001, 0x8001, 0x03FF, 0x83FF, 0x0200, 0x0400, 0x7BFF, 0xFBFF, 0x3C00, 0x3555]
F_SPECIAL = [0x7FC00000, 0xFFC00000, 0x7F800001, 0xFF800001, 0x7FFFFFFF, 0xFFFFFFFF, 0x7FA5A5A5, 0xFFA00001,
             0x7F800000, 0xFF800000, 0x00000000, 0x80000000, 0x00000001, 0x80000001, 0x007FFFFF, 0x33000000,
             0x33000001, 0x32FFFFFF, 0xB3000001, 0x387FC000, 0x38800000, 0x387FE000, 0x477FF000, 0x477FEFFF,
             0x477FF001, 0x7F7FFFFF, 0x3F801000, 0x3F803000, 0x3F800FFF]
def bits(name, n, seed):
    # n elements (None: a 0-dim tensor), half specials, half random bit patterns
    r = random.Random(seed)
    w, special, itype = (16, H_SPECIAL, torch.int16) if name == "float16" else (32, F_SPECIAL, torch.int32)
    xs = [r.choice(special) if r.random() < 0.5 else r.getrandbits(w) for _ in range(1 if n is None else n)]
    t = torch.tensor([x - (1 << w) if x >> (w - 1) else x for x in xs], dtype=itype).view(getattr(torch, name))
    return t.view([]) if n is None else t
def nans(name, n, seed):
    # only NaNs, payloads and signs varied: every element shows which path converted it
    r = random.Random(seed)
    w = 16 if name == "float16" else 32
    exp_mask, top = (0x7C00, 0x3FF) if w == 16 else (0x7F800000, 0x7FFFFF)
    xs = [exp_mask | (r.randrange(1, top + 1)) | (r.getrandbits(1) << (w - 1)) for _ in range(1 if n is None else n)]
    t = torch.tensor([x - (1 << w) if x >> (w - 1) else x for x in xs], dtype=torch.int16 if w == 16 else torch.int32)
    t = t.view(getattr(torch, name))
    return t.view([]) if n is None else t
"""
FBGEMM_PAIRS = [("float16", "float32"), ("float32", "float16")]
FBGEMM_LENGTHS = [1, 7, 8, 9, 15, 16, 17, 33, 100, 32768, 40013, 65541, 100003, None]


def fbgemm_cases():
    cases = {}
    for a, b in FBGEMM_PAIRS:
        method = "float" if b == "float32" else "half"
        for n in FBGEMM_LENGTHS:
            cases[f"{a}->{b}-to-{n}"] = f"out = bits('{a}', {n}, 11).to(torch.{b})"
            cases[f"{a}->{b}-nan-{n}"] = f"out = nans('{a}', {n}, 30).to(torch.{b})"
        for n in [9, 40013]:
            cases[f"{a}->{b}-{method}-{n}"] = f"out = bits('{a}', {n}, 12).{method}()"
            cases[f"{a}->{b}-tensor-{n}"] = f"out = torch.tensor(bits('{a}', {n}, 13), dtype=torch.{b})"
            cases[f"{a}->{b}-copy_-{n}"] = f"d = torch.empty({n}, dtype=torch.{b}); d.copy_(bits('{a}', {n}, 14)); out = d"
        # taken: dense source, .to() keeps its strides; dst and src with equal strides; size-1 dim strides
        for r, c in [(20, 15), (7, 5), (401, 101)]:
            cases[f"{a}->{b}-transposed-{r}x{c}"] = (
                f"y = nans('{a}', {r * c}, 15).view({r}, {c}).t().to(torch.{b}); out = [y, y.stride()]")
        cases[f"{a}->{b}-copy_-same-strides"] = (
            f"d = torch.empty(15, 20, dtype=torch.{b}).t(); d.copy_(nans('{a}', 300, 16).view(15, 20).t()); out = d")
        cases[f"{a}->{b}-size1-stride"] = (
            f"x = torch.as_strided(nans('{a}', 17, 17), (17, 1), (1, 5)); y = x.to(torch.{b}); out = [y, y.stride()]")
        cases[f"{a}->{b}-copy_-contiguous-other-strides"] = (
            f"d = torch.empty(17, 1, dtype=torch.{b}); d.copy_(torch.as_strided(nans('{a}', 17, 31), (17, 1), (1, 5)))"
            "; out = d")
        cases[f"{a}->{b}-0d-copy_"] = f"d = torch.zeros((), dtype=torch.{b}); d.copy_(nans('{a}', None, 18)); out = d"
        # not taken: sliced / expanded / broadcast sources, strides that differ, non-dense destinations
        cases[f"{a}->{b}-sliced"] = f"out = bits('{a}', 300, 19)[7::3].to(torch.{b})"
        cases[f"{a}->{b}-expanded"] = f"out = bits('{a}', 5, 20)[2:3].expand(40).to(torch.{b})"
        cases[f"{a}->{b}-bcast_rows"] = f"out = bits('{a}', 33, 21).expand(3, 33).to(torch.{b})"
        cases[f"{a}->{b}-copy_-bcast"] = f"d = torch.zeros(4, 33, dtype=torch.{b}); d.copy_(bits('{a}', 33, 22)); out = d"
        cases[f"{a}->{b}-copy_-from-transposed"] = (
            f"d = torch.empty(15, 20, dtype=torch.{b}); d.copy_(nans('{a}', 300, 23).view(20, 15).t()); out = d")
        cases[f"{a}->{b}-copy_-into-transposed"] = (
            f"d = torch.empty(20, 15, dtype=torch.{b}).t(); d.copy_(nans('{a}', 300, 24).view(15, 20)); out = d")
        cases[f"{a}->{b}-copy_-into-sliced"] = (
            f"d = torch.zeros(40, dtype=torch.{b}); d[1::2].copy_(bits('{a}', 20, 25)); out = d")
        cases[f"{a}->{b}-copy_-into-unsqueezed"] = (
            f"d = torch.zeros(1, 17, dtype=torch.{b}); d.copy_(bits('{a}', 17, 26)); out = d")
    # TensorIterator's casts are copy_ too: the float16 input of a float32 op, a float16 result written back
    for n in [9, 40013]:
        cases[f"mixed-input-cast-{n}"] = f"out = nans('float16', {n}, 27) + torch.zeros({n})"
        cases[f"mixed-inplace-{n}"] = f"h = bits('float16', {n}, 28); h.add_(bits('float32', {n}, 29)); out = h"
    return cases


FBGEMM_ENVS = [None, {"ATEN_CPU_CAPABILITY": "avx2"}, {"ATEN_CPU_CAPABILITY": "default"}, {"OMP_NUM_THREADS": "1"}]


@pytest.mark.oracle
@pytest.mark.parametrize("env", FBGEMM_ENVS, ids=["native", "avx2", "default", "1thread"])
def test_float16_float32_fbgemm_shortcut(env):
    oracle.assert_cases_equal(fbgemm_cases(), setup=FBGEMM_SETUP, env=env)


def transpose_path_cases():
    """Copy.cpp's transpose path: a contiguous copy of a 2-d source with strides (1, size(0)) and at least
    60 * 60 elements goes tile by tile. Partial tiles, a storage offset, the element sizes 1 to 8 and sources
    that just miss the path (too small, a column stride other than size(0)) are compared bit for bit."""
    cases = {}
    for dt in DTYPES:
        for r, c in [(60, 60), (61, 97), (130, 250), (59, 61)]:
            cases[f"{dt}-contiguous-{r}x{c}"] = f"x = src('{dt}', {r * c}, 30).view({c}, {r}).t(); y = x.contiguous(); out = [y, y.stride()]"
        cases[f"{dt}-clone-offset"] = f"x = src('{dt}', 100 * 80, 31).view(100, 80)[10:].t(); out = x.clone(memory_format=torch.contiguous_format)"
        cases[f"{dt}-copy_-into"] = f"d = torch.zeros(97, 61, dtype=torch.{dt}); d.copy_(src('{dt}', 97 * 61, 32).view(61, 97).t()); out = d"
        cases[f"{dt}-column-stride-not-size"] = f"x = src('{dt}', 100 * 80, 33).view(100, 80)[:, :70].t(); out = x.contiguous()"
    cases["float32-to-same-dtype"] = "x = src('float32', 64 * 70, 34).view(64, 70).t(); out = x.to(torch.float32, memory_format=torch.contiguous_format)"
    cases["overlap-error"] = oracle.raises(RuntimeError, "x = torch.zeros(70, 70); x.copy_(x.t())")
    return cases


@pytest.mark.oracle
def test_transposed_matrix_copy():
    oracle.assert_cases_equal(transpose_path_cases(), setup=SETUP)
