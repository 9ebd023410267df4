#include "densecore/core/storage.h"

#include <cerrno>
#include <cstdlib>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <limits>
#include <mutex>
#include <unordered_map>
#include <vector>

#include "densecore/core/error.h"

namespace dc {
namespace {

// Note [Block cache]: freed blocks of 1 KiB and more are kept for reuse, by size, up to 256 MiB in all.
// Without it glibc hands the heap's top back to the system whenever a training step frees its large
// tensors, and the next step page-faults the same memory in again: a ReLU forward + backward at 1024x128
// made three brk calls per step and spent most of its time in those faults (issue 10). The bits cannot
// depend on it: a new tensor's memory is uninitialised either way. It is off under AddressSanitizer, so
// that a use after free is still caught.
// Note [Small blocks]: a block under 64 KiB comes from malloc with room to align it up by hand. glibc's
// aligned_alloc carves each block out of a larger chunk and frees the rest, which took most of the time of
// making a 3-element tensor (issue 10); malloc serves these sizes from its per-thread cache. Under
// AddressSanitizer blocks come from aligned_alloc, so that a write just past a tensor's end is still caught.
// Blocks from 1 KiB up are kept by the block cache too (by their exact 64-byte size): glibc's per-thread
// cache stops at about 1 KiB, and above it each malloc first consolidated the heap's freed small chunks
// (malloc_consolidate, unlink_chunk: about 3% of the 113k GPT's training step).
#if defined(__SANITIZE_ADDRESS__)
constexpr bool kCacheBlocks = false;
constexpr bool kAlignSmallBlocksByHand = false;
#else
constexpr bool kCacheBlocks = true;
constexpr bool kAlignSmallBlocksByHand = true;
#endif
constexpr size_t kMinCachedBlock = size_t(1) << 10;
constexpr size_t kMinPageRoundedBlock = size_t(64) << 10;
constexpr size_t kMaxCachedBytes = size_t(256) << 20;
constexpr size_t kPage = 4096;

class BlockCache {
 public:
  void* take(size_t block) {
    std::lock_guard<std::mutex> lock(mutex_);
    auto it = free_.find(block);
    if (it == free_.end() || it->second.empty()) return nullptr;
    void* p = it->second.back();
    it->second.pop_back();
    cached_ -= block;
    return p;
  }
  /// False when the cache is full: the caller frees the block.
  bool keep(void* p, size_t block) {
    std::lock_guard<std::mutex> lock(mutex_);
    if (cached_ + block > kMaxCachedBytes) return false;
    free_[block].push_back(p);
    cached_ += block;
    return true;
  }

 private:
  std::mutex mutex_;
  std::unordered_map<size_t, std::vector<void*>> free_;
  size_t cached_ = 0;
};

/// Never destroyed: storages held by Python objects may be freed after static destructors have run.
BlockCache& block_cache() {
  static BlockCache* cache = new BlockCache;
  return *cache;
}

/// The size actually allocated for nbytes: a multiple of the alignment (aligned_alloc's rule), at least one
/// (zero-byte tensors still get a valid pointer); cached sizes are whole pages, so near sizes share blocks.
size_t block_size(size_t nbytes) {
  const size_t aligned = nbytes == 0 ? kStorageAlignment : (nbytes + kStorageAlignment - 1) / kStorageAlignment * kStorageAlignment;
  return aligned >= kMinPageRoundedBlock ? (aligned + kPage - 1) / kPage * kPage : aligned;
}

bool cacheable(size_t block) { return kCacheBlocks && block >= kMinCachedBlock; }

/// The first 64-byte boundary at or after `raw` (null stays null).
void* align_up(void* raw) {
  const uintptr_t at = (reinterpret_cast<uintptr_t>(raw) + kStorageAlignment - 1) & ~uintptr_t(kStorageAlignment - 1);
  return reinterpret_cast<void*>(at);
}

/// What free() takes for a new block of `block` bytes: malloc'd with room to align it by hand below
/// kMinPageRoundedBlock (Note [Small blocks]), from aligned_alloc above. Null when out of memory.
void* new_allocation(size_t block) {
  if (kAlignSmallBlocksByHand && block < kMinPageRoundedBlock)
    return std::malloc(block + (kStorageAlignment - alignof(std::max_align_t)));
  return std::aligned_alloc(kStorageAlignment, block);
}

/// A block of `block` bytes at a 64-byte boundary; *allocation is what free() takes. Null when out of memory.
void* allocate_block(size_t block, void** allocation) {
  void* raw = cacheable(block) ? block_cache().take(block) : nullptr;
  if (!raw) raw = new_allocation(block);
  *allocation = raw;
  return align_up(raw);
}

}  // namespace

StorageImpl::StorageImpl(size_t nbytes) : nbytes_(nbytes) {
  errno = 0;
  // A size the rounding would wrap is one no allocator can give: the failed-allocation error below.
  if (nbytes <= std::numeric_limits<size_t>::max() - kPage) {
    data_ = allocate_block(block_size(nbytes), &allocation_);
  }
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
  if (release_) {
    release_();
    return;
  }
  const size_t block = block_size(nbytes_);
  if (cacheable(block) && block_cache().keep(allocation_, block)) return;
  std::free(allocation_);
}

}  // namespace dc
