"""F.scaled_dot_product_attention against torch, bitwise: the flash kernel (forward, logsumexp-based backward
for q/k/v gradients) on nanoGPT's shapes and the block-size boundaries (T around 32/192/768 q-blocks, kv tails,
head sizes 8..64, B*H from 1 to 48 so both threads get work), causal and not, with masks (bool/float, 2-D/4-D,
broadcast), scale=, and q/k/v as nanoGPT builds them (split + view + transpose of one leaf); the math path
(dropout_p > 0 after manual_seed, mismatched heads/head sizes, 3-D inputs) through the recorded ops; torch's
exceptions (class and message) for bad input. Run at the native capability, ATEN_CPU_CAPABILITY=avx2 and one thread.
"""
import oracle
import pytest

pytestmark = pytest.mark.oracle

SETUP = r"""
import random
def vals(shape, seed=0, scale=1.0, rg=False, dtype=None):
    n = 1
    for s in shape:
        n *= s
    r = random.Random(seed)
    t = torch.tensor([r.uniform(-scale, scale) for _ in range(n)], dtype=dtype or torch.float32).reshape(shape)
    return t.requires_grad_() if rg else t
F = torch.nn.functional

def sdpa_grads(shape, seed=0, spread=1.0, dtype=None, **kw):
    q, k, v = (vals(shape, seed + i, spread, rg=True, dtype=dtype) for i in range(3))
    y = F.scaled_dot_product_attention(q, k, v, **kw)
    y.backward(vals(tuple(y.shape), seed + 7, dtype=dtype))
    return [y, q.grad, k.grad, v.grad]

def nanogpt(B, T, nh, hs, seed=0, dropout_p=0.0, backward=True):
    C = nh * hs
    x = vals((B, T, 3 * C), seed, rg=True)
    q, k, v = x.split(C, dim=2)
    q = q.view(B, T, nh, hs).transpose(1, 2)
    k = k.view(B, T, nh, hs).transpose(1, 2)
    v = v.view(B, T, nh, hs).transpose(1, 2)
    y = F.scaled_dot_product_attention(q, k, v, attn_mask=None, dropout_p=dropout_p, is_causal=True)
    y2 = y.transpose(1, 2).contiguous().view(B, T, C)
    if not backward:
        return [y2]
    y2.backward(vals((B, T, C), seed + 1))
    return [y2, x.grad]
"""

# (B, H, T, hs): nanoGPT's config first, then q-block / kv-tail / vector-tail boundaries.
SHAPES = [(12, 4, 64, 32), (2, 2, 1, 16), (2, 2, 7, 16), (2, 3, 63, 32), (2, 3, 65, 64), (1, 2, 256, 32),
          (3, 1, 33, 8), (1, 1, 191, 24), (1, 1, 192, 17), (1, 1, 600, 16), (1, 1, 800, 16), (48, 1, 40, 32)]


def flash_cases(shapes=SHAPES):
    cases = {}
    for B, H, T, E in shapes:
        s = f"{B}x{H}x{T}x{E}"
        for causal in (True, False):
            cases[f"flash_{s}_causal{int(causal)}"] = f"out = sdpa_grads(({B}, {H}, {T}, {E}), {T}, is_causal={causal})"
        cases[f"flash_big_{s}"] = f"out = sdpa_grads(({B}, {H}, {T}, {E}), 3, spread=30.0, is_causal=True)"
        cases[f"flash_f64_{s}"] = f"out = sdpa_grads(({B}, {H}, {T}, {E}), 5, dtype=torch.float64, is_causal={T % 2 == 0})"
    return cases


# Under the sanitizer build (scripts/sanitize.sh preloads ASan), GCC's instrumented code picks the other
# operand order in a float operation where two NaNs meet, so flash_special_nan's output holds -NaN
# (0xffc00000) where torch has +NaN (0x7fc00000): a code-generation difference of that build only, about
# which NaN survives (docs/reliability.md, section 9). The release build checks the case bit for bit;
# under ASan (oracle.UNDER_ASAN) it runs as a strict xfail below, so the day it matches, the test says so.


