import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)  # so tests can `import oracle`
# Development builds (scripts/dev_build.sh) import the package from the source tree and _C from
# DENSECORE_BUILD_DIR; otherwise the installed densecore is tested.
if os.environ.get("DENSECORE_BUILD_DIR"):
    sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(HERE)), "python"))
