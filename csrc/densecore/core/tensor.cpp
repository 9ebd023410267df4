#include "densecore/core/tensor.h"


#include <algorithm>
#include <numeric>

#include "densecore/core/error.h"

namespace dc {

Strides contiguous_strides(std::span<const int64_t> sizes) {
  // Wrapping arithmetic: only a tensor with a zero-size dim can have sizes whose product
  // overflows (its strides are never used to reach memory).
  Strides strides(sizes.size());
  uint64_t running = 1;
  for (size_t i = sizes.size(); i-- > 0;) {
    strides[i] = int64_t(running);
    running *= uint64_t(std::max<int64_t>(sizes[i], 1));
  }
  return strides;
}

void assert_no_internal_overlap(const Tensor& t) {
  if (t.is_non_overlapping_and_dense()) return;
  for (int64_t d = 0; d < t.dim(); ++d)
    check(!(t.sizes()[d] > 1 && t.strides()[d] == 0),
          "unsupported operation: more than one element of the written-to tensor refers to a single "
          "memory location. Please clone() the tensor before performing the operation.");
}

void assert_no_partial_overlap(const Tensor& written, const Tensor& read) {
  if (written.is_same(read) || written.storage() != read.storage()) return;  // storage first: cheap
  if (written.numel() == 0 || read.numel() == 0) return;
  if (!written.is_non_overlapping_and_dense() || !read.is_non_overlapping_and_dense()) return;
  const char* a0 = static_cast<const char*>(written.data_ptr());
  const char* a1 = a0 + written.numel() * int64_t(written.itemsize());
  const char* b0 = static_cast<const char*>(read.data_ptr());
  const char* b1 = b0 + read.numel() * int64_t(read.itemsize());
  const bool partial = (a0 == b0 && a1 == b1) ? written.strides() != read.strides() : (a0 < b1 && b0 < a1);
  check(!partial,
        "unsupported operation: some elements of the input tensor and the written-to tensor refer to a single "
        "memory location. Please clone() the tensor before performing the operation.");
}

int64_t wrap_dim(int64_t d, int64_t ndim) {
  const int64_t n = std::max<int64_t>(ndim, 1);  // torch treats a 0-dim tensor as having dims [-1, 0]
  check<IndexError>(d >= -n && d < n,
                    "Dimension out of range (expected to be in range of [{}, {}], but got {})", -n,
                    n - 1, d);
  return d < 0 ? d + n : d;
}

void TensorImpl::set_layout(std::span<const int64_t> new_sizes, std::span<const int64_t> new_strides,
                            int64_t new_offset) {
  // numel first: torch raises its overflow before anything looks at the storage (expand to 2^63).
  const int64_t n = safe_numel(new_sizes);
  check_in_bounds_for_storage(new_sizes, new_strides, new_offset, dc::itemsize(dtype),
                              storage ? storage->nbytes() : 0);
  sizes.assign(new_sizes.begin(), new_sizes.end());
  strides.assign(new_strides.begin(), new_strides.end());
  offset = new_offset;
  numel = n;
}

Tensor Tensor::empty(std::span<const int64_t> sizes, DType dtype) {
  // empty_cpu's order: negative sizes, then the byte count's overflow, then the allocation.
  check_size_nonnegative(sizes);
  const size_t nbytes = storage_nbytes_contiguous(sizes, dc::itemsize(dtype));
  const Strides strides = contiguous_strides(sizes);
  return from_storage(make_storage(nbytes), sizes, strides, 0, dtype);
}

Tensor Tensor::empty_strided(std::span<const int64_t> sizes, std::span<const int64_t> strides,
                             DType dtype) {
  check_size_nonnegative(sizes);
  const size_t nbytes = storage_nbytes_strided(sizes, strides, dc::itemsize(dtype));
  return from_storage(make_storage(nbytes), sizes, strides, 0, dtype);
}

Tensor Tensor::from_storage(Storage storage, std::span<const int64_t> sizes,
                            std::span<const int64_t> strides, int64_t offset, DType dtype) {
  auto impl = std::make_shared<TensorImpl>();
  impl->storage = std::move(storage);
  impl->dtype = dtype;
  impl->version = std::make_shared<VersionCounter>();
  impl->set_layout(sizes, strides, offset);
  return Tensor(std::move(impl));
}

Tensor Tensor::as_strided_view(std::span<const int64_t> sizes, std::span<const int64_t> strides,
                               int64_t offset) const {
  auto impl = std::make_shared<TensorImpl>();
  impl->storage = impl_->storage;
  impl->dtype = impl_->dtype;
  impl->version = impl_->version;
  impl->set_layout(sizes, strides, offset);
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
  return dc::is_non_overlapping_and_dense(impl_->sizes, impl_->strides);
}

Tensor empty_like_preserve(const Tensor& src, DType dtype) {
  return Tensor::empty_strided(src.sizes(), preserve_format_strides(src.sizes(), src.strides()), dtype);
}

}  // namespace dc
