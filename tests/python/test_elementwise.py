"""Elementwise ops (add/sub/mul/div/neg/abs/comparisons/where/clamp/maximum/minimum) against torch, bitwise.

Every op x every dtype x layouts (contiguous, transposed, sliced with step and offset, expanded with
stride 0, empty, 0-dim, Python scalars) x lengths that hit the 2-vector main loop's scalar tail
(1, 7, 31, 33, 100) and the 2-thread chunk split (n > 32768, n mod 32 != 0), with NaN/inf/-0.0; floor
division and add/sub with alpha also on raw bit patterns (NaN payloads, denormals, huge ratios).
"""
import oracle
import pytest

DTYPES = ["bool", "uint8", "int8", "int16", "int32", "int64", "float16", "bfloat16", "float32", "float64"]
FLOATS = ["float16", "bfloat16", "float32", "float64"]
LENGTHS = [1, 7, 31, 33, 100, 40013]

# Deterministic inputs built from Python lists, the same on both sides.
SETUP = r"""
import random
SPECIALS = [float('nan'), float('inf'), -float('inf'), -0.0, 0.0, 1.0, -1.0, 0.5, 2.5, -2.5, 1e-30, 3.0e38, 70000.0]
INT_RANGE = {"uint8": (0, 255), "int8": (-128, 127), "int16": (-32768, 32767),
             "int32": (-2**31, 2**31 - 1), "int64": (-2**62, 2**62)}
def vals(name, n, seed, nonzero=False, small=False):
    r = random.Random(seed)
    dt = getattr(torch, name)
    if name == "bool":
        return torch.tensor([r.random() < 0.5 for _ in range(n)], dtype=dt)
    if name in INT_RANGE:
        lo, hi = (-20, 20) if small else INT_RANGE[name]
        lo = max(lo, INT_RANGE[name][0])
        xs = [r.randint(lo, hi) for _ in range(n)]
        if nonzero:
            xs = [x if x != 0 else 3 for x in xs]
        return torch.tensor(xs, dtype=dt)
    xs = [SPECIALS[r.randrange(len(SPECIALS))] if r.random() < 0.15 else r.uniform(-50, 50) for _ in range(n)]
    return torch.tensor(xs, dtype=torch.float64).to(dt)
# Raw bit patterns: NaN payloads (quiet, signalling, both signs), +-inf, +-0, denormals, extremes.
SPECIAL_BITS = {
    32: [0x7F800000, 0xFF800000, 0x7FC00000, 0xFFC00000, 0x7FC12345, 0x7F812345, 0xFFD00001, 0x7FFFFFFF,
         0xFFFFFFFF, 0x7F800001, 0, 0x80000000, 1, 0x80000001, 0x007FFFFF, 0x00800000, 0x7F7FFFFF,
         0xFF7FFFFF, 0x3F800000, 0xBF800000, 0x0D000000, 0x72000000],
    64: [0x7FF0000000000000, 0xFFF0000000000000, 0x7FF8000000000000, 0xFFF8000000000000,
         0x7FF8123456789ABC, 0x7FF0000000000001, 0xFFFFFFFFFFFFFFFF, 0x7FFFFFFFFFFFFFFF, 0,
         0x8000000000000000, 1, 0x8000000000000001, 0x000FFFFFFFFFFFFF, 0x0010000000000000,
         0x7FEFFFFFFFFFFFFF, 0x3FF0000000000000, 0xBFF0000000000000, 0x0100000000000000, 0x7E00000000000000],
    16: [0x7C00, 0xFC00, 0x7E00, 0xFE00, 0x7E55, 0x7C01, 0xFFFF, 0x7FFF, 0, 0x8000, 1, 0x8001, 0x03FF,
         0x0400, 0x7BFF, 0x3C00, 0xBC00, 0x7F80, 0xFF80, 0x7FC0, 0xFFC0, 0x7FD5, 0x7F81, 0x3F80, 0x0080],
}
def bits(name, n, seed):
    r = random.Random(seed)
    dt = getattr(torch, name)
    width = {"float16": 16, "bfloat16": 16, "float32": 32, "float64": 64}[name]
    ints = getattr(torch, "int%d" % width)
    normal = torch.tensor([r.uniform(-50, 50) for _ in range(n)], dtype=torch.float64).to(dt).view(ints).tolist()
    xs = []
    for i in range(n):
        k = r.randrange(4)
        v = r.choice(SPECIAL_BITS[width]) if k == 0 else r.getrandbits(width) if k == 1 else normal[i]
        xs.append(v - (1 << width) if v >= 1 << (width - 1) else v)
    return torch.tensor(xs, dtype=ints).view(dt)
"""

