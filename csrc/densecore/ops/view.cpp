// Views mirrored from aten/src/ATen/native/TensorShape.cpp, aten/src/ATen/InferSize.h,
// aten/src/ATen/TensorUtils.cpp (computeStride) and aten/src/ATen/ExpandUtils.cpp.
#include "densecore/ops/view.h"

#include <algorithm>
#include <numeric>
#include <ostream>

#include "densecore/core/error.h"
#include "densecore/ops/copy.h"

namespace dc {
namespace {

int64_t product(std::span<const int64_t> v) {
  return std::accumulate(v.begin(), v.end(), int64_t{1}, std::multiplies<int64_t>());
}

int64_t ndim_of(const Layout& l) { return static_cast<int64_t>(l.sizes.size()); }

}  // namespace

Layout layout_of(const Tensor& t) { return {t.sizes(), t.strides(), t.storage_offset()}; }

Tensor make_view(const Tensor& t, const Layout& l) { return t.as_strided_view(l.sizes, l.strides, l.offset); }

std::ostream& operator<<(std::ostream& os, const TypeAndSizes& t) {
  return os << "torch." << scalar_type_name(t.dtype) << "Tensor{" << shape_text(t.sizes) << "}";
}

// ---------------------------------------------------------------- layouts

Shape infer_size(std::span<const int64_t> shape, int64_t numel) {
  int64_t known = 1;
  std::optional<int64_t> infer_dim;
  for (size_t d = 0; d < shape.size(); ++d) {
    if (shape[d] == -1) {
      check(!infer_dim, "only one dimension can be inferred");
      infer_dim = d;
    } else {
      check(shape[d] >= 0, "invalid shape dimension {} at index {} of shape {}", shape[d], d,
            shape_text(shape));
      known = int64_t(uint64_t(known) * uint64_t(shape[d]));  // wraps as torch's does; numel is checked on the view
    }
  }
  Shape out(shape.begin(), shape.end());
  // -1 can only be inferred when the known dims divide numel (and are not zero).
  const bool ok = numel == known || (infer_dim && known > 0 && numel % known == 0);
  check(ok, "shape '{}' is invalid for input of size {}", shape_text(shape), numel);
  if (infer_dim) {
    check(known != 0,
          "cannot reshape tensor of 0 elements into shape {} because the unspecified dimension "
          "size -1 can be any value and is ambiguous",
          shape_text(shape));
    out[*infer_dim] = numel / known;
  }
  return out;
}

std::optional<Strides> compute_stride(std::span<const int64_t> sizes, std::span<const int64_t> strides,
                                      std::span<const int64_t> new_sizes) {
  const int64_t nnew = static_cast<int64_t>(new_sizes.size());
  if (sizes.empty()) return Strides(nnew, 1);
  const int64_t numel = product(sizes);
  // numel == 0: strides are arbitrary; torch keeps them if the shape is unchanged, else uses
  // resize-like strides.
  if (numel == 0 && std::ranges::equal(sizes, new_sizes)) return Strides(strides.begin(), strides.end());
  Strides out(nnew);
  if (numel == 0) {
    for (int64_t d = nnew - 1; d >= 0; --d)
      out[d] = d == nnew - 1 ? 1 : std::max<int64_t>(new_sizes[d + 1], 1) * out[d + 1];
    return out;
  }
  // Walk "chunks" of old dims that are contiguous with each other; each chunk must be covered
  // exactly by a run of new dims.
  int64_t view_d = nnew - 1;
  int64_t chunk_base_stride = strides.back();
  int64_t tensor_numel = 1, view_numel = 1;
  for (int64_t d = static_cast<int64_t>(sizes.size()) - 1; d >= 0; --d) {
    tensor_numel *= sizes[d];
    const bool chunk_ends =
        d == 0 || (sizes[d - 1] != 1 && strides[d - 1] != tensor_numel * chunk_base_stride);
    if (!chunk_ends) continue;
    while (view_d >= 0 && (view_numel < tensor_numel || new_sizes[view_d] == 1)) {
      out[view_d] = view_numel * chunk_base_stride;
      view_numel *= new_sizes[view_d];
      --view_d;
    }
    if (view_numel != tensor_numel) return std::nullopt;
    if (d > 0) {
      chunk_base_stride = strides[d - 1];
      tensor_numel = 1;
      view_numel = 1;
    }
  }
  if (view_d != -1) return std::nullopt;
  return out;
}

Layout view_layout(const Layout& l, std::span<const int64_t> shape) {
  const Shape sizes = infer_size(shape, product(l.sizes));
  auto strides = compute_stride(l.sizes, l.strides, sizes);
  check(strides.has_value(),
        "view size is not compatible with input tensor's size and stride (at least one dimension "
        "spans across two contiguous subspaces). Use .reshape(...) instead.");
  return {sizes, std::move(*strides), l.offset};
}

Layout transpose_layout(const Layout& l, int64_t dim0, int64_t dim1) {
  Layout out = l;
  const int64_t n = ndim_of(l);
  dim0 = wrap_dim(dim0, n);
  dim1 = wrap_dim(dim1, n);
  if (n == 0) return out;  // 0-dim: dims 0 and -1 both name the (absent) only dim
  std::swap(out.sizes[dim0], out.sizes[dim1]);
  std::swap(out.strides[dim0], out.strides[dim1]);
  return out;
}

Layout permute_layout(const Layout& l, std::span<const int64_t> dims) {
  const int64_t n = ndim_of(l);
  check(static_cast<int64_t>(dims.size()) == n,
        "permute(sparse_coo): number of dimensions in the tensor input does not match the length of "
        "the desired ordering of dimensions i.e. input.dim() = {} is not equal to len(dims) = {}",
        n, dims.size());
  Layout out{Shape(n), Strides(n), l.offset};
  std::vector<bool> seen(n, false);
  for (int64_t i = 0; i < n; ++i) {
    const int64_t d = wrap_dim(dims[i], n);
    check(!seen[d], "permute(): duplicate dims are not allowed.");
    seen[d] = true;
    out.sizes[i] = l.sizes[d];
    out.strides[i] = l.strides[d];
  }
  return out;
}

Layout expand_layout(const Layout& l, std::span<const int64_t> sizes, DType dtype) {
  const int64_t ndim = static_cast<int64_t>(sizes.size());
  const int64_t tensor_dim = ndim_of(l);
  check(ndim >= tensor_dim,
        "expand({}, size={}): the number of sizes provided ({}) must be greater or equal to the "
        "number of dimensions in the tensor ({})",
        TypeAndSizes{dtype, l.sizes}, shape_text(sizes), ndim, tensor_dim);
  Layout out{Shape(ndim), Strides(ndim), l.offset};
  // Walk from the last dim; new leading dims get stride 0 (torch's inferExpandGeometry).
  for (int64_t i = ndim - 1; i >= 0; --i) {
    const int64_t offset = ndim - 1 - i;
    const int64_t dim = tensor_dim - 1 - offset;
    const int64_t size = dim >= 0 ? l.sizes[dim] : 1;
    // A new leading dim takes the next dim's size * stride; the last dim of an expanded 0-d tensor has no
    // next dim (torch reads its zero-initialised inline DimVector there: stride 0, which we give explicitly).
    const int64_t stride = dim >= 0 ? l.strides[dim] : i + 1 < ndim ? out.sizes[i + 1] * out.strides[i + 1] : 0;
    int64_t target = sizes[i];
    if (target == -1) {
      check(dim >= 0, "The expanded size of the tensor (-1) isn't allowed in a leading, non-existing "
                      "dimension {}", i);
      target = size;
    }
    if (size != target) {
      check(size == 1,
            "The expanded size of the tensor ({}) must match the existing size ({}) at "
            "non-singleton dimension {}.  Target sizes: {}.  Tensor sizes: {}",
            target, size, i, shape_text(sizes), shape_text(l.sizes));
      out.sizes[i] = target;
      out.strides[i] = 0;
    } else {
      out.sizes[i] = size;
      out.strides[i] = stride;
    }
  }
  return out;
}

Layout squeeze_layout(const Layout& l) {
  Layout out{{}, {}, l.offset};
  for (size_t d = 0; d < l.sizes.size(); ++d) {
    if (l.sizes[d] == 1) continue;
    out.sizes.push_back(l.sizes[d]);
    out.strides.push_back(l.strides[d]);
  }
  return out;
}

Layout squeeze_layout(const Layout& l, std::span<const int64_t> dims) {
  const int64_t n = ndim_of(l);
  std::vector<bool> drop(std::max<int64_t>(n, 1), false);
  for (int64_t d : dims) {
    const int64_t w = wrap_dim(d, n);
    check(!drop[w], "dim {} appears multiple times in the list of dims", w);
    drop[w] = true;
  }
  Layout out{{}, {}, l.offset};
  for (int64_t d = 0; d < n; ++d) {
    if (drop[d] && l.sizes[d] == 1) continue;
    out.sizes.push_back(l.sizes[d]);
    out.strides.push_back(l.strides[d]);
  }
  return out;
}

Layout unsqueeze_layout(const Layout& l, int64_t dim) {
  const int64_t n = ndim_of(l);
  dim = wrap_dim(dim, n + 1);
  Layout out = l;
  const int64_t stride = dim >= n ? 1 : l.sizes[dim] * l.strides[dim];
  out.sizes.insert(out.sizes.begin() + dim, 1);
  out.strides.insert(out.strides.begin() + dim, stride);
  return out;
}

Layout slice_layout(const Layout& l, int64_t dim, std::optional<int64_t> start,
                    std::optional<int64_t> end, int64_t step) {
  const int64_t n = ndim_of(l);
  check(n > 0, "slice() cannot be applied to a 0-dim tensor.");
  dim = wrap_dim(dim, n);
  check<ValueError>(step > 0, "step must be greater than zero");
  const int64_t size = l.sizes[dim];
  int64_t s = start.value_or(0), e = end.value_or(INT64_MAX);
  if (s < 0) s += size;
  if (e < 0) e += size;
  s = s < 0 ? 0 : std::min(s, size);
  e = e < s ? s : std::min(e, size);
  Layout out = l;
  out.offset += s * l.strides[dim];
  out.sizes[dim] = (e - s + step - 1) / step;
  out.strides[dim] *= step;
  return out;
}

Layout narrow_layout(const Layout& l, int64_t dim, int64_t start, int64_t length) {
  const int64_t n = ndim_of(l);
  check(n > 0, "narrow() cannot be applied to a 0-dim tensor.");
  check(length >= 0, "narrow(): length must be non-negative.");
  dim = wrap_dim(dim, n);
  const int64_t size = l.sizes[dim];
  check<IndexError>(start >= -size && start <= size,
                    "start out of range (expected to be in range of [{}, {}], but got {})", -size, size,
                    start);
  if (start < 0) start += size;
  check(start <= size - length, "start ({}) + length ({}) exceeds dimension size ({}).", start, length,
        size);
  return slice_layout(l, dim, start, start + length, 1);
}

Layout select_layout(const Layout& l, int64_t dim, int64_t index) {
  const int64_t n = ndim_of(l);
  check<IndexError>(n > 0, "select() cannot be applied to a 0-dim tensor.");
  dim = wrap_dim(dim, n);
  const int64_t size = l.sizes[dim];
  check<IndexError>(index >= -size && index < size,
                    "select(): index {} out of range for tensor of size {} at dimension {}", index,
                    shape_text(l.sizes), dim);
  if (index < 0) index += size;
  Layout out = l;
  out.offset += index * l.strides[dim];
  out.sizes.erase(out.sizes.begin() + dim);
  out.strides.erase(out.strides.begin() + dim);
  return out;
}

Layout movedim_layout(const Layout& l, std::span<const int64_t> src, std::span<const int64_t> dst) {
  const int64_t n = ndim_of(l);
  const auto dims_str = [](std::span<const int64_t> v) { return shape_text(v); };
  check(src.size() == dst.size(),
        "movedim: Invalid source or destination dims: source ({} dims) should contain the same "
        "number of dims as destination ({} dims)",
        dims_str(src), dims_str(dst));
  std::vector<int64_t> s(src.size()), d(dst.size());
  for (size_t i = 0; i < src.size(); ++i) {
    s[i] = wrap_dim(src[i], n);
    d[i] = wrap_dim(dst[i], n);
  }
  const auto has_dup = [](std::vector<int64_t> v) {
    std::ranges::sort(v);
    return std::ranges::adjacent_find(v) != v.end();
  };
  check(!has_dup(s), "movedim: repeated dim in `source` ({})", dims_str(src));
  check(!has_dup(d), "movedim: repeated dim in `destination` ({})", dims_str(dst));
  if (n <= 1) return l;
  return permute_layout(l, movedim_order(n, s, d));
}

std::vector<int64_t> movedim_order(int64_t n, std::span<const int64_t> src, std::span<const int64_t> dst) {
  // Place each source dim at its destination, then fill the rest in order (torch's movedim).
  std::vector<int64_t> order(n, -1);
  std::vector<bool> used(n, false);
  for (size_t i = 0; i < src.size(); ++i) {
    order[wrap_dim(dst[i], n)] = wrap_dim(src[i], n);
    used[wrap_dim(src[i], n)] = true;
  }
  int64_t next = 0;
  for (int64_t i = 0; i < n; ++i) {
    if (order[i] != -1) continue;
    while (used[next]) ++next;
    order[i] = next++;
  }
  return order;
}

// ---------------------------------------------------------------- the view rows' layouts

// The view rows (csrc/op_rows.toml) make the tensor and record the node; here is each one's geometry,
// with torch's argument checks.
namespace layouts {

Layout view(const Tensor& self, std::span<const int64_t> size) { return view_layout(layout_of(self), size); }
Layout unsafe_view(const Tensor& self, std::span<const int64_t> size) { return view_layout(layout_of(self), size); }
Layout alias(const Tensor& self) { return layout_of(self); }
Layout transpose(const Tensor& self, int64_t dim0, int64_t dim1) {
  return transpose_layout(layout_of(self), dim0, dim1);
}
Layout t_(const Tensor& self) {
  check(self.dim() <= 2, "t() expects a tensor with <= 2 dimensions, but self is {}D", self.dim());
  return transpose_layout(layout_of(self), 0, self.dim() < 2 ? 0 : 1);
}
Layout permute(const Tensor& self, std::span<const int64_t> dims) { return permute_layout(layout_of(self), dims); }
Layout expand(const Tensor& self, std::span<const int64_t> size) {
  return expand_layout(layout_of(self), size, self.dtype());
}
Layout squeeze(const Tensor& self) { return squeeze_layout(layout_of(self)); }
Layout squeeze_dim(const Tensor& self, int64_t dim) {
  const int64_t one[] = {dim};
  return squeeze_layout(layout_of(self), one);
}
Layout squeeze_dims(const Tensor& self, std::span<const int64_t> dim) { return squeeze_layout(layout_of(self), dim); }
Layout unsqueeze(const Tensor& self, int64_t dim) { return unsqueeze_layout(layout_of(self), dim); }
Layout slice(const Tensor& self, int64_t dim, std::optional<int64_t> start, std::optional<int64_t> end,
             int64_t step) {
  return slice_layout(layout_of(self), dim, start, end, step);
}
Layout select(const Tensor& self, int64_t dim, int64_t index) { return select_layout(layout_of(self), dim, index); }

Layout as_strided(const Tensor& self, std::span<const int64_t> size, std::span<const int64_t> stride,
                  std::optional<int64_t> storage_offset) {
  check(size.size() == stride.size(), "mismatch in length of strides and shape");
  for (int64_t s : stride)
    check(s >= 0, "as_strided: Negative strides are not supported at the moment, got strides: {}",
          shape_text(stride));
  const int64_t offset = storage_offset.value_or(self.storage_offset());
  check(offset >= 0, "Tensor: invalid storage offset {}", offset);
  check_size_nonnegative(size);
  // Checked against the storage (overflow, bounds) as TensorImpl::set_layout does for every view.
  check_in_bounds_for_storage(size, stride, offset, self.itemsize(), self.storage()->nbytes());
  return {Shape(size.begin(), size.end()), Strides(stride.begin(), stride.end()), offset};
}

}  // namespace layouts

// ---------------------------------------------------------------- other views of tensors

Tensor view_dtype(const Tensor& t, DType dtype) {
  const int64_t from = t.itemsize(), to = itemsize(dtype);
  Layout l = layout_of(t);
  if (from != to) {
    const auto why = format("to view {} as {} (different element sizes)", scalar_type_name(t.dtype()),
                            scalar_type_name(dtype));
    check(t.dim() > 0, "self.dim() cannot be 0 {}", why);
    const int64_t last = t.dim() - 1;
    const auto check_last_stride = [&] {
      check(t.stride(-1) == 1, "self.stride(-1) must be 1 {}, but got {}", why, t.stride(-1));
    };
    if (from > to) {
      check_last_stride();
      const int64_t r = from / to;
      l.sizes[last] *= r;
      for (int64_t d = 0; d < last; ++d) l.strides[d] *= r;
      l.offset *= r;
    } else {
      // torch's order: the last size, the offset, the last stride, the other strides
      const int64_t r = to / from;
      check(l.sizes[last] % r == 0, "self.size(-1) must be divisible by {} {}, but got {}", r, why,
            l.sizes[last]);
      check(l.offset % r == 0, "self.storage_offset() must be divisible by {} {}, but got {}", r, why,
            l.offset);
      check_last_stride();
      for (int64_t d = 0; d < last; ++d)
        check(l.strides[d] % r == 0, "self.stride({}) must be divisible by {} {}, but got {}", d, r,
              why, l.strides[d]);
      l.sizes[last] /= r;
      for (int64_t d = 0; d < last; ++d) l.strides[d] /= r;
      l.offset /= r;
    }
  }
  // The new layout is in units of the new dtype: build the view with it (the storage bound is in bytes).
  Tensor v = Tensor::from_storage(t.storage(), l.sizes, l.strides, l.offset, dtype);
  v.impl()->version = t.impl()->version;
  return v;
}

Tensor view_as(const Tensor& t, const Tensor& other) { return view(t, other.sizes()); }

Tensor reshape(const Tensor& t, std::span<const int64_t> shape) {
  const Shape sizes = infer_size(shape, t.numel());
  if (compute_stride(t.sizes(), t.strides(), sizes)) return view(t, sizes);
  // Not viewable: _unsafe_view(self.clone(contiguous_format)), nodes CloneBackward0 + UnsafeViewBackward0.
  Tensor copy = clone(t, MemoryFormat::Contiguous);
  reset_version(copy);
  return unsafe_view(copy, sizes);
}

Tensor T(const Tensor& t) {
  std::vector<int64_t> dims(t.dim());
  std::iota(dims.rbegin(), dims.rend(), 0);
  return permute(t, dims);
}

Tensor mT(const Tensor& t) {
  if (t.dim() == 0) return alias(t);  // torch 2.14 lets a 0-dim tensor through unchanged
  check(t.dim() >= 2,
        "tensor.mT is only supported on matrices or batches of matrices. Got {}-D tensor.", t.dim());
  return transpose(t, -2, -1);
}

Tensor expand_as(const Tensor& t, const Tensor& other) { return expand(t, other.sizes()); }

Tensor flatten(const Tensor& t, int64_t start_dim, int64_t end_dim) {
  start_dim = wrap_dim(start_dim, t.dim());
  end_dim = wrap_dim(end_dim, t.dim());
  check(start_dim <= end_dim, "flatten() has invalid args: start_dim cannot come after end_dim");
  if (t.dim() == 0) {
    const int64_t one[] = {1};
    return reshape(t, one);
  }
  if (start_dim == end_dim) return t;
  Shape shape(t.sizes().begin(), t.sizes().begin() + start_dim);
  shape.push_back(product(std::span(t.sizes()).subspan(start_dim, end_dim - start_dim + 1)));
  shape.insert(shape.end(), t.sizes().begin() + end_dim + 1, t.sizes().end());
  return reshape(t, shape);
}

Tensor unflatten(const Tensor& t, int64_t dim, std::span<const int64_t> sizes) {
  // torch wraps the dim's IndexError in a RuntimeError here.
  check(t.dim() > 0, "unflatten got an unexpected error:\nDimension specified as {} but tensor has no "
                     "dimensions", dim);
  dim = wrap_dim(dim, t.dim());
  check(!sizes.empty(), "unflatten: sizes must be non-empty");
  const auto sizes_error = [&] {
    return Error(format("unflatten: Provided sizes {} don't multiply up to the size of dim {} ({}) in the input tensor",
                        shape_text(sizes), dim, t.size(dim)));
  };
  Shape inferred;
  try {
    inferred = infer_size(sizes, t.size(dim));
  } catch (const Error& e) {
    // torch's handle_unflatten_exception: infer_size's size error is reworded, any other is wrapped.
    if (std::string_view(e.what()).find("is invalid for input of size") != std::string_view::npos) throw sizes_error();
    throw Error(format("unflatten got an unexpected error:\n{}", e.what()));
  }
  if (product(inferred) != t.size(dim)) throw sizes_error();
  Shape shape(t.sizes().begin(), t.sizes().begin() + dim);
  shape.insert(shape.end(), inferred.begin(), inferred.end());
  shape.insert(shape.end(), t.sizes().begin() + dim + 1, t.sizes().end());
  return view(t, shape);
}

Tensor narrow(const Tensor& t, int64_t dim, int64_t start, int64_t length) {
  narrow_layout(layout_of(t), dim, start, length);  // torch's narrow checks (and messages)
  dim = wrap_dim(dim, t.dim());
  if (start < 0) start += t.size(dim);
  return slice(t, dim, start, start + length, 1);  // narrow is slice in torch (SliceBackward0)
}

// The rows of several views (split.Tensor, split_with_sizes, unbind.int): their views' geometry.
std::vector<Layout> layouts::split(const Tensor& t, int64_t split_size, int64_t dim) {
  check(t.dim() != 0, "split expects at least a 1-dimensional tensor");
  check(split_size >= 0, "split expects split_size be non-negative, but got split_size={}", split_size);
  dim = wrap_dim(dim, t.dim());
  const int64_t size = t.size(dim);
  check(split_size != 0 || size == 0,
        "split_size can only be 0 if dimension size is 0, but got dimension size of {}", size);
  // ceil(size / split_size) chunks (one for an empty dim) and the rest in the last, in arithmetic that cannot
  // overflow for a split_size near INT64_MAX (size + split_size - 1 would).
  const int64_t num_splits = split_size == 0 || size == 0 ? 1 : (size - 1) / split_size + 1;
  const int64_t last = size - split_size * (num_splits - 1);
  const Layout l = layout_of(t);
  std::vector<Layout> out;
  for (int64_t i = 0; i < num_splits; ++i)
    out.push_back(narrow_layout(l, dim, i * split_size, i == num_splits - 1 ? last : split_size));
  return out;
}

std::vector<Layout> layouts::split_with_sizes(const Tensor& t, std::span<const int64_t> sizes, int64_t dim) {
  check(t.dim() != 0, "split expects at least a 1-dimensional tensor");
  dim = wrap_dim(dim, t.dim());
  const int64_t size = t.size(dim);
  int64_t start = 0;
  for (int64_t s : sizes)
    check(s >= 0, "split_with_sizes expects split_sizes have only non-negative entries, but got "
                  "split_sizes={}", shape_text(sizes));
  // Summed as torch's loop sums them, wrapping on overflow (unsigned here, so that it is defined): huge
  // sizes that wrap around fail the same check with the same message.
  uint64_t total = 0;
  for (int64_t s : sizes) total += static_cast<uint64_t>(s);
  check(static_cast<int64_t>(total) == size,
        "split_with_sizes expects split_sizes to sum exactly to {} (input tensor's size at dimension "
        "{}), but got split_sizes={}",
        size, dim, shape_text(sizes));
  const Layout l = layout_of(t);
  std::vector<Layout> out;
  for (int64_t s : sizes) {
    out.push_back(narrow_layout(l, dim, start, s));
    start += s;
  }
  return out;
}

std::vector<Tensor> chunk(const Tensor& t, int64_t chunks, int64_t dim) {
  check(t.dim() > 0, "chunk expects at least a 1-dimensional tensor");
  check(chunks > 0, "chunk expects `chunks` to be greater than 0, got: {}", chunks);
  dim = wrap_dim(dim, t.dim());
  const int64_t size = t.size(dim);
  const int64_t split_size = (size + chunks - 1) / chunks;
  // Zero-size dim: keep the number of chunks (split would return one).
  if (split_size == 0 && size == 0) return split_with_sizes(t, Shape(chunks, 0), dim);
  return split(t, split_size, dim);
}

std::vector<Layout> layouts::unbind(const Tensor& t, int64_t dim) {
  check<IndexError>(t.dim() > 0, "Dimension specified as {} but tensor has no dimensions", dim);
  dim = wrap_dim(dim, t.dim());
  const Layout l = layout_of(t);
  std::vector<Layout> out;
  for (int64_t i = 0; i < t.size(dim); ++i) out.push_back(select_layout(l, dim, i));
  return out;
}

void reset_version(const Tensor& t) { t.impl()->version->version.store(0, std::memory_order_relaxed); }

// No autograd meta at all: a leaf that does not require grad (shares data and version counter).
Tensor detach(const Tensor& t) { return make_view(t, layout_of(t)); }

Tensor movedim(const Tensor& t, std::span<const int64_t> src, std::span<const int64_t> dst) {
  movedim_layout(layout_of(t), src, dst);     // argument checks
  if (t.dim() == 0) return alias(t);  // torch: self.alias() for a scalar
  return permute(t, movedim_order(t.dim(), src, dst));      // movedim is a permute in torch
}

}  // namespace dc
