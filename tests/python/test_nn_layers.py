"""nn layers against torch, bitwise: embedding (forward, EmbeddingBackward0 with repeated ids, padding_idx,
scale_grad_by_freq), layer_norm (RowwiseMoments forward, NativeLayerNormBackward0 incl. the per-thread dgamma/dbeta
buffers), gelu (erf and tanh forms, float32 and float64, vector body + scalar tail, random bit patterns and NaN payloads,
GeluBackward0), dropout (bernoulli_ noise, MulBackward0),
and the nn modules (default inits after manual_seed, state_dict, named_parameters with tied weights, apply order,
load_state_dict errors). Every case runs at the native capability, ATEN_CPU_CAPABILITY=avx2 and OMP_NUM_THREADS=1.
"""
import oracle
import pytest

pytestmark = pytest.mark.oracle

SETUP = r"""
import random
def vals(shape, seed=0, scale=3.0, offset=0.0, dtype="float32"):
    n = 1
    for s in shape:
        n *= s
    r = random.Random(seed)
    xs = [offset + r.uniform(-scale, scale) for _ in range(n)]
    return torch.tensor(xs, dtype=torch.float64).to(getattr(torch, dtype)).reshape(shape)
def ids(shape, hi, seed=0):
    n = 1
    for s in shape:
        n *= s
    r = random.Random(seed)
    return torch.tensor([r.randrange(hi) for _ in range(n)], dtype=torch.int64).reshape(shape)
F = torch.nn.functional
nn = torch.nn
"""

CONFIGS = {
    "native": None,
    "avx2": {"ATEN_CPU_CAPABILITY": "avx2"},
    "1thread": {"OMP_NUM_THREADS": "1"},
}


def embedding_cases():
    c = {}
    for name, shape, V, C in [("bt", (4, 16), 10, 32), ("t", (33,), 7, 13), ("big", (12, 64), 65, 128),
                              ("rep", (3, 50), 3, 9), ("wide", (2, 5), 2000, 17)]:
        body = f"""
w = vals(({V}, {C}), 1).requires_grad_()
i = ids({shape}, {V}, 2)
y = F.embedding(i, w{{kw}})
y.backward(vals(tuple(y.shape), 3))
out = [y, w.grad]
"""
        c[f"emb_{name}"] = body.format(kw="")
        c[f"emb_{name}_pad"] = body.format(kw=", padding_idx=1")
        c[f"emb_{name}_padneg"] = body.format(kw=", padding_idx=-1")
        c[f"emb_{name}_freq"] = body.format(kw=", scale_grad_by_freq=True")
    c["emb_int32"] = "w = vals((9, 5), 1).requires_grad_(); y = F.embedding(ids((4, 6), 9).int(), w); y.sum().backward(); out = [y, w.grad]"
    c["emb_module"] = "torch.manual_seed(3); m = nn.Embedding(11, 6, padding_idx=2); y = m(ids((3, 4), 11)); y.backward(vals((3, 4, 6), 5)); out = [m.weight, y, m.weight.grad]"
    c["emb_grad_fn"] = "w = vals((5, 3)).requires_grad_(); out = F.embedding(ids((4,), 5), w).grad_fn.name()"
    c["emb_err_range"] = oracle.raises(IndexError, "out = F.embedding(torch.tensor([0, 5]), vals((5, 3)))")
    c["emb_err_neg"] = oracle.raises(IndexError, "out = F.embedding(torch.tensor([0, -1]), vals((5, 3)))")
    c["emb_err_float"] = oracle.raises(RuntimeError, "out = F.embedding(torch.tensor([0., 1.]), vals((5, 3)))")
    c["emb_err_1d_weight"] = oracle.raises(RuntimeError, "out = torch.embedding(vals((5,)), torch.tensor([0]))")
    return c


