#include "densecore/core/tensor.h"


#include <algorithm>
#include <numeric>

#include "densecore/core/error.h"

namespace dc {

Strides contiguous_strides(std::span<const int64_t> sizes) {
  Strides strides(sizes.size());
  int64_t running = 1;
  for (size_t i = sizes.size(); i-- > 0;) {
    strides[i] = running;
    running *= std::max<int64_t>(sizes[i], 1);
  }
  return strides;
}

int64_t wrap_dim(int64_t d, int64_t ndim) {
  const int64_t n = std::max<int64_t>(ndim, 1);  // torch treats a 0-dim tensor as having dims [-1, 0]
  check<IndexError>(d >= -n && d < n,
                    "Dimension out of range (expected to be in range of [{}, {}], but got {})", -n,
                    n - 1, d);
  return d < 0 ? d + n : d;
}

std::string shape_str(std::span<const int64_t> sizes) {
  std::string s = "[";
  for (size_t i = 0; i < sizes.size(); ++i) s += (i ? ", " : "") + std::to_string(sizes[i]);
  return s + "]";
}

Tensor Tensor::empty(std::span<const int64_t> sizes, DType dtype) {
  int64_t n = 1;
  for (int64_t s : sizes) {
    check<ValueError>(s >= 0, "Trying to create tensor with negative dimension {}: {}", s,
                      shape_str(sizes));
    n *= s;
  }
  auto impl = std::make_shared<TensorImpl>();
  impl->storage = make_storage(size_t(n) * dc::itemsize(dtype));
  impl->sizes.assign(sizes.begin(), sizes.end());
  impl->strides = contiguous_strides(sizes);
  impl->dtype = dtype;
  return Tensor(std::move(impl));
}

Tensor Tensor::from_storage(Storage storage, std::span<const int64_t> sizes,
                            std::span<const int64_t> strides, int64_t offset, DType dtype) {
  auto impl = std::make_shared<TensorImpl>();
  impl->storage = std::move(storage);
  impl->sizes.assign(sizes.begin(), sizes.end());
  impl->strides.assign(strides.begin(), strides.end());
  impl->offset = offset;
  impl->dtype = dtype;
  return Tensor(std::move(impl));
}

Tensor Tensor::as_strided_view(std::span<const int64_t> sizes, std::span<const int64_t> strides,
                               int64_t offset) const {
  auto impl = std::make_shared<TensorImpl>();
  impl->storage = impl_->storage;
  impl->sizes.assign(sizes.begin(), sizes.end());
  impl->strides.assign(strides.begin(), strides.end());
  impl->offset = offset;
  impl->dtype = impl_->dtype;
  impl->version = impl_->version;
  return Tensor(std::move(impl));
}

int64_t Tensor::size(int64_t d) const {
  check<IndexError>(dim() > 0, "Dimension specified as {} but tensor has no dimensions", d);
  return impl_->sizes[wrap_dim(d, dim())];
}
int64_t Tensor::stride(int64_t d) const {
  check<IndexError>(dim() > 0, "Dimension specified as {} but tensor has no dimensions", d);
  return impl_->strides[wrap_dim(d, dim())];
}

int64_t Tensor::numel() const {
  return std::accumulate(impl_->sizes.begin(), impl_->sizes.end(), int64_t{1},
                         std::multiplies<int64_t>());
}

bool Tensor::is_contiguous() const {
  // torch's rule: size-1 dims are ignored; an empty tensor is contiguous (whatever its strides).
  if (numel() == 0) return true;
  int64_t expected = 1;
  for (int64_t i = dim() - 1; i >= 0; --i) {
    const int64_t s = impl_->sizes[i];
    if (s != 1) {
      if (impl_->strides[i] != expected) return false;
      expected *= s;
    }
  }
  return true;
}

bool Tensor::is_non_overlapping_and_dense() const {
  const auto& sz = impl_->sizes;
  const auto& st = impl_->strides;
  const int64_t nd = dim();
  if (nd == 1) return sz[0] < 2 || st[0] == 1;
  std::vector<int64_t> perm(nd);
  std::iota(perm.begin(), perm.end(), 0);
  std::sort(perm.begin(), perm.end(), [&](int64_t a, int64_t b) {
    if (sz[a] < 2) return false;
    if (sz[b] < 2) return true;
    return st[a] < st[b];
  });
  int64_t require = 1;
  for (int64_t i = 0; i < nd; ++i) {
    const int64_t s = sz[perm[i]];
    if (s < 2) return true;
    if (st[perm[i]] != require) return false;
    require *= s;
  }
  return true;
}

}  // namespace dc
