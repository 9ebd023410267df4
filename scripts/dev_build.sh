#!/usr/bin/env bash
# Configures and builds DenseCore in build/<name> (default: dev) with CMake + Ninja, outside pip,
# so several checkouts or people can build side by side. Then run Python with:
#   DENSECORE_BUILD_DIR=build/<name>/python/src PYTHONPATH=python python ...
# Needs a Python with nanobind, mkl-static==2024.2.0, mkl-include==2024.2.0 (scripts/test_env.sh makes one).
set -euo pipefail
name=${1:-dev}
root=$(cd "$(dirname "$0")/.." && pwd)
py=${PYTHON:-python}
build="$root/build/$name"
if [ ! -f "$build/build.ninja" ]; then
  cmake -S "$root" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release \
    -DPython_EXECUTABLE="$(command -v "$py")" \
    -Dnanobind_DIR="$("$py" -c 'import nanobind; print(nanobind.cmake_dir())')" >/dev/null
fi
ninja -C "$build" "${@:2}"
