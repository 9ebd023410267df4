// Compiled by tests/build/: allowed in the autograd layer and above, refused in the ops, kernels and core layers
// (ops are pure computations; recording is autograd's).
#include "densecore/autograd/function.h"
