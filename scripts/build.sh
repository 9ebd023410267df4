#!/usr/bin/env bash
# Builds a DenseCore wheel and installs it into the active virtual environment (source scripts/env.sh first: it makes
# and activates one and names its build folder). No build isolation: the environment already holds the pinned
# build requirements (MKL 2024.2.0 static). Extra arguments go to pip (scripts/test.sh adds the C++ tests).
# pip's and the compiler's output is shown as it comes, and any failure stops the script with pip's error.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${DENSECORE_ENV_BUILD:?"source scripts/env.sh first: it activates the environment and sets its build folder"}

if [ -f "$build/pip/build.ninja" ]; then
  echo "== building DenseCore in $build/pip (only what changed is recompiled)"
else
  echo "== building DenseCore in $build/pip: the first build compiles about 130 files and takes about 9 minutes"
  echo "   on 2 cores; the [n/N] counter below shows where it is"
fi
# A wheel first (kept in $build/wheel/ for scripts/test.sh's installed-wheel stage), then that wheel installed.
rm -rf "$build/wheel"
pip wheel -v --no-build-isolation --no-deps -C "build-dir=$build/pip" -w "$build/wheel" "$@" "$root"
pip install --no-deps --force-reinstall "$build"/wheel/densecore-*.whl
# Import from outside the checkout: what was just installed, not the source tree's python/ folder.
(cd / && python -c "import densecore, sys; sys.stdout.write('installed ' + densecore._C.__file__ + '\n')")
