#!/usr/bin/env bash
# Sourced by scripts/demo.sh and scripts/test.sh: makes (once) and activates a virtual environment with
# what building DenseCore needs, plus the test dependencies (PyTorch 2.14.1 oracle) when WITH_TEST_DEPS=1.
# The environment lives outside the checkout (DENSECORE_VENV, default ~/.cache/densecore/venv-<hash of
# the requirement list>) so a fresh clone reuses it; a changed requirement list makes a new one.
# Also sets DENSECORE_ENV_BUILD, the environment's own build folder (below).
# It counts as made only once every install step has succeeded (the .complete marker); a failed or
# interrupted attempt stops here with pip's error and is started over on the next run.
set -euo pipefail

build_reqs=(scikit-build-core==1.1.2 nanobind==2.9.2 mkl-static==2024.2.0 mkl-include==2024.2.0 cmake ninja)
test_reqs=(torch==2.14.1 numpy pytest pytest-xdist)

reqs=("${build_reqs[@]}")
[ "${WITH_TEST_DEPS:-0}" = 1 ] && reqs+=("${test_reqs[@]}")
hash=$(printf '%s\n' "${reqs[@]}" | sha1sum | cut -c1-10)
venv=${DENSECORE_VENV:-$HOME/.cache/densecore/venv-$hash}

if [ ! -f "$venv/.complete" ]; then
  echo "== first run: making the Python environment $venv"
  if [ "${WITH_TEST_DEPS:-0}" = 1 ]; then
    echo "   PyTorch 2.14.1 (the test oracle) with the CUDA libraries its wheel depends on, the static MKL and"
    echo "   the build tools: about 3.4 GB to download, 6.6 GB on disk; how long depends on your connection."
  else
    echo "   the static MKL that DenseCore links and the build tools: about 340 MB to download, 1 GB on disk."
  fi
  echo "   This happens once; later runs reuse the environment."
  rm -rf "$venv"
  python3 -m venv "$venv"
  "$venv/bin/pip" install --upgrade pip
  "$venv/bin/pip" install "${reqs[@]}"
  touch "$venv/.complete"
fi
# shellcheck disable=SC1091
source "$venv/bin/activate"

# This environment's build folders: build/<environment>-<hash of its path>/ in the checkout. A CMake cache
# holds absolute paths into one environment, so the demo's and the tests' environments never share one.
checkout=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
export DENSECORE_ENV_BUILD="$checkout/build/$(basename "$venv")-$(printf '%s' "$venv" | sha1sum | cut -c1-8)"
