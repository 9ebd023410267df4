// copy_ / to / contiguous / clone over the TensorIter copy kernel (kernels/cpu/copy.cpp, which
// mirrors ATen's CopyKernel.cpp). Front-end rules from aten/src/ATen/native/Copy.cpp, including its
// float16 <-> float32 fbgemm shortcut (kernels/baseline/copy_fbgemm.cpp), taken before any TensorIterator.
#include "densecore/ops/copy.h"

#include "densecore/autograd/function.h"
#include "densecore/core/error.h"
#include "densecore/kernels/baseline/copy_fbgemm.h"
#include "densecore/kernels/stubs/copy_kernel.h"

namespace dc {

// copy_'s row (csrc/op_rows.toml): non_blocking means nothing on CPU.
const Tensor& native::copy_(const Tensor& self, const Tensor& src, bool non_blocking) {
  if (!self.is_same(src) && self.numel() > 0 && !copy_float16_float32_like_fbgemm(self, src)) {
    TensorIter it = TensorIter::copy_op(self, src);
    copy_stub(it);
  }
  self.bump_version();
  return self;
}

Tensor to_dtype_copy(const Tensor& src, DType dtype) {
  // at::_to_copy: empty_like(preserve_format) + copy_. The layout decides which rows the copy
  // kernel vectorises, hence NaN encodings of float32 -> bfloat16.
  OpRecord<Op::ToCopy> rec({src});  // ToCopyBackward0: grad.to(src's dtype), done by the engine's cast
  Tensor out = empty_like_preserve(src, dtype);
  copy_into(out, src);
  return rec.finish(out);
}

Tensor contiguous(const Tensor& src) { return src.is_contiguous() ? src : clone(src); }

Tensor clone(const Tensor& src, MemoryFormat format) {
  OpRecord<Op::Clone> rec({src});  // CloneBackward0: grad
  Tensor out = format == MemoryFormat::Preserve ? empty_like_preserve(src, src.dtype())
                                                : Tensor::empty(src.sizes(), src.dtype());
  copy_into(out, src);
  return rec.finish(out);
}

}  // namespace dc
