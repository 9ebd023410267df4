#!/usr/bin/env bash
# Sourced by scripts/demo.sh and scripts/test.sh: makes (once) and activates a virtual environment with
# what building DenseCore needs, plus the test dependencies (PyTorch 2.14.1 oracle) when WITH_TEST_DEPS=1.
# The environment lives outside the checkout (DENSECORE_VENV, default ~/.cache/densecore/venv-<hash of
# the requirement list>) so a fresh clone reuses it; a changed requirement list makes a new one.
set -euo pipefail

build_reqs=(scikit-build-core==1.1.2 nanobind==2.9.2 mkl-static==2024.2.0 mkl-include==2024.2.0 cmake ninja)
test_reqs=(torch==2.14.1 numpy pytest)

reqs=("${build_reqs[@]}")
[ "${WITH_TEST_DEPS:-0}" = 1 ] && reqs+=("${test_reqs[@]}")
hash=$(printf '%s\n' "${reqs[@]}" | sha1sum | cut -c1-10)
venv=${DENSECORE_VENV:-$HOME/.cache/densecore/venv-$hash}

if [ ! -f "$venv/.complete" ]; then
  echo "== making $venv (${reqs[*]})"
  rm -rf "$venv"
  python3 -m venv "$venv"
  "$venv/bin/pip" install -q --upgrade pip 2>&1 | grep -v '^WARNING: Location' || true
  "$venv/bin/pip" install -q "${reqs[@]}" 2>&1 | grep -v '^WARNING: Location' || true
  touch "$venv/.complete"
fi
# shellcheck disable=SC1091
source "$venv/bin/activate"
