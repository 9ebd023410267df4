"""Deep graphs are freed without recursion; Python threads run while DenseCore computes, and threads
training their own models get the bits a serial run gets (issue 7, items 6 and 8).

Each check runs in a child process, so a stack overflow or a crash fails the test instead of ending
the test run.
"""
import os
import subprocess
import sys
import textwrap

import oracle
import pytest

pytestmark = pytest.mark.notorch


# Under AddressSanitizer (scripts/sanitize.sh preloads its runtime, with PYTHONMALLOC=malloc) every node's
# allocations go through ASan's allocator and every Python object through malloc: the million-node graphs
# take well over the 10 minutes a normal build needs a fraction of. The sizes stay what the issue asks for
# (the point is the stack depth); only the time allowed grows.
_TIME_SCALE = 6 if oracle.UNDER_ASAN else 1


def _run(code, timeout=600):
    timeout *= _TIME_SCALE
    env = dict(os.environ)
    if env.get("DENSECORE_BUILD_DIR"):
        env["PYTHONPATH"] = os.path.join(oracle.ROOT, "python") + os.pathsep + env.get("PYTHONPATH", "")
    proc = subprocess.run([sys.executable, "-c", textwrap.dedent(code)], capture_output=True, env=env, timeout=timeout)
    assert proc.returncode == 0, f"child failed ({proc.returncode}):\n{proc.stderr.decode()[-3000:]}"
    return proc.stdout.decode()


def test_a_million_node_graph_is_freed_without_recursion():
    out = _run("""
        import resource, densecore as torch
        # A small stack: a recursive teardown of a million nodes would overflow it many times over.
        resource.setrlimit(resource.RLIMIT_STACK, (1 << 20, resource.getrlimit(resource.RLIMIT_STACK)[1]))
        w = torch.ones(2, requires_grad=True)
        total = torch.zeros(2)
        for _ in range(1_000_000):
            total = total + w * 1.0
        del total
        print("freed")
    """)
    assert out.strip() == "freed"


def test_a_long_chain_runs_backward_and_is_freed():
    out = _run("""
        import densecore as torch
        w = torch.ones(3, requires_grad=True)
        y = w
        for _ in range(200_000):
            y = y * 1.0
        y.sum().backward()
        del y
        print(w.grad.tolist())
    """)
    assert out.strip() == "[1.0, 1.0, 1.0]"


def test_other_python_threads_run_during_long_native_work():
    out = _run("""
        import threading, time, densecore as torch
        a = torch.randn(1024, 1024); b = torch.randn(1024, 1024)
        ticks = []
        stop = False
        def ticker():
            while not stop:
                ticks.append(time.perf_counter()); time.sleep(0.001)
        t = threading.Thread(target=ticker); t.start()
        time.sleep(0.05)
        start = time.perf_counter()
        for _ in range(8):
            c = a @ b
            s = (c * c).sum()
        end = time.perf_counter()
        stop = True; t.join()
        during = sum(1 for x in ticks if start < x < end)
        print(during, end - start)
    """)
    during, seconds = out.split()
    # With the GIL held for the whole loop the ticker could not run at all.
    assert int(during) >= 5, f"only {during} ticks in {seconds} s of matmuls: the GIL was held"


def test_threads_training_their_own_models_match_serial_runs():
    out = _run("""
        import threading, densecore as torch
        def make(seed):  # models and data are made serially: init draws from the global generator
            torch.manual_seed(seed)
            model = torch.nn.Sequential(torch.nn.Linear(64, 256), torch.nn.GELU(), torch.nn.Linear(256, 8))
            return model, torch.randn(512, 64), torch.randn(512, 8)
        def train(job, out, key):
            model, x, y = job
            opt = torch.optim.AdamW(model.parameters(), lr=1e-3)
            for _ in range(20):
                loss = ((model(x) - y) ** 2).mean()
                opt.zero_grad(); loss.backward(); opt.step()
            out[key] = [p.detach().clone() for p in model.parameters()]
        serial, threaded = {}, {}
        for s in range(3):
            train(make(s), serial, s)
        jobs = [make(s) for s in range(3)]
        threads = [threading.Thread(target=train, args=(jobs[s], threaded, s)) for s in range(3)]
        for t in threads: t.start()
        for t in threads: t.join()
        same = all(torch.equal(a, b) for s in range(3) for a, b in zip(serial[s], threaded[s]))
        print(same)
    """, timeout=900)
    assert out.strip() == "True"


def test_a_weight_tensor_that_needs_grad_is_refused_not_dropped():
    # torch.lerp with a 0-dim weight that requires grad is lerp.Tensor, which gives the weight a gradient.
    # DenseCore does not mirror that overload yet: it must refuse, not read the weight as a number and lose its
    # gradient. A plain 0-dim weight is a Scalar in torch's parser, and works.
    out = _run("""
        import densecore as torch
        a, b = torch.ones(3), torch.zeros(3)
        try:
            torch.lerp(a, b, torch.tensor(0.25, requires_grad=True))
            print("taken")
        except NotImplementedError:
            print("refused")
        print(torch.lerp(a, b, torch.tensor(0.25)).tolist())
    """)
    assert out.split("\n")[:2] == ["refused", "[0.75, 0.75, 0.75]"]
