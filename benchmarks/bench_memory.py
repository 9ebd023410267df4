"""Memory of the small-model workloads of issue 10, DenseCore vs PyTorch: peak RSS, and whether RSS grows
over many training steps (the allocator reusing freed blocks rather than asking the system for more).

Each workload runs in a fresh process per library (two OpenMP runtimes and two MKLs must not share one). A
process seeds, builds the model and trains STEPS steps; it samples its resident set size (/proc/self/statm)
after the first WARMUP steps and at ten evenly spaced points after, and reports its peak RSS
(getrusage ru_maxrss). The two libraries' final weights must be equal bit for bit before anything is
printed. "growth" is the last sample minus the one after warm-up: a leak or an allocator that does not reuse
freed blocks shows there. --quick (CI's smoke test) runs a few steps and asserts nothing about memory.

    python benchmarks/bench_memory.py [--steps-mlp 10000] [--steps-gpt 1000] [--quick]
"""
import argparse
import os
import pickle
import sys

from bench_workloads import workloads as timed_workloads
from harness import CHILD_PREAMBLE, cpu_name, run_child

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
WARMUP = 10

CHILD = CHILD_PREAMBLE + r"""
import resource
PKG = sys.argv[2]
program, steps, warmup = pickle.loads(sys.stdin.buffer.read())
page = os.sysconf("SC_PAGE_SIZE")
def rss_mib():
    with open("/proc/self/statm") as f:
        return int(f.read().split()[1]) * page / 2**20
torch.manual_seed(0)
scope = dict(globals())
exec(program, scope)
start = rss_mib()
every = max(1, (steps - warmup) // 10)
samples = []
for i in range(steps):
    scope["iteration"]()
    if i + 1 == warmup or (i + 1 > warmup and (i + 1 - warmup) % every == 0):
        samples.append(round(rss_mib(), 1))
peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
sys.stdout.buffer.write(pickle.dumps({"bits": scope["final_bits"](), "start": start, "samples": samples,
                                      "peak": peak}))
"""


def workloads(steps_mlp, steps_gpt):
    """name -> (program, threads, steps): two of bench_workloads' programs, run for their memory."""
    timed = timed_workloads()
    steps = {"mlp-adam-b1024": steps_mlp, "gpt-step-t1": steps_gpt}
    return {name: (timed[name][0], timed[name][1], n) for name, n in steps.items()}


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--steps-mlp", type=int, default=10_000)
    ap.add_argument("--steps-gpt", type=int, default=1_000)
    ap.add_argument("--quick", action="store_true", help="a few steps each (a smoke test)")
    args = ap.parse_args()
    steps_mlp, steps_gpt = (WARMUP + 10, WARMUP + 10) if args.quick else (args.steps_mlp, args.steps_gpt)
    print(f"CPU: {cpu_name()}")
    print("RSS in MiB: after import and model set-up / after the warm-up steps / last sample; growth = last - "
          "after warm-up; peak = ru_maxrss; final weights checked equal")
    print(f"{'workload':<16} {'steps':>6} {'library':<10} {'set-up':>7} {'warm':>7} {'last':>7} {'growth':>7} "
          f"{'peak':>7}")
    for name, (program, threads, steps) in workloads(steps_mlp, steps_gpt).items():
        results = {lib: run_child(CHILD, lib, [os.path.join(ROOT, "python", "densecore")],
                                  stdin=pickle.dumps((program, steps, WARMUP)), threads=threads)
                   for lib in ("torch", "densecore")}
        if results["torch"]["bits"] != results["densecore"]["bits"]:
            sys.exit(f"{name}: final weights differ between torch and densecore; not reporting memory")
        for lib, r in results.items():
            s = r["samples"]
            print(f"{name:<16} {steps:>6} {lib:<10} {r['start']:7.1f} {s[0]:7.1f} {s[-1]:7.1f} "
                  f"{s[-1] - s[0]:7.1f} {r['peak']:7.1f}", flush=True)
        for lib, r in results.items():
            print(f"{'':<16} {'':>6} {lib} samples: {r['samples']}")


if __name__ == "__main__":
    main()