def layer_norm_cases():
    c = {}
    for C in [1, 7, 8, 9, 16, 17, 32, 100, 128, 129, 768]:
        for B, T in [(2, 3), (3, 37)]:
            x = f"vals(({B}, {T}, {C}), {C}, offset=1.5).requires_grad_()"
            g = f"vals(({B}, {T}, {C}), {C + 1})"
            for tag, w, b in [("wb", True, True), ("w", True, False), ("b", False, True), ("none", False, False)]:
                ws = f"vals(({C},), 7, offset=1.0).requires_grad_()" if w else "None"
                bs = f"vals(({C},), 8).requires_grad_()" if b else "None"
                c[f"ln_{B}x{T}x{C}_{tag}"] = f"""
x = {x}; w = {ws}; b = {bs}
y = F.layer_norm(x, ({C},), w, b)
y.backward({g})
out = [y, x.grad, w.grad if w is not None else None, b.grad if b is not None else None]
"""
    # Many rows (the row split over threads decides dgamma/dbeta) and rows longer than 32768.
    for M, N in [(300, 768), (1000, 64), (5, 40000), (64, 129)]:
        c[f"ln_big_{M}x{N}"] = f"""
x = vals(({M}, {N}), 11, offset=-2.0).requires_grad_(); w = vals(({N},), 12).requires_grad_()
b = vals(({N},), 13).requires_grad_()
y = F.layer_norm(x, ({N},), w, b, eps=1e-6)
y.backward(vals(({M}, {N}), 14))
out = [y, x.grad, w.grad, b.grad]
"""
    c["ln_2d_shape"] = "x = vals((4, 3, 5), 1).requires_grad_(); y = F.layer_norm(x, (3, 5)); y.backward(vals((4, 3, 5), 2)); out = [y, x.grad]"
    c["ln_native"] = "out = list(torch.native_layer_norm(vals((4, 6), 1), [6], vals((6,), 2), vals((6,), 3), 1e-5))"
    # values_only: torch's .grad of a transposed leaf has the leaf's strides, densecore's contiguous ones
    # (known gap grad_layout_dense_leaf, test_autograd.py GAP_CASES); the same in gelu_2d_T.
    c["ln_transposed"] = "x = vals((6, 4), 1).t().requires_grad_(); y = F.layer_norm(x, (6,)); y.backward(vals((4, 6), 2)); out = [y, values_only(x.grad)]"
    c["ln_const_rows"] = "x = torch.ones(3, 10).requires_grad_(); y = F.layer_norm(x, (10,)); y.backward(vals((3, 10), 2)); out = [y, x.grad]"
    c["ln_x_only_grad"] = "x = vals((5, 20), 1).requires_grad_(); w = vals((20,), 2); y = F.layer_norm(x, (20,), w); y.backward(vals((5, 20), 3)); out = [y, x.grad]"
    c["ln_w_only_grad"] = "x = vals((5, 20), 1); w = vals((20,), 2).requires_grad_(); y = F.layer_norm(x, (20,), w); y.backward(vals((5, 20), 3)); out = [y, w.grad]"
    c["ln_double"] = "x = vals((5, 33), 1, dtype='float64').requires_grad_(); w = vals((33,), 2, dtype='float64').requires_grad_(); y = F.layer_norm(x, (33,), w); y.backward(vals((5, 33), 3, dtype='float64')); out = [y, x.grad, w.grad]"
    c["ln_module"] = "m = nn.LayerNorm(12); x = vals((3, 12), 1).requires_grad_(); y = m(x); y.backward(vals((3, 12), 2)); out = [m.weight, m.bias, y, x.grad, m.weight.grad, m.bias.grad]"
    c["ln_module_nobias"] = "m = nn.LayerNorm(12, bias=False); x = vals((3, 12), 1).requires_grad_(); y = m(x); y.backward(vals((3, 12), 2)); out = [y, x.grad, m.weight.grad, list(dict(m.named_parameters()))]"
    c["ln_grad_fn"] = "out = F.layer_norm(vals((2, 3)).requires_grad_(), (3,)).grad_fn.name()"
    c["ln_err_shape"] = oracle.raises(RuntimeError, "out = F.layer_norm(vals((2, 3)), (4,))")
    c["ln_err_weight"] = oracle.raises(RuntimeError, "out = F.layer_norm(vals((2, 3)), (3,), vals((4,)))")
    c["ln_err_int"] = oracle.raises(NotImplementedError, "out = F.layer_norm(torch.ones(2, 3, dtype=torch.int64), (3,))")
    return c


