#include "densecore/core/storage.h"

#include <cerrno>
#include <cstdlib>
#include <cstring>

#include "densecore/core/error.h"

namespace dc {

StorageImpl::StorageImpl(size_t nbytes) : nbytes_(nbytes) {
  // Round up so aligned_alloc's size rule holds; zero-byte tensors still get a valid pointer.
  const size_t rounded = ((nbytes + kStorageAlignment - 1) / kStorageAlignment) * kStorageAlignment;
  data_ = std::aligned_alloc(kStorageAlignment, rounded == 0 ? kStorageAlignment : rounded);
  // torch's DefaultCPUAllocator message (c10/core/impl/alloc_cpu.cpp), so code that catches
  // RuntimeError on a failed allocation works the same.
  if (!data_) {
    const int err = errno ? errno : ENOMEM;
    throw Error(format(
        "[enforce fail at alloc_cpu.cpp:127] err == 0. DefaultCPUAllocator: can't allocate memory: "
        "you tried to allocate {} bytes. Error code {} ({})",
        nbytes, err, std::strerror(err)));
  }
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