BINARY = {
    "add": "torch.add(a, b)",
    "add_alpha": "torch.add(a, b, alpha={alpha})",
    "sub": "torch.sub(a, b)",
    "sub_alpha": "torch.sub(a, b, alpha={alpha})",
    "mul": "a * b",
    "div": "a / b",
    "div_trunc": "torch.div(a, b, rounding_mode='trunc')",
    "div_floor": "torch.div(a, b, rounding_mode='floor')",
    "floordiv": "a // b",
    "maximum": "torch.maximum(a, b)",
    "minimum": "torch.minimum(a, b)",
    "eq": "a == b", "ne": "a != b", "lt": "a < b", "le": "a <= b", "gt": "a > b", "ge": "a >= b",
}
UNARY = {"neg": "-a", "abs": "torch.abs(a)", "clamp": "torch.clamp(a, min=-3, max=20)",
         "clamp_min": "a.clamp(min=-1.5)", "clamp_max": "torch.clamp(a, max=2)"}


def alpha_for(dtype):
    return "0.1" if dtype in FLOATS else "3"


def binary_expr(op, dtype):
    return BINARY[op].format(alpha=alpha_for(dtype))


def needs_nonzero(op):
    return op in ("div_trunc", "div_floor", "floordiv")


def binary_error(op, dt, a="tensor", b="tensor"):
    """torch's exception class for `op` on operands a and b: each a tensor of dtype dt or a Python scalar
    ("int", "float", "bool", "negf"); None where torch computes a result."""
    scalar = a if a != "tensor" else b
    if op in ("maximum", "minimum") and scalar != "tensor":
        return TypeError  # both arguments must be tensors
    if op.startswith("sub") and "bool" in (dt, scalar):
        return NotImplementedError  # torch refuses to subtract booleans
    if needs_nonzero(op) and dt == "bool":
        if scalar in ("tensor", "bool"):
            return NotImplementedError  # no bool kernel for integer division
        if a == "int":
            return RuntimeError  # 3 // (a bool tensor): an integer division by False
    return None


def declared(code, error):
    return oracle.raises(error, code) if error else code


def binary_cases(dtypes, lengths, ops=BINARY):
    cases = {}
    for dt in dtypes:
        for op in ops:
            nz = needs_nonzero(op)
            for n in lengths:
                cases[f"{op}-{dt}-contig-{n}"] = declared(
                    f"a = vals('{dt}', {n}, 1); b = vals('{dt}', {n}, 2, nonzero={nz}); "
                    f"out = {binary_expr(op, dt)}", binary_error(op, dt))
    return cases


