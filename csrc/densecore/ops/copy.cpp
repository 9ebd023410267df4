// copy_ / to / contiguous / clone over the TensorIter copy kernel (kernels/cpu/copy.cpp, which
// mirrors ATen's CopyKernel.cpp). Front-end rules from aten/src/ATen/native/Copy.cpp, including its
// float16 <-> float32 fbgemm shortcut and its tiled copy of a transposed matrix: both in copy_into
// (kernels/iter/iter.cpp), which every copy goes through.
#include "densecore/ops/copy.h"

#include "densecore/core/error.h"
#include "densecore/kernels/stubs/copy_kernel.h"

namespace dc {

// copy_'s row (csrc/op_rows.toml): non_blocking means nothing on CPU.
const Tensor& native::copy_(const Tensor& self, const Tensor& src, bool non_blocking) {
  if (!self.is_same(src)) copy_into(self, src);
  self.bump_version();
  return self;
}

namespace {

// A fresh tensor for a copy of src: contiguous, or preserve_format (src's strides when dense, else dense strides in
// src's order; empty_like's rule).
Tensor empty_for_copy(const Tensor& src, DType dtype, std::optional<MemoryFormat> format) {
  return format.value_or(MemoryFormat::Preserve) == MemoryFormat::Preserve ? empty_like_preserve(src, dtype)
                                                                         : Tensor::empty(src.sizes(), dtype);
}

}  // namespace

// _to_copy's row (ToCopyBackward0: the gradient cast back to self's dtype, the engine's cast): empty_like + copy_.
// The layout decides which rows the copy kernel vectorises, hence NaN encodings of float32 -> bfloat16.
Tensor impl::to_copy_forward(const Tensor& self, std::optional<DType> dtype, bool non_blocking,
                             std::optional<MemoryFormat> memory_format) {
  Tensor out = empty_for_copy(self, dtype.value_or(self.dtype()), memory_format);
  copy_into(out, self);
  return out;
}

Tensor contiguous(const Tensor& src) { return src.is_contiguous() ? src : clone(src, MemoryFormat::Contiguous); }

// clone's row (CloneBackward0: grad).
Tensor impl::clone_forward(const Tensor& self, std::optional<MemoryFormat> memory_format) {
  Tensor out = empty_for_copy(self, self.dtype(), memory_format);
  copy_into(out, self);
  return out;
}

}  // namespace dc
