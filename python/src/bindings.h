// One bind_* function per area; module.cpp calls them in order.
#pragma once

#include <nanobind/nanobind.h>

#include "densecore/core/tensor.h"

namespace nb = nanobind;
using TensorClass = nb::class_<dc::Tensor>;

void bind_errors(nb::module_& m);
void bind_dtype(nb::module_& m);
void bind_tensor(nb::module_& m, TensorClass& cls);
void bind_views(nb::module_& m, TensorClass& cls);
void bind_indexing(nb::module_& m, TensorClass& cls);
void bind_linalg(nb::module_& m, TensorClass& cls);
void bind_creation(nb::module_& m, TensorClass& cls);
void bind_elementwise(nb::module_& m, TensorClass& cls);
void bind_reduce(nb::module_& m, TensorClass& cls);
void bind_random(nb::module_& m, TensorClass& cls);
void bind_autograd(nb::module_& m, TensorClass& cls);
void bind_serialization(nb::module_& m, TensorClass& cls);
void bind_attention(nb::module_& m, TensorClass& cls);
void bind_unary(nb::module_& m, TensorClass& cls);
void bind_nn(nb::module_& m, TensorClass& cls);
void bind_loss(nb::module_& m, TensorClass& cls);
