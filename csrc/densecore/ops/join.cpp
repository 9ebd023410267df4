// cat and stack mirrored from aten/src/ATen/native/TensorShape.cpp (TORCH_META_FUNC(cat),
// check_cat_shape_except_dim, legacy_cat_wrap_dim, stack). The output is contiguous: torch picks
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

}  // namespace dc