def gelu_cases():
    c = {}
    for n in [1, 7, 8, 15, 16, 17, 31, 32, 33, 47, 64, 65, 100, 1000, 16384, 16385, 40000, 70001]:
        for a in ["none", "tanh"]:
            c[f"gelu_{a}_{n}"] = f"""
x = vals(({n},), {n}, scale=6.0).requires_grad_()
y = F.gelu(x, approximate='{a}')
y.backward(vals(({n},), {n + 1}))
out = [y, x.grad]
"""
    c["gelu_2d_T"] = "x = vals((33, 17), 1).t().requires_grad_(); y = F.gelu(x); y.backward(vals((17, 33), 2)); out = [y, values_only(x.grad)]"
    # Random float32 bit patterns (every exponent, NaN payloads, denormals): each of oneDNN's minimax
    # intervals and the exp clamps, with vector tails of every length; for the tanh form SLEEF tanh's
    # double-float path and its cutoffs, in the whole-vector body and the scalar tail.
    for a, suffix in (("none", ""), ("tanh", "_tanh")):
        for n in (100003, 33):
            c[f"gelu{suffix}_random_bits_{n}"] = f"""
import random
r = random.Random({n})
x = torch.tensor([r.getrandbits(32) - (1 << 31) for _ in range({n})], dtype=torch.int32).view(torch.float32)
x.requires_grad_()
y = F.gelu(x, approximate='{a}')
y.backward(torch.tensor([r.getrandbits(32) - (1 << 31) for _ in range({n})], dtype=torch.int32).view(torch.float32))
out = [y, x.grad]
"""
    c["gelu_special"] = "x = torch.tensor([0., -0., float('inf'), -float('inf'), float('nan'), 10., -10., 1e-30] * 5).requires_grad_(); y = F.gelu(x); y.backward(torch.ones(40)); out = [y, x.grad]"
    # tanh form: inner = kBeta * (x + kKappa x^3) on both sides of SLEEF's 8.664339742 cutoff (x near 3.6),
    # x^3 overflowing (1e13), tiny and denormal x, each in the vector body and again in the tail (8 * 5 + 3).
    c["gelu_tanh_special"] = """
v = [0., -0., float('inf'), -float('inf'), float('nan'), 3.6, -3.6, 3.61, -3.61, 3.62, 3.65, -3.7, 1e13, -1e13,
     1e-30, -1e-30, 1e-40, -1e-45, 0.5, -0.5, 1e-4, -3e-3, 9.0, -9.0, 88.0, -104.0, 20.0, -20.0, 1e20, -1e20,
     float.fromhex('0x1.ffffffp-1'), 2.0, -2.0, 4.0, -4.0, 5.5, -5.5, 0.1, -0.1, 7.0]
x = torch.tensor(v + v[:3]).requires_grad_()
y = F.gelu(x, approximate='tanh')
y.backward(torch.linspace(-2, 2, 43))
out = [y, x.grad]
"""
    # NaN in both x and the gradient, in the vector body and the tail: the gradient is x's NaN, as torch's
    # backward multiplies (the derivative first); a swapped product gives the gradient's payload.
    for a, suffix in (("none", ""), ("tanh", "_tanh")):
        c[f"gelu{suffix}_nan_payloads"] = f"""
x = torch.tensor([0x7fc00001, -0x3ffedd, 0x7f800001, 0x3f800000, 0x7fc0abcd] * 9, dtype=torch.int32).view(torch.float32)
g = torch.tensor([0x7fc00777, 0x7fc00888, -0x3ff667, 0x7fc00aaa, 0x3f800000] * 9, dtype=torch.int32).view(torch.float32)
x.requires_grad_()
y = F.gelu(x, approximate='{a}')
y.backward(g)
out = [y, x.grad]
"""
    # float64, both forms: SLEEF's xerf_u1 (Sleef_erfd4/8_u10: its |x| <= 2.5 and far branches, reached near
    # x = 3.54, the 1e-8 and 6 cutoffs) or xtanh (double-double expk2, the 18.714973875 cutoff, reached near
    # x = 7.145) in the whole-vector body, glibc erf / tanh in the scalar tail (n mod 2V: 8 on AVX2, 16 on
    # AVX-512); 40001 is above GELU's 16384-element multi-threading threshold.
    for a, name in (("none", "gelu_f64"), ("tanh", "gelu_tanh_f64")):
        for n in [1, 3, 4, 7, 8, 9, 15, 16, 17, 33, 1000, 16385, 40001]:
            c[f"{name}_{n}"] = f"""
x = vals(({n},), {n}, scale=8.0, dtype='float64').requires_grad_()
y = F.gelu(x, approximate='{a}')
y.backward(vals(({n},), {n + 1}, dtype='float64'))
out = [y, x.grad]
"""
        c[f"{name}_randn_100003"] = f"""
torch.manual_seed(3)
x = (torch.randn(100003, dtype=torch.float64) * 3).requires_grad_()
y = F.gelu(x, approximate='{a}')
y.backward(torch.randn(100003, dtype=torch.float64))
out = [y, x.grad]
"""
        for n in (100003, 33):
            c[f"{name}_random_bits_{n}"] = f"""
import random
r = random.Random({n})
bits = lambda: torch.tensor([r.getrandbits(64) - (1 << 63) for _ in range({n})], dtype=torch.int64).view(torch.float64)
x = bits().requires_grad_()
y = F.gelu(x, approximate='{a}')
y.backward(bits())
out = [y, x.grad]
"""
    # Exact form: x * sqrt(1/2) on both sides of xerf_u1's 2.5 branch point, its 6 saturation, its 1e-8 linear
    # cutoff and where the far branch first rounds to 1 (5.92158719579450), three ulps each way; zeros,
    # infinities, denormals, huge x, NaN payloads in x and dy (the forward's x * 0.5 first, the backward's
    # derivative first), in the vector body and again in the tail (16 * 3 + 3).
    c["gelu_f64_special"] = """
import math
def around(b, k=3):
    lo, hi, out = b, b, [b]
    for _ in range(k):
        lo, hi = math.nextafter(lo, 0), math.nextafter(hi, 99)
        out += [lo, -hi]
    return out
v = [0., -0., float('inf'), -float('inf'), float('nan'), 1e300, -1e-300, 5e-324, -1e-320, 0.5, -1.0, 20.0]
for b in (2.5, 6.0, 1e-8, 5.9215871957945012):
    v += around(b * math.sqrt(2))
v += [3.0, -4.0, 8.0, -9.0, 1e-9, 2.0, -7.5, 37.0]
assert len(v) == 48
x = torch.tensor(v + v[:3], dtype=torch.float64)
x[[8, 17, 30, 49]] = torch.tensor([0x7ff8000000000123, 0x7ff0000000000001, -0x7ffabc, 0x7ff40000000000ab], dtype=torch.int64).view(torch.float64)
x.requires_grad_()
g = torch.linspace(-2, 2, 51, dtype=torch.float64)
g[[8, 9, 31, 50]] = torch.tensor([0x7ff8000000000777, -0x666, 0x7ff80000000aaaaa, 0x7ff8000000000999], dtype=torch.int64).view(torch.float64)
y = F.gelu(x)
y.backward(g)
out = [y, x.grad]
"""
    # Both sides of the cutoff, x^3 overflowing, tiny and denormal x, NaN payloads in x and dy (the forward's
    # 0.5*x first, the backward's derivative first), each in the vector body and again in the tail (8 * 5 + 3).
    c["gelu_tanh_f64_special"] = """
import math
t = 7.145065874418112
v = [0., -0., float('inf'), -float('inf'), float('nan'), t, -t, math.nextafter(t, 0), math.nextafter(t, 9), 7.2,
     -7.1, 1e103, -1e103, 1e200, 1e-300, -1e-300, 5e-324, -1e-320, 0.5, -0.5, 1e-8, -3e-3, 18.7, -18.8, 20.0,
     -20.0, 1.0, 2.0, -2.0, 4.0, -4.0, 5.5, -5.5, 0.1, -0.1, 3.0, 0.3465735902799726, 0.6931471805599453,
     -1.0397207708399179, 6.0]
x = torch.tensor(v + v[:3], dtype=torch.float64)
x[[8, 17, 42]] = torch.tensor([0x7ff8000000000123, 0x7ff0000000000001, -0x7ffabc], dtype=torch.int64).view(torch.float64)
x.requires_grad_()
g = torch.linspace(-2, 2, 43, dtype=torch.float64)
g[[8, 9, 30, 42]] = torch.tensor([0x7ff8000000000777, -0x666, 0x7ff80000000aaaaa, 0x7ff8000000000999], dtype=torch.int64).view(torch.float64)
y = F.gelu(x, approximate='tanh')
y.backward(g)
out = [y, x.grad]
"""
    c["gelu_module"] = "m = nn.GELU(); x = vals((4, 40), 1).requires_grad_(); y = m(x); y.sum().backward(); out = [y, x.grad, repr(m)]"
    c["gelu_grad_fn"] = "out = F.gelu(vals((3,)).requires_grad_()).grad_fn.name()"
    c["gelu_err_approx"] = oracle.raises(RuntimeError, "out = F.gelu(vals((3,)), approximate='foo')")
    c["gelu_err_int"] = oracle.raises(NotImplementedError, "out = F.gelu(torch.ones(3, dtype=torch.int64))")
    return c


