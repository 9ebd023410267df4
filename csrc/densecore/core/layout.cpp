#include "densecore/core/layout.h"

#include <algorithm>
#include <ostream>
#include <limits>

#include "densecore/core/error.h"

namespace dc {
namespace {

// int64_t and size_t are both used for byte counts: a storage size must fit in both (ATen's
// storage_max()).
constexpr uint64_t kStorageMax = uint64_t(std::numeric_limits<int64_t>::max());

}  // namespace

std::string shape_str(std::span<const int64_t> sizes) {
  std::string s = "[";
  for (size_t i = 0; i < sizes.size(); ++i) s += (i ? ", " : "") + std::to_string(sizes[i]);
  return s + "]";
}

std::ostream& operator<<(std::ostream& os, ShapeText s) { return os << shape_str(s.sizes); }

int64_t safe_numel(std::span<const int64_t> sizes) {
  int64_t n = 1;
  bool overflowed = false;
  for (int64_t s : sizes) overflowed |= __builtin_mul_overflow(n, s, &n);
  check(!overflowed, "numel: integer multiplication overflow");
  return n;
}

void check_size_nonnegative(std::span<const int64_t> sizes) {
  for (int64_t s : sizes)
    check(s >= 0, "Trying to create tensor with negative dimension {}: {}", s, shape_text(sizes));
}

size_t storage_nbytes_contiguous(std::span<const int64_t> sizes, size_t itemsize) {
  uint64_t n = 1;
  bool overflowed = false;
  for (int64_t s : sizes) overflowed |= __builtin_mul_overflow(n, uint64_t(s), &n);
  overflowed |= __builtin_mul_overflow(n, uint64_t(itemsize), &n);
  overflowed |= n > kStorageMax;
  check(!overflowed, "Storage size calculation overflowed with sizes={}", shape_text(sizes));
  return size_t(n);
}

size_t storage_nbytes_strided(std::span<const int64_t> sizes, std::span<const int64_t> strides,
                              size_t itemsize) {
  check(sizes.size() == strides.size(),
        "dimensionality of sizes ({}) must match dimensionality of strides ({})", sizes.size(),
        strides.size());
  // One more than the offset of the last element the layout reaches.
  uint64_t n = 1;
  bool overflowed = false;
  for (size_t i = 0; i < sizes.size(); ++i) {
    if (sizes[i] == 0) return 0;
    uint64_t reach = 0;
    overflowed |= __builtin_mul_overflow(uint64_t(strides[i]), uint64_t(sizes[i] - 1), &reach);
    overflowed |= strides[i] < 0 || sizes[i] < 0;
    overflowed |= __builtin_add_overflow(n, reach, &n);
  }
  overflowed |= __builtin_mul_overflow(n, uint64_t(itemsize), &n);
  overflowed |= n > kStorageMax;
  check(!overflowed, "Storage size calculation overflowed with sizes={} and strides={}",
        shape_text(sizes), shape_text(strides));
  return size_t(n);
}

void check_in_bounds_for_storage(std::span<const int64_t> sizes, std::span<const int64_t> strides,
                                 int64_t offset, size_t itemsize, size_t storage_nbytes) {
  const size_t reach = storage_nbytes_strided(sizes, strides, itemsize);
  if (reach == 0) return;  // a tensor with a zero-size dim may sit on any storage
  check(offset >= 0, "Tensor: invalid storage offset {}", offset);
  uint64_t offset_bytes = 0, needed = 0;
  const bool overflowed = __builtin_mul_overflow(uint64_t(offset), uint64_t(itemsize), &offset_bytes) ||
                          __builtin_add_overflow(offset_bytes, uint64_t(reach), &needed) ||
                          needed > kStorageMax;
  if (overflowed || needed > storage_nbytes) [[unlikely]]
    throw Error(format("setStorage: sizes {}, strides {}, storage offset {}, and itemsize {} requiring a storage "
                       "size of {} are out of bounds for storage of size {}",
                       shape_text(sizes), shape_text(strides), offset, itemsize,
                       overflowed ? std::string("more than 2^63 bytes") : std::to_string(needed), storage_nbytes));
}

// ---- stride order, dense strides, broadcast shapes ----------------------------------------------

bool is_non_overlapping_and_dense(std::span<const int64_t> sizes, std::span<const int64_t> strides) {
  const size_t nd = sizes.size();
  if (nd == 1) return sizes[0] < 2 || strides[0] == 1;
  std::vector<size_t> perm(nd);
  std::iota(perm.begin(), perm.end(), size_t{0});
  // Size-0/1 dims last: they do not constrain the layout.
  std::sort(perm.begin(), perm.end(), [&](size_t a, size_t b) {
    if (sizes[a] < 2) return false;
    if (sizes[b] < 2) return true;
    return strides[a] < strides[b];
  });
  int64_t require = 1;
  for (size_t i = 0; i < nd; ++i) {
    const int64_t s = sizes[perm[i]];
    if (s < 2) return true;
    if (strides[perm[i]] != require) return false;
    require *= s;
  }
  return true;
}

std::vector<int64_t> infer_dense_strides(std::span<const int64_t> sizes, std::span<const int64_t> strides) {
  const int64_t nd = int64_t(sizes.size());
  const DimVector perm = stride_order(nd, [&](int64_t d0, int64_t d1) {
    if (strides[d0] == 0 || strides[d1] == 0) return 0;
    if (strides[d0] < strides[d1]) return -1;
    if (strides[d0] > strides[d1]) return 1;
    return sizes[d0] > sizes[d1] ? 1 : 0;
  });
  std::vector<int64_t> out(static_cast<size_t>(nd));
  int64_t next = 1;
  for (int64_t i = 0; i < nd; ++i) {
    out[perm[i]] = next;
    if (sizes[perm[i]] > 1) next *= sizes[perm[i]];
  }
  return out;
}

std::vector<int64_t> preserve_format_strides(std::span<const int64_t> sizes, std::span<const int64_t> strides) {
  if (is_non_overlapping_and_dense(sizes, strides)) return {strides.begin(), strides.end()};
  return infer_dense_strides(sizes, strides);
}

DimVector broadcast_shapes(std::span<const int64_t> a, std::span<const int64_t> b) {
  const int64_t na = int64_t(a.size()), nb = int64_t(b.size()), n = std::max(na, nb);
  DimVector out(static_cast<size_t>(n));
  for (int64_t i = n - 1; i >= 0; --i) {
    const int64_t off = n - 1 - i;
    const int64_t sa = na - 1 - off >= 0 ? a[na - 1 - off] : 1;
    const int64_t sb = nb - 1 - off >= 0 ? b[nb - 1 - off] : 1;
    check(sa == sb || sa == 1 || sb == 1,
          "The size of tensor a ({}) must match the size of tensor b ({}) at non-singleton dimension {}",
          sa, sb, i);
    out[i] = sa == 1 ? sb : sa;
  }
  return out;
}

}  // namespace dc
