#!/usr/bin/env bash
# Configures and builds DenseCore in build/<name> (default: dev; an absolute path is used as given) with
# CMake + Ninja, outside pip, so several checkouts or people can build side by side. Then run Python with:
#   DENSECORE_BUILD_DIR=build/<name>/python/src PYTHONPATH=python python ...
# Arguments after the name are Ninja targets (default: all). DENSECORE_CMAKE_ARGS adds options to the first
# configure (scripts/sanitize.sh passes -DDENSECORE_SANITIZE=ON); later runs reuse the folder's cache.
# Needs a Python with nanobind, mkl-static==2024.2.0, mkl-include==2024.2.0 (scripts/env.sh makes one).
set -euo pipefail
name=${1:-dev}
root=$(cd "$(dirname "$0")/.." && pwd)
py=${PYTHON:-python}
case $name in
  /*) build=$name ;;
  *) build="$root/build/$name" ;;
esac
if [ ! -f "$build/build.ninja" ]; then
  # shellcheck disable=SC2086 # DENSECORE_CMAKE_ARGS is a list of options
  cmake -S "$root" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release ${DENSECORE_CMAKE_ARGS:-} \
    -DPython_EXECUTABLE="$(command -v "$py")" \
    -Dnanobind_DIR="$("$py" -c 'import nanobind; print(nanobind.cmake_dir())')" >/dev/null
fi
ninja -C "$build" "${@:2}"
