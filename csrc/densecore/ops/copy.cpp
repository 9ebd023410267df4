// copy_ / to / contiguous / clone over the TensorIter copy kernel (kernels/cpu/copy.cpp, which
// mirrors ATen's CopyKernel.cpp). Front-end rules from aten/src/ATen/native/Copy.cpp.
#include "densecore/ops/copy.h"

#include "densecore/kernels/copy_kernel.h"

namespace dc {

const Tensor& copy_(const Tensor& dst, const Tensor& src) {
  if (!dst.is_same(src) && dst.numel() > 0) {
    TensorIter it = TensorIter::copy_op(dst, src);
    copy_stub(it);
  }
  dst.bump_version();
  return dst;
}

Tensor to_dtype_copy(const Tensor& src, DType dtype) {
  // at::_to_copy: empty_like(preserve_format) + copy_. The layout decides which rows the copy
  // kernel vectorises, hence NaN encodings of float32 -> bfloat16.
  Tensor out = empty_like_preserve(src, dtype);
  copy_into(out, src);
  return out;
}

Tensor contiguous(const Tensor& src) { return src.is_contiguous() ? src : clone(src); }

Tensor clone(const Tensor& src) {
  Tensor out = Tensor::empty(src.sizes(), src.dtype());
  copy_into(out, src);
  return out;
}

}  // namespace dc
