// Compiled by tests/build/: allowed in the ops layer and above, refused in the core and kernels layers.
#include "densecore/ops/view.h"
