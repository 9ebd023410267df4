#!/usr/bin/env bash
# Builds DenseCore in a virtual environment and runs the demo on its default input (the project's own README and
# docs, shipped in the package). Extra arguments go to the demo (python -m densecore.demo --help).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
source "$root/scripts/env.sh"
bash "$root/scripts/build.sh"
cd /tmp && python -m densecore.demo "$@"
