// One bind_* function per area; module.cpp calls them in order.
#pragma once

#include <nanobind/nanobind.h>

#include "densecore/core/tensor.h"

namespace nb = nanobind;
using TensorClass = nb::class_<dc::Tensor>;

void bind_errors(nb::module_& m);
void bind_dtype(nb::module_& m);
void bind_tensor(nb::module_& m, TensorClass& cls);
