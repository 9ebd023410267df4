"""DenseCore demo: a small forward pass computed with DenseCore, and with --check the same program
under PyTorch (in its own process) compared bit for bit.

    python -m densecore.demo            # embedded default: a 2-layer MLP forward pass on fixed inputs
    python -m densecore.demo --check    # also run it under torch and compare every result's bits
"""
import argparse
import hashlib
import subprocess
import sys
import time

# The program both libraries run; `torch` is the library under test. Inputs are deterministic
# integer-derived floats so no random generator is needed.
PROGRAM = r'''
def wave(n, k):
    return torch.tensor([((i * 7919 + k) % 1000 - 500) / 97.0 for i in range(n)])

x = wave(8 * 64, 1).view(8, 64)
w1, b1 = wave(128 * 64, 2).view(128, 64) / 8.0, wave(128, 3)
w2, b2 = wave(10 * 128, 4).view(10, 128) / 11.0, wave(10, 5)
h = torch.nn.functional.linear(x, w1, b1)
h = torch.clamp(h, min=0.0)                      # relu
logits = torch.nn.functional.linear(h, w2, b2)
scores = (logits - logits[:, :1]) / 3.0           # relative to class 0
results = {"hidden": h, "logits": logits, "scores": scores, "positive": scores > 0}
'''

CHILD = r'''
import sys, pickle
if sys.argv[1] == "torch":
    import torch
    raw = lambda t: t.reshape(-1).contiguous().view(torch.uint8).numpy().tobytes()
else:
    import densecore as torch
    raw = lambda t: t._raw_bytes()
scope = {"torch": torch}
exec(sys.stdin.read(), scope)
sys.stdout.buffer.write(pickle.dumps({k: raw(v) for k, v in scope["results"].items()}))
'''


def run_in_process():
    import densecore as torch

    scope = {"torch": torch}
    start = time.perf_counter()
    exec(PROGRAM, scope)
    elapsed = time.perf_counter() - start
    return scope["results"], elapsed


def digests(lib):
    proc = subprocess.run([sys.executable, "-c", CHILD, lib], input=PROGRAM.encode(), capture_output=True)
    if proc.returncode != 0:
        raise RuntimeError(proc.stderr.decode()[-2000:])
    import pickle

    return {k: hashlib.sha256(v).hexdigest()[:16] for k, v in pickle.loads(proc.stdout).items()}


def main(argv=None):
    ap = argparse.ArgumentParser(description="DenseCore demo")
    ap.add_argument("--check", action="store_true", help="compare every result with PyTorch (needs torch)")
    args = ap.parse_args(argv)
    results, elapsed = run_in_process()
    print(f"2-layer MLP forward on an (8, 64) batch in {elapsed * 1e3:.2f} ms")
    print("logits[0]:", results["logits"][0])
    if args.check:
        import importlib.util

        if importlib.util.find_spec("torch") is None:
            print("--check compares with PyTorch, which is not installed here (bash scripts/test.sh makes an "
                  "environment that has it)")
            return 2
        ours, theirs = digests("densecore"), digests("torch")
        for name in ours:
            verdict = "identical bits" if ours[name] == theirs[name] else "DIFFERENT"
            print(f"  {name:<8} densecore {ours[name]}  torch {theirs[name]}  {verdict}")
        return 0 if ours == theirs else 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
