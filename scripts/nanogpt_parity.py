"""nanoGPT parity: run Karpathy's nanoGPT CPU recipe under real PyTorch and under DenseCore and compare.

    NANOGPT_DIR=/path/to/nanoGPT NANOGPT_TEXT=/path/to/input.txt python scripts/nanogpt_parity.py --max-iters 300

NANOGPT_DIR is an unmodified checkout of karpathy/nanoGPT, NANOGPT_TEXT the character corpus it trains on (tiny
Shakespeare's input.txt for the README recipe); neither is committed here, and both can be given as options
instead (--nanogpt-dir, --text). The script copies the checkout into a work folder per library, prepares
data/shakespeare_char offline from that text (no download: a stub `requests` module is put on the path when
the real one is missing), then:
  1. runs train.py with the README's CPU recipe under torch (`python train.py ...`) and under DenseCore
     (`python -m densecore.run train.py ...`), and compares the printed logs line by line (timings and
     mfu removed) and every tensor of ckpt.pt bitwise (both files read by real torch, weights_only=True);
  2. (--inprocess) imports nanoGPT's model.py unchanged in each library and drives the same loop,
     recording the full-precision loss, every gradient and every weight at every step, and compares them;
  3. runs sample.py from each checkpoint and compares the sampled text.
Both libraries run in separate processes; the torch side needs a Python where torch 2.14.1 is installed
(--torch-python, default: this interpreter) and the DenseCore side one where densecore is installed
(--densecore-python, default: this interpreter).
"""
import argparse
import filecmp
import os
import pickle
import re
import shutil
import subprocess
import sys
import tempfile
import time

TIMING = re.compile(r", time [0-9.]+ms, mfu -?[0-9.]+%")

REQUESTS_STUB = '''"""Offline stand-in: nanoGPT's prepare.py imports requests even when input.txt exists."""
def get(*args, **kwargs):
    raise RuntimeError("no network: put input.txt beside prepare.py")
'''
TIKTOKEN_STUB = '''"""Offline stand-in: sample.py imports tiktoken even for character-level models."""
def get_encoding(name):
    raise RuntimeError("tiktoken is not available offline")
'''


def recipe(args):
    return [
        "config/train_shakespeare_char.py", "--device=cpu", "--compile=False", "--eval_iters=20",
        "--log_interval=1", "--block_size=64", "--batch_size=12", "--n_layer=4", "--n_head=4", "--n_embd=128",
        f"--max_iters={args.max_iters}", f"--lr_decay_iters={args.max_iters}", f"--dropout={args.dropout}",
        "--always_save_checkpoint=True", f"--eval_interval={args.eval_interval}",
    ]


def make_workdir(base, name, nanogpt_dir, text, python):
    work = os.path.join(base, name)
    shutil.copytree(nanogpt_dir, work, ignore=shutil.ignore_patterns(".git"))
    stubs = os.path.join(base, f"stubs-{name}")
    os.makedirs(stubs, exist_ok=True)
    for module, source in (("requests", REQUESTS_STUB), ("tiktoken", TIKTOKEN_STUB)):
        probe = subprocess.run([python, "-c", f"import {module}"], capture_output=True)
        if probe.returncode != 0:
            with open(os.path.join(stubs, f"{module}.py"), "w") as f:
                f.write(source)
    shutil.copy(text, os.path.join(work, "data", "shakespeare_char", "input.txt"))
    env = dict(os.environ, PYTHONPATH=stubs + os.pathsep + os.environ.get("PYTHONPATH", ""))
    subprocess.run([python, "data/shakespeare_char/prepare.py"], cwd=work, env=env, check=True,
                   capture_output=True)
    return work, env


def run_logged(cmd, cwd, env, log_path):
    start = time.perf_counter()
    proc = subprocess.run(cmd, cwd=cwd, env=env, capture_output=True, text=True)
    elapsed = time.perf_counter() - start
    with open(log_path, "w") as f:
        f.write(proc.stdout)
        f.write("\n--- stderr ---\n" + proc.stderr)
    if proc.returncode != 0:
        raise SystemExit(f"{' '.join(cmd)} failed ({proc.returncode}); see {log_path}\n{proc.stderr[-3000:]}")
    return proc.stdout, elapsed


def compare_logs(a, b):
    la = [TIMING.sub("", line) for line in a.splitlines()]
    lb = [TIMING.sub("", line) for line in b.splitlines()]
    diffs = [(i, x, y) for i, (x, y) in enumerate(zip(la, lb)) if x != y]
    if len(la) != len(lb):
        diffs.append((min(len(la), len(lb)), f"<{len(la)} lines>", f"<{len(lb)} lines>"))
    return diffs


