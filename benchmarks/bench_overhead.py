"""Per-op overhead on tiny tensors: DenseCore vs PyTorch in the same run, as ratios.

Each library runs in its own process (they must not share one: two OpenMP runtimes, two MKLs); the
processes alternate ROUNDS times so that machine noise hits both alike. Before timing, each op's
result is checked bit-equal between the two libraries.

    python benchmarks/bench_overhead.py [--rounds 5] [--number 20000]
"""
import argparse
import os
import pickle
import statistics
import subprocess
import sys

# name -> (setup, statement); `torch` is the library under test.
OPS = {
    "x + y": ("x = torch.ones(3); y = torch.ones(3)", "x + y"),
    "x.view(3, 1)": ("x = torch.ones(3)", "x.view(3, 1)"),
    "x[1:3]": ("x = torch.ones(3)", "x[1:3]"),
    "torch.zeros(3)": ("", "torch.zeros(3)"),
    "x * 2.0": ("x = torch.ones(3)", "x * 2.0"),
    "a @ b (4x4)": ("a = torch.ones(4, 4); b = torch.ones(4, 4)", "a @ b"),
}

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
out = {}
for name, (setup, stmt) in ops.items():
    scope = {"torch": torch}
    exec(setup, scope)
    value = raw(eval(stmt, scope))
    t = timeit.Timer(stmt, globals=scope)
    secs = min(t.repeat(repeat=3, number=number)) / number
    out[name] = (secs, value)
sys.stdout.buffer.write(pickle.dumps(out))
"""


def run(lib, number):
    env = dict(os.environ)
    proc = subprocess.run([sys.executable, "-c", CHILD, lib, str(number)], input=pickle.dumps(OPS),
                          capture_output=True, env=env, check=True)
    return pickle.loads(proc.stdout)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--number", type=int, default=20000)
    args = ap.parse_args()
    times = {lib: {name: [] for name in OPS} for lib in ("torch", "densecore")}
    for _ in range(args.rounds):
        results = {lib: run(lib, args.number) for lib in ("torch", "densecore")}
        for name in OPS:
            if results["torch"][name][1] != results["densecore"][name][1]:
                sys.exit(f"{name}: results differ between torch and densecore; not timing it")
            for lib in results:
                times[lib][name].append(results[lib][name][0] * 1e9)
    print(f"per-call time in ns, {args.rounds} alternating rounds (min/median/max); ratio = densecore/torch medians")
    print(f"{'op':<16} {'torch':>22} {'densecore':>22} {'ratio':>6}")
    for name in OPS:
        t, d = times["torch"][name], times["densecore"][name]
        fmt = lambda v: f"{min(v):6.0f}/{statistics.median(v):6.0f}/{max(v):6.0f}"
        print(f"{name:<16} {fmt(t):>22} {fmt(d):>22} {statistics.median(d) / statistics.median(t):6.2f}")


if __name__ == "__main__":
    main()
