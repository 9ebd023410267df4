// dc::SmallVector (core/small_vector.h) to and from Python as nanobind's std::vector caster does: a list out,
// any sequence in. Shapes and strides are DimVectors; without this a binding that takes or returns one
// raises nanobind's "an argument has a type this function does not accept".
#pragma once

#include <nanobind/nanobind.h>
#include <nanobind/stl/detail/nb_list.h>

#include "densecore/core/small_vector.h"

NAMESPACE_BEGIN(NB_NAMESPACE)
NAMESPACE_BEGIN(detail)

template <typename T, size_t N>
struct type_caster<dc::SmallVector<T, N>> : list_caster<dc::SmallVector<T, N>, T> {};

NAMESPACE_END(detail)
NAMESPACE_END(NB_NAMESPACE)
