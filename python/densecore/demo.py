"""DenseCore demo: trains a tiny character-level GPT on DenseCore's own README and docs (shipped in the package),
prints the loss as it goes and a generated sample at the end. With --check the same program also runs under
real PyTorch in its own process, and every loss, the final weights and the sample are compared bit for bit.

    python -m densecore.demo                 # train (about a minute on 2 cores) and sample
    python -m densecore.demo --check         # ... and compare every bit with PyTorch (needs torch installed)
    python -m densecore.demo --steps 100     # shorter run (see --help for the other knobs)
"""
import argparse
import hashlib
import importlib.util
import os
import pickle
import subprocess
import sys
import time

# The --check child: loads _demo_gpt.py by path (never importing densecore, so the process holds only torch's
# libraries) and runs it with real torch on the same text and settings.
CHILD = r'''
import importlib.util, pickle, sys
import torch
path, text, kwargs = pickle.load(sys.stdin.buffer)
spec = importlib.util.spec_from_file_location("_demo_gpt", path)
demo = importlib.util.module_from_spec(spec)
spec.loader.exec_module(demo)
raw = lambda t: t.detach().reshape(-1).contiguous().view(torch.uint8).numpy().tobytes()
sys.stdout.buffer.write(pickle.dumps(demo.train(torch, text, raw, **kwargs)))
'''


class Progress:
    """A plain-text progress bar on stderr, redrawn in place; silent when stderr is not a terminal (logs)."""

    def __init__(self, total, width=30):
        self.total, self.width, self.tty = total, width, sys.stderr.isatty()
        self.start = time.perf_counter()

    def update(self, done, loss):
        if not self.tty:
            return
        filled = self.width * done // self.total
        rate = done / max(time.perf_counter() - self.start, 1e-9)
        bar = "#" * filled + "." * (self.width - filled)
        sys.stderr.write(f"\r[{bar}] {done}/{self.total} steps  loss {loss:.4f}  {rate:.1f} steps/s")
        sys.stderr.flush()  # the last step always logs a loss line, which clears the bar

    def clear(self):
        if self.tty:
            sys.stderr.write("\r" + " " * (self.width + 60) + "\r")


def run_densecore(text, kwargs):
    import densecore

    from . import _demo_gpt

    bar = Progress(kwargs["steps"])

    def on_log(step, loss, val, seconds):
        bar.clear()
        print(f"step {step:5d}  train loss {loss:.4f}  val loss {val:.4f}  ({seconds:.1f} s)", flush=True)

    return _demo_gpt.train(densecore, text, lambda t: t._raw_bytes(), on_step=bar.update, on_log=on_log, **kwargs)


def run_torch(text, kwargs):
    from . import _demo_gpt

    payload = pickle.dumps((_demo_gpt.__file__, text, kwargs))
    proc = subprocess.run([sys.executable, "-c", CHILD], input=payload, capture_output=True, env=dict(os.environ))
    if proc.returncode != 0:
        raise RuntimeError("the PyTorch run failed:\n" + proc.stderr.decode()[-3000:])
    return pickle.loads(proc.stdout)


def _count(n, one, many=None):
    """'1 step', '2 steps': n with the noun in the right number."""
    return f"{n} {one}" if n == 1 else f"{n} {many or one + 's'}"