def layout_cases(dtypes, ops=BINARY):
    """Transposed, sliced, expanded (stride 0), broadcast rows, 0-dim, empty, Python scalars."""
    cases = {}
    for dt in dtypes:
        for op in ops:
            nz = needs_nonzero(op)
            e = binary_expr(op, dt)
            pre = f"A = vals('{dt}', 600, 3); B = vals('{dt}', 600, 4, nonzero={nz}); "
            layouts = {
                "transposed": "a = A[:300].view(20, 15).t(); b = B[:300].view(20, 15).t()",
                "mixed_t": "a = A[:300].view(15, 20); b = B[:300].view(20, 15).t()",
                "sliced": "a = A[5:-2:3]; b = B[7::3][:198]",
                "expand_b": "a = A[:100]; b = B[3:4].expand(100)",
                "expand_a": "a = A[3:4].expand(100); b = B[:100]",
                "bcast_row": "a = A[:500].view(20, 25); b = B[:25]",
                "bcast_col": "a = A[:500].view(20, 25); b = B[:20].view(20, 1)",
                "zero_dim_b": "a = A[:77]; b = B[9:10].view([])",
                "zero_dim_a": "a = A[9:10].view([]); b = B[:77]",
                "both_0d": "a = A[1:2].view([]); b = B[2:3].view([])",
                "empty": "a = A[:0]; b = B[:0]",
                "big_bcast": "a = vals('%s', 40000, 5).view(200, 200); b = B[:200]" % dt,
            }
            for lname, code in layouts.items():
                cases[f"{op}-{dt}-{lname}"] = declared(pre + code + f"; out = {e}", binary_error(op, dt))
            for sname, s in {"int": "3", "float": "2.5", "bool": "True", "negf": "-0.0"}.items():
                cases[f"{op}-{dt}-rscalar-{sname}"] = declared(pre + f"a = A[:100]; b = {s}; out = {e}",
                                                               binary_error(op, dt, b=sname))
                cases[f"{op}-{dt}-lscalar-{sname}"] = declared(pre + f"a = {s}; b = B[:100]; out = {e}",
                                                               binary_error(op, dt, a=sname))
    return cases


def unary_cases(dtypes, lengths):
    cases = {}
    for dt in dtypes:
        for op, e in UNARY.items():
            # torch refuses to negate booleans and has no bool abs kernel
            error = NotImplementedError if dt == "bool" and op in ("neg", "abs") else None
            codes = {str(n): f"a = vals('{dt}', {n}, 7, small=True); out = {e}" for n in lengths}
            codes.update({
                "transposed": f"a = vals('{dt}', 300, 8).view(20, 15).t(); out = {e}",
                "sliced": f"a = vals('{dt}', 300, 8)[1::3]; out = {e}",
                "expanded": f"a = vals('{dt}', 3, 8)[1:2].expand(50); out = {e}",
                "0d": f"a = vals('{dt}', 3, 8)[1:2].view([]); out = {e}",
                "empty": f"a = vals('{dt}', 3, 8)[:0]; out = {e}",
            })
            for layout, code in codes.items():
                cases[f"{op}-{dt}-{layout}"] = declared(code, error)
    return cases



