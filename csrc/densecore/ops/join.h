// Joining tensors: torch.cat (with dtype promotion and the legacy skip of 1-D empty inputs) and
// torch.stack (aten/src/ATen/native/TensorShape.cpp).
#pragma once

#include <span>

#include "densecore/core/tensor.h"
#include "densecore/generated/ops.h"  // cat and stack are rows (csrc/op_rows.toml); forwards in ops/join.cpp