def special_value_case(val):
    return ("q, k, v = (vals((1, 2, 40, 16), i, 4.0) for i in range(3))\n"
            f"q[0, 0, 5, 3] = {val}; k[0, 1, 7, 0] = {val}\n"
            "q.requires_grad_(); k.requires_grad_(); v.requires_grad_()\n"
            "y = F.scaled_dot_product_attention(q, k, v, is_causal=True)\n"
            "y.backward(vals((1, 2, 40, 16), 9))\nout = [y, q.grad, k.grad, v.grad]")


def other_cases():
    c = {}
    # nanoGPT's CausalSelfAttention: split/view/transpose views, train (0.0) and eval (int 0).
    c["nanogpt_train"] = "out = nanogpt(12, 64, 4, 32)"
    c["nanogpt_eval_int0"] = "out = nanogpt(3, 64, 4, 32, dropout_p=0, backward=False)"
    c["nanogpt_small"] = "out = nanogpt(2, 17, 3, 16, seed=5)"
    for T in (1, 7, 63, 64, 65, 256):
        for hs in (16, 32, 64):
            c[f"nanogpt_T{T}_hs{hs}"] = f"out = nanogpt(2, {T}, 2, {hs}, seed={T + hs})"
    c["mask_requires_grad"] = ("q, k, v = (vals((2, 2, 9, 16), i, rg=True) for i in range(3))\nm = vals((9, 9), 6, rg=True)\n"
                               "y = F.scaled_dot_product_attention(q, k, v, attn_mask=m)\ny.backward(vals((2, 2, 9, 16), 5))\n"
                               "out = [y, q.grad, k.grad, v.grad, m.grad]")
    # special values through the vectorised exps (exp_u20 forward, SLEEF exp backward): NaN, inf, huge.
    for name, val in (("nan", "float('nan')"), ("inf", "float('inf')"), ("ninf", "-float('inf')"), ("huge", "1e30")):
        if name == "nan" and oracle.UNDER_ASAN:
            continue
        c[f"flash_special_{name}"] = special_value_case(val)
    # the math path: dropout after manual_seed (nanoGPT with dropout=0.2 in training).
    c["math_dropout_nanogpt"] = "torch.manual_seed(1337)\nout = nanogpt(4, 64, 4, 32, dropout_p=0.2)"
    c["math_dropout_plain"] = "torch.manual_seed(3)\nout = sdpa_grads((2, 3, 20, 16), 1, dropout_p=0.2)"
    c["math_dropout_nocausal"] = "torch.manual_seed(4)\nout = sdpa_grads((2, 2, 9, 8), 1, dropout_p=0.5, is_causal=False)"
    c["math_dropout_fwd"] = ("torch.manual_seed(5)\nq, k, v = (vals((2, 4, 64, 32), i) for i in range(3))\n"
                             "out = [F.scaled_dot_product_attention(q, k, v, dropout_p=0.2, is_causal=True), torch.rand(3)]")
    # masks: converted bool, float additive, 4-D with broadcast dims, fully masked rows.
    c["mask_bool_2d"] = ("q, k, v = (vals((2, 3, 10, 16), i) for i in range(3))\n"
                         "out = F.scaled_dot_product_attention(q, k, v, attn_mask=torch.ones(10, 10, dtype=torch.bool).tril())")
    c["mask_float_4d"] = ("q, k, v = (vals((2, 3, 10, 16), i) for i in range(3))\n"
                          "out = F.scaled_dot_product_attention(q, k, v, attn_mask=vals((2, 1, 10, 10), 9, 3.0))")
    c["mask_float_rowbcast"] = ("q, k, v = (vals((2, 3, 10, 16), i) for i in range(3))\n"
                                "out = F.scaled_dot_product_attention(q, k, v, attn_mask=vals((1, 3, 10, 1), 9, 3.0))")
    c["mask_float_S_bcast"] = ("q, k, v = (vals((2, 3, 40, 16), i) for i in range(3))\n"
                               "out = F.scaled_dot_product_attention(q, k, v, attn_mask=vals((1, 40), 9, 3.0))")
    c["mask_fully_masked_row"] = ("q, k, v = (vals((1, 2, 5, 8), i) for i in range(3))\n"
                                  "m = torch.ones(5, 5, dtype=torch.bool); m[2] = False\n"
                                  "out = F.scaled_dot_product_attention(q, k, v, attn_mask=m)")
    c["mask_grads"] = ("q, k, v = (vals((2, 2, 21, 16), i, rg=True) for i in range(3))\n"
                       "y = F.scaled_dot_product_attention(q, k, v, attn_mask=vals((21, 21), 8, 2.0))\n"
                       "y.backward(vals((2, 2, 21, 16), 5))\nout = [y, q.grad, k.grad, v.grad]")
    c["mask_bool_grads"] = ("q, k, v = (vals((2, 2, 70, 16), i, rg=True) for i in range(3))\n"
                            "y = F.scaled_dot_product_attention(q, k, v, attn_mask=torch.ones(70, 70, dtype=torch.bool).tril())\n"
                            "y.backward(vals((2, 2, 70, 16), 5))\nout = [y, q.grad, k.grad, v.grad]")
    # scale=, negative scale (flash), S != L.
    c["scale"] = "out = sdpa_grads((2, 2, 30, 16), 2, scale=0.3, is_causal=True)"
    c["scale_negative"] = "out = sdpa_grads((2, 2, 30, 16), 2, scale=-0.3)"
    # causal with a scale that is not positive: -inf * scale is not -inf, so the kernel must not skip the
    # causal block's filled columns (Note [Causal columns] in flash_attention.cpp); 64 columns leave no scalar tail.
    c["scale_negative_causal"] = "out = sdpa_grads((2, 2, 64, 16), 2, scale=-0.3, is_causal=True)"
    c["scale_zero_causal"] = "out = sdpa_grads((2, 2, 64, 16), 2, scale=0.0, is_causal=True)"
    c["kv_longer"] = ("q = vals((2, 2, 5, 16), 1, rg=True); k = vals((2, 2, 9, 16), 2, rg=True); v = vals((2, 2, 9, 16), 3, rg=True)\n"
                      "y = F.scaled_dot_product_attention(q, k, v, is_causal=True)\ny.backward(vals((2, 2, 5, 16), 4))\n"
                      "out = [y, q.grad, k.grad, v.grad]")
    # math path without dropout: heads broadcast, v head size differs, 3-D inputs.
    c["math_heads_bcast"] = ("q = vals((2, 3, 6, 8), 1); k = vals((2, 1, 6, 8), 2); v = vals((2, 1, 6, 8), 3)\n"
                             "out = F.scaled_dot_product_attention(q, k, v)")
    c["math_v_headsize"] = ("q = vals((2, 3, 6, 8), 1); k = vals((2, 3, 6, 8), 2); v = vals((2, 3, 6, 5), 3)\n"
                            "out = F.scaled_dot_product_attention(q, k, v, is_causal=True)")
    c["math_3d"] = "q, k, v = (vals((3, 6, 8), i) for i in range(3))\nout = F.scaled_dot_product_attention(q, k, v)"
    c["math_negative_scale_dropout"] = ("torch.manual_seed(0)\nq, k, v = (vals((1, 2, 6, 8), i) for i in range(3))\n"
                                        "out = F.scaled_dot_product_attention(q, k, v, dropout_p=0.1, scale=-0.5)")
    # grouped-query / multi-query heads (flash, kv head j // rep), unbatched 3-D inputs (unsqueezed to flash).
    c["gqa"] = ("q = vals((2, 4, 37, 16), 1, rg=True); k = vals((2, 2, 37, 16), 2, rg=True); v = vals((2, 2, 37, 16), 3, rg=True)\n"
                "y = F.scaled_dot_product_attention(q, k, v, is_causal=True, enable_gqa=True)\ny.backward(vals((2, 4, 37, 16), 4))\n"
                "out = [y, q.grad, k.grad, v.grad]")
    c["mqa"] = ("q = vals((2, 3, 37, 16), 1, rg=True); k = vals((2, 1, 37, 16), 2, rg=True); v = vals((2, 1, 37, 16), 3, rg=True)\n"
                "y = F.scaled_dot_product_attention(q, k, v)\ny.backward(vals((2, 3, 37, 16), 4))\n"
                "out = [y, q.grad, k.grad, v.grad]")
    c["unbatched_causal"] = "out = sdpa_grads((3, 40, 16), 2, is_causal=True)"
    c["unbatched_mask"] = ("q, k, v = (vals((3, 6, 8), i) for i in range(3))\n"
                           "out = F.scaled_dot_product_attention(q, k, v, attn_mask=vals((6, 6), 5))")
    # the flash output's layout ((B, L, H, E) memory seen as (B, H, L, E)) and its node.
    c["flash_layout_node"] = ("q, k, v = (vals((2, 3, 10, 16), i, rg=True) for i in range(3))\n"
                              "y = F.scaled_dot_product_attention(q, k, v, is_causal=True)\n"
                              "out = [tuple(y.stride()), y.grad_fn.name()]")
    c["dropout_one"] = "torch.manual_seed(0)\nout = sdpa_grads((1, 2, 6, 8), 1, dropout_p=1.0)"
    c["f64_mask_float"] = ("q, k, v = (vals((2, 3, 10, 16), i, dtype=torch.float64) for i in range(3))\n"
                           "out = F.scaled_dot_product_attention(q, k, v, attn_mask=vals((2, 1, 10, 10), 9, 3.0))")
    c["f64_mask_bool_grads"] = ("q, k, v = (vals((2, 2, 70, 16), i, rg=True, dtype=torch.float64) for i in range(3))\n"
                                "y = F.scaled_dot_product_attention(q, k, v, attn_mask=torch.ones(70, 70, dtype=torch.bool).tril())\n"
                                "y.backward(vals((2, 2, 70, 16), 5, dtype=torch.float64))\nout = [y, q.grad, k.grad, v.grad]")
    c["f64_math_dropout"] = "torch.manual_seed(3)\nout = sdpa_grads((2, 3, 20, 16), 1, dtype=torch.float64, dropout_p=0.2)"
    return c


