// Indexing mirrored from ATen/TensorIndexing.h (get_item/set_item/applySlicing),
// ATen/native/TensorAdvancedIndexing.cpp + IndexingUtils.h (make_info, AdvancedIndex, index,
// index_put_), and ATen/TensorIterator.cpp (reorder_dimensions: the layout of index's output).
// Kernels only move bytes, so they are exact by construction.
#include "densecore/ops/index.h"

#include <algorithm>
#include <cstring>
#include <numeric>

#include "densecore/core/convert.h"
#include "densecore/core/error.h"
#include "densecore/kernels/stubs/elementwise_stubs.h"
#include "densecore/ops/copy.h"
#include "densecore/ops/creation.h"
#include "densecore/ops/view.h"

namespace dc {
namespace {

using Kind = TensorIndex::Kind;

// Calls f(offsets) for each element of `shape` in row-major order; operand k's offset starts at
// offsets[k] and moves by strides[k][d] along dim d.
template <class F>
void for_each_element(std::span<const int64_t> shape, const std::vector<Strides>& strides,
                      std::vector<int64_t> offsets, F&& f) {
  const int64_t nd = static_cast<int64_t>(shape.size());
  for (int64_t s : shape)
    if (s == 0) return;
  std::vector<int64_t> idx(nd, 0);
  const size_t k = offsets.size();
  while (true) {
    f(offsets);
    int64_t d = nd - 1;
    for (; d >= 0; --d) {
      if (++idx[d] < shape[d]) {
        for (size_t i = 0; i < k; ++i) offsets[i] += strides[i][d];
        break;
      }
      for (size_t i = 0; i < k; ++i) offsets[i] -= strides[i][d] * (shape[d] - 1);
      idx[d] = 0;
    }
    if (d < 0) return;
  }
}

// `t`'s strides seen from a broadcast `shape` (0 on new and size-1 dims).
Strides broadcast_strides(const Tensor& t, std::span<const int64_t> shape) {
  const int64_t nd = static_cast<int64_t>(shape.size()), nt = t.dim();
  Strides out(nd, 0);
  for (int64_t i = 0; i < nt; ++i)
    if (t.sizes()[i] != 1) out[nd - nt + i] = t.strides()[i];
  return out;
}

bool is_mask(const Tensor& t) { return t.dtype() == DType::Bool || t.dtype() == DType::UInt8; }

int64_t read_index(const Tensor& t, int64_t offset) {
  const void* base = t.storage()->data();
  return t.dtype() == DType::Int32 ? static_cast<const int32_t*>(base)[offset]
                                   : static_cast<const int64_t*>(base)[offset];
}

// Output strides TensorIterator gives a fresh output of `shape` from its inputs' strides
// (TensorIteratorBase::reorder_dimensions + allocate_or_resize_outputs). Inputs are given in
// operand order with their effective strides (0 where the input has size 1).
Strides iterator_output_strides(std::span<const int64_t> shape, const std::vector<Strides>& inputs) {
  const int64_t nd = static_cast<int64_t>(shape.size());
  if (nd <= 1) return contiguous_strides(shape);
  // perm[i] = the original dim at position i, fastest-moving first.
  const DimVector perm = stride_order(nd, [&](int64_t d0, int64_t d1) {
    for (const Strides& s : inputs) {
      const int64_t s0 = s[d0], s1 = s[d1];
      if (s0 == 0 || s1 == 0) continue;
      if (s0 < s1) return -1;
      if (s0 > s1) return 1;
      if (shape[d0] > shape[d1]) return 1;
    }
    return 0;
  });
  bool inverted = true;
  for (int64_t j = 0; j < nd; ++j) inverted &= perm[j] == nd - j - 1;
  if (inverted) return contiguous_strides(shape);
  Strides out(nd);
  int64_t next = 1;
  for (int64_t j = 0; j < nd; ++j) {
    out[perm[j]] = next;
    next *= shape[perm[j]];
  }
  return out;
}

// Strides of an operand as TensorIterator sees it (compute_strides): 0 where the operand is
// broadcast (its size is 1 but the iteration shape's is not); size-1 dims of the shape keep theirs.
Strides operand_strides(std::span<const int64_t> shape, std::span<const int64_t> sizes,
                        std::span<const int64_t> strides) {
  Strides out(strides.begin(), strides.end());
  for (size_t d = 0; d < sizes.size(); ++d)
    if (sizes[d] == 1 && shape[d] != 1) out[d] = 0;
  return out;
}

// ------------------------------------------------------------ AdvancedIndex (IndexingUtils.h)

void check_index_types(std::span<const Tensor> indices) {
  for (const Tensor& t : indices) {
    if (!t.defined()) continue;
    const DType d = t.dtype();
    check<IndexError>(d == DType::Int64 || d == DType::Int32 || d == DType::UInt8 || d == DType::Bool,
                      "tensors used as indices must be long, int, byte or bool tensors");
  }
}

// Masks become one long index per mask dim (their nonzero coordinates).
std::vector<Tensor> expand_masks(const Tensor& self, std::span<const Tensor> indices) {
  std::vector<Tensor> out;
  for (const Tensor& t : indices) {
    if (!t.defined() || !is_mask(t)) {
      out.push_back(t);
      continue;
    }
    for (int64_t j = 0; j < t.dim(); ++j) {
      const int64_t src = static_cast<int64_t>(out.size()) + j;
      check<IndexError>(t.size(j) == self.size(src),
                        "The shape of the mask {} at index {} does not match the shape of the indexed "
                        "tensor {} at index {}",
                        shape_text(t.sizes()), j, shape_text(self.sizes()), src);
    }
    const Tensor nz = nonzero(t);
    for (int64_t j = 0; j < t.dim(); ++j) out.push_back(select(nz, 1, j));
  }
  return out;
}

std::vector<Tensor> broadcast_indices(std::vector<Tensor> indices) {
  Shape shape;
  bool first = true;
  try {
    for (const Tensor& t : indices) {
      if (!t.defined()) continue;
      shape = first ? t.sizes() : broadcast_shapes(shape, t.sizes());
      first = false;
    }
  } catch (const Error&) {
    std::string shapes;
    for (const Tensor& t : indices)
      if (t.defined()) shapes += (shapes.empty() ? "" : ", ") + shape_str(t.sizes());
    throw IndexError(
        "shape mismatch: indexing tensors could not be broadcast together with shapes " + shapes);
  }
  for (Tensor& t : indices)
    if (t.defined() && t.sizes() != shape) t = expand(t, shape);
  return indices;
}

bool has_contiguous_subspace(std::span<const Tensor> indices) {
  auto first = std::ranges::find_if(indices, [](const Tensor& t) { return t.defined(); });
  auto last = std::find_if(indices.rbegin(), indices.rend(), [](const Tensor& t) { return t.defined(); });
  return std::find_if(first, last.base(), [](const Tensor& t) { return !t.defined(); }) == last.base();
}

struct AdvancedIndex {
  Tensor src;                      // self restrided: indexed dims replaced by the index shape, stride 0
  std::vector<Tensor> indices;     // each reshaped to [1]*before + index shape + [1]*after
  Shape indexed_sizes;
  Strides indexed_strides;         // in elements
};

AdvancedIndex make_info(Tensor self, std::span<const Tensor> orig) {
  check_index_types(orig);
  check<IndexError>(orig.size() <= size_t(self.dim()), "too many indices for tensor of dimension {} (got {})",
                    self.dim(), orig.size());
  std::vector<Tensor> indices = broadcast_indices(expand_masks(self, orig));
  while (indices.size() < size_t(self.dim())) indices.emplace_back();
  if (!has_contiguous_subspace(indices)) {
    // Indexed dims go to the front, in order, then the others (torch's transposeToFront).
    std::vector<int64_t> dims;
    std::vector<Tensor> moved;
    for (int64_t pass = 0; pass < 2; ++pass)
      for (int64_t i = 0; i < self.dim(); ++i)
        if (indices[i].defined() == (pass == 0)) {
          dims.push_back(i);
          moved.push_back(indices[i]);
        }
    self = permute(self, dims);
    indices = std::move(moved);
  }
  AdvancedIndex info;
  int64_t before = 0, after = 0, indexed = 0;
  Shape replacement;
  for (int64_t d = 0; d < int64_t(indices.size()); ++d) {
    if (!indices[d].defined()) {
      (indexed == 0 ? before : after)++;
    } else {
      ++indexed;
      replacement = indices[d].sizes();
      info.indexed_sizes.push_back(self.size(d));
      info.indexed_strides.push_back(self.stride(d));
    }
  }
  const bool indexes_empty_dim = std::ranges::find(info.indexed_sizes, 0) != info.indexed_sizes.end();
  check<IndexError>(!indexes_empty_dim || std::ranges::find(replacement, 0) != replacement.end(),
                    "index is out of bounds for dimension with size 0");
  Shape shape(self.sizes().begin(), self.sizes().begin() + before);
  Strides strides(self.strides().begin(), self.strides().begin() + before);
  shape.insert(shape.end(), replacement.begin(), replacement.end());
  strides.insert(strides.end(), replacement.size(), 0);
  shape.insert(shape.end(), self.sizes().end() - after, self.sizes().end());
  strides.insert(strides.end(), self.strides().end() - after, self.strides().end());
  info.src = self.as_strided_view(shape, strides, self.storage_offset());
  for (const Tensor& t : indices) {
    if (!t.defined()) continue;
    Shape s(before, 1);
    s.insert(s.end(), t.sizes().begin(), t.sizes().end());
    s.insert(s.end(), after, 1);
    info.indices.push_back(reshape(t, s));
  }
  return info;
}

// Calls f(dst_offset, src_offset) over info.src's shape; `dst_strides` lays out the other operand.
template <class F>
void for_each_indexed(const AdvancedIndex& info, const Strides& other_strides, int64_t other_offset,
                      F&& f) {
  const Shape& shape = info.src.sizes();
  std::vector<Strides> strides{info.src.strides(), other_strides};
  std::vector<int64_t> offsets{info.src.storage_offset(), other_offset};
  for (const Tensor& t : info.indices) {
    strides.push_back(broadcast_strides(t, shape));
    offsets.push_back(t.storage_offset());
  }
  const size_t n = info.indices.size();
  for_each_element(shape, strides, offsets, [&](const std::vector<int64_t>& off) {
    int64_t src = off[0];
    for (size_t j = 0; j < n; ++j) {
      int64_t v = read_index(info.indices[j], off[2 + j]);
      const int64_t size = info.indexed_sizes[j];
      check<IndexError>(v >= -size && v < size, "index {} is out of bounds for dimension {} with size {}",
                        v, j, size);
      if (v < 0) v += size;
      src += v * info.indexed_strides[j];
    }
    f(src, off[1]);
  });
}

void copy_element(void* dst_base, int64_t dst, const void* src_base, int64_t src, size_t item) {
  std::memcpy(static_cast<char*>(dst_base) + dst * item, static_cast<const char*>(src_base) + src * item,
              item);
}

// The mask of x[mask] = v with one-element v, unsqueezed to self's dims (canDispatchToMaskedFill).
std::optional<Tensor> masked_fill_mask(const Tensor& self, std::span<const Tensor> indices,
                                       const Tensor& value) {
  if (value.numel() != 1) return std::nullopt;
  int64_t num_ind = 0;
  Tensor mask;
  for (const Tensor& t : indices) {
    if (!t.defined()) {
      ++num_ind;
      continue;
    }
    if (!is_mask(t) || mask.defined()) return std::nullopt;
    mask = t;
    for (int64_t j = 0; j < t.dim(); ++j)
      check<IndexError>(t.size(j) == self.size(num_ind + j),
                        "The shape of the mask {} at index {} does not match the shape of the indexed "
                        "tensor {} at index {}",
                        shape_text(t.sizes()), j, shape_text(self.sizes()), num_ind + j);
    num_ind += t.dim();
  }
  if (!mask.defined()) return std::nullopt;
  for (int64_t i = num_ind; i < self.dim(); ++i) mask = unsqueeze(mask, -1);
  return mask;
}

// ------------------------------------------------------------ get_item / set_item helpers

Tensor bool_to_index(bool v) {
  const int64_t n[] = {v ? 1 : 0};
  Tensor t = Tensor::empty(n, DType::Int64);
  if (v) t.data<int64_t>()[0] = 0;
  return t;
}

Tensor apply_select(const Tensor& self, int64_t dim, int64_t index, int64_t real_dim) {
  check<IndexError>(!(index == 0 && dim == 0 && self.dim() == 0),
                    "invalid index of a 0-dim tensor. Use `tensor.item()` in Python or "
                    "`tensor.item<T>()` in C++ to convert a 0-dim tensor to a number");
  const int64_t size = self.size(dim);
  check<IndexError>(index >= -size && index < size, "index {} is out of bounds for dimension {} with size {}",
                    index, real_dim, size);
  return select(self, dim, index);
}

Tensor apply_slice(const Tensor& self, int64_t dim, const TensorIndex& s) {
  check<ValueError>(s.step > 0, "step must be greater than zero");
  return slice(self, dim, s.start, s.stop, s.step);
}

int64_t count_specified_dims(std::span<const TensorIndex> indices) {
  int64_t count = 0;
  for (const TensorIndex& i : indices) {
    if (i.kind == Kind::Tensor)
      count += is_mask(i.tensor) ? i.tensor.dim() : 1;
    else if (i.kind != Kind::None && i.kind != Kind::Ellipsis && i.kind != Kind::Boolean)
      ++count;
  }
  return count;
}

// Tensor indices go in outIndices at the dim they index (torch's recordTensorIndex).
void record_tensor_index(const Tensor& t, std::vector<Tensor>& out, int64_t& dim) {
  if (out.empty()) out.resize(dim);
  out.push_back(t);
  dim += is_mask(t) ? t.dim() : 1;
}

// Basic indices applied as views; tensor indices collected for dispatch_index (applySlicing).
Tensor apply_slicing(const Tensor& self, std::span<const TensorIndex> indices, std::vector<Tensor>& out) {
  const int64_t specified = count_specified_dims(indices);
  check<IndexError>(specified <= self.dim(), "too many indices for tensor of dimension {}", self.dim());
  Tensor result = self;
  int64_t dim = 0;
  const auto pad = [&](int64_t n) {
    if (!out.empty()) out.resize(out.size() + n);
  };
  for (size_t i = 0; i < indices.size(); ++i) {
    const TensorIndex& idx = indices[i];
    switch (idx.kind) {
      case Kind::Integer:
        result = apply_select(result, dim, idx.integer, int64_t(i));
        break;
      case Kind::Slice:
        // torch's applySlice skips a whole-dim slice with step 1 (no SliceBackward0 node).
        if (!(dim < result.dim() && idx.start == 0 && idx.step == 1 && (idx.stop == result.size(dim) || idx.stop == INT64_MAX)))
          result = apply_slice(result, dim, idx);
        ++dim;
        pad(1);
        break;
      case Kind::Ellipsis:
        dim += self.dim() - specified;
        pad(self.dim() - specified);
        break;
      case Kind::None:
        result = unsqueeze(result, dim);
        ++dim;
        pad(1);
        break;
      case Kind::Boolean:
        result = unsqueeze(result, dim);
        record_tensor_index(bool_to_index(idx.boolean), out, dim);
        break;
      case Kind::Tensor: {
        const Tensor& t = idx.tensor;
        if (t.dim() == 0 && is_integral(t.dtype(), true)) {
          if (!is_mask(t)) {
            result = apply_select(result, dim, item(t).to_int(), int64_t(i));
          } else {
            result = unsqueeze(result, dim);
            record_tensor_index(bool_to_index(item(t).to_int() != 0), out, dim);
          }
        } else {
          record_tensor_index(t, out, dim);
        }
        break;
      }
    }
  }
  return result;
}

std::vector<Tensor> trim_trailing_undefined(std::vector<Tensor> v) {
  while (!v.empty() && !v.back().defined()) v.pop_back();
  return v;
}

// How many leading dims of t have size 1.
size_t leading_ones(const Tensor& t) {
  size_t first = 0;
  while (first < t.sizes().size() && t.sizes()[first] == 1) ++first;
  return first;
}

// Drops leading size-1 dims of value (torch's slicePrefix1sSize); value itself when there are none.
Tensor slice_prefix_ones(const Tensor& value) {
  const size_t first = leading_ones(value);
  if (first == 0) return value;
  const Shape s(value.sizes().begin() + first, value.sizes().end());
  return view(value, s);
}

// dst = src with torch's setitem broadcasting (python_variable_indexing.cpp copy_to), through the
// recorded copy_/fill_ so that an assignment into a view is differentiable (CopySlices).
void copy_to(const Tensor& dst, const Tensor& src) {
  if (dst.sizes() == src.sizes()) {
    copy_(dst, src);
    return;
  }
  if (src.dim() == 0) {
    fill_(dst, src);
    return;
  }
  const Shape prefix_dropped(src.sizes().begin() + leading_ones(src), src.sizes().end());
  const Tensor src_view = view(src, prefix_dropped);  // torch views even when nothing is dropped
  copy_(dst, src_view.sizes() == dst.sizes() ? src_view : expand(src_view, dst.sizes()));
}


// dst[d] += src[s] as torch's `*(scalar_t*)dst += *(scalar_t*)src` (half types through float).
void add_element(const Tensor& dst, int64_t d, const Tensor& src, int64_t s) {
  dispatch_dtype(dst.dtype(), [&]<class T>() {
    if constexpr (!std::is_same_v<T, bool>) {
      T* p = static_cast<T*>(dst.storage()->data()) + d;
      const T v = static_cast<const T*>(src.storage()->data())[s];
      *p = static_cast<T>(static_cast<opmath_t<T>>(*p) + static_cast<opmath_t<T>>(v));
    }
  });
}

}  // namespace

// ------------------------------------------------------------ public

Tensor value_to_tensor(const Scalar& s, DType dtype) {
  Tensor t = Tensor::empty({}, dtype);
  dispatch_dtype(dtype, [&]<class T>() {
    T v;
    if (s.is_floating()) v = convert<T>(s.v.d);
    else if (s.is_bool()) v = convert<T>(s.v.b);
    else v = convert<T>(s.v.i);
    *t.data<T>() = v;
  });
  return t;
}

Scalar item(const Tensor& t) {
  check(t.numel() == 1, "a Tensor with {} elements cannot be converted to Scalar", t.numel());
  const int64_t off = t.storage_offset();
  return dispatch_dtype(t.dtype(), [&]<class T>() {
    const T v = static_cast<const T*>(t.storage()->data())[off];
    if constexpr (std::is_same_v<T, bool>) return Scalar::from_bool(v);
    else if constexpr (std::is_integral_v<T>) return Scalar::from_int(int64_t(v));
    else return Scalar::from_double(static_cast<double>(static_cast<opmath_t<T>>(v)));
  });
}

Tensor nonzero(const Tensor& self) {
  std::vector<int64_t> coords;
  const int64_t nd = self.dim();
  std::vector<int64_t> idx(nd, 0);
  dispatch_dtype(self.dtype(), [&]<class T>() {
    const T* base = static_cast<const T*>(self.storage()->data());
    for_each_element(self.sizes(), {self.strides()}, {self.storage_offset()},
                     [&](const std::vector<int64_t>& off) {
                       if (convert<bool>(base[off[0]])) coords.insert(coords.end(), idx.begin(), idx.end());
                       for (int64_t d = nd - 1; d >= 0; --d) {
                         if (++idx[d] < self.sizes()[d]) break;
                         idx[d] = 0;
                       }
                     });
  });
  const int64_t shape[] = {nd ? int64_t(coords.size()) / nd : (self.numel() && convert<bool>(item(self).to_double()) ? 1 : 0), nd};
  Tensor out = Tensor::empty(shape, DType::Int64);
  std::copy(coords.begin(), coords.end(), out.data<int64_t>());
  return out;
}

// index.Tensor's row records IndexBackward0 around it.
Tensor impl::index_forward(const Tensor& self, std::span<const Tensor> indices) {
  const AdvancedIndex info = make_info(self, indices);
  const Shape& shape = info.src.sizes();
  std::vector<Strides> operands{operand_strides(shape, shape, info.src.strides())};
  for (const Tensor& t : info.indices) operands.push_back(operand_strides(shape, t.sizes(), t.strides()));
  const Strides out_strides = iterator_output_strides(shape, operands);
  // TensorIterator's output: at::empty in the default order, else at::empty_strided (their messages differ).
  Tensor out = out_strides == contiguous_strides(shape) ? Tensor::empty(shape, self.dtype())
                                                        : Tensor::empty_strided(shape, out_strides, self.dtype());
  const size_t item = self.itemsize();
  for_each_indexed(info, out_strides, 0, [&](int64_t src, int64_t dst) {
    copy_element(out.storage()->data(), dst, self.storage()->data(), src, item);
  });
  return out;
}

namespace {

void index_put_impl(const Tensor& self, std::span<const Tensor> indices, const Tensor& value, bool accumulate) {
  check_index_types(indices);
  if (!accumulate)
    if (auto mask = masked_fill_mask(self, indices, value)) {
      native::masked_fill_(self, *mask, item(value));
      return;
    }
  const AdvancedIndex info = make_info(self, indices);
  const Shape& shape = info.src.sizes();
  bool expandable = value.dim() <= int64_t(shape.size());
  for (int64_t i = 0; expandable && i < value.dim(); ++i) {
    const int64_t vs = value.sizes()[value.dim() - 1 - i], ss = shape[shape.size() - 1 - i];
    expandable = vs == ss || vs == 1;
  }
  check(expandable, "shape mismatch: value tensor of shape {} cannot be broadcast to indexing result of shape {}",
        shape_text(value.sizes()), shape_text(shape));
  check(value.dtype() == self.dtype(),
        "Index put requires the source and destination dtypes match, got {} for the destination and {} "
        "for the source.",
        scalar_type_name(self.dtype()), scalar_type_name(value.dtype()));
  const size_t item_size = self.itemsize();
  for_each_indexed(info, broadcast_strides(value, shape), value.storage_offset(),
                   [&](int64_t dst, int64_t src) {
                     if (accumulate) add_element(self, dst, value, src);
                     else copy_element(self.storage()->data(), dst, value.storage()->data(), src, item_size);
                   });
  self.bump_version();
}

}  // namespace

// index_put_'s and index_put's rows record IndexPutBackward0 around these.
const Tensor& native::index_put_(const Tensor& self, std::span<const Tensor> indices, const Tensor& values,
                                 bool accumulate) {
  index_put_impl(self, indices, values, accumulate);
  return self;
}

Tensor impl::index_put_forward(const Tensor& self, std::span<const Tensor> indices, const Tensor& values,
                               bool accumulate) {
  Tensor out = clone(self, MemoryFormat::Contiguous);
  index_put_impl(out, indices, values, accumulate);
  reset_version(out);  // a new tensor starts at version 0
  return out;
}

Tensor get_item(const Tensor& self, std::span<const TensorIndex> indices) {
  if (indices.size() == 1) {
    const TensorIndex& i = indices[0];
    switch (i.kind) {
      case Kind::Integer: return apply_select(self, 0, i.integer, 0);
      case Kind::Slice: return apply_slice(self, 0, i);
      case Kind::None: return unsqueeze(self, 0);
      case Kind::Ellipsis: return alias(self);
      case Kind::Boolean: {
        const Tensor idx[] = {bool_to_index(i.boolean)};
        return index(unsqueeze(self, 0), idx);
      }
      case Kind::Tensor: break;
    }
  }
  std::vector<Tensor> tensors;
  Tensor sliced = apply_slicing(self, indices, tensors);
  if (tensors.empty()) return sliced.is_same(self) ? alias(sliced) : sliced;
  return index(sliced, trim_trailing_undefined(std::move(tensors)));
}

void set_item(const Tensor& self, std::span<const TensorIndex> indices, const Tensor& value) {
  if (indices.size() == 1) {
    const TensorIndex& i = indices[0];
    switch (i.kind) {
      case Kind::Boolean:
        if (i.boolean) copy_to(unsqueeze(self, 0), value);
        return;
      case Kind::Ellipsis: return copy_to(self, value);
      case Kind::None: return copy_to(unsqueeze(self, 0), value);
      case Kind::Integer: return copy_to(apply_select(self, 0, i.integer, 0), value);
      case Kind::Slice: return copy_to(apply_slice(self, 0, i), value);
      case Kind::Tensor: break;
    }
  }
  std::vector<Tensor> tensors;
  Tensor sliced = apply_slicing(self, indices, tensors);
  if (tensors.empty()) return copy_to(sliced, value);
  // sliced shares self's version counter, so index_put_ bumps self's version.
  index_put_(sliced, trim_trailing_undefined(std::move(tensors)), slice_prefix_ones(value));
}

namespace {

// index_select of a contiguous self into its fresh contiguous out: each selected slice is a run of `inner`
// elements, copied whole (torch's index_select_out_cpu_ copies rows too). An embedding's forward is this with
// dim 0; element by element it was 0.6 ms of the GPT step's 21. Every index is checked before anything is
// copied; out is new, so a bad index leaves nothing half-visible either way.
void index_select_rows(const Tensor& self, int64_t dim, const Tensor& index, const Tensor& out) {
  const int64_t size = self.size(dim), n = index.numel();
  const int64_t idx_stride = index.dim() > 0 ? index.stride(0) : 0;
  auto index_at = [&](int64_t i) { return read_index(index, index.storage_offset() + i * idx_stride); };
  for (int64_t i = 0; i < n; ++i) {
    const int64_t v = index_at(i);
    check<IndexError>(v >= 0 && v < size, "index out of range in self");
  }
  int64_t outer = 1, inner = 1;
  for (int64_t d = 0; d < dim; ++d) outer *= self.size(d);
  for (int64_t d = dim + 1; d < self.dim(); ++d) inner *= self.size(d);
  const size_t row_bytes = size_t(inner) * self.itemsize();
  const char* src = static_cast<const char*>(self.data_ptr());
  char* dst = static_cast<char*>(out.data_ptr());
  for (int64_t o = 0; o < outer; ++o)
    for (int64_t i = 0; i < n; ++i)
      std::memcpy(dst + size_t(o * n + i) * row_bytes, src + size_t(o * size + index_at(i)) * row_bytes, row_bytes);
}

}  // namespace

Tensor impl::index_select_forward(const Tensor& self, int64_t dim, const Tensor& index) {
  dim = wrap_dim(dim, self.dim());
  check<IndexError>(index.dim() <= 1, "index_select(): Index is supposed to be a vector");
  check(index.dtype() == DType::Int64 || index.dtype() == DType::Int32,
        "index_select(): Expected dtype int32 or int64 for index");
  const int64_t n = index.numel();
  Shape shape = self.sizes();
  if (self.dim() > 0) shape[dim] = n;
  Tensor out = Tensor::empty(shape, self.dtype());
  if (self.dim() > 0 && self.is_contiguous() && out.numel() > 0) {
    index_select_rows(self, dim, index, out);
    return out;
  }
  const int64_t size = self.dim() > 0 ? self.size(dim) : 1;
  const int64_t in_stride = self.dim() > 0 ? self.stride(dim) : 0;
  const int64_t idx_stride = index.dim() > 0 ? index.stride(0) : 0;
  // Iterate the output with the selected dim's stride set to 0 in self, adding the looked-up row.
  Strides self_strides = self.strides();
  if (self.dim() > 0) self_strides[dim] = 0;
  Strides idx_strides(shape.size(), 0);
  if (self.dim() > 0) idx_strides[dim] = idx_stride;
  const size_t item_size = self.itemsize();
  for_each_element(shape, {out.strides(), self_strides, idx_strides},
                   {0, self.storage_offset(), index.storage_offset()},
                   [&](const std::vector<int64_t>& off) {
                     const int64_t v = read_index(index, off[2]);
                     check<IndexError>(v >= 0 && v < size, "index out of range in self");
                     const int64_t src = off[1] + v * in_stride;
                     copy_element(out.storage()->data(), off[0], self.storage()->data(), src, item_size);
                   });
  return out;
}

namespace {

// self[mask] = value, mask broadcast to self's shape (the kernel of masked_fill_).
void fill_masked(const Tensor& self, const Tensor& mask, const Scalar& value) {
  check(mask.dtype() == DType::Bool, "masked_fill_ only supports boolean masks, but got mask with dtype {}",
        type_meta_name(mask.dtype()));
  const Shape shape = broadcast_shapes(self.sizes(), mask.sizes());
  check(shape == self.sizes(), "output with shape {} doesn't match the broadcast shape {}",
        shape_text(self.sizes()), shape_text(shape));
  const Tensor v = value_to_tensor(value, self.dtype());
  // masked_fill_impl_cpu's iterator: self written in place (not resized, any overlap allowed), mask as its input.
  IterConfig config = unary_op_config();
  config.check_all_same_dtype = false;
  config.resize_outputs = false;
  config.check_mem_overlap = false;
  const Tensor inputs[] = {mask};
  TensorIter iter(config, self, inputs);
  masked_fill_stub(iter, v.data_ptr());
  self.bump_version();
}

}  // namespace

// masked_fill_'s rows record MaskedFillBackward0 / MaskedFillBackward1 around these.
const Tensor& native::masked_fill_(const Tensor& self, const Tensor& mask, const Scalar& value) {
  fill_masked(self, mask, value);
  return self;
}

const Tensor& native::masked_fill_(const Tensor& self, const Tensor& mask, const Tensor& value) {
  check(value.dim() == 0,
        "masked_fill_ only supports a 0-dimensional value tensor, but got tensor with {} dimension(s).",
        value.dim());
  fill_masked(self, mask, item(value));
  return self;
}

// masked_fill (TensorAdvancedIndexing.cpp's composite): self expanded to the mask's shape, copied, filled.
namespace {
template <class Value>
Tensor masked_fill_copy(const Tensor& self, const Tensor& mask, const Value& value) {
  const Shape shape = broadcast_shapes(mask.sizes(), self.sizes());
  Tensor out = clone(expand(self, shape), MemoryFormat::Contiguous);
  native::masked_fill_(out, mask, value);
  reset_version(out);  // a new tensor starts at version 0, as torch's result does
  return out;
}
}  // namespace

Tensor impl::masked_fill_forward(const Tensor& self, const Tensor& mask, const Scalar& value) {
  return masked_fill_copy(self, mask, value);
}
Tensor impl::masked_fill_forward(const Tensor& self, const Tensor& mask, const Tensor& value) {
  return masked_fill_copy(self, mask, value);
}

Tensor impl::gather_forward(const Tensor& self, int64_t dim, const Tensor& index, bool sparse_grad) {
  check<NotImplementedError>(!sparse_grad, "gather(): sparse_grad=True (a sparse gradient) is not supported");
  dim = wrap_dim(dim, self.dim());
  // scatter_gather_dtype_check: an empty index may have any dtype.
  check(index.numel() == 0 || index.dtype() == DType::Int64 || index.dtype() == DType::Int32,
        "gather(): Expected dtype int32/int64 for index");
  check(std::max<int64_t>(index.dim(), 1) == std::max<int64_t>(self.dim(), 1),
        "Index tensor must have the same number of dimensions as input tensor");
  for (int64_t d = 0; d < index.dim(); ++d)
    if (d != dim)
      check(index.size(d) <= self.size(d),
            "Size does not match at dimension {} expected index {} to be no larger than self {} apart "
            "from dimension {}",
            d, shape_text(index.sizes()), shape_text(self.sizes()), dim);
  Tensor out = Tensor::empty(index.sizes(), self.dtype());
  const int64_t size = self.dim() > 0 ? self.size(dim) : 1;
  const int64_t in_stride = self.dim() > 0 ? self.stride(dim) : 0;
  Strides self_strides = self.strides();
  if (self.dim() > 0) self_strides[dim] = 0;
  const size_t item_size = self.itemsize();
  for_each_element(index.sizes(), {out.strides(), self_strides, index.strides()},
                   {0, self.storage_offset(), index.storage_offset()},
                   [&](const std::vector<int64_t>& off) {
                     const int64_t v = read_index(index, off[2]);
                     // gather does not wrap negative indices.
                     check(v >= 0 && v < size, "index {} is out of bounds for dimension {} with size {}", v,
                           dim, size);
                     const int64_t src = off[1] + v * in_stride;
                     copy_element(out.storage()->data(), off[0], self.storage()->data(), src, item_size);
                   });
  return out;
}

const Tensor& index_add_(const Tensor& self, int64_t dim, const Tensor& index, const Tensor& source) {
  // index_add_cpu_: for i in index order, self.select(dim, index[i]) += source.select(dim, i).
  dim = wrap_dim(dim, std::max<int64_t>(self.dim(), 1));
  const int64_t n = index.numel();
  const int64_t size = self.dim() > 0 ? self.size(dim) : 1;
  for (int64_t i = 0; i < n; ++i) {
    const int64_t v = read_index(index, index.storage_offset() + (index.dim() > 0 ? i * index.stride(0) : 0));
    check<IndexError>(v >= -size && v < size, "index out of range in self");
    const int64_t at = v < 0 ? v + size : v;
    const Tensor dst = self.dim() > 0 ? select(self, dim, at) : self;
    const Tensor src = source.dim() > 0 ? select(source, dim, i) : source;
    for_each_element(dst.sizes(), {dst.strides(), src.strides()}, {dst.storage_offset(), src.storage_offset()},
                     [&](const std::vector<int64_t>& off) { add_element(dst, off[0], src, off[1]); });
  }
  self.bump_version();
  return self;
}

namespace {

// ScatterGatherChecks.h: index is int32/int64, src has self's dtype, same number of dims, and the index
// fits inside src everywhere and inside self outside `dim`.
void scatter_checks(const char* fn, const Tensor& self, int64_t dim, const Tensor& index, const Tensor& src) {
  check(index.numel() == 0 || index.dtype() == DType::Int64 || index.dtype() == DType::Int32,
        "scatter(): Expected dtype int32/int64 for index");
  check(self.dtype() == src.dtype(), "{}(): Expected self.dtype to be equal to src.dtype", fn);
  const int64_t nd = std::max<int64_t>(self.dim(), 1);
  check(std::max<int64_t>(index.dim(), 1) == nd && std::max<int64_t>(src.dim(), 1) == nd,
        "Index tensor must have the same number of dimensions as self tensor");
  if (index.numel() == 0 || index.dim() == 0) return;
  for (int64_t d = 0; d < index.dim(); ++d) {
    const bool fits = index.size(d) <= src.size(d) && (d == dim || index.size(d) <= self.size(d));
    check(fits, "Expected index {} to be no larger than self {} apart from dimension {} and to be no larger size than src {}",
          shape_text(index.sizes()), shape_text(self.sizes()), dim, shape_text(src.sizes()));
  }
}

// cpu_scatter_gather_base_kernel: every index element in row-major order writes (or adds) src's
// element at self[.., idx, ..]; later writes win. Indices are checked first so bad input changes nothing.
const Tensor& scatter_impl(const char* fn, const Tensor& self, int64_t dim, const Tensor& index, const Tensor& src,
                           bool accumulate) {
  dim = wrap_dim(dim, std::max<int64_t>(self.dim(), 1));
  assert_no_internal_overlap(self);
  scatter_checks(fn, self, dim, index, src);
  const int64_t size = self.dim() > 0 ? self.size(dim) : 1;
  for_each_element(index.sizes(), {index.strides()}, {index.storage_offset()}, [&](const std::vector<int64_t>& off) {
    const int64_t v = read_index(index, off[0]);
    check(v >= 0 && v < size, "index {} is out of bounds for dimension {} with size {}", v, dim, size);
  });
  const int64_t self_dim_stride = self.dim() > 0 ? self.stride(dim) : 0;
  const size_t item = self.itemsize();
  Strides self_strides = self.strides();
  if (self.dim() > 0) self_strides[dim] = 0;
  for_each_element(index.sizes(), {self_strides, src.strides(), index.strides()},
                   {self.storage_offset(), src.storage_offset(), index.storage_offset()},
                   [&](const std::vector<int64_t>& off) {
                     const int64_t v = read_index(index, off[2]);
                     if (accumulate) add_element(self, off[0] + v * self_dim_stride, src, off[1]);
                     else copy_element(self.storage()->data(), off[0] + v * self_dim_stride, src.storage()->data(),
                                       off[1], item);
                   });
  self.bump_version();
  return self;
}


// torch.scatter / scatter_add: the in-place kernel on a copy of self.
Tensor scatter_copy(const char* fn, const Tensor& self, int64_t dim, const Tensor& index, const Tensor& src,
                    bool accumulate) {
  Tensor out = clone(self, MemoryFormat::Contiguous);
  scatter_impl(fn, out, dim, index, src, accumulate);
  reset_version(out);  // a new tensor starts at version 0
  return out;
}

}  // namespace

// scatter_add_'s and scatter_.src's rows record ScatterAddBackward0 / ScatterBackward0 around these.
const Tensor& native::scatter_add_(const Tensor& self, int64_t dim, const Tensor& index, const Tensor& src) {
  return scatter_impl("scatter_add", self, dim, index, src, /*accumulate=*/true);
}

const Tensor& native::scatter_(const Tensor& self, int64_t dim, const Tensor& index, const Tensor& src) {
  return scatter_impl("scatter", self, dim, index, src, /*accumulate=*/false);
}

// scatter.src and scatter_add are op rows: these are their forwards.
Tensor impl::scatter_forward(const Tensor& self, int64_t dim, const Tensor& index, const Tensor& src) {
  return scatter_copy("scatter", self, dim, index, src, /*accumulate=*/false);
}

Tensor impl::scatter_add_forward(const Tensor& self, int64_t dim, const Tensor& index, const Tensor& src) {
  return scatter_copy("scatter_add", self, dim, index, src, /*accumulate=*/true);
}

// one_hot's row (Onehot.cpp): the class count comes from the largest index when it is -1; the checks read the
// smallest and largest index first, so a bad index raises before anything is allocated.
Tensor impl::one_hot_forward(const Tensor& self, int64_t num_classes) {
  check(self.dtype() == DType::Int64, "one_hot is only applicable to index tensor of type LongTensor.");
  std::vector<int64_t> shape(self.sizes().begin(), self.sizes().end());
  if (self.numel() == 0) {
    check(num_classes > 0, "Can not infer total number of classes from empty tensor.");
    shape.push_back(num_classes);
    return empty(shape, DType::Int64);
  }
  check(*contiguous(dc::min(self)).data<int64_t>() >= 0, "Class values must be non-negative.");
  const int64_t largest = *contiguous(dc::max(self)).data<int64_t>();
  // torch's max + 1 wraps for the largest int64, and zeros then refuses the negative size; wrap the same way
  // without signed overflow.
  if (num_classes == -1) num_classes = static_cast<int64_t>(static_cast<uint64_t>(largest) + 1);
  else check(num_classes > largest, "Class values must be smaller than num_classes.");
  shape.push_back(num_classes);
  const Tensor index = unsqueeze(self, -1);
  Tensor out = zeros(shape, DType::Int64);
  native::scatter_(out, -1, index, ones_like(index));
  return out;
}

}  // namespace dc
