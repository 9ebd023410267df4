// Compiled by tests/build/: allowed in the kernels layer and above, refused in the core layer.
#include "densecore/kernels/iter/iter.h"
