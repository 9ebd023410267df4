"""The demo's program (python -m densecore.demo): a tiny character-level GPT trained on the project's own text,
written against a `torch` passed in, so the same code runs on DenseCore and, for --check, on real PyTorch.
Self-contained (standard library only): --check loads this file by path into a process without densecore."""
import math
import time


def build_model(torch, vocab, block, n_layer, n_head, n_embd, dropout):
    """A GPT: token + position embeddings, pre-norm blocks of causal attention and a GELU MLP, tied head."""
    nn, F = torch.nn, torch.nn.functional

    class SelfAttention(nn.Module):
        def __init__(self):
            super().__init__()
            self.qkv = nn.Linear(n_embd, 3 * n_embd, bias=False)
            self.proj = nn.Linear(n_embd, n_embd, bias=False)
            self.drop = nn.Dropout(dropout)

        def forward(self, x):
            b, t, c = x.size()
            q, k, v = (z.view(b, t, n_head, c // n_head).transpose(1, 2) for z in self.qkv(x).split(c, dim=2))
            y = F.scaled_dot_product_attention(q, k, v, dropout_p=dropout if self.training else 0.0, is_causal=True)
            return self.drop(self.proj(y.transpose(1, 2).contiguous().view(b, t, c)))

    class Block(nn.Module):
        def __init__(self):
            super().__init__()
            self.ln1, self.ln2 = nn.LayerNorm(n_embd, bias=False), nn.LayerNorm(n_embd, bias=False)
            self.attn = SelfAttention()
            self.mlp = nn.Sequential(nn.Linear(n_embd, 4 * n_embd, bias=False), nn.GELU(),
                                     nn.Linear(4 * n_embd, n_embd, bias=False), nn.Dropout(dropout))

        def forward(self, x):
            x = x + self.attn(self.ln1(x))
            return x + self.mlp(self.ln2(x))

    class CharGPT(nn.Module):
        def __init__(self):
            super().__init__()
            self.block = block
            self.tok = nn.Embedding(vocab, n_embd)
            self.pos = nn.Embedding(block, n_embd)
            self.drop = nn.Dropout(dropout)
            self.blocks = nn.ModuleList(Block() for _ in range(n_layer))
            self.ln_f = nn.LayerNorm(n_embd, bias=False)
            self.head = nn.Linear(n_embd, vocab, bias=False)
            self.tok.weight = self.head.weight  # weight tying, as GPT-2
            for name, p in self.named_parameters():
                if p.dim() >= 2:  # small normal init; output projections scaled down by depth
                    std = 0.02 / math.sqrt(2 * n_layer) if name.endswith(("proj.weight", "mlp.2.weight")) else 0.02
                    torch.nn.init.normal_(p, mean=0.0, std=std)

        def forward(self, idx, targets=None):
            x = self.drop(self.tok(idx) + self.pos(torch.arange(idx.size(1), dtype=torch.long)))
            for blk in self.blocks:
                x = blk(x)
            logits = self.head(self.ln_f(x))
            if targets is None:
                return logits, None
            return logits, F.cross_entropy(logits.view(-1, logits.size(-1)), targets.view(-1))

    return CharGPT()


def lr_schedule(step, steps, lr, warmup):
    """Linear warmup, then cosine decay to lr / 10."""
    if step < warmup:
        return lr * (step + 1) / (warmup + 1)
    return lr / 10 + 0.5 * (1.0 + math.cos(math.pi * (step - warmup) / max(1, steps - warmup))) * (lr - lr / 10)


def train(torch, text, raw, steps=500, batch=16, block=64, n_layer=2, n_head=4, n_embd=96, dropout=0.1,
          lr=3e-3, seed=1337, log_every=50, sample_len=300, on_step=None, on_log=None):
    """Trains, then samples. `raw(tensor) -> bytes` reads a tensor's bits. Returns every step's loss (raw bits),
    the eval losses, the final weights (raw bytes) and the sampled text."""
    chars = sorted(set(text))
    stoi = {ch: i for i, ch in enumerate(chars)}
    data = torch.tensor([stoi[ch] for ch in text], dtype=torch.long)
    cut = int(0.9 * len(data))
    splits = {"train": data[:cut], "val": data[cut:]}

    torch.manual_seed(seed)
    model = build_model(torch, len(chars), block, n_layer, n_head, n_embd, dropout)
    params = list(model.parameters())
    opt = torch.optim.AdamW([{"params": [p for p in params if p.dim() >= 2], "weight_decay": 0.1},
                             {"params": [p for p in params if p.dim() < 2], "weight_decay": 0.0}],
                            lr=lr, betas=(0.9, 0.99))

    def get_batch(split):
        src = splits[split]
        ix = torch.randint(len(src) - block, (batch,))
        return (torch.stack([src[i:i + block] for i in ix]), torch.stack([src[i + 1:i + 1 + block] for i in ix]))

    @torch.no_grad()
    def val_loss():
        model.eval()
        losses = torch.stack([model(*get_batch("val"))[1] for _ in range(4)])
        model.train()
        return losses.mean()

    out = {"loss": [], "val": [], "vocab": "".join(chars)}
    start = time.perf_counter()
    for step in range(steps):
        for group in opt.param_groups:
            group["lr"] = lr_schedule(step, steps, lr, warmup=steps // 20)
        _, loss = model(*get_batch("train"))
        loss.backward()
        torch.nn.utils.clip_grad_norm_(params, 1.0)
        opt.step()
        opt.zero_grad(set_to_none=True)
        out["loss"].append(raw(loss))
        if on_step:
            on_step(step + 1, loss.item())
        if (step + 1) % log_every == 0 or step + 1 == steps:
            v = val_loss()
            out["val"].append(raw(v))
            if on_log:
                on_log(step + 1, loss.item(), v.item(), time.perf_counter() - start)
    out["train_seconds"] = time.perf_counter() - start
    out["weights"] = {name: raw(t) for name, t in model.state_dict().items()}

    model.eval()
    torch.manual_seed(seed + 1)
    idx = torch.tensor([[stoi["\n"]]], dtype=torch.long)
    with torch.no_grad():
        for _ in range(sample_len):
            logits, _ = model(idx[:, -block:])
            probs = torch.nn.functional.softmax(logits[:, -1, :] / 0.8, dim=-1)
            idx = torch.cat((idx, torch.multinomial(probs, num_samples=1)), dim=1)
    out["sample"] = "".join(chars[i] for i in idx[0].tolist()[1:])
    return out
