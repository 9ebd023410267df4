"""The small-model workloads of issue 10, DenseCore vs PyTorch in the same run, as ratios.

    mlp-<opt>-b<batch>   MLP 64 -> 128 -> ReLU -> 32, MSE loss, one training step (SGD, SGD with momentum
                         or Adam), batch 1, 32 or 1024, 1 thread
    gpt-step-t<n>        character GPT of ~113k parameters (2 layers, 4 heads, 64 embedding, block 64,
                         vocabulary 65), batch 16, Adam, one training step, 1 or 2 threads
    gpt-generate         the same GPT generating 100 tokens under no_grad (softmax, multinomial), 1 thread

Each workload runs in fresh processes, one per library, alternating ROUNDS times (two OpenMP runtimes and
two MKLs must not share a process). A process seeds, builds the model, runs WARMUP untimed iterations and
then times ITERS iterations one by one; it returns every loss, the final weights (or the generated tokens)
as raw bits and the median iteration time. Every round checks the bits are equal before its times count.
The CPU and each library's capability are printed. --quick (CI's smoke test) runs every workload once
with a few iterations and asserts nothing about time.

    python benchmarks/bench_workloads.py [--rounds 3] [--only mlp|gpt] [--quick]
"""
import argparse
import os
import pickle
import statistics
import sys

from harness import CHILD_PREAMBLE, cpu_name, run_child

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

# One training step of a program's model on its loss_of_batch(); its bits are the loss, then the weights.
TRAIN = """
def iteration():
    loss = loss_of_batch()
    opt.zero_grad(set_to_none=True)
    loss.backward()
    opt.step()
    return loss
def final_bits():
    return [raw(p) for p in model.parameters()]
"""

MLP = """
model = torch.nn.Sequential(torch.nn.Linear(64, 128), torch.nn.ReLU(), torch.nn.Linear(128, 32))
opt = OPTIMIZERS[OPT](model.parameters())
x, y = torch.randn(BATCH, 64), torch.randn(BATCH, 32)
def loss_of_batch():
    return torch.nn.functional.mse_loss(model(x), y)
""" + TRAIN

GPT = """
gpt = load("_demo_gpt", os.path.join(PKG, "_demo_gpt.py"))
model = gpt.build_model(torch, 65, 64, n_layer=2, n_head=4, n_embd=64, dropout=0.0)
opt = torch.optim.Adam(model.parameters(), lr=1e-3)
data = torch.randint(65, (4096,))
def loss_of_batch():
    ix = torch.randint(4096 - 65, (16,))
    xb = torch.stack([data[i:i + 64] for i in ix])
    yb = torch.stack([data[i + 1:i + 65] for i in ix])
    return model(xb, yb)[1]
""" + TRAIN

GENERATE = """
gpt = load("_demo_gpt", os.path.join(PKG, "_demo_gpt.py"))
model = gpt.build_model(torch, 65, 64, n_layer=2, n_head=4, n_embd=64, dropout=0.0)
model.eval()
tokens = []
def iteration():
    idx = torch.zeros(1, 1, dtype=torch.long)
    with torch.no_grad():
        for _ in range(100):
            logits, _ = model(idx[:, -64:])
            probs = torch.nn.functional.softmax(logits[:, -1, :], dim=-1)
            idx = torch.cat((idx, torch.multinomial(probs, num_samples=1)), dim=1)
    tokens.append(idx)
    return idx
def final_bits():
    return [raw(t) for t in tokens]
"""

OPTIMIZERS = ("{'sgd': lambda p: torch.optim.SGD(p, lr=0.01), "
              "'momentum': lambda p: torch.optim.SGD(p, lr=0.01, momentum=0.9), "
              "'adam': lambda p: torch.optim.Adam(p, lr=1e-3)}")


def workloads():
    """name -> (program, threads, warmup, iters)."""
    out = {}
    for batch in (1, 32, 1024):
        for opt in ("sgd", "momentum", "adam"):
            program = f"OPTIMIZERS = {OPTIMIZERS}\nOPT, BATCH = {opt!r}, {batch}\n" + MLP
            out[f"mlp-{opt}-b{batch}"] = (program, 1, 50, 400 if batch < 1024 else 100)
    for threads in (1, 2):
        out[f"gpt-step-t{threads}"] = (GPT, threads, 3, 20)
    out["gpt-generate"] = (GENERATE, 1, 1, 3)
    return out


CHILD = CHILD_PREAMBLE + r"""
PKG = sys.argv[2]
program, warmup, iters = pickle.loads(sys.stdin.buffer.read())
torch.manual_seed(0)
scope = dict(globals())
exec(program, scope)
bits, times = [], []
for i in range(warmup + iters):
    start = time.perf_counter()
    value = scope["iteration"]()
    times.append(time.perf_counter() - start)
    bits.append(raw(value))
bits.append(scope["final_bits"]())
cap = (torch.__name__, torch.backends.cpu.get_cpu_capability())
sys.stdout.buffer.write(pickle.dumps({"bits": bits, "time": statistics.median(times[warmup:]), "cap": cap}))
"""


def run(lib, program, threads, warmup, iters):
    return run_child(CHILD, lib, [os.path.join(ROOT, "python", "densecore")],
                     stdin=pickle.dumps((program, warmup, iters)), threads=threads)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--only", choices=("mlp", "gpt"), help="run only the workloads whose name starts with this")
    ap.add_argument("--quick", action="store_true", help="one round of a few iterations each (a smoke test)")
    args = ap.parse_args()
    chosen = {k: v for k, v in workloads().items() if not args.only or k.startswith(args.only)}
    rounds = 1 if args.quick else args.rounds
    print(f"CPU: {cpu_name()}")
    print(f"median time per iteration in microseconds over {rounds} alternating rounds (min/median/max); "
          "ratio = densecore/torch medians; bits checked equal in every round")
    print(f"{'workload':<20} {'thr':>3} {'torch':>26} {'densecore':>26} {'ratio':>6}")
    caps = None
    for name, (program, threads, warmup, iters) in chosen.items():
        if args.quick:
            warmup, iters = 1, 2
        times = {"torch": [], "densecore": []}
        for _ in range(rounds):
            results = {lib: run(lib, program, threads, warmup, iters) for lib in times}
            if results["torch"]["bits"] != results["densecore"]["bits"]:
                sys.exit(f"{name}: losses, weights or tokens differ between torch and densecore; not timing it")
            caps = caps or (results["torch"]["cap"], results["densecore"]["cap"])
            for lib in times:
                times[lib].append(results[lib]["time"] * 1e6)
        t, d = times["torch"], times["densecore"]
        fmt = lambda v: f"{min(v):8.0f}/{statistics.median(v):8.0f}/{max(v):8.0f}"
        print(f"{name:<20} {threads:>3} {fmt(t):>26} {fmt(d):>26} {statistics.median(d) / statistics.median(t):6.2f}",
              flush=True)
    print(f"capability: torch {caps[0]}, densecore {caps[1]}")


if __name__ == "__main__":
    main()
