#!/usr/bin/env bash
# Runs every test on a fresh machine: installs what is missing (GoogleTest from Debian, a virtual
# environment with PyTorch 2.14.1 as the oracle and the pinned MKL), builds DenseCore with its C++ tests,
# runs the C++ tests (ctest) and the Python tests (pytest), the tests that need no torch against the wheel
# installed in an environment without torch (and mypy over tests/typing against it), then the sanitizer
# stage (scripts/sanitize.sh: the C++ tests and a fast subset of the Python tests under ASan+UBSan, in a
# build folder of its own).
# Between the two, every benchmark runs once in its quick form (bits checked, times not asserted).
# Arguments go to pytest; a test selection given that way skips the benchmarks and sanitizers, and says so.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
# Each stage's heading says when it started, so a slow stage shows in the log (docs/reliability.md, section 7).
stage() { printf '== [%d min %02d s] %s\n' $((SECONDS / 60)) $((SECONDS % 60)) "$1"; }

if [ ! -f /usr/include/gtest/gtest.h ]; then
  echo "== installing GoogleTest (libgtest-dev)"
  SUDO=$([ "$(id -u)" = 0 ] && echo "" || echo sudo)
  $SUDO apt-get update -qq && $SUDO apt-get install -y -qq libgtest-dev >/dev/null
fi

WITH_TEST_DEPS=1 source scripts/env.sh
# The C++ tests are built in the same folder as the installed module: the core is compiled once.
bash scripts/build.sh -C cmake.define.DENSECORE_BUILD_TESTS=ON
# What a user installs is the repaired wheel (manylinux tag, libgomp vendored and renamed, patchelf-edited _C):
# the Python tests run against that one. Repairing the wheel just built takes seconds, not a second build.
repaired="$DENSECORE_ENV_BUILD/wheel-repaired"
bash scripts/repair_wheel.sh "$DENSECORE_ENV_BUILD"/wheel/densecore-*-linux_x86_64.whl "$repaired"
pip install --no-deps --force-reinstall "$repaired"/densecore-*.whl

stage "C++ tests"
ctest --test-dir "$DENSECORE_ENV_BUILD/pip" --output-on-failure -j2

stage "Python tests"
# From the checkout, without DENSECORE_BUILD_DIR: the installed package is tested, not the source tree.
# Two workers (pytest-xdist): most of a test's time is a child process importing torch or DenseCore.
# Arguments, when given, are the selection (files, -k ...); otherwise every test in tests/python.
selection=("$@")
[ $# -gt 0 ] || selection=(tests/python)
DENSECORE_REQUIRE_ORACLE=1 python -m pytest -q -p no:cacheprovider -n "${DENSECORE_TEST_WORKERS:-2}" "${selection[@]}"

stage "the installed wheel without torch"
# The wheel just built and repaired, in a fresh environment that has no torch: the tests that need none (notorch) run
# against the installed package from outside the checkout, as a user's install would be.
notorch="$DENSECORE_ENV_BUILD/venv-notorch"
rm -rf "$notorch"
python3 -m venv "$notorch"
"$notorch/bin/pip" install -q pytest pytest-xdist numpy  # numpy: the optional interop the notorch tests cover
"$notorch/bin/pip" install -q --no-deps "$repaired"/densecore-*.whl
(cd "$DENSECORE_ENV_BUILD" && "$notorch/bin/python" -m pytest -q -p no:cacheprovider -n 2 -m notorch \
   -c "$root/pyproject.toml" "$root/tests/python")
stage "type check: tests/typing against the installed wheel's stub (densecore/_C.pyi) and py.typed"
# From outside the checkout too, so mypy finds densecore in site-packages, not the source tree.
"$notorch/bin/pip" install -q mypy
(cd "$DENSECORE_ENV_BUILD" && "$notorch/bin/python" -m mypy --no-incremental --config-file "$root/pyproject.toml" \
   "$root/tests/typing")
# The stub itself: mypy keeps an installed package's errors out of the report above (a broken annotation there
# would silently become Any), so it is checked on its own, with the package's Python (untyped) left silent.
(cd "$DENSECORE_ENV_BUILD" && "$notorch/bin/python" -m mypy --no-incremental --config-file "$root/pyproject.toml" \
   --no-silence-site-packages --follow-imports=silent -p densecore._C)

if [ $# -gt 0 ]; then
  echo "== benchmark smoke test and sanitizer stage skipped: a test selection was given"
  echo "   (run them with: bash scripts/test.sh, or bash scripts/sanitize.sh)"
else
  stage "benchmark smoke test (every benchmark runs and checks its bits; its times are not asserted)"
  python benchmarks/bench_workloads.py --quick
  python benchmarks/bench_overhead.py --set kernels --rounds 1 --number 3
  python benchmarks/bench_overhead.py --set mlp-gemms --rounds 1 --number 3
  python benchmarks/bench_gpt_step.py --rounds 1 --steps 7
  python benchmarks/bench_memory.py --quick
  stage "sanitizer stage (scripts/sanitize.sh)"
  bash scripts/sanitize.sh
fi
stage "done"
