#!/usr/bin/env bash
# DenseCore under AddressSanitizer + UndefinedBehaviorSanitizer (cmake/hardening.cmake, DENSECORE_SANITIZE=ON),
# built in a folder of its own (<the environment's build folder>/asan) with the same per-CPU-capability kernels
# as the release build. Runs the C++ tests, then the Python tests with the sanitizer runtimes preloaded:
#   bash scripts/sanitize.sh          # the fast subset scripts/test.sh (and so CI) runs, listed below
#   bash scripts/sanitize.sh --full   # every Python test
#   bash scripts/sanitize.sh tests/python/test_views.py -k slice    # or any pytest arguments
# Any sanitizer report stops the process that made it with a non-zero exit, which fails the test.
# docs/reliability.md explains each setting below.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"

# The fast subset: the tests whose inputs reach the C++ code in the most different ways, at a fraction of the
# suite's time (docs/reliability.md lists why each file is here and what the full run takes).
fast_subset=(
  tests/python/test_hardening.py        # the module itself: the sanitizer build is recognised, not fortified
  tests/python/test_safety_sizes.py     # sizes, strides and offsets at the overflow edges
  tests/python/test_inplace_views.py    # views, in-place ops, version counters, CopySlices
  tests/python/test_load_hostile.py     # hand-made hostile checkpoints through the zip reader and rebuild
  tests/python/test_fuzz_load.py        # 2,000 mutated checkpoints (DENSECORE_FUZZ_COUNT below)
  tests/python/test_views.py            # every view op's layout arithmetic
  tests/python/test_indexing.py         # index, index_put, gather/scatter bounds
)

case "${1:-}" in
  --full) pytest_args=(tests/python) ;;
  "") pytest_args=("${fast_subset[@]}") ;;
  *) pytest_args=("$@") ;;
esac

WITH_TEST_DEPS=1 source scripts/env.sh
build="$DENSECORE_ENV_BUILD/asan"
if [ -f "$build/build.ninja" ]; then
  echo "== sanitizer build in $build (only what changed is recompiled)"
else
  echo "== sanitizer build in $build: the first build compiles about 140 files and takes about 10 minutes on 2 cores"
fi
DENSECORE_CMAKE_ARGS="-DDENSECORE_SANITIZE=ON" PYTHON=python bash scripts/dev_build.sh "$build"

# halt_on_error: the first report ends the process. detect_leaks=0: CPython keeps its interpreter-lifetime
# allocations at exit, so LeakSanitizer would report those on every run. allocator_may_return_null=1: an
# allocation too large for the machine fails as it does with glibc's malloc (our error path), instead of ASan
# aborting on the request itself.
export ASAN_OPTIONS=halt_on_error=1:detect_leaks=0:allocator_may_return_null=1
export UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1

echo "== C++ tests under ASan+UBSan"
ctest --test-dir "$build" --output-on-failure -j2

echo "== Python tests under ASan+UBSan: ${pytest_args[*]}"
# The runtimes must be loaded before anything else in a Python process (python itself is not instrumented):
# LD_PRELOAD, passed on to every child process the tests start (the torch side of the oracle too, where ASan
# only watches malloc/free: torch is not instrumented). PYTHONMALLOC=malloc sends every Python object to ASan's
# allocator, so an overflow out of an object the binding writes is caught too.
preload="$(readlink -f "$(g++ -print-file-name=libasan.so)") $(readlink -f "$(g++ -print-file-name=libubsan.so)")"
# test_graphs_and_threads.py is left out of the fast subset: its 10^6-node graphs take over 10 minutes under
# ASan with PYTHONMALLOC=malloc (the --full run has it).
LD_PRELOAD="$preload" PYTHONMALLOC=malloc DENSECORE_FUZZ_COUNT=2000 DENSECORE_BUILD_DIR="$build/python/src" DENSECORE_REQUIRE_ORACLE=1 \
  python -m pytest -q -p no:cacheprovider -n "${DENSECORE_TEST_WORKERS:-2}" "${pytest_args[@]}"