def dropout_cases():
    c = {}
    for p in [0.0, 0.1, 0.2, 0.5, 1.0]:
        for shape in [(7,), (4, 33), (40000,)]:
            s = "x".join(map(str, shape))
            c[f"drop_{p}_{s}"] = f"""
torch.manual_seed(5)
x = vals({shape}, 1).requires_grad_()
y = F.dropout(x, {p})
y.backward(vals({shape}, 2))
out = [y, x.grad, torch.rand(3), y.grad_fn.name() if y.grad_fn is not None else None]
"""
        c[f"drop_inplace_{p}"] = f"torch.manual_seed(6); x = vals((5, 9), 1); y = F.dropout(x, {p}, inplace=True); out = [x, y is x, torch.rand(2)]"
        c[f"drop_module_{p}"] = f"torch.manual_seed(7); m = nn.Dropout({p}); x = vals((6, 6), 1); y1 = m(x); m.eval(); y2 = m(x); out = [y1, y2 is x, torch.rand(2), repr(m)]"
    c["drop_eval"] = "torch.manual_seed(1); x = vals((4,), 1); out = [F.dropout(x, 0.5, training=False) is x, torch.rand(2)]"
    c["drop_err"] = oracle.raises(ValueError, "out = F.dropout(vals((3,)), 1.5)")
    c["drop_err_neg"] = oracle.raises(ValueError, "out = nn.Dropout(-0.1)")
    return c


