// cat, stack and repeat mirrored from aten/src/ATen/native/TensorShape.cpp (TORCH_META_FUNC(cat),
// check_cat_shape_except_dim, legacy_cat_wrap_dim, stack, repeat). The output is contiguous: torch picks
// channels-last only when every input suggests it, which needs 4-D inputs we do not make yet.
#include "densecore/ops/join.h"

#include "densecore/core/error.h"
#include "densecore/ops/copy.h"
#include "densecore/ops/view.h"

namespace dc {
namespace {

// Legacy: 1-D empty tensors are ignored by cat whatever the other shapes.
bool cat_skips(const Tensor& t) { return t.dim() == 1 && t.numel() == 0; }

void check_shape_except_dim(const Tensor& first, const Tensor& t, int64_t dim, size_t index) {
  check(first.dim() == t.dim(), "Tensors must have same number of dimensions: got {} and {}", first.dim(),
        t.dim());
  for (int64_t d = 0; d < first.dim(); ++d) {
    if (d == dim) continue;
    check(first.size(d) == t.size(d),
          "Sizes of tensors must match except in dimension {}. Expected size {} but got size {} for "
          "tensor number {} in the list.",
          dim, first.size(d), t.size(d), index);
  }
}

}  // namespace

// cat's row (csrc/op_rows.toml) records CatBackward0 (grad narrowed back to each input) around it.
Tensor impl::cat_forward(std::span<const Tensor> tensors, int64_t dim) {
  check<ValueError>(!tensors.empty(), "torch.cat(): expected a non-empty list of Tensors");
  for (size_t i = 0; i < tensors.size(); ++i)
    check(tensors[i].dim() > 0, "zero-dimensional tensor (at position {}) cannot be concatenated", i);
  DType dtype = tensors[0].dtype();
  for (const Tensor& t : tensors) dtype = promote_types(dtype, t.dtype());
  const Tensor* valid = nullptr;
  for (const Tensor& t : tensors)
    if (!cat_skips(t)) {
      valid = &t;
      break;
    }
  if (valid == nullptr) {
    const int64_t zero[] = {0};
    return Tensor::empty(zero, dtype);
  }
  dim = wrap_dim(dim, valid->dim());
  Shape sizes = valid->sizes();
  int64_t total = 0;
  for (size_t i = 0; i < tensors.size(); ++i) {
    if (cat_skips(tensors[i])) continue;
    check_shape_except_dim(*valid, tensors[i], dim, i);
    total = int64_t(uint64_t(total) + uint64_t(tensors[i].size(dim)));  // wraps, as torch's sum does
  }
  sizes[dim] = total;
  safe_numel(sizes);  // torch reports an overflowing result as a numel overflow
  Tensor out = Tensor::empty(sizes, dtype);
  int64_t at = 0;
  for (const Tensor& t : tensors) {
    if (cat_skips(t)) continue;
    if (t.numel() > 0) native::copy_(narrow(out, dim, at, t.size(dim)), t);
    at += t.size(dim);
  }
  reset_version(out);  // copy_ into the slices bumped it; torch's cat result is at version 0
  return out;
}

// stack's row records StackBackward0 (grad.unbind(dim)) around it.
Tensor impl::stack_forward(std::span<const Tensor> tensors, int64_t dim) {
  check(!tensors.empty(), "stack expects a non-empty TensorList");
  dim = wrap_dim(dim, tensors[0].dim() + 1);
  for (size_t i = 1; i < tensors.size(); ++i)
    check(tensors[i].sizes() == tensors[0].sizes(),
          "stack expects each tensor to be equal size, but got {} at entry 0 and {} at entry {}",
          shape_text(tensors[0].sizes()), shape_text(tensors[i].sizes()), i);
  std::vector<Tensor> unsqueezed;
  for (const Tensor& t : tensors) unsqueezed.push_back(unsqueeze(t, dim));
  return cat(unsqueezed, dim);
}

// repeat's row records RepeatBackward0 (repeat_backward: the copies summed back) around it.
Tensor impl::repeat_forward(const Tensor& self, std::span<const int64_t> repeats) {
  // c10::SymInt keeps the ints below -2**62 for symbolic values: the repeats are refused by ATen's wrapper of the
  // kernel (its message names its generated file), and so, below, a result size that wraps there.
  constexpr int64_t kMinSymInt = -(int64_t{1} << 62);
  for (int64_t r : repeats)
    check(r >= kMinSymInt, "/__w/pytorch/pytorch/build/aten/src/ATen/RegisterCompositeExplicitAutograd_0.cpp:9754: "
                           "SymIntArrayRef expected to contain only concrete integers");
  check(repeats.size() >= size_t(self.dim()),
        "Number of dimensions of repeat dims can not be smaller than number of dimensions of tensor");
  const size_t ndim = repeats.size(), lead = ndim - size_t(self.dim());
  Shape padded(lead, 1);
  padded.insert(padded.end(), self.sizes().begin(), self.sizes().end());
  Shape target(ndim);
  bool zero = false;
  for (size_t i = 0; i < ndim; ++i) {
    zero |= repeats[i] == 0;
    target[i] = int64_t(uint64_t(padded[i]) * uint64_t(repeats[i]));  // wraps as torch's int64 product does
  }
  // at::empty's IntArrayRef -> SymInt conversion, then empty_cpu's checks (negative sizes, the byte count's overflow).
  for (int64_t s : target)
    check(s >= kMinSymInt, "IntArrayRef contains an int that cannot be represented as a SymInt: {}", s);
  Tensor out = Tensor::empty(target, self.dtype());
  if (zero) return out;
  // torch unfolds the result by each padded size: a size that wrapped below its padded size is refused there.
  for (size_t i = 0; i < ndim; ++i)
    check(padded[i] <= target[i], "maximum size for tensor at dimension {} is {} but size is {}", i, target[i], padded[i]);
  if (out.numel() == 0) return out;
  // torch unfolds the result into (repeat, size) blocks and copies self expanded into them: here the same blocks
  // as one view of the result ([repeat_i, size_i] per dim, a dim repeated once kept whole) and self expanded to
  // it (stride 0 along each repeat).
  Shape blocks;
  Strides out_strides, self_strides;
  for (size_t i = 0; i < ndim; ++i) {
    const int64_t stride = out.strides()[i];
    if (repeats[i] != 1) {
      blocks.push_back(repeats[i]);
      out_strides.push_back(padded[i] * stride);
      self_strides.push_back(0);
    }
    blocks.push_back(padded[i]);
    out_strides.push_back(stride);
    self_strides.push_back(i < lead ? 0 : self.strides()[i - lead]);
  }
  native::copy_(out.as_strided_view(blocks, out_strides, 0),
                self.as_strided_view(blocks, self_strides, self.storage_offset()));
  reset_version(out);  // copy_ into the blocks bumped it; torch's result is at version 0
  return out;
}

}  // namespace dc