# torch raises RuntimeError for each.
ERRORS = {name: oracle.raises(RuntimeError, code) for name, code in {
    "err_dtype": "q = vals((2, 3, 5, 8))\nout = F.scaled_dot_product_attention(q, q.double(), q)",
    "err_mask_dtype": "q = vals((2, 3, 5, 8))\nout = F.scaled_dot_product_attention(q, q, q, attn_mask=torch.ones(5, 5, dtype=torch.int64))",
    "err_causal_and_mask": ("q = vals((2, 3, 5, 8))\n"
                            "out = F.scaled_dot_product_attention(q, q, q, attn_mask=torch.ones(5, 5, dtype=torch.bool), is_causal=True)"),
    "err_dim1": "out = F.scaled_dot_product_attention(vals((5,)), vals((5,)), vals((5,)))",
    "err_head_size": "q = vals((2, 3, 5, 8))\nout = F.scaled_dot_product_attention(q, vals((2, 3, 5, 4)), q)",
    "err_batch": "out = F.scaled_dot_product_attention(vals((2, 3, 5, 8)), vals((3, 3, 5, 8)), vals((3, 3, 5, 8)))",
    "err_mask_shape": "q = vals((2, 3, 5, 8))\nout = F.scaled_dot_product_attention(q, q, q, attn_mask=vals((4, 5)))",
    "err_negative_dropout": "q = vals((2, 3, 5, 8))\nout = F.scaled_dot_product_attention(q, q, q, dropout_p=-0.5)",
    "err_dropout_above_one": "q = vals((2, 3, 5, 8))\nout = F.scaled_dot_product_attention(q, q, q, dropout_p=1.5)",
    "err_int": "q = vals((2, 3, 5, 8)).long()\nout = F.scaled_dot_product_attention(q, q, q)",
}.items()}


def test_flash_native():
    oracle.assert_cases_equal(flash_cases(), setup=SETUP)


def test_other_native():
    oracle.assert_cases_equal(other_cases(), setup=SETUP)


@pytest.mark.parametrize("env", [{"ATEN_CPU_CAPABILITY": "avx2"}, {"OMP_NUM_THREADS": "1"}], ids=["avx2", "1thread"])
def test_flash_env(env):
    oracle.assert_cases_equal(flash_cases(), setup=SETUP, env=env)


@pytest.mark.parametrize("env", [{"ATEN_CPU_CAPABILITY": "avx2"}, {"OMP_NUM_THREADS": "1"}], ids=["avx2", "1thread"])
def test_other_env(env):
    oracle.assert_cases_equal(other_cases(), setup=SETUP, env=env)


def test_errors():
    oracle.assert_cases_equal(ERRORS, setup=SETUP)


if oracle.UNDER_ASAN:
    @pytest.mark.xfail(strict=True, reason="sanitizer build only: which NaN survives where two NaNs meet")
    def test_flash_special_nan_under_sanitizers():
        oracle.assert_cases_equal({"flash_special_nan": special_value_case("float('nan')")}, setup=SETUP)