def module_cases():
    c = {}
    c["linear_init"] = "torch.manual_seed(0); m = nn.Linear(7, 5); out = [m.weight, m.bias, m.weight.requires_grad, type(m.weight).__name__]"
    c["linear_init_128"] = "torch.manual_seed(1337); m = nn.Linear(128, 384, bias=False); out = [m.weight, m.bias]"
    # forward reads weight and bias from _parameters; once they are plain attributes it reads those.
    c["linear_weight_replaced"] = ("torch.manual_seed(2); m = nn.Linear(6, 4); w = vals((4, 6), 3); del m.weight; m.weight = w; "
                                   "del m.bias; m.bias = None; x = vals((3, 6), 1); out = [m(x), 'weight' in m._parameters]")
    c["layer_norm_weight_replaced"] = ("m = nn.LayerNorm(6); del m.bias; m.bias = vals((6,), 4); x = vals((3, 6), 1); "
                                       "out = [m(x), 'bias' in m._parameters]")
    c["linear_fwd_bwd"] = "torch.manual_seed(2); m = nn.Linear(6, 4); x = vals((3, 6), 1); y = m(x); y.sum().backward(); out = [y, m.weight.grad, m.bias.grad]"
    c["emb_init"] = "torch.manual_seed(3); m = nn.Embedding(65, 128); out = [m.weight, torch.rand(2)]"
    c["emb_init_small"] = "torch.manual_seed(3); m = nn.Embedding(3, 5); out = [m.weight, torch.rand(2)]"
    c["ln_init"] = "torch.manual_seed(4); m = nn.LayerNorm(8); out = [m.weight, m.bias, torch.rand(2)]"
    c["stack_init"] = """
torch.manual_seed(1337)
class Block(nn.Module):
    def __init__(self):
        super().__init__()
        self.ln = nn.LayerNorm(16, bias=False)
        self.fc = nn.Linear(16, 64, bias=False)
        self.act = nn.GELU()
        self.proj = nn.Linear(64, 16)
        self.drop = nn.Dropout(0.0)
    def forward(self, x):
        return x + self.drop(self.proj(self.act(self.fc(self.ln(x)))))
class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.wte = nn.Embedding(20, 16)
        self.h = nn.ModuleList([Block() for _ in range(2)])
        self.head = nn.Linear(16, 20, bias=False)
        self.wte.weight = self.head.weight
    def forward(self, i):
        x = self.wte(i)
        for b in self.h:
            x = b(x)
        return self.head(x)
net = Net()
order = []
def init(m):
    order.append(type(m).__name__)
    if isinstance(m, nn.Linear):
        torch.nn.init.normal_(m.weight, mean=0.0, std=0.02)
        if m.bias is not None:
            torch.nn.init.zeros_(m.bias)
net.apply(init)
y = net(ids((2, 5), 20, 1))
y.backward(vals((2, 5, 20), 2))
sd = net.state_dict()
out = [list(sd.keys()), [n for n, _ in net.named_parameters()], order, y,
       [p.grad for p in net.parameters()], net.wte.weight is net.head.weight, len(list(net.parameters())),
       [n for n, _ in net.named_modules()], repr(net)]
"""
    c["state_dict_values"] = "torch.manual_seed(9); m = nn.Linear(3, 2); sd = m.state_dict(); out = [list(sd.items()), sd['weight'].requires_grad]"
    c["load_strict_missing"] = oracle.raises(RuntimeError, "m = nn.Linear(3, 2); m.load_state_dict({'weight': torch.zeros(2, 3)})")
    c["load_strict_unexpected"] = oracle.raises(RuntimeError, "m = nn.Linear(3, 2); m.load_state_dict({'weight': torch.zeros(2, 3), 'bias': torch.zeros(2), 'foo': torch.zeros(1)})")
    c["load_shape"] = oracle.raises(RuntimeError, "m = nn.Linear(3, 2); m.load_state_dict({'weight': torch.zeros(3, 3), 'bias': torch.zeros(2)})")
    c["load_ok"] = "m = nn.Linear(3, 2); r = m.load_state_dict({'weight': vals((2, 3), 1), 'bias': vals((2,), 2)}); out = [str(r), m.weight, m.bias]"
    c["load_nonstrict"] = "m = nn.Linear(3, 2); r = m.load_state_dict({'weight': vals((2, 3), 1), 'x': torch.zeros(1)}, strict=False); out = [list(r.missing_keys), list(r.unexpected_keys), m.weight]"
    c["param_alias"] = "t = vals((3,), 1); p = nn.Parameter(t); p.data_ptr() == t.data_ptr(); out = [p.requires_grad, p.is_leaf, p.data_ptr() == t.data_ptr(), isinstance(p, torch.Tensor), p._version == t._version]"
    c["param_no_grad"] = "p = nn.Parameter(vals((2,), 1), requires_grad=False); out = [p.requires_grad, p]"
    c["tensor_hash"] = "t = vals((2,), 1); d = {t: 1}; out = [d[t], hash(t) == hash(t), len({t, vals((2,), 1)})]"
    c["seq_moddict"] = "torch.manual_seed(0); s = nn.Sequential(nn.Linear(2, 3), nn.ReLU(), nn.Identity()); d = nn.ModuleDict({'a': nn.Linear(3, 1)}); y = d['a'](s(vals((4, 2), 1))); out = [y, list(s.state_dict().keys()), list(d.state_dict().keys()), len(s), repr(s)]"
    c["zero_grad"] = "m = nn.Linear(2, 2); m(vals((1, 2), 1)).sum().backward(); m.zero_grad(); out = [m.weight.grad, m.bias.grad]"
    c["train_eval"] = "m = nn.Sequential(nn.Dropout(0.5), nn.Linear(2, 2)); m.eval(); out = [m.training, m[0].training, m.train().training, m[1].training]"
    # nanoGPT's path on bad input: torch's exception, and no parameter or optimizer state changes.
    c["gpt_path_bad_input_err_unchanged"] = """
torch.manual_seed(0)
emb, head = nn.Embedding(5, 4), nn.Linear(4, 5, bias=False)
opt = torch.optim.AdamW(list(emb.parameters()) + list(head.parameters()), lr=0.1)
head(emb(torch.tensor([[1, 2]]))).sum().backward(); opt.step()
before = [emb.weight.clone(), head.weight.clone()]
errors = []
for ids in (torch.tensor([[1, 7]]), torch.tensor([[1.0, 2.0]]), torch.tensor([[-1, 2]])):
    try:
        head(emb(ids)).sum().backward(); opt.step()
    except Exception as e:
        errors.append(type(e).__name__)
q = torch.zeros(1, 2, 3, 4)
try:
    F.scaled_dot_product_attention(q, torch.zeros(1, 2, 5, 3), torch.zeros(1, 2, 5, 4), is_causal=True)
except Exception as e:
    errors.append(type(e).__name__)
out = [errors, before[0], before[1], emb.weight, head.weight, opt.state[emb.weight]['exp_avg']]
"""
    c["relu"] = "x = vals((5, 9), 1).requires_grad_(); y = F.relu(x); y.backward(vals((5, 9), 2)); out = [y, x.grad, nn.ReLU()(x)]"
    return c


ALL = {**embedding_cases(), **layer_norm_cases(), **gelu_cases(), **dropout_cases(), **module_cases()}


@pytest.mark.parametrize("config", list(CONFIGS))
def test_nn_layers(config):
    oracle.assert_cases_equal(ALL, SETUP, env=CONFIGS[config])