def special_bits_cases():
    """Floor division (SLEEF's vector fmod, x87 fprem in the scalar tail) and add/sub with alpha
    against a broadcast `other` (GCC's vectorised tail) on raw bit patterns: NaN payloads, +-inf,
    +-0, denormals, huge ratios; tail lengths, broadcast rows, chunk-split lengths (> 32768)."""
    cases = {}
    for dt in FLOATS:
        for n in (1, 7, 15, 17, 31, 33, 47, 100, 40013, 65541):
            cases[f"floordiv-{dt}-{n}"] = f"a = bits('{dt}', {n}, 1); b = bits('{dt}', {n}, 2); out = a // b"
            # trunc division's vector body is one vroundps/vroundpd over a / b, its tail std::trunc
            cases[f"div_trunc-{dt}-{n}"] = (f"a = bits('{dt}', {n}, 1); b = bits('{dt}', {n}, 2); "
                                            "out = torch.div(a, b, rounding_mode='trunc')")
        pre = f"A = bits('{dt}', 600, 3); B = bits('{dt}', 600, 4); "
        for lname, code in {"expand_b": "a = A[:100]; b = B[3:4].expand(100)",
                            "expand_a": "a = A[3:4].expand(100); b = B[:100]",
                            "bcast_col": "a = A[:500].view(20, 25); b = B[:20].view(20, 1)",
                            "transposed": "a = A[:300].view(20, 15).t(); b = B[:300].view(15, 20)",
                            "big": f"a = bits('{dt}', 40013, 5); b = B[7:8].view([])"}.items():
            cases[f"div_floor-{dt}-{lname}"] = pre + code + "; out = torch.div(a, b, rounding_mode='floor')"
        for s in ("2.5", "-0.3", "0.0", "-0.0", "float('inf')", "-float('inf')", "float('nan')", "1e-40", "3e38", "7"):
            cases[f"floordiv-{dt}-rscalar-{s}"] = pre + f"a = A[:100]; out = a // {s}"
    for dt in ("float32", "float64"):
        for n in (*range(1, 34), 47, 100, 40013, 40021, 65541):
            cases[f"add_alpha-{dt}-expand-{n}"] = (
                f"a = vals('{dt}', {n}, 1); b = vals('{dt}', 3, 2)[1:2].expand({n}); out = torch.add(a, b, alpha=0.1)")
        pre = f"A = bits('{dt}', 600, 3); B = bits('{dt}', 600, 4); "
        for lname, code in {"bits_0d": "a = A[:100]; b = B[5:6].view([])",
                            "bits_col": "a = A[:500].view(20, 25); b = B[:20].view(20, 1)"}.items():
            cases[f"sub_alpha-{dt}-{lname}"] = pre + code + "; out = torch.sub(a, b, alpha=-2.5)"
        cases[f"add_alpha-{dt}-inplace"] = f"a = vals('{dt}', 61, 1); a.add_(1.7, alpha=0.3); out = a"
        cases[f"sub_alpha-{dt}-pyscalar"] = f"a = vals('{dt}', 45, 1); out = torch.sub(a, -3.3, alpha=1.1)"
    return cases

@pytest.mark.oracle
@pytest.mark.parametrize("dtype", DTYPES)
def test_binary_ops_contiguous_lengths(dtype):
    oracle.assert_cases_equal(binary_cases([dtype], LENGTHS), setup=SETUP)


@pytest.mark.oracle
@pytest.mark.parametrize("dtype", DTYPES)
def test_binary_ops_layouts_and_scalars(dtype):
    oracle.assert_cases_equal(layout_cases([dtype]), setup=SETUP)


@pytest.mark.oracle
def test_unary_ops():
    oracle.assert_cases_equal(unary_cases(DTYPES, LENGTHS), setup=SETUP)


@pytest.mark.oracle
def test_mixed_dtype_promotion():
    cases = {}
    for da in DTYPES:
        for db in DTYPES:
            for op in ("add", "mul", "div", "maximum", "lt", "sub_alpha"):
                cases[f"{op}-{da}-{db}"] = declared(
                    f"a = vals('{da}', 37, 1, nonzero=True); b = vals('{db}', 37, 2, nonzero=True); out = {binary_expr(op, 'int64')}",
                    NotImplementedError if op == "sub_alpha" and "bool" in (da, db) else None)
            cases[f"0d-{da}-{db}"] = f"a = vals('{da}', 37, 1); b = vals('{db}', 2, 2)[1:2].view([]); out = a * b"
    oracle.assert_cases_equal(cases, setup=SETUP)


@pytest.mark.oracle
def test_in_place_and_out():
    cases = {}
    for dt in DTYPES:
        integral = dt not in FLOATS
        errors = {  # a result of another dtype that cannot be cast back, or no bool kernel
            "sub_": NotImplementedError if dt == "bool" else None, "div_": RuntimeError if integral else None,
            "clamp_": RuntimeError if dt == "bool" else None, "neg_": NotImplementedError if dt == "bool" else None,
            "abs_": NotImplementedError if dt == "bool" else None}
        for op in ("add_", "sub_", "mul_", "div_", "clamp_", "neg_", "abs_"):
            arg = {"clamp_": "min=-2, max=5", "neg_": "", "abs_": ""}.get(op, "b")
            cases[f"{op}-{dt}"] = declared(
                f"a = vals('{dt}', 70, 1, nonzero=True); b = vals('{dt}', 70, 2, nonzero=True); v0 = a._version; "
                f"r = a.{op}({arg}); out = [a, r is a, a._version - v0]", errors.get(op))
        cases[f"iadd-{dt}"] = f"a = vals('{dt}', 70, 1); b = vals('{dt}', 70, 2); c = a; a += b; out = [a, c is a, a._version]"
        cases[f"iadd_half_double-{dt}"] = declared(f"a = vals('{dt}', 70, 1); b = vals('float64', 70, 2); a += b; out = a",
                                                   RuntimeError if integral else None)
        cases[f"out-{dt}"] = (f"a = vals('{dt}', 70, 1); b = vals('{dt}', 70, 2); o = torch.zeros(70, dtype=torch.float64); "
                              f"r = torch.add(a, b, out=o); out = [o, r is o]")
    oracle.assert_cases_equal(cases, setup=SETUP)


