// Refcounted bytes: a 64-byte aligned CPU buffer we own, or foreign memory (a NumPy array)
// kept alive by a deleter. Views of one tensor share one Storage.
#pragma once

#include <cstddef>
#include <functional>
#include <memory>

namespace dc {

inline constexpr size_t kStorageAlignment = 64;  // AVX-512 loads; torch's CPU allocator uses 64 too

class StorageImpl {
 public:
  /// Allocates nbytes (uninitialised), 64-byte aligned.
  explicit StorageImpl(size_t nbytes);
  /// Wraps foreign memory; `release` runs when the last reference goes away.
  StorageImpl(void* data, size_t nbytes, std::function<void()> release);
  ~StorageImpl();
  StorageImpl(const StorageImpl&) = delete;
  StorageImpl& operator=(const StorageImpl&) = delete;

  void* data() const { return data_; }
  size_t nbytes() const { return nbytes_; }

 private:
  void* data_ = nullptr;
  void* allocation_ = nullptr;  // what free() takes: data_, or the malloc block data_ was aligned up inside
  size_t nbytes_ = 0;
  std::function<void()> release_;  // empty: we own data_ and free it
};

using Storage = std::shared_ptr<StorageImpl>;

inline Storage make_storage(size_t nbytes) { return std::make_shared<StorageImpl>(nbytes); }

}  // namespace dc
