// Sizes computed from a layout (sizes, strides, offset) that may come from a user or a file, each
// overflow-checked, with the message c10/ATen gives (c10/core/TensorImpl.h safe_compute_numel,
// aten/src/ATen/EmptyTensor.cpp computeStorageNbytes*, aten/src/ATen/native/Resize.h
// checkInBoundsForStorage). Every tensor the core builds goes through these: no layout can reach
// memory outside its storage, and no size wraps around.
#pragma once

#include <cstddef>
#include <cstdint>
#include <numeric>
#include <iosfwd>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "densecore/core/small_vector.h"

namespace dc {

/// torch's memory_format argument: the strides a fresh copy gets (channels-last formats are not made here).
enum class MemoryFormat { Contiguous, Preserve };

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
/// The same text, written only when a message is made: check()'s arguments are evaluated even when it
/// passes, and a shape_str there cost every op that made a tensor a string (8% of F.linear on 1x64).
/// Holds a view of the sizes: use it inside the check or format call that prints it.
struct ShapeText {
  std::span<const int64_t> sizes;
};
inline ShapeText shape_text(std::span<const int64_t> sizes) { return {sizes}; }
std::ostream& operator<<(std::ostream& os, ShapeText s);

// ---- stride order, dense strides, broadcast shapes ----------------------------------------------

/// The dimension order TensorIterator walks, fastest first: perm[0] is the innermost dim. The
/// insertion sort of aten/src/ATen/TensorIterator.cpp (reorder_dimensions) and TensorUtils.cpp
/// (infer_dense_strides), starting from the reversed order: should_swap(d0, d1) says 1 when d0
/// belongs after d1, -1 when before, 0 when the strides cannot tell (then the order stays). Every
/// caller's rule for comparing two dims differs (one tensor, all operands, outputs' reduced dims
/// first); the sort is this one.
template <class ShouldSwap>
DimVector stride_order(int64_t ndim, ShouldSwap&& should_swap) {
  DimVector perm(static_cast<size_t>(ndim));
  std::iota(perm.rbegin(), perm.rend(), int64_t{0});
  for (int64_t i = 1; i < ndim; ++i) {
    int64_t dim1 = i;
    for (int64_t dim0 = i - 1; dim0 >= 0; --dim0) {
      const int c = should_swap(perm[dim0], perm[dim1]);
      if (c > 0) {
        std::swap(perm[dim0], perm[dim1]);
        dim1 = dim0;
      } else if (c < 0) {
        break;
      }
    }
  }
  return perm;
}

/// c10's compute_non_overlapping_and_dense (c10/core/Contiguity.h): the dims of size > 1, sorted by
/// stride, tile memory without gaps or overlap.
bool is_non_overlapping_and_dense(std::span<const int64_t> sizes, std::span<const int64_t> strides);

/// at::infer_dense_strides (aten/src/ATen/TensorUtils.cpp): dense strides in the order of the given
/// ones (stride_order; 0 strides are ambiguous, equal strides put the smaller size inside).
std::vector<int64_t> infer_dense_strides(std::span<const int64_t> sizes, std::span<const int64_t> strides);

/// The strides empty_like(memory_format=torch.preserve_format) gives (aten/src/ATen/native/
/// TensorFactories.cpp empty_like): the source's own when it is non-overlapping and dense, else
/// infer_dense_strides. A transposed and sliced source keeps its stride order, not row-major.
std::vector<int64_t> preserve_format_strides(std::span<const int64_t> sizes, std::span<const int64_t> strides);

/// at::infer_size (aten/src/ATen/ExpandUtils.cpp): the broadcast of two shapes. Walks from the last
/// dim, so a mismatch reports the innermost bad dim: RuntimeError "The size of tensor a (3) must
/// match the size of tensor b (5) at non-singleton dimension 1".
DimVector broadcast_shapes(std::span<const int64_t> a, std::span<const int64_t> b);

}  // namespace dc