@pytest.mark.oracle
def test_where_and_clamp_tensors():
    cases = {}
    for dt in DTYPES:
        cases[f"where-{dt}"] = f"c = vals('bool', 100, 1); x = vals('{dt}', 100, 2); y = vals('{dt}', 100, 3); out = torch.where(c, x, y)"
        cases[f"where_scalar-{dt}"] = f"c = vals('bool', 100, 1); x = vals('{dt}', 100, 2); out = [torch.where(c, x, 1.5), torch.where(c, 0, x), x.where(c, 7)]"
        cases[f"where_bcast-{dt}"] = f"c = vals('bool', 20, 1).view(20, 1); x = vals('{dt}', 30, 2); y = vals('{dt}', 1, 3); out = torch.where(c, x, y)"
        if dt != "bool":
            cases[f"clamp_t-{dt}"] = (f"a = vals('{dt}', 100, 2); lo = vals('{dt}', 100, 3); hi = vals('{dt}', 100, 4); "
                                      f"out = [torch.clamp(a, lo, hi), torch.clamp(a, min=lo), torch.clamp(a, max=hi)]")
        cases[f"clamp_nan-{dt}"] = f"a = vals('{dt}', 50, 2); out = torch.clamp(a, min=float('nan'), max=1)"
    cases["where_scalars"] = "c = vals('bool', 9, 1); out = [torch.where(c, 1.0, 0.0), torch.where(c, 1, 0), torch.where(c, True, 2)]"
    cases["where_uint8_cond"] = "c = vals('uint8', 9, 1); out = torch.where(c, 1.0, 0.0)"
    oracle.assert_cases_equal(cases, setup=SETUP)


@pytest.mark.oracle
def test_result_type_and_can_cast():
    cases = {}
    for da in DTYPES:
        for s in ("1", "1.5", "True"):
            cases[f"rt-{da}-{s}"] = f"out = torch.result_type(vals('{da}', 2, 1), {s})"
        for db in DTYPES:
            cases[f"rt0d-{da}-{db}"] = f"out = torch.result_type(vals('{da}', 2, 1), vals('{db}', 1, 1).view([]))"
            cases[f"cc-{da}-{db}"] = f"out = torch.can_cast(torch.{da}, torch.{db})"
    cases["rt-ff"] = "out = torch.result_type(2.0, 3)"
    oracle.assert_cases_equal(cases, setup=SETUP)