CKPT_COMPARE = r'''
import sys, torch
a = torch.load(sys.argv[1], map_location="cpu", weights_only=True)
b = torch.load(sys.argv[2], map_location="cpu", weights_only=True)
bad = []
def walk(x, y, path):
    if isinstance(x, torch.Tensor):
        if not isinstance(y, torch.Tensor) or x.dtype != y.dtype or x.shape != y.shape:
            bad.append(path + ": type/shape"); return
        xb = x.reshape(-1).contiguous().view(torch.uint8); yb = y.reshape(-1).contiguous().view(torch.uint8)
        if not torch.equal(xb, yb): bad.append(path)
    elif isinstance(x, dict):
        if set(x) != set(y): bad.append(path + ": keys")
        for k in x:
            if k in y: walk(x[k], y[k], f"{path}/{k}")
    elif isinstance(x, (list, tuple)):
        if len(x) != len(y): bad.append(path + ": length")
        for i, (u, v) in enumerate(zip(x, y)): walk(u, v, f"{path}[{i}]")
    elif x != y:
        bad.append(f"{path}: {x!r} != {y!r}")
walk(a, b, "ckpt")
print(len(bad)); print("\n".join(bad[:50]))
'''


def compare_checkpoints(torch_python, a, b):
    proc = subprocess.run([torch_python, "-c", CKPT_COMPARE, a, b], capture_output=True, text=True, check=True)
    n, *lines = proc.stdout.splitlines()
    return int(n), lines


INPROCESS_DRIVER = r"""
# Drives nanoGPT's model.py (imported unchanged) through train.py's CPU loop for the recipe's settings,
# recording per step: the loss and clip_grad_norm_'s total norm (raw bits), a sha256 of every gradient
# before clipping, and of every weight and AdamW state after the step. `torch` is whichever library runs us.
import hashlib, math, os, pickle, sys
import numpy as np
import torch
from model import GPTConfig, GPT

steps, dropout, out_path = int(sys.argv[1]), float(sys.argv[2]), sys.argv[3]
block_size, batch_size, lr, min_lr, warmup = 64, 12, 1e-3, 1e-4, 100
if hasattr(torch.Tensor, "_raw_bytes"):
    raw = lambda t: t.detach()._raw_bytes()
else:
    raw = lambda t: t.detach().reshape(-1).contiguous().view(torch.uint8).numpy().tobytes()
digest = lambda t: hashlib.sha256(raw(t)).hexdigest()

def get_lr(it):
    if it < warmup:
        return lr * (it + 1) / (warmup + 1)
    if it > steps:
        return min_lr
    ratio = (it - warmup) / (steps - warmup)
    return min_lr + 0.5 * (1.0 + math.cos(math.pi * ratio)) * (lr - min_lr)

def get_batch():
    data = np.memmap(os.path.join("data", "shakespeare_char", "train.bin"), dtype=np.uint16, mode="r")
    ix = torch.randint(len(data) - block_size, (batch_size,))
    x = torch.stack([torch.from_numpy((data[i:i + block_size]).astype(np.int64)) for i in ix])
    y = torch.stack([torch.from_numpy((data[i + 1:i + 1 + block_size]).astype(np.int64)) for i in ix])
    return x.to("cpu"), y.to("cpu")

torch.manual_seed(1337)
model = GPT(GPTConfig(n_layer=4, n_head=4, n_embd=128, block_size=block_size, bias=False, vocab_size=65,
                      dropout=dropout))
optimizer = model.configure_optimizers(0.1, lr, (0.9, 0.99), "cpu")
record = {"init": {n: digest(p) for n, p in model.named_parameters()}, "steps": []}
X, Y = get_batch()
for it in range(steps):
    for group in optimizer.param_groups:
        group["lr"] = get_lr(it)
    logits, loss = model(X, Y)
    loss = loss / 1
    X, Y = get_batch()
    loss.backward()
    grads = {n: digest(p.grad) for n, p in model.named_parameters()}
    norm = torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
    optimizer.step()
    optimizer.zero_grad(set_to_none=True)
    state = {}
    for n, p in model.named_parameters():
        st = optimizer.state[p]
        state[n] = (digest(p), digest(st["exp_avg"]), digest(st["exp_avg_sq"]), digest(st["step"]))
    record["steps"].append({"loss": raw(loss), "norm": raw(norm), "grads": grads, "state": state})
with open(out_path, "wb") as f:
    pickle.dump(record, f)
"""


