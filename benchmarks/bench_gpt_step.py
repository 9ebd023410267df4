"""Training-step time of a small GPT (nanoGPT's CPU recipe shape): DenseCore vs PyTorch, as ratios.

The model and loop are the shipped demo's (densecore/_demo_gpt.py: tied embeddings, bias-free LayerNorm,
causal SDPA, GELU MLP, dropout, AdamW with decay groups, clip_grad_norm_), at nanoGPT's README CPU
recipe: 4 layers, 4 heads, 128 embedding, block 64, batch 12. Each library runs in its own process; the
processes alternate ROUNDS times. Every round first checks that both produced the same bits (every
step's loss and the final weights); then the per-step wall times after WARMUP steps are compared.

    python benchmarks/bench_gpt_step.py [--rounds 3] [--steps 40] [--dropout 0.0] [--threads N]
"""
import argparse
import os
import statistics
import sys

from harness import CHILD_PREAMBLE, run_child

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
WARMUP = 5

CHILD = CHILD_PREAMBLE + r"""
gpt_path, text_path, steps, dropout = sys.argv[2], sys.argv[3], int(sys.argv[4]), float(sys.argv[5])
gpt = load("_demo_gpt", gpt_path)
text = load("_demo_text", text_path).corpus_text()
stamps = []
out = gpt.train(torch, text, raw, steps=steps, batch=12, block=64, n_layer=4, n_head=4, n_embd=128,
                dropout=dropout, log_every=steps, sample_len=1, on_step=lambda s, l: stamps.append(time.perf_counter()))
step_times = [b - a for a, b in zip(stamps, stamps[1:])]
sys.stdout.buffer.write(pickle.dumps({"bits": (out["loss"], out["weights"]), "step_times": step_times}))
"""


def run(lib, args):
    pkg = os.path.join(ROOT, "python", "densecore")
    return run_child(CHILD, lib, [os.path.join(pkg, "_demo_gpt.py"), os.path.join(pkg, "_demo_text.py"), args.steps,
                                  args.dropout], threads=args.threads)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--steps", type=int, default=40)
    ap.add_argument("--dropout", type=float, default=0.0)
    ap.add_argument("--threads", type=int, default=0, help="OMP_NUM_THREADS for both (default: unset)")
    args = ap.parse_args()
    times = {"torch": [], "densecore": []}
    for _ in range(args.rounds):
        results = {lib: run(lib, args) for lib in times}
        if results["torch"]["bits"] != results["densecore"]["bits"]:
            sys.exit("losses or final weights differ between torch and densecore; not timing")
        for lib in times:
            times[lib].append(statistics.median(results[lib]["step_times"][WARMUP:]) * 1e3)
    print(f"median step time in ms per round, {args.rounds} alternating rounds (min/median/max); "
          f"threads={args.threads or 'default'}, dropout={args.dropout}; bits identical in every round")
    fmt = lambda v: f"{min(v):7.1f}/{statistics.median(v):7.1f}/{max(v):7.1f}"
    t, d = times["torch"], times["densecore"]
    print(f"torch     {fmt(t)}\ndensecore {fmt(d)}\nratio (densecore/torch medians) {statistics.median(d) / statistics.median(t):.2f}")


if __name__ == "__main__":
    main()
