"""A tiny character-level GPT trained nanoGPT-style; tests/python/test_gpt_parity.py runs this file unchanged
under real PyTorch (`python gpt_program.py ...`) and under DenseCore (`python -m densecore.run gpt_program.py
...`) and compares everything it records (per-step digests of every tensor, raw final state) bit for bit."""
import argparse
import hashlib
import math
import os
import pickle

import torch
import torch.nn as nn
from torch.nn import functional as F


class Config:
    def __init__(self, vocab, block=32, n_layer=2, n_head=2, n_embd=64, dropout=0.0):
        self.vocab, self.block, self.n_layer, self.n_head, self.n_embd = vocab, block, n_layer, n_head, n_embd
        self.dropout = dropout


class Attention(nn.Module):
    """Multi-head causal self-attention through the fused SDPA call (dropout only while training)."""

    def __init__(self, cfg):
        super().__init__()
        self.heads, self.width, self.p = cfg.n_head, cfg.n_embd, cfg.dropout
        self.qkv = nn.Linear(cfg.n_embd, 3 * cfg.n_embd)
        self.out = nn.Linear(cfg.n_embd, cfg.n_embd)
        self.out_drop = nn.Dropout(cfg.dropout)

    def forward(self, x):
        b, t, c = x.size()
        q, k, v = self.qkv(x).split(self.width, dim=2)
        shape = (b, t, self.heads, c // self.heads)
        q, k, v = (z.view(*shape).transpose(1, 2) for z in (q, k, v))
        y = F.scaled_dot_product_attention(q, k, v, attn_mask=None, dropout_p=self.p if self.training else 0.0,
                                           is_causal=True)
        y = y.transpose(1, 2).contiguous().view(b, t, c)
        return self.out_drop(self.out(y))


class FeedForward(nn.Module):
    def __init__(self, cfg):
        super().__init__()
        self.up = nn.Linear(cfg.n_embd, 4 * cfg.n_embd)
        self.act = nn.GELU()
        self.out = nn.Linear(4 * cfg.n_embd, cfg.n_embd)
        self.drop = nn.Dropout(cfg.dropout)

    def forward(self, x):
        return self.drop(self.out(self.act(self.up(x))))


class Block(nn.Module):
    """Pre-norm residual block: x + attn(norm(x)), then x + mlp(norm(x))."""

    def __init__(self, cfg):
        super().__init__()
        self.norm1 = nn.LayerNorm(cfg.n_embd, bias=False)
        self.attn = Attention(cfg)
        self.norm2 = nn.LayerNorm(cfg.n_embd, bias=False)
        self.mlp = FeedForward(cfg)

    def forward(self, x):
        x = x + self.attn(self.norm1(x))
        return x + self.mlp(self.norm2(x))


class TinyGPT(nn.Module):
    def __init__(self, cfg):
        super().__init__()
        self.cfg = cfg
        self.wte = nn.Embedding(cfg.vocab, cfg.n_embd)
        self.wpe = nn.Embedding(cfg.block, cfg.n_embd)
        self.drop = nn.Dropout(cfg.dropout)
        self.blocks = nn.ModuleList([Block(cfg) for _ in range(cfg.n_layer)])
        self.norm = nn.LayerNorm(cfg.n_embd, bias=False)
        self.lm_head = nn.Linear(cfg.n_embd, cfg.vocab, bias=False)
        self.wte.weight = self.lm_head.weight  # tied: one Parameter, gradients from both uses accumulate
        self.apply(self._init)
        for name, p in self.named_parameters():  # residual projections start smaller, GPT-2 style
            if name.endswith("out.weight"):
                torch.nn.init.normal_(p, mean=0.0, std=0.02 / math.sqrt(2 * cfg.n_layer))

    @staticmethod
    def _init(module):
        if isinstance(module, nn.Linear):
            torch.nn.init.normal_(module.weight, mean=0.0, std=0.02)
            if module.bias is not None:
                torch.nn.init.zeros_(module.bias)
        elif isinstance(module, nn.Embedding):
            torch.nn.init.normal_(module.weight, mean=0.0, std=0.02)

    def forward(self, idx, targets=None):
        t = idx.size(1)
        pos = torch.arange(0, t, dtype=torch.long)
        x = self.drop(self.wte(idx) + self.wpe(pos))
        for block in self.blocks:
            x = block(x)
        logits = self.lm_head(self.norm(x))
        if targets is None:
            return logits, None
        loss = F.cross_entropy(logits.view(-1, logits.size(-1)), targets.view(-1), ignore_index=-1)
        return logits, loss

    @torch.no_grad()
    def generate(self, idx, steps, temperature=1.0):
        for _ in range(steps):
            logits, _ = self(idx[:, -self.cfg.block:])
            probs = F.softmax(logits[:, -1, :] / temperature, dim=-1)
            idx = torch.cat((idx, torch.multinomial(probs, num_samples=1)), dim=1)
        return idx


def make_optimizer(model, lr, weight_decay):
    """AdamW with matrices (dim >= 2) decayed and vectors (biases, norm weights) not."""
    params = [p for _, p in model.named_parameters() if p.requires_grad]
    groups = [{"params": [p for p in params if p.dim() >= 2], "weight_decay": weight_decay},
              {"params": [p for p in params if p.dim() < 2], "weight_decay": 0.0}]
    return torch.optim.AdamW(groups, lr=lr, betas=(0.9, 0.99))


def lr_at(step, lr, min_lr, warmup, decay_steps):
    """Linear warmup, then cosine from lr down to min_lr."""
    if step < warmup:
        return lr * (step + 1) / (warmup + 1)
    if step > decay_steps:
        return min_lr
    ratio = (step - warmup) / (decay_steps - warmup)
    return min_lr + 0.5 * (1.0 + math.cos(math.pi * ratio)) * (lr - min_lr)


def raw(t):
    return t.detach().contiguous().numpy().tobytes()


def digest(t):
    return hashlib.sha256(raw(t)).hexdigest()


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("out", help="pickle written here")
    ap.add_argument("--text", required=True, help="training text (UTF-8); the tests pass the project's own corpus")
    ap.add_argument("--dropout", type=float, default=0.0)
    ap.add_argument("--steps", type=int, default=30)
    ap.add_argument("--eval-every", type=int, default=10)
    ap.add_argument("--eval-batches", type=int, default=4)
    ap.add_argument("--batch", type=int, default=8)
    args = ap.parse_args()

    with open(args.text, encoding="utf-8") as f:
        text = f.read()
    chars = sorted(set(text))
    index = {ch: i for i, ch in enumerate(chars)}
    text = text[:200_000]  # the vocabulary spans the whole file; training needs only a prefix
    data = torch.tensor([index[ch] for ch in text], dtype=torch.long)
    cut = int(0.9 * len(data))
    splits = {"train": data[:cut], "val": data[cut:]}

    torch.manual_seed(1337)
    cfg = Config(vocab=len(chars), dropout=args.dropout)
    model = TinyGPT(cfg)
    opt = make_optimizer(model, lr=1e-3, weight_decay=0.1)
    names = {id(p): n for n, p in model.named_parameters()}

    def batch(split):
        src = splits[split]
        ix = torch.randint(len(src) - cfg.block, (args.batch,))
        x = torch.stack([src[i:i + cfg.block] for i in ix])
        y = torch.stack([src[i + 1:i + 1 + cfg.block] for i in ix])
        y[0, :3] = -1  # a few ignored targets, so ignore_index takes part
        return x, y

    @torch.no_grad()
    def evaluate():
        model.eval()
        result = {}
        for split in ("train", "val"):
            losses = torch.zeros(args.eval_batches)
            for k in range(args.eval_batches):
                _, loss = model(*batch(split))
                losses[k] = loss.item()
            result[split] = raw(losses.mean())
        model.train()
        return result

    record = {"library": torch.__version__, "steps": [], "evals": {}, "vocab": "".join(chars)}
    for step in range(args.steps):
        lr = lr_at(step, 1e-3, 1e-4, warmup=5, decay_steps=args.steps)
        for group in opt.param_groups:
            group["lr"] = lr
        if step % args.eval_every == 0:
            record["evals"][step] = evaluate()
        x, y = batch("train")
        _, loss = model(x, y)
        loss.backward()
        grads = {names[id(p)]: digest(p.grad) for p in model.parameters()}
        norm = torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
        clipped = {names[id(p)]: digest(p.grad) for p in model.parameters()}
        opt.step()
        opt.zero_grad(set_to_none=True)
        state = {}
        for p in model.parameters():
            s = opt.state[p]
            state[names[id(p)]] = (digest(p), digest(s["exp_avg"]), digest(s["exp_avg_sq"]), float(s["step"]))
        record["steps"].append({"lr": lr, "loss": raw(loss), "norm": raw(norm), "grad": grads,
                                "clipped": clipped, "state": state})
    record["evals"][args.steps] = evaluate()
    record["final"] = {n: raw(p) for n, p in model.state_dict().items()}
    record["final_opt"] = {names[id(p)]: {k: raw(v) for k, v in opt.state[p].items()} for p in model.parameters()}
    model.eval()
    torch.manual_seed(42)
    sample = model.generate(torch.zeros((1, 1), dtype=torch.long), 60, temperature=0.8)
    record["sample"] = "".join(chars[i] for i in sample[0].tolist())
    with open(args.out, "wb") as f:
        pickle.dump(record, f)


if __name__ == "__main__":
    main()