@pytest.mark.oracle
def test_bad_inputs_raise_like_torch():
    cases = {name: oracle.raises(RuntimeError, code) for name, code in {
        "shape": "out = torch.zeros(3) + torch.zeros(4)",
        "shape2d": "out = torch.zeros(2, 3) * torch.zeros(3, 2)",
        "inplace_bcast": "a = torch.zeros(3); a.add_(torch.zeros(2, 3))",
        "int_iadd_float": "a = torch.tensor([1, 2]); a += 1.5",
        "int_add_float_tensor_": "a = torch.tensor([1, 2]); a.add_(torch.tensor([0.5, 1.0]))",
        "int_div0_trunc": "out = torch.div(torch.tensor([1, 2]), torch.tensor([1, 0]), rounding_mode='trunc')",
        "int_floordiv0": "out = torch.tensor([1, 2]) // 0",
        "int8_floordiv0": "out = torch.tensor([1, 2], dtype=torch.int8) // torch.tensor([0, 1], dtype=torch.int8)",
        "alpha_float_int": "out = torch.add(torch.tensor([1]), torch.tensor([2]), alpha=0.5)",
        "alpha_bool": "out = torch.add(torch.tensor([1.]), torch.tensor([2.]), alpha=True)",
        "bad_mode": "out = torch.div(torch.zeros(2), 2, rounding_mode='round')",
        "clamp_none": "out = torch.clamp(torch.zeros(2))",
        "clamp_int_inplace_float": "a = torch.tensor([1, 2]); a.clamp_(0.5)",
        "where_int_cond": "out = torch.where(torch.tensor([1, 0]), 1.0, 2.0)",
        "expand_inplace": "a = torch.zeros(3).expand(2, 3); a.add_(1)",
        # an output sharing some but not all of an input's elements (TensorIterator's partial-overlap check)
        "partial_overlap_transpose": "a = torch.arange(16.).view(4, 4); a.add_(a.t())",
        "partial_overlap_shifted": "a = torch.arange(8.); a[1:].mul_(a[:-1])",
        "partial_overlap_out": "a = torch.arange(8.); torch.add(a[:4], a[2:6], out=a[3:7])",
    }.items()}
    # overlaps torch lets through: the same elements in the same layout, disjoint ranges, non-dense views
    cases["overlap_full"] = "a = torch.arange(8.); a.add_(a.view(8)); out = a"
    cases["overlap_disjoint"] = "a = torch.arange(8.); a[:4].add_(a[4:]); out = a"
    cases["overlap_not_dense"] = "a = torch.arange(16.).view(4, 4); a[::2].add_(a[1::2]); out = a"
    cases.update({name: oracle.raises(NotImplementedError, code) for name, code in {
        "bool_sub": "out = torch.tensor([True]) - torch.tensor([False])",
        "bool_sub_int": "out = torch.tensor([True]) - 1",
        "bool_rsub": "out = 1 - torch.tensor([True])",
        "bool_neg": "out = -torch.tensor([True, False])",
        "bool_abs": "out = torch.abs(torch.tensor([True]))",
    }.items()})
    cases["bad_type"] = oracle.raises(TypeError, "out = torch.add(torch.zeros(2), 'x')")
    cases["bad_op_type"] = oracle.raises(TypeError, "out = torch.zeros(2) + 'x'")
    oracle.assert_cases_equal(cases, setup=SETUP)


@pytest.mark.oracle
@pytest.mark.parametrize("env", [{"ATEN_CPU_CAPABILITY": "avx2"}, {"ATEN_CPU_CAPABILITY": "default"},
                                 {"OMP_NUM_THREADS": "1"}])
def test_capabilities_and_threads(env):
    cases = binary_cases(FLOATS + ["int32", "uint8"], [33, 40013],
                         ops=["add_alpha", "sub_alpha", "mul", "div", "div_floor", "maximum", "minimum"])
    cases.update(unary_cases(["bfloat16", "float16", "float32"], [33, 40013]))
    cases.update({k: v for k, v in layout_cases(["bfloat16", "float32"], ops=["add_alpha", "mul", "maximum"]).items()})
    cases.update(layout_cases(FLOATS, ops=["floordiv", "sub_alpha"]))
    cases.update(special_bits_cases())
    oracle.assert_cases_equal(cases, setup=SETUP, env=env)


@pytest.mark.oracle
def test_special_bits_floor_division_and_alpha():
    oracle.assert_cases_equal(special_bits_cases(), setup=SETUP)


