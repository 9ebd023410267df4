// Tiled transposed copy (aten/src/ATen/native/Copy.cpp copy_same_type_transpose_: serial, tiles of
// 60 x 60 elements, 120 x 120 for uint8): each tile goes through a small buffer, its source columns
// read whole and its destination rows written whole.
#include "densecore/kernels/baseline/copy_transpose.h"

#include <algorithm>
#include <cstdint>
#include <vector>

namespace dc {
namespace {

bool transpose_path_applies(const Tensor& dst, const Tensor& src) {
  constexpr int64_t kMinElements = 60 * 60;
  return dst.is_contiguous() && src.dim() == 2 && src.numel() >= kMinElements && src.stride(0) == 1 &&
         src.stride(1) == src.size(0) && dst.dtype() == src.dtype() && dst.sizes() == src.sizes();
}

/// dst (rows x cols, row-major) = src (rows x cols, column-major), element type E of the dtype's size.
/// Each tile's source columns are first copied whole into `buf` (tile-strided): read in place, columns
/// a power-of-two stride apart would share a few L1 sets and evict one another.
template <class E>
void copy_tiles(E* __restrict dst, const E* __restrict src, int64_t rows, int64_t cols, int64_t tile) {
  std::vector<E> storage(size_t(tile * tile));
  E* __restrict buf = storage.data();
  for (int64_t r0 = 0; r0 < rows; r0 += tile) {
    const int64_t nr = std::min(tile, rows - r0);
    for (int64_t c0 = 0; c0 < cols; c0 += tile) {
      const int64_t nc = std::min(tile, cols - c0);
      for (int64_t c = 0; c < nc; ++c) {
        const E* column = src + r0 + (c0 + c) * rows;
        for (int64_t r = 0; r < nr; ++r) buf[c * tile + r] = column[r];
      }
      for (int64_t r = 0; r < nr; ++r) {
        E* row = dst + (r0 + r) * cols + c0;
        for (int64_t c = 0; c < nc; ++c) row[c] = buf[c * tile + r];
      }
    }
  }
}

}  // namespace

bool copy_transposed_matrix(const Tensor& dst, const Tensor& src) {
  if (!transpose_path_applies(dst, src)) return false;
  const int64_t rows = src.size(0), cols = src.size(1);
  const int64_t tile = dst.dtype() == DType::UInt8 ? 120 : 60;
  switch (dst.itemsize()) {
    case 1: copy_tiles(dst.data<uint8_t>(), src.data<uint8_t>(), rows, cols, tile); break;
    case 2: copy_tiles(dst.data<uint16_t>(), src.data<uint16_t>(), rows, cols, tile); break;
    case 4: copy_tiles(dst.data<uint32_t>(), src.data<uint32_t>(), rows, cols, tile); break;
    case 8: copy_tiles(dst.data<uint64_t>(), src.data<uint64_t>(), rows, cols, tile); break;
    default: return false;
  }
  return true;
}

}  // namespace dc
