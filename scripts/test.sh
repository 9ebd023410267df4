#!/usr/bin/env bash
# Runs every test on a fresh machine: installs what is missing (GoogleTest from Debian, a virtual
# environment with PyTorch 2.14.1 as the oracle and the pinned MKL), builds, runs the C++ tests (ctest)
# and the Python tests (pytest), and ends with pytest's summary line.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"

if [ ! -f /usr/include/gtest/gtest.h ]; then
  echo "== installing GoogleTest (libgtest-dev)"
  SUDO=$([ "$(id -u)" = 0 ] && echo "" || echo sudo)
  $SUDO apt-get update -qq && $SUDO apt-get install -y -qq libgtest-dev >/dev/null
fi

WITH_TEST_DEPS=1 source scripts/env.sh
bash scripts/build.sh

echo "== C++ tests"
PYTHON=python scripts/dev_build.sh ctest densecore_tests >/dev/null
ctest --test-dir build/ctest --output-on-failure -j2 | tail -n 3

echo "== Python tests"
# From tests/: the installed package is tested, not the source tree.
python -m pytest -q -p no:cacheprovider tests/python "$@"
