// Tensor: a handle (copy = alias) to a TensorImpl {storage, sizes, strides, offset, dtype,
// version counter}. Views share storage and the version counter, as torch's do.
#pragma once

#include <atomic>
#include <cstdint>
#include <memory>
#include <span>
#include <vector>

#include "densecore/core/dtype.h"
#include "densecore/core/layout.h"
#include "densecore/core/small_vector.h"
#include "densecore/core/storage.h"

namespace dc {

using Shape = DimVector;
using Strides = DimVector;  // in elements, not bytes

/// sizes, strides (elements) and storage offset (elements): everything a view changes.
struct Layout {
  Shape sizes;
  Strides strides;
  int64_t offset = 0;
  bool operator==(const Layout&) const = default;
};

/// What the layers below autograd may ask of a tensor's autograd state (torch's c10::AutogradMetaInterface): the
/// autograd layer's AutogradMeta implements it. Ops ask it to pick a path as ATen's do (matmul's fold, SDPA's
/// backend choice); they never record.
struct AutogradMetaInterface {
  virtual ~AutogradMetaInterface() = default;
  /// Its own flag, or a grad_fn, or (a differentiable view) a base that requires grad.
  virtual bool requires_grad() const = 0;
};

/// Shared by a tensor and all its views; bumped by every in-place write (torch's _version).
struct VersionCounter {
  std::atomic<int64_t> version{0};
};

struct TensorImpl {
  TensorImpl() {}  // user-provided: make_shared then skips zero-filling the inline room of sizes and strides
  Storage storage;
  Shape sizes;
  Strides strides;
  int64_t offset = 0;  // in elements
  int64_t numel = 1;   // product of sizes, checked for overflow whenever the layout is set
  DType dtype = DType::Float32;
  std::shared_ptr<VersionCounter> version;  // a new one from from_storage, the base's from as_strided_view
  std::shared_ptr<AutogradMetaInterface> autograd;  // null unless the tensor takes part in autograd
  // A Python number turned into a 0-dim tensor for type promotion (torch's is_wrapped_number).
  bool is_wrapped_number = false;

  /// Sets sizes/strides/offset after checking that they lie inside `storage` (no size overflows,
  /// no element outside the allocation): every layout the core builds passes through here.
  void set_layout(std::span<const int64_t> new_sizes, std::span<const int64_t> new_strides,
                  int64_t new_offset);
};

class Tensor {
 public:
  Tensor() = default;
  explicit Tensor(std::shared_ptr<TensorImpl> impl) : impl_(std::move(impl)) {}

  /// A new contiguous tensor with uninitialised contents.
  static Tensor empty(std::span<const int64_t> sizes, DType dtype);
  /// A new tensor with uninitialised contents and the given strides (torch's empty_strided): its
  /// storage holds exactly the elements the layout reaches.
  static Tensor empty_strided(std::span<const int64_t> sizes, std::span<const int64_t> strides,
                              DType dtype);
  /// A tensor over `storage` with the given layout (no copy); Error if the layout leaves the storage.
  static Tensor from_storage(Storage storage, std::span<const int64_t> sizes,
                             std::span<const int64_t> strides, int64_t offset, DType dtype);
  /// A view of this tensor: same storage and version counter, new layout.
  Tensor as_strided_view(std::span<const int64_t> sizes, std::span<const int64_t> strides,
                         int64_t offset) const;

  bool defined() const { return impl_ != nullptr; }
  TensorImpl* impl() const { return impl_.get(); }
  const std::shared_ptr<TensorImpl>& impl_ptr() const { return impl_; }
  bool is_same(const Tensor& o) const { return impl_ == o.impl_; }

  DType dtype() const { return impl_->dtype; }
  size_t itemsize() const { return dc::itemsize(impl_->dtype); }
  int64_t dim() const { return static_cast<int64_t>(impl_->sizes.size()); }
  const Shape& sizes() const { return impl_->sizes; }
  const Strides& strides() const { return impl_->strides; }
  int64_t size(int64_t d) const;    // negative d counts from the end
  int64_t stride(int64_t d) const;  // negative d counts from the end
  int64_t storage_offset() const { return impl_->offset; }
  int64_t numel() const { return impl_->numel; }
  const Storage& storage() const { return impl_->storage; }

  /// Address of element 0 (storage data + offset * itemsize).
  void* data_ptr() const {
    return static_cast<char*>(impl_->storage->data()) + impl_->offset * int64_t(itemsize());
  }
  template <class T>
  T* data() const { return static_cast<T*>(data_ptr()); }

  bool is_contiguous() const;
  /// c10's compute_non_overlapping_and_dense: some permutation of the dims is contiguous.
  bool is_non_overlapping_and_dense() const;
  int64_t version() const { return impl_->version->version.load(std::memory_order_relaxed); }
  void bump_version() const { impl_->version->version.fetch_add(1, std::memory_order_relaxed); }
  /// A factory's new tensor, filled by in-place ops no one else saw: its version restarts at 0, as torch's
  /// factories fill below the version counter (torch.randn(3)._version == 0). Only while this handle is the
  /// tensor's one owner; otherwise the version stays.
  void restart_version_of_new_tensor() const {
    if (impl_.use_count() == 1 && impl_->version.use_count() == 1)
      impl_->version->version.store(0, std::memory_order_relaxed);
  }

 private:
  std::shared_ptr<TensorImpl> impl_;
};

/// t.requires_grad (AutogradMetaInterface::requires_grad; false for a tensor without autograd state).
inline bool requires_grad(const Tensor& t) {
  const AutogradMetaInterface* m = t.impl()->autograd.get();
  return m != nullptr && m->requires_grad();
}

/// torch's assert_no_internal_overlap: Error when a size>1 dim of t has stride 0 (a write through t
/// would hit one element several times).
void assert_no_internal_overlap(const Tensor& t);

/// torch's assert_no_partial_overlap (MemoryOverlap.cpp get_overlap_status): Error when `read` and
/// `written` are views of one storage whose element ranges meet without being the same elements in the
/// same layout (x.copy_(x.t()) would read values already overwritten). Non-dense views are too hard to
/// tell and pass, as in torch.
void assert_no_partial_overlap(const Tensor& written, const Tensor& read);

/// at::empty_like(src, dtype) with torch.preserve_format: uninitialised, src's sizes, strides from
/// preserve_format_strides (core/layout.h).
Tensor empty_like_preserve(const Tensor& src, DType dtype);

/// Row-major strides for `sizes` (torch's contiguous strides; size-1 dims get the usual value).
Strides contiguous_strides(std::span<const int64_t> sizes);
/// Wraps a dim index in [-ndim, ndim) into [0, ndim); IndexError otherwise (torch's maybe_wrap_dim).
int64_t wrap_dim(int64_t d, int64_t ndim);

}  // namespace dc