def run_inprocess(args, sides, works, base):
    """Runs INPROCESS_DRIVER under each library; returns (first difference or None, wall times)."""
    records, times = {}, {}
    for name, launcher in sides.items():
        work, env = works[name]
        driver = os.path.join(work, "inprocess_driver.py")
        with open(driver, "w") as f:
            f.write(INPROCESS_DRIVER)
        out = os.path.join(base, f"inprocess-{name}.pkl")
        _, times[name] = run_logged(launcher + [driver, str(args.inprocess), str(args.dropout), out], work, env,
                                    os.path.join(base, f"inprocess-{name}.log"))
        with open(out, "rb") as f:
            records[name] = pickle.load(f)
    a, b = records["torch"], records["densecore"]
    if a["init"] != b["init"]:
        return "initial weights: " + ", ".join(k for k in a["init"] if a["init"][k] != b["init"].get(k)), times
    for i, (x, y) in enumerate(zip(a["steps"], b["steps"])):
        for key in ("loss", "norm"):
            if x[key] != y[key]:
                return f"step {i}: {key}", times
        for key in ("grads", "state"):
            bad = [k for k in x[key] if x[key][k] != y[key].get(k)]
            if bad:
                return f"step {i}: {key} of {', '.join(bad[:5])}", times
    if len(a["steps"]) != len(b["steps"]):
        return "different number of steps", times
    return None, times


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--nanogpt-dir", default=os.environ.get("NANOGPT_DIR"))
    ap.add_argument("--text", default=os.environ.get("NANOGPT_TEXT"),
                    help="the training text, e.g. tiny Shakespeare's input.txt (default: $NANOGPT_TEXT)")
    ap.add_argument("--max-iters", type=int, default=300)
    ap.add_argument("--dropout", type=float, default=0.0)
    ap.add_argument("--eval-interval", type=int, default=100)
    ap.add_argument("--torch-python", default=sys.executable)
    ap.add_argument("--densecore-python", default=sys.executable)
    ap.add_argument("--workdir", default=None, help="keep the work folders here (default: a temp dir)")
    ap.add_argument("--no-sample", action="store_true")
    ap.add_argument("--no-train", action="store_true", help="skip train.py (and sample.py, which needs its ckpt)")
    ap.add_argument("--inprocess", type=int, default=0, metavar="STEPS",
                    help="also drive model.py in-process for STEPS steps, comparing loss/grads/weights per step")
    args = ap.parse_args()
    if not args.nanogpt_dir or not os.path.isfile(os.path.join(args.nanogpt_dir, "train.py")):
        raise SystemExit("set NANOGPT_DIR (or --nanogpt-dir) to a checkout of karpathy/nanoGPT")
    if not args.text or not os.path.isfile(args.text):
        raise SystemExit("set NANOGPT_TEXT (or --text) to the training text, e.g. tiny Shakespeare's input.txt")

    base = args.workdir or tempfile.mkdtemp(prefix="nanogpt-parity-")
    os.makedirs(base, exist_ok=True)
    sides = {"torch": [args.torch_python], "densecore": [args.densecore_python, "-m", "densecore.run"]}
    pythons = {"torch": args.torch_python, "densecore": args.densecore_python}
    works = {name: make_workdir(base, name, args.nanogpt_dir, args.text, pythons[name]) for name in sides}
    failed = False
    if not args.no_train:
        failed |= compare_train_and_sample(args, sides, works, base)
    if args.inprocess:
        first_diff, ip_times = run_inprocess(args, sides, works, base)
        print(f"in-process {args.inprocess} steps: " + ("every loss, gradient, weight and AdamW state identical"
                                                         if first_diff is None else f"first difference at {first_diff}"))
        print(f"in-process wall time: torch {ip_times['torch']:.1f} s, densecore {ip_times['densecore']:.1f} s")
        failed |= first_diff is not None
    print(f"work folder: {base}")
    return 1 if failed else 0


def compare_train_and_sample(args, sides, works, base):
    """train.py under each library: logs and ckpt.pt compared; then sample.py's text. True if anything differs."""
    outputs, times = {}, {}
    for name, launcher in sides.items():
        work, env = works[name]
        outputs[name], times[name] = run_logged(launcher + ["train.py"] + recipe(args), work, env,
                                                os.path.join(base, f"train-{name}.log"))
        print(f"{name:>9}: train.py finished in {times[name]:.1f} s")

    diffs = compare_logs(outputs["torch"], outputs["densecore"])
    print(f"log lines differing (timings removed): {len(diffs)}")
    for i, x, y in diffs[:10]:
        print(f"  line {i}:\n    torch:     {x}\n    densecore: {y}")
    ckpts = [os.path.join(works[n][0], "out-shakespeare-char", "ckpt.pt") for n in sides]
    nbad, bad = compare_checkpoints(args.torch_python, *ckpts)
    print(f"checkpoint entries differing: {nbad}" + ("" if not bad else "\n  " + "\n  ".join(bad[:10])))
    print(f"checkpoint files byte-identical: {filecmp.cmp(*ckpts, shallow=False)}")

    sample_diff = None
    if not args.no_sample:
        samples = {}
        for name, launcher in sides.items():
            work, env = works[name]
            samples[name], sample_time = run_logged(launcher + ["sample.py", "--out_dir=out-shakespeare-char", "--device=cpu"],
                                          work, env, os.path.join(base, f"sample-{name}.log"))
            print(f"{name:>9}: sample.py finished in {sample_time:.1f} s")
        sample_diff = samples["torch"] != samples["densecore"]
        print(f"sample.py output identical: {not sample_diff}")
    print(f"wall time: torch {times['torch']:.1f} s, densecore {times['densecore']:.1f} s "
          f"(ratio {times['densecore'] / times['torch']:.2f})")
    return bool(diffs or nbad or sample_diff)


if __name__ == "__main__":
    sys.exit(main())
