// TensorIter: ATen's TensorIterator build steps and serial_for_each/DimCounter, in the same order
// and with the same tie-breaking (aten/src/ATen/TensorIterator.cpp, TensorIteratorInternal.h).
#include "densecore/kernels/iter/iter.h"

#include <algorithm>
#include <numeric>

#include "densecore/core/error.h"
#include "densecore/kernels/baseline/copy_fbgemm.h"
#include "densecore/kernels/baseline/copy_transpose.h"
#include "densecore/kernels/stubs/copy_kernel.h"

namespace dc {

DC_DEFINE_DISPATCH(CopyFn, copy_stub);

// ---- type promotion (aten/src/ATen/native/TypeProperties.cpp) ----------------------------------

namespace {

enum class Cat { Undefined, Bool, Int, Float };

struct ResultTypeState {
  std::optional<DType> dim, zero, wrapped;
};

std::optional<DType> promote_opt(std::optional<DType> a, DType b) {
  return a ? promote_types(*a, b) : b;
}

// combine_categories(higher, lower)
std::optional<DType> combine(std::optional<DType> higher, std::optional<DType> lower) {
  if (higher && is_floating(*higher)) return higher;
  if (!higher) return lower;
  if (*higher == DType::Bool || (lower && is_floating(*lower)))
    return lower ? promote_types(*higher, *lower) : *higher;
  return higher;
}

}  // namespace

DType result_type(std::span<const Tensor> tensors) {
  ResultTypeState s;
  for (const Tensor& t : tensors) {
    DType d = t.dtype();
    if (t.impl()->is_wrapped_number) {
      if (is_floating(d)) d = default_dtype();
      s.wrapped = promote_opt(s.wrapped, d);
    } else if (t.dim() > 0) {
      s.dim = promote_opt(s.dim, d);
    } else {
      s.zero = promote_opt(s.zero, d);
    }
  }
  const auto r = combine(s.dim, combine(s.zero, s.wrapped));
  return r.value_or(DType::Float32);
}

// ---- build ----------------------------------------------------------------------------------

TensorIter::TensorIter(const IterConfig& config, const Tensor& out, std::span<const Tensor> inputs) {
  ops_.reserve(inputs.size() + 1);
  // In place: an IterOperand moved into the vector costs a copy of its inline stride vector.
  IterOperand& o = ops_.emplace_back();
  o.tensor = out;
  o.is_output = true;
  if (out.defined()) o.dtype = out.dtype();
  for (const Tensor& t : inputs) {
    IterOperand& in = ops_.emplace_back();
    in.tensor = t;
    in.dtype = t.dtype();
    if (out.defined() && t.is_same(out)) ops_[0].is_read_write = true;  // mark_outputs
  }
  build(config);
}

TensorIter TensorIter::copy_op(const Tensor& dst, const Tensor& src) {
  TensorIter it;
  IterConfig c;
  c.check_all_same_dtype = false;
  c.resize_outputs = false;
  IterOperand o;
  o.tensor = dst;
  o.dtype = dst.dtype();
  o.is_output = true;
  IterOperand in;
  in.tensor = src;
  in.dtype = src.dtype();
  it.ops_.push_back(std::move(o));
  it.ops_.push_back(std::move(in));
  it.build(c);
  return it;
}

void TensorIter::build(const IterConfig& config) {
  check_mem_overlaps(config);
  compute_shape(config);
  mark_resize_outputs(config);
  compute_types(config);
  if (fast_set_up()) return;
  compute_strides();
  reorder_dimensions();
  allocate_or_resize_outputs();
  coalesce_dimensions();
}

void TensorIter::check_mem_overlaps(const IterConfig& config) const {
  if (!config.check_mem_overlap) return;
  // TensorIterator's compute_mem_overlaps: each output against itself and against every input.
  for (int i = 0; i < num_outputs_; ++i) {
    const Tensor& out = ops_[size_t(i)].tensor;
    if (!out.defined()) continue;
    assert_no_internal_overlap(out);
    for (size_t j = size_t(num_outputs_); j < ops_.size(); ++j)
      if (ops_[j].tensor.defined()) assert_no_partial_overlap(out, ops_[j].tensor);
  }
}

void TensorIter::compute_shape(const IterConfig& config) {
  bool has_scalars = false, has_tensors = false, first = true;
  all_ops_same_shape_ = true;
  for (const IterOperand& op : ops_) {
    if (!op.tensor.defined()) continue;
    if (config.resize_outputs && op.is_output) continue;
    const auto& s = op.tensor.sizes();
    (s.empty() ? has_scalars : has_tensors) = true;
    if (first) {
      shape_ = s;
      first = false;
    } else if (s != shape_) {
      all_ops_same_shape_ = false;
      shape_ = broadcast_shapes(shape_, s);
    }
  }
  all_ops_are_scalars_ = !has_tensors;
  if (first && ops_[0].tensor.defined()) shape_ = ops_[0].tensor.sizes();  // outputs only
}

void TensorIter::mark_resize_outputs(const IterConfig& config) {
  for (int i = 0; i < num_outputs_; ++i) {
    IterOperand& op = ops_[i];
    if (!op.tensor.defined() || op.tensor.sizes() == shape_) continue;
    if (config.resize_outputs && !op.is_read_write) {
      op.will_resize = true;
      continue;
    }
    throw Error(dc::format("output with shape {} doesn't match the broadcast shape {}",
                           shape_text(op.tensor.sizes()), shape_text(shape_)));
  }
}

void TensorIter::compute_types(const IterConfig& config) {
  std::optional<DType> common, output_dtype;
  bool different_inputs = false, undefined_outputs = false;
  for (IterOperand& op : ops_) {
    if (op.is_output && !op.tensor.defined()) {
      if (config.static_dtype) op.dtype = *config.static_dtype;
      else undefined_outputs = true;
      continue;
    }
    if (!op.is_output) {
      if (!common) common = op.dtype;
      else if (*common != op.dtype) different_inputs = true;
    } else if (!output_dtype) {
      output_dtype = op.dtype;
    }
  }
  if (config.check_all_same_dtype && (different_inputs || (common && output_dtype && *common != *output_dtype))) {
    for (const IterOperand& op : ops_)
      if (op.tensor.defined())
        check(op.dtype == *common, "Found dtype {} but expected {}", scalar_type_name(op.dtype),
              scalar_type_name(*common));
  }
  common_dtype_ = common.value_or(output_dtype.value_or(DType::Float32));
  if (!undefined_outputs && !config.promote_inputs_to_common_dtype && !config.cast_common_dtype_to_outputs &&
      !config.enforce_safe_casting_to_output)
    return;
  if ((different_inputs || all_ops_are_scalars_) && config.promote_inputs_to_common_dtype) {
    SmallVector<Tensor, 4> inputs;
    for (const IterOperand& op : ops_)
      if (!op.is_output) inputs.push_back(op.tensor);
    common_dtype_ = result_type(inputs);
  }
  if (config.promote_integer_inputs_to_float && is_integral(common_dtype_, /*include_bool=*/true))
    common_dtype_ = default_dtype();

  for (IterOperand& op : ops_) {
    if (op.is_output && !op.tensor.defined() && !config.static_dtype) op.dtype = common_dtype_;
    if (config.enforce_safe_casting_to_output && op.is_output && op.tensor.defined() &&
        op.dtype != common_dtype_)
      check(can_cast(common_dtype_, op.dtype), "result type {} can't be cast to the desired output type {}",
            scalar_type_name(common_dtype_), scalar_type_name(op.dtype));
    // CPU TensorIterator materialises casted temporaries (and casts outputs back in cast_outputs).
    if (config.cast_common_dtype_to_outputs && op.is_output && op.tensor.defined() &&
        op.dtype != common_dtype_) {
      op.original = op.tensor;
      op.tensor = Tensor::empty(op.original.sizes(), common_dtype_);  // LEGACY_CONTIGUOUS
      op.dtype = common_dtype_;
    }
    if (config.promote_inputs_to_common_dtype && !op.is_output && op.dtype != common_dtype_) {
      op.original = op.tensor;
      op.tensor = to_dtype(op.original, common_dtype_);
      op.dtype = common_dtype_;
    }
  }
}

// fast_set_up with FastSetupType::CONTIGUOUS (TensorIterator.cpp): operands of one shape, each
// contiguous, iterate as one dimension of numel elements with no stride sorting or coalescing, and new
// outputs are allocated contiguous. The general path reaches the same layout; this one skips the work,
// which is most of a tiny op's set-up.
bool TensorIter::fast_set_up() {
  if (!all_ops_same_shape_) return false;
  for (const IterOperand& op : ops_)
    if (op.tensor.defined() && !op.will_resize && !op.tensor.is_contiguous()) return false;
  for (int i = 0; i < num_outputs_; ++i) {
    IterOperand& op = ops_[i];
    if (op.tensor.defined() && !op.will_resize) continue;
    set_output(op, Tensor::empty(shape_, op.dtype));
  }
  if (ndim() >= 1) {
    shape_[0] = numel();
    shape_.resize(1);
  }
  for (IterOperand& op : ops_) op.stride_bytes.assign(size_t(ndim()), int64_t(itemsize(op.dtype)));
  return true;
}

void TensorIter::compute_strides() {
  const int64_t nd = ndim();
  for (IterOperand& op : ops_) {
    if (!op.tensor.defined() || op.will_resize) continue;
    const auto& sizes = op.tensor.sizes();
    const auto& strides = op.tensor.strides();
    const int64_t elsize = int64_t(op.tensor.itemsize());
    const int64_t offset = nd - int64_t(sizes.size());
    op.stride_bytes.assign(nd, 0);
    for (int64_t i = 0; i < int64_t(sizes.size()); ++i)
      op.stride_bytes[offset + i] = (sizes[i] == 1 && shape_[offset + i] != 1) ? 0 : strides[i] * elsize;
  }
}

void TensorIter::reorder_dimensions() {
  const int64_t nd = ndim();
  // 1 if dim0 should come after dim1, -1 if before, 0 if ambiguous (TensorIterator.cpp): the first
  // operand whose strides tell decides.
  perm_ = stride_order(nd, [&](int64_t dim0, int64_t dim1) {
    for (const IterOperand& op : ops_) {
      if (op.stride_bytes.empty() || op.will_resize) continue;
      const int64_t s0 = op.stride_bytes[dim0], s1 = op.stride_bytes[dim1];
      if (s0 == 0 || s1 == 0) continue;
      if (s0 < s1) return -1;
      if (s0 > s1) return 1;
      if (shape_[dim0] > shape_[dim1]) return 1;
    }
    return 0;
  });
  // permute_dimensions
  auto apply = [&](DimVector& v) {
    DimVector r(static_cast<size_t>(nd));
    for (int64_t i = 0; i < nd; ++i) r[i] = v[perm_[i]];
    v = std::move(r);
  };
  apply(shape_);
  for (IterOperand& op : ops_)
    if (op.stride_bytes.size() == size_t(nd)) apply(op.stride_bytes);
}

void TensorIter::allocate_or_resize_outputs() {
  const int64_t nd = ndim();
  bool inverted = true;
  for (int64_t d = 0; d < nd; ++d) inverted &= perm_[d] == nd - d - 1;
  for (int i = 0; i < num_outputs_; ++i) {
    IterOperand& op = ops_[i];
    if (op.tensor.defined() && !op.will_resize) continue;
    // compatible_stride: contiguous in the iteration order (element strides, wrapping arithmetic:
    // an overflow is caught by the storage size check below, with torch's message).
    DimVector sizes(static_cast<size_t>(nd)), strides(static_cast<size_t>(nd));
    uint64_t next = 1;
    for (int64_t d = 0; d < nd; ++d) {
      sizes[perm_[d]] = shape_[d];
      strides[perm_[d]] = int64_t(next);
      next *= uint64_t(shape_[d]);
    }
    // torch: at::empty(sizes) for the default order, else at::empty_strided(sizes, strides).
    Tensor fresh = inverted ? Tensor::empty(sizes, op.dtype) : Tensor::empty_strided(sizes, strides, op.dtype);
    const int64_t elsize = int64_t(itemsize(op.dtype));
    op.stride_bytes.assign(nd, 0);
    for (int64_t d = 0; d < nd; ++d) op.stride_bytes[d] = int64_t(uint64_t(strides[perm_[d]]) * uint64_t(elsize));
    set_output(op, std::move(fresh));
  }
}

void TensorIter::set_output(IterOperand& op, Tensor fresh) {
  if (op.will_resize) {
    // torch resizes out= in place (keeping the Python object); its contents are overwritten.
    TensorImpl* impl = op.tensor.impl();
    impl->storage = fresh.storage();
    impl->set_layout(fresh.sizes(), fresh.strides(), 0);
    op.will_resize = false;
  } else {
    op.tensor = std::move(fresh);
  }
}

void TensorIter::coalesce_dimensions() {
  if (ndim() <= 1) return;
  auto can_coalesce = [&](int64_t d0, int64_t d1) {
    if (shape_[d0] == 1 || shape_[d1] == 1) return true;
    for (const IterOperand& op : ops_)
      if (shape_[d0] * op.stride_bytes[d0] != op.stride_bytes[d1]) return false;
    return true;
  };
  auto replace_stride = [&](int64_t d0, int64_t d1) {
    for (IterOperand& op : ops_) op.stride_bytes[d0] = op.stride_bytes[d1];
  };
  int64_t prev = 0;
  for (int64_t d = 1; d < ndim(); ++d) {
    if (can_coalesce(prev, d)) {
      if (shape_[prev] == 1) replace_stride(prev, d);
      shape_[prev] *= shape_[d];
    } else {
      ++prev;
      if (prev != d) {
        replace_stride(prev, d);
        shape_[prev] = shape_[d];
      }
    }
  }
  shape_.resize(prev + 1);
  for (IterOperand& op : ops_) op.stride_bytes.resize(prev + 1);
}

// ---- queries ----------------------------------------------------------------------------------

int64_t TensorIter::numel() const {
  int64_t n = 1;
  for (int64_t s : shape_) n *= s;
  return n;
}

const Tensor& TensorIter::output() const {
  return ops_[0].original.defined() ? ops_[0].original : ops_[0].tensor;
}

bool TensorIter::is_scalar(int arg) const {
  const auto& st = ops_[arg].stride_bytes;
  for (int64_t d = 0; d < ndim(); ++d)
    if (st[d] != 0 && shape_[d] != 1) return false;
  return true;
}

void TensorIter::remove_operand(int arg) { ops_.erase(ops_.begin() + arg); }

bool TensorIter::has_contiguous_first_dim() const {
  if (ndim() == 0) return true;
  for (const IterOperand& op : ops_)
    if (op.stride_bytes[0] != int64_t(itemsize(op.dtype))) return false;
  return true;
}

// ---- loops ------------------------------------------------------------------------------------

void TensorIter::for_each(Loop2d loop, int64_t grain) const {
  const int64_t n = numel();
  if (n == 0) return;
  if (n < grain || get_num_threads() == 1) return serial_for_each(loop, 0, n);
  parallel_for(0, n, grain, [&](int64_t b, int64_t e) { serial_for_each(loop, b, e); });
}

void TensorIter::serial_for_each(Loop2d loop, int64_t begin, int64_t end) const {
  const int nt = ntensors();
  const int64_t nd = ndim();
  if (nd <= 1 && nt <= kMaxOneStepTensors) return serial_for_each_one_step(loop, begin, end);
  SmallVector<int64_t, 20> strides(size_t(nt) * size_t(nd));
  for (int64_t d = 0; d < nd; ++d)
    for (int t = 0; t < nt; ++t) strides[d * nt + t] = ops_[t].stride_bytes[d];
  SmallVector<char*, 4> base(static_cast<size_t>(nt));
  for (int t = 0; t < nt; ++t) base[t] = data_ptr(t);
  serial_for_each_strided(shape_, strides, base, loop, begin, end);
}

// One dimension (or none) is one call of the loop, as serial_for_each_strided makes it, set up on the stack:
// most of a tiny op's loop time was the general path's four small vectors.
void TensorIter::serial_for_each_one_step(Loop2d loop, int64_t begin, int64_t end) const {
  if (end <= begin) return;
  const int nt = ntensors();
  char* ptrs[kMaxOneStepTensors];
  int64_t strides[2 * kMaxOneStepTensors];  // inner strides, then the outer ones (0: no second dim)
  for (int t = 0; t < nt; ++t) {
    const int64_t s = ndim() == 1 ? ops_[t].stride_bytes[0] : 0;
    strides[t] = s;
    strides[nt + t] = 0;
    ptrs[t] = data_ptr(t) + begin * s;
  }
  loop(ptrs, strides, end - begin, 1);
}

// ---- DimCounter and the serial loop both iterators share -----------------------------------------

DimCounter::DimCounter(std::span<const int64_t> shape_in, int64_t begin)
    : shape(shape_in), values(shape_in.size(), 0), offset(begin) {
  int64_t linear = begin;
  for (size_t d = 0; d < shape.size(); ++d) {
    if (shape[d] > 0) {
      values[d] = linear % shape[d];
      linear /= shape[d];
    }
  }
}

std::pair<int64_t, int64_t> DimCounter::max_2d_step(int64_t end) const {
  const int64_t step0 = std::min(shape[0] - values[0], end - offset);
  int64_t step1 = 1;
  if (step0 == shape[0] && shape.size() > 1) step1 = std::min(shape[1] - values[1], (end - offset) / shape[0]);
  return {step0, step1};
}

void DimCounter::increment(std::pair<int64_t, int64_t> step) {
  offset += step.first * step.second;
  int64_t overflow = step.first;
  size_t d = 0;
  if (step.second != 1) {
    d = 1;
    overflow = step.second;
  }
  for (; d < shape.size() && overflow > 0; ++d) {
    int64_t v = values[d] + overflow;
    if (v >= shape[d]) {
      overflow = 1;
      v -= shape[d];
    } else {
      overflow = 0;
    }
    values[d] = v;
  }
}

void serial_for_each_strided(std::span<const int64_t> shape, std::span<const int64_t> strides_in,
                             std::span<char* const> base, Loop2d loop, int64_t begin, int64_t end) {
  if (end <= begin) return;
  const size_t nt = base.size();
  const int64_t nd = int64_t(shape.size());
  // get_strides: a Loop2d always reads an inner and an outer stride per tensor, 0 where no dim is.
  SmallVector<int64_t, 20> strides(nt * size_t(std::max<int64_t>(nd, 2)), 0);
  std::copy(strides_in.begin(), strides_in.end(), strides.begin());
  SmallVector<char*, 4> ptrs(nt);
  auto ptrs_at = [&](std::span<const int64_t> position) {
    for (size_t t = 0; t < nt; ++t) {
      ptrs[t] = base[t];
      for (size_t d = 0; d < position.size(); ++d) ptrs[t] += position[d] * strides[d * nt + t];
    }
  };
  if (nd <= 1) {
    const int64_t at[1] = {begin};
    ptrs_at(std::span<const int64_t>(at, size_t(nd)));
    loop(ptrs.data(), strides.data(), end - begin, 1);
    return;
  }
  DimCounter counter(shape, begin);
  while (counter.offset < end) {
    ptrs_at(counter.values);
    const std::pair<int64_t, int64_t> step = counter.max_2d_step(end);
    loop(ptrs.data(), strides.data(), step.first, step.second);
    counter.increment(step);
  }
}

void TensorIter::cast_outputs() {
  for (int i = 0; i < num_outputs_; ++i) {
    IterOperand& op = ops_[i];
    if (!op.original.defined()) continue;
    copy_into(op.original, op.tensor);
    op.tensor = op.original;
    op.original = Tensor();
    op.dtype = op.tensor.dtype();
  }
}

// ---- copies the iterator needs -------------------------------------------------------------------

void copy_into(const Tensor& dst, const Tensor& src) {
  if (dst.numel() == 0) return;
  if (copy_float16_float32_like_fbgemm(dst, src)) return;  // torch's copy_ shortcut (Copy.cpp)
  TensorIter it = TensorIter::copy_op(dst, src);  // checks sizes and overlap for both paths below
  if (copy_transposed_matrix(dst, src)) return;   // Copy.cpp's transpose path
  copy_stub(it);
}

Tensor to_dtype(const Tensor& src, DType dtype) {
  if (src.dtype() == dtype) return src;
  Tensor out = empty_like_preserve(src, dtype);
  copy_into(out, src);
  return out;
}

}  // namespace dc
