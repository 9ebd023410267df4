#include "densecore/core/storage.h"

#include <cstdlib>
#include <new>

namespace dc {

StorageImpl::StorageImpl(size_t nbytes) : nbytes_(nbytes) {
  // Round up so aligned_alloc's size rule holds; zero-byte tensors still get a valid pointer.
  const size_t rounded = ((nbytes + kStorageAlignment - 1) / kStorageAlignment) * kStorageAlignment;
  data_ = std::aligned_alloc(kStorageAlignment, rounded == 0 ? kStorageAlignment : rounded);
  if (!data_) throw std::bad_alloc();
}

StorageImpl::StorageImpl(void* data, size_t nbytes, std::function<void()> release)
    : data_(data), nbytes_(nbytes), release_(std::move(release)) {}

StorageImpl::~StorageImpl() {
  if (release_)
    release_();
  else
    std::free(data_);
}

}  // namespace dc
