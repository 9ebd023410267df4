// PLACEHOLDER reference implementation: an element-by-element strided loop with c10::convert
// semantics. To be replaced by the TensorIterator-based copy kernel (kernels/cpu/copy.cpp).
#include "densecore/ops/copy.h"

#include "densecore/core/convert.h"
#include "densecore/core/error.h"

namespace dc {
namespace {

// Calls f(dst_elem_offset, src_elem_offset) for every element of dst, src broadcast.
template <class F>
void for_each_offset(const Tensor& dst, const Strides& src_strides, int64_t src_offset, F&& f) {
  const int64_t nd = dst.dim();
  const int64_t n = dst.numel();
  if (n == 0) return;
  std::vector<int64_t> idx(nd, 0);
  int64_t d_off = dst.storage_offset(), s_off = src_offset;
  for (int64_t i = 0; i < n; ++i) {
    f(d_off, s_off);
    for (int64_t k = nd - 1; k >= 0; --k) {
      if (++idx[k] < dst.sizes()[k]) {
        d_off += dst.strides()[k];
        s_off += src_strides[k];
        break;
      }
      d_off -= dst.strides()[k] * (idx[k] - 1);
      s_off -= src_strides[k] * (idx[k] - 1);
      idx[k] = 0;
    }
  }
}

// src strides broadcast to dst's shape (0 where src has size 1 or is missing a leading dim).
Strides broadcast_strides_to(const Tensor& src, const Tensor& dst) {
  const int64_t nd = dst.dim(), ns = src.dim();
  check(ns <= nd, "output with shape {} doesn't match the broadcast shape {}", shape_str(dst.sizes()),
        shape_str(src.sizes()));
  Strides out(nd, 0);
  for (int64_t i = 0; i < ns; ++i) {
    const int64_t d = nd - ns + i;
    const int64_t s = src.sizes()[i];
    check(s == dst.sizes()[d] || s == 1,
          "The size of tensor a ({}) must match the size of tensor b ({}) at non-singleton dimension {}",
          dst.sizes()[d], s, i);
    out[d] = s == 1 ? 0 : src.strides()[i];
  }
  return out;
}

}  // namespace

const Tensor& copy_(const Tensor& dst, const Tensor& src) {
  const Strides ss = broadcast_strides_to(src, dst);
  dispatch_dtype(dst.dtype(), [&]<class D>() {
    dispatch_dtype(src.dtype(), [&]<class S>() {
      D* d = static_cast<D*>(dst.storage()->data());
      const S* s = static_cast<const S*>(src.storage()->data());
      for_each_offset(dst, ss, src.storage_offset(),
                      [&](int64_t di, int64_t si) { d[di] = convert<D>(s[si]); });
    });
  });
  dst.bump_version();
  return dst;
}

Tensor to_dtype_copy(const Tensor& src, DType dtype) {
  Tensor out = Tensor::empty(src.sizes(), dtype);
  copy_(out, src);
  return out;
}

Tensor contiguous(const Tensor& src) { return src.is_contiguous() ? src : clone(src); }

Tensor clone(const Tensor& src) { return to_dtype_copy(src, src.dtype()); }

}  // namespace dc