@pytest.mark.oracle
def test_equal():
    cases = {
        "same": "out = torch.equal(torch.tensor([1., 2.]), torch.tensor([1., 2.]))",
        "differ": "out = torch.equal(torch.tensor([1., 2.]), torch.tensor([1., 3.]))",
        "shape": "out = torch.equal(torch.zeros(2), torch.zeros(3))",
        "broadcastable_shape": "out = torch.equal(torch.zeros(1, 2), torch.zeros(2))",
        "nan": "out = torch.equal(torch.tensor([float('nan')]), torch.tensor([float('nan')]))",
        "signed_zero": "out = torch.equal(torch.tensor([0.0]), torch.tensor([-0.0]))",
        "int_float": "out = torch.equal(torch.tensor([1, 2]), torch.tensor([1., 2.]))",
        "method_strided": "a = torch.arange(6.).view(2, 3); out = a.t().equal(a.t().contiguous())",
        "empty": "out = torch.equal(torch.zeros(0), torch.zeros(0))",
    }
    oracle.assert_cases_equal(cases, setup=SETUP)


# + - * / // @ are CPython number slots (python/src/number_slots.cpp), outside nanobind's dispatch: each
# operand order, Python numbers on either side, the dunders called as methods, subclasses (nn.Parameter, and
# one overriding an operator, whose method Python must try first), and the operands torch refuses.
OPERATOR_FORMS = {
    "add": "out = x + y", "sub": "out = x - y", "mul": "out = x * y", "div": "out = x / y",
    "floordiv": "out = x // y", "matmul": "out = x @ y.t()",
    "number_right": "out = torch.stack([x + 2, x - 2.5, x * 3, x / 7, x // 2.0])",
    "number_left": "out = torch.stack([2 + x, 2.5 - x, 3 * x, 7 / x, 2.0 // x])",
    "int_tensor_float_number": "out = torch.arange(6).view(2, 3) / 4 + 0.5",
    "bool_number": "out = (x > 0) + True",
    "broadcast": "out = x - y[0] * y[:, :1]",
    "dunder_calls": "out = torch.stack([x.__add__(y), x.__radd__(y), x.__rsub__(y), x.__rtruediv__(3),\n"
                    "                   x.__rfloordiv__(y), x.__rmul__(2)])",
    "rmatmul_call": "out = x.__rmatmul__(y.t())",
    "not_implemented": "out = torch.tensor([float(x.__add__('a') is NotImplemented), float(x.__matmul__(2) is NotImplemented)])",
    "unbound": "out = torch.Tensor.__sub__(x, y)",
    "parameter": "p = torch.nn.Parameter(y)\nout = (p + x - 1 / p) @ (x * p).t()\nout = out.detach()",
    "parameter_grad": "p = torch.nn.Parameter(y.clone())\n(2 - p / x).sum().backward()\nout = p.grad",
    "subclass_reflected_first": "class S(torch.Tensor):\n    def __rsub__(self, other): return torch.zeros(1)\n"
                                "out = x - S(y)",
    "subclass_not_implemented": "class N(torch.Tensor):\n    def __sub__(self, other): return NotImplemented\n"
                                "out = torch.tensor((N(y) - x).tolist())",
    "bad_shapes": oracle.raises(RuntimeError, "out = x + y[:, :2]"),
    "matmul_bad_shapes": oracle.raises(RuntimeError, "out = x @ y"),
    "str_operand": oracle.raises(TypeError, "out = x + 'a'"),
    "str_left": oracle.raises(TypeError, "out = 'a' * x"),
    "matmul_number": oracle.raises(TypeError, "out = x @ 2"),
    "number_matmul": oracle.raises(TypeError, "out = 2 @ x"),
    "none_operand": oracle.raises(TypeError, "out = x / None"),
}


@pytest.mark.oracle
def test_operators_take_every_operand_form_like_torch():
    setup = "x = torch.arange(1., 7.).view(2, 3)\ny = torch.tensor([[0.5, -2., 3.], [-0.0, 4., 1e-3]])\n"
    cases = {k: oracle.map_code(v, lambda code: setup + code) for k, v in OPERATOR_FORMS.items()}
    oracle.assert_cases_equal(cases)
