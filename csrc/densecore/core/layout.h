// Sizes computed from a layout (sizes, strides, offset) that may come from a user or a file, each
// overflow-checked, with the message c10/ATen gives (c10/core/TensorImpl.h safe_compute_numel,
// aten/src/ATen/EmptyTensor.cpp computeStorageNbytes*, aten/src/ATen/native/Resize.h
// checkInBoundsForStorage). Every tensor the core builds goes through these: no layout can reach
// memory outside its storage, and no size wraps around.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <string>

namespace dc {

/// Product of sizes; Error "numel: integer multiplication overflow" if it does not fit in int64.
int64_t safe_numel(std::span<const int64_t> sizes);

/// Bytes of a contiguous tensor of `sizes`; Error "Storage size calculation overflowed with
/// sizes=[...]" past int64. Sizes must be non-negative (check_size_nonnegative runs first).
size_t storage_nbytes_contiguous(std::span<const int64_t> sizes, size_t itemsize);

/// Bytes a strided layout reaches from its offset: itemsize * (1 + sum (size-1)*stride), 0 when
/// any size is 0; Error "Storage size calculation overflowed with sizes=[...] and strides=[...]".
/// Strides must be non-negative.
size_t storage_nbytes_strided(std::span<const int64_t> sizes, std::span<const int64_t> strides,
                              size_t itemsize);

/// torch's checkInBoundsForStorage: the layout (with its element offset) lies inside a storage of
/// `storage_nbytes` bytes, else Error "setStorage: sizes ..., strides ..., storage offset ..., and
/// itemsize ... requiring a storage size of ... are out of bounds for storage of size ...".
void check_in_bounds_for_storage(std::span<const int64_t> sizes, std::span<const int64_t> strides,
                                 int64_t offset, size_t itemsize, size_t storage_nbytes);

/// torch's check_size_nonnegative: Error "Trying to create tensor with negative dimension -1: [-1]".
void check_size_nonnegative(std::span<const int64_t> sizes);

/// "[2, 3]" as torch prints sizes in messages.
std::string shape_str(std::span<const int64_t> sizes);

}  // namespace dc
