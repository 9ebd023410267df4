#!/usr/bin/env bash
# Builds DenseCore's distributions, as a release would: the sdist and, from that sdist, a wheel (`python -m build`,
# with build isolation: pip fetches scikit-build-core, nanobind and the static MKL 2024.2.0 named in
# pyproject.toml into a temporary environment), then repairs the wheel to a manylinux tag
# (scripts/repair_wheel.sh) and installs it into a fresh environment to measure it and import it from outside
# the checkout. Needs only python3 (3.10 or newer) with venv, a C++20 compiler and the network.
#   bash scripts/wheel.sh
# Results in dist/ (git-ignored): densecore-<v>.tar.gz and densecore-<v>-<py>-<py>-manylinux_<glibc>_x86_64.whl;
# the unrepaired linux_x86_64 wheel stays in build/wheel-dist/. The wheel is compiled from scratch each time
# (the sdist is unpacked in a temporary folder): about 130 files, 15 to 20 minutes on 2 cores.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"

tools="$root/build/wheel-tools"
tool_reqs=(build==1.6.1)
if [ ! -f "$tools/.complete" ] || [ "$(cat "$tools/.complete")" != "${tool_reqs[*]}" ]; then
  echo "== making the build tools' environment $tools"
  rm -rf "$tools"
  python3 -m venv "$tools"
  "$tools/bin/pip" install -q "${tool_reqs[@]}"
  echo "${tool_reqs[*]}" >"$tools/.complete"
fi

raw="$root/build/wheel-dist"
rm -rf "$raw"
echo "== python -m build: the sdist, then a wheel built from it in an isolated environment"
"$tools/bin/python" -m build --outdir "$raw" "$root"

echo "== auditwheel repair"
mkdir -p dist
rm -f dist/densecore-*.tar.gz
cp "$raw"/densecore-*.tar.gz dist/
bash scripts/repair_wheel.sh "$raw"/densecore-*-linux_x86_64.whl dist

# The installed size is what a user's site-packages gains: the package and the vendored libgomp.
check="$root/build/wheel-check"
rm -rf "$check"
python3 -m venv "$check"
"$check/bin/pip" install -q --no-deps dist/densecore-*manylinux*.whl
site=$("$check/bin/python" -c "import sysconfig; print(sysconfig.get_paths()['purelib'])")
# From / so that the installed package is imported, not the checkout's python/ folder.
(cd / && "$check/bin/python" -c "
import densecore as dc
a = dc.ones(3, 4)
assert float((a @ a.t()).sum()) == 36.0
print('imported', dc._C.__file__)")

echo "== results"
ls -l dist/densecore-*.tar.gz dist/densecore-*manylinux*.whl
echo "wheel size:     $(du -h dist/densecore-*manylinux*.whl | cut -f1)"
echo "installed size (du -shc in site-packages):"
(cd "$site" && du -shc densecore densecore.libs densecore-*.dist-info)
