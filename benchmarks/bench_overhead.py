"""Per-op time, DenseCore vs PyTorch in the same run, as ratios: the overhead on tiny tensors (--set
overhead, the default), the kernels of the small-model workloads at their sizes (--set kernels), or the
five matrix products of the batch-32 MLP training step, one thread (--set mlp-gemms, with their sum:
the part of that step that is MKL's sgemm in both libraries).

Each library runs in its own process (they must not share one: two OpenMP runtimes, two MKLs); the
processes alternate ROUNDS times so that machine noise hits both alike. Before timing, each op's
result is checked bit-equal between the two libraries. The CPU and torch's capability are printed.

    python benchmarks/bench_overhead.py [--set overhead|kernels] [--rounds 5] [--number N]
"""
import argparse
import os
import pickle
import statistics
import subprocess
import sys

from harness import cpu_name

# name -> (setup, statement); `torch` is the library under test.
OPS = {
    "x + y": ("x = torch.ones(3); y = torch.ones(3)", "x + y"),
    "x.view(3, 1)": ("x = torch.ones(3)", "x.view(3, 1)"),
    "x[1:3]": ("x = torch.ones(3)", "x[1:3]"),
    "torch.zeros(3)": ("", "torch.zeros(3)"),
    "x * 2.0": ("x = torch.ones(3)", "x * 2.0"),
    "a @ b (4x4)": ("a = torch.ones(4, 4); b = torch.ones(4, 4)", "a @ b"),
}

# The ops issue 10 found slow at the MLP (batch 1024) and GPT sizes. A forward + backward case times step(),
# which returns the input's gradient, so the bits of both passes are checked.
def _fwd_bwd(shape, f):
    return (f"torch.manual_seed(0); x = torch.randn({shape}, requires_grad=True); g = torch.randn({shape})\n"
            f"def step():\n    x.grad = None\n    ({f}).backward(g)\n    return x.grad", "step()")


KERNELS = {
    "relu fwd 1024x128": ("torch.manual_seed(0); x = torch.randn(1024, 128)", "torch.relu(x)"),
    "relu fwd+bwd 1024x128": _fwd_bwd("1024, 128", "torch.relu(x)"),
    "gelu fwd 1024x256": ("torch.manual_seed(0); x = torch.randn(1024, 256)", "torch.nn.functional.gelu(x)"),
    "gelu fwd+bwd 1024x256": _fwd_bwd("1024, 256", "torch.nn.functional.gelu(x)"),
    "softmax 1024x65": ("torch.manual_seed(0); x = torch.randn(1024, 65)", "torch.softmax(x, -1)"),
    "log_softmax 1024x65": ("torch.manual_seed(0); x = torch.randn(1024, 65)", "torch.log_softmax(x, -1)"),
}
# The MLP step of bench_workloads.py at batch 32 (64 -> 128 -> ReLU -> 32): two addmm forward, then the
# second layer's input and weight gradients and the first layer's weight gradient.
_MLP32 = ("torch.set_num_threads(1); torch.manual_seed(0); x = torch.randn(32, 64); w1 = torch.randn(128, 64)\n"
          "b1 = torch.randn(128); h = torch.randn(32, 128); w2 = torch.randn(32, 128); b2 = torch.randn(32)\n"
          "g = torch.randn(32, 32); gh = torch.randn(32, 128)")
MLP_GEMMS = {
    "addmm(b1, x, w1.t())": (_MLP32, "torch.addmm(b1, x, w1.t())"),
    "addmm(b2, h, w2.t())": (_MLP32, "torch.addmm(b2, h, w2.t())"),
    "g @ w2": (_MLP32, "g @ w2"),
    "g.t() @ h": (_MLP32, "g.t() @ h"),
    "gh.t() @ x": (_MLP32, "gh.t() @ x"),
}
SETS = {"overhead": (OPS, 20000), "kernels": (KERNELS, 200), "mlp-gemms": (MLP_GEMMS, 2000)}

CHILD = r"""
import pickle, sys, timeit
lib, number = sys.argv[1], int(sys.argv[2])
if lib == "torch":
    import torch
    raw = lambda t: t.reshape(-1).contiguous().view(torch.uint8).numpy().tobytes()
else:
    import densecore as torch
    raw = lambda t: t._raw_bytes()
ops = pickle.loads(sys.stdin.buffer.read())
out = {"": (0.0, repr((torch.__name__, torch.backends.cpu.get_cpu_capability())).encode())}
for name, (setup, stmt) in ops.items():
    scope = {"torch": torch}
    exec(setup, scope)
    value = raw(eval(stmt, scope))
    t = timeit.Timer(stmt, globals=scope)
    secs = min(t.repeat(repeat=3, number=number)) / number
    out[name] = (secs, value)
sys.stdout.buffer.write(pickle.dumps(out))
"""


def run(lib, ops, number):
    env = dict(os.environ)
    proc = subprocess.run([sys.executable, "-c", CHILD, lib, str(number)], input=pickle.dumps(ops),
                          capture_output=True, env=env, check=True)
    return pickle.loads(proc.stdout)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--set", choices=sorted(SETS), default="overhead")
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--number", type=int, default=None, help="calls per timing (default: 20000 / 200)")
    args = ap.parse_args()
    ops, number = SETS[args.set]
    number = args.number or number
    times = {lib: {name: [] for name in ops} for lib in ("torch", "densecore")}
    for r in range(args.rounds):
        results = {lib: run(lib, ops, number) for lib in ("torch", "densecore")}
        if r == 0:
            print(f"CPU: {cpu_name()}; capability: torch {results['torch'].pop('')[1].decode()}, "
                  f"densecore {results['densecore'].pop('')[1].decode()}")
        for name in ops:
            if results["torch"][name][1] != results["densecore"][name][1]:
                sys.exit(f"{name}: results differ between torch and densecore; not timing it")
            for lib in results:
                times[lib][name].append(results[lib][name][0] * 1e9)
    print(f"per-call time in ns, {args.rounds} alternating rounds (min/median/max); ratio = densecore/torch medians")
    print(f"{'op':<22} {'torch':>28} {'densecore':>28} {'ratio':>6}")
    for name in ops:
        t, d = times["torch"][name], times["densecore"][name]
        fmt = lambda v: f"{min(v):8.0f}/{statistics.median(v):8.0f}/{max(v):8.0f}"
        print(f"{name:<22} {fmt(t):>28} {fmt(d):>28} {statistics.median(d) / statistics.median(t):6.2f}")
    if args.set == "mlp-gemms":
        total = {lib: sum(statistics.median(v) for v in times[lib].values()) for lib in times}
        print(f"{'sum of medians':<22} {total['torch']:>28.0f} {total['densecore']:>28.0f} "
              f"{total['densecore'] / total['torch']:6.2f}")


if __name__ == "__main__":
    main()