def compare(ours, theirs):
    """Prints one line per compared item; returns True when every bit matches."""
    short = lambda b: hashlib.sha256(b).hexdigest()[:16]
    same_losses = ours["loss"] == theirs["loss"] and ours["val"] == theirs["val"]
    first = next((i for i, (a, b) in enumerate(zip(ours["loss"], theirs["loss"])) if a != b), None)
    detail = f"all {_count(len(ours['loss']), 'step')}" if same_losses else f"first difference at step {first}"
    print(f"  losses         {'identical bits' if same_losses else 'DIFFERENT'} ({detail}, "
          f"{_count(len(ours['val']), 'val loss', 'val losses')})")
    bad = [n for n in ours["weights"] if ours["weights"][n] != theirs["weights"].get(n)]
    everything = b"".join(ours["weights"].values())
    print(f"  final weights  {'identical bits' if not bad else 'DIFFERENT: ' + ', '.join(bad[:4])} "
          f"({len(ours['weights'])} tensors, {len(everything):,} bytes, sha256 {short(everything)})")
    same_sample = ours["sample"] == theirs["sample"]
    print(f"  sample         {'identical text' if same_sample else 'DIFFERENT'}")
    return same_losses and not bad and same_sample


def main(argv=None):
    ap = argparse.ArgumentParser(prog="python -m densecore.demo",
                                 description="DenseCore demo: train a tiny char-level GPT on DenseCore's own README "
                                             "and docs, bit-exact with PyTorch",
                                 formatter_class=argparse.ArgumentDefaultsHelpFormatter)
    ap.add_argument("--check", action="store_true",
                    help="also run the same program under PyTorch (needs torch 2.14.1) and compare every bit")
    ap.add_argument("--steps", type=int, default=500, help="AdamW optimizer steps")
    ap.add_argument("--batch", type=int, default=16, help="sequences per training batch")
    ap.add_argument("--block", type=int, default=64, help="context length in characters")
    ap.add_argument("--layers", type=int, default=2, help="transformer blocks")
    ap.add_argument("--heads", type=int, default=4, help="attention heads per block (must divide --embd)")
    ap.add_argument("--embd", type=int, default=96, help="embedding width")
    ap.add_argument("--dropout", type=float, default=0.1, help="dropout probability while training")
    ap.add_argument("--lr", type=float, default=3e-3, help="peak learning rate (warmup, then cosine to lr/10)")
    ap.add_argument("--seed", type=int, default=1337, help="seed of the initial weights and batches; "
                                                           "the sample uses seed + 1")
    ap.add_argument("--log-every", type=int, default=50, help="print the train and validation loss every N steps")
    ap.add_argument("--sample-len", type=int, default=300, help="characters to generate after training")
    args = ap.parse_args(argv)
    if args.steps < 1 or args.embd % args.heads:
        ap.error("--steps must be positive and --embd divisible by --heads")
    if args.check and importlib.util.find_spec("torch") is None:
        print("--check compares with PyTorch, which is not installed here (WITH_TEST_DEPS=1 bash scripts/demo.sh "
              "--check makes an environment that has it)")
        return 2
    from ._demo_text import corpus_text

    text = corpus_text()
    if args.block >= len(text) // 10:  # batches are drawn from the last tenth too (validation)
        ap.error(f"--block must be below {len(text) // 10}")

    kwargs = dict(steps=args.steps, batch=args.batch, block=args.block, n_layer=args.layers, n_head=args.heads,
                  n_embd=args.embd, dropout=args.dropout, lr=args.lr, seed=args.seed, log_every=args.log_every,
                  sample_len=args.sample_len)
    print(f"DenseCore: a {args.layers}-layer char-GPT (n_embd {args.embd}, {args.heads} heads, context "
          f"{args.block}) on {len(text):,} characters of DenseCore's own README and docs, "
          f"{_count(args.steps, 'AdamW step')}")
    ours = run_densecore(text, kwargs)
    print(f"trained in {ours['train_seconds']:.1f} s; sample (seed {args.seed + 1}, temperature 0.8):\n")
    print(ours["sample"].rstrip() + "\n")
    if not args.check:
        return 0
    print("--check: the same program under PyTorch, in its own process ...", flush=True)
    theirs = run_torch(text, kwargs)
    ok = compare(ours, theirs)
    print(f"PyTorch took {theirs['train_seconds']:.1f} s to train")
    print("PASS: DenseCore and PyTorch agree bit for bit" if ok else "FAIL: DenseCore differs from PyTorch")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
