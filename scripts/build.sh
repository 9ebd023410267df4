#!/usr/bin/env bash
# Builds and installs DenseCore into the active virtual environment (scripts/env.sh makes one).
# No build isolation: the environment already holds the pinned build requirements (MKL 2024.2.0 static).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
echo "== building densecore"
pip install -q --no-build-isolation --no-deps "$root" 2>&1 | grep -v '^WARNING: Location' || true
python -c "import densecore" || { echo "densecore did not install" >&2; exit 1; }
