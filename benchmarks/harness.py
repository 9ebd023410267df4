"""What every benchmark here shares: the CPU line it prints, and the start of its child program (the library
under test imported as `torch`, `raw(t)` for a tensor's bits, `load(name, path)` for a module by path).

A child program starts with CHILD_PREAMBLE, which reads the library's name from sys.argv[1]; each library
runs in a process of its own (two OpenMP runtimes and two MKLs must not share one)."""
import os
import pickle
import subprocess
import sys

CHILD_PREAMBLE = r"""
import importlib.util, os, pickle, statistics, sys, time
lib = sys.argv[1]
if lib == "torch":
    import torch
    raw = lambda t: t.detach().reshape(-1).contiguous().view(torch.uint8).numpy().tobytes()
else:
    import densecore as torch
    raw = lambda t: t.detach()._raw_bytes()
def load(name, path):
    spec = importlib.util.spec_from_file_location(name, path)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod
"""


def cpu_name():
    with open("/proc/cpuinfo") as f:
        info = f.read()
    name = next((line.split(":", 1)[1].strip() for line in info.splitlines() if line.startswith("model name")), "?")
    flags = set(next((line.split(":", 1)[1].split() for line in info.splitlines() if line.startswith("flags")), []))
    return f"{name}, {'AVX-512' if 'avx512f' in flags else 'AVX2' if 'avx2' in flags else 'no AVX2'}, {os.cpu_count()} cores"


def run_child(program, lib, args, stdin=None, threads=0):
    """Runs `program` (CHILD_PREAMBLE + its own code) for `lib` in a fresh process and returns what it
    pickled to stdout; stops the benchmark with the child's error output if it fails. `threads`: the
    OMP_NUM_THREADS to give it (0: inherited)."""
    env = dict(os.environ)
    if threads:
        env["OMP_NUM_THREADS"] = str(threads)
    proc = subprocess.run([sys.executable, "-c", program, lib, *map(str, args)], input=stdin,
                          capture_output=True, env=env)
    if proc.returncode != 0:
        sys.exit(f"{lib} child failed:\n{proc.stderr.decode()[-3000:]}")
    return pickle.loads(proc.stdout)
