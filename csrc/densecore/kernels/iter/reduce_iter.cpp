// ReduceIter: TensorIterator's reduction build (compute_strides, reorder_dimensions with the
// "reduced dims first" rule, coalesce_dimensions) and TensorIteratorReduce.cpp's drivers.
#include "densecore/kernels/iter/reduce_iter.h"

#include <omp.h>

#include <algorithm>
#include <numeric>

#include "densecore/core/error.h"
#include "densecore/kernels/stubs/copy_kernel.h"

namespace dc {

Tensor review_reduce_result(const Tensor& result, int64_t ndim, const std::vector<bool>& mask, bool keepdim) {
  if (keepdim) return result;
  DimVector shape = result.sizes(), stride = result.strides();
  for (int64_t d = 0; d < ndim; ++d) {
    if (!mask[d]) continue;
    shape.insert(shape.begin() + d, 1, 1);
    stride.insert(stride.begin() + d, 1, 0);
  }
  return result.as_strided_view(shape, stride, result.storage_offset());
}

ReduceIter::ReduceIter(std::span<const Tensor> outs, const Tensor& input) {
  noutputs_ = int(outs.size());
  out0_ = outs[0];
  input_ = input;
  out_numel_ = outs[0].numel();
  shape_ = input.sizes();
  const int64_t nd = ndim();
  auto add_operand = [&](const Tensor& t) {
    // compute_strides: a size-1 dim broadcast against a larger one gets stride 0.
    const int64_t off = nd - t.dim();
    DimVector& st = strides_.emplace_back();
    st.assign(size_t(nd), 0);
    for (int64_t i = 0; i < t.dim(); ++i)
      st[off + i] = (t.sizes()[i] == 1 && shape_[off + i] != 1) ? 0 : t.strides()[i] * int64_t(t.itemsize());
    data_.push_back(static_cast<char*>(t.data_ptr()));
    elsize_.push_back(int64_t(t.itemsize()));
    dtypes_.push_back(t.dtype());
  };
  for (const Tensor& t : outs) add_operand(t);
  add_operand(input);
  reorder_dimensions();
  coalesce_dimensions();
  view_offsets_.assign(ndim(), 0);
}

void ReduceIter::reorder_dimensions() {
  const int64_t nd = ndim();
  if (nd <= 1) return;
  const DimVector perm = stride_order(nd, [&](int64_t d0, int64_t d1) {
    for (int arg = 0; arg < ntensors(); ++arg) {
      const int64_t s0 = strides_[arg][d0], s1 = strides_[arg][d1];
      if (arg < noutputs_ && (s0 == 0) != (s1 == 0)) return s1 == 0 ? 1 : -1;  // reduced dims first
      if (s0 == 0 || s1 == 0) continue;
      if (s0 < s1) return -1;
      if (s0 > s1) return 1;
      if (shape_[d0] > shape_[d1]) return 1;
    }
    return 0;
  });
  auto apply = [&](DimVector& v) {
    DimVector r;
    r.resize(size_t(nd));
    for (int64_t i = 0; i < nd; ++i) r[i] = v[perm[i]];
    v = std::move(r);
  };
  apply(shape_);
  for (auto& st : strides_) apply(st);
}

void ReduceIter::coalesce_dimensions() {
  if (ndim() <= 1) return;
  auto can_coalesce = [&](int64_t d0, int64_t d1) {
    if (shape_[d0] == 1 || shape_[d1] == 1) return true;
    for (const auto& st : strides_)
      if (shape_[d0] * st[d0] != st[d1]) return false;
    return true;
  };
  int64_t prev = 0;
  for (int64_t d = 1; d < ndim(); ++d) {
    if (can_coalesce(prev, d)) {
      if (shape_[prev] == 1)
        for (auto& st : strides_) st[prev] = st[d];
      shape_[prev] *= shape_[d];
    } else {
      ++prev;
      if (prev != d) {
        for (auto& st : strides_) st[prev] = st[d];
        shape_[prev] = shape_[d];
      }
    }
  }
  shape_.resize(prev + 1);
  for (auto& st : strides_) st.resize(prev + 1);
}

int64_t ReduceIter::numel() const {
  int64_t n = 1;
  for (int64_t s : shape_) n *= s;
  return n;
}

int ReduceIter::num_reduce_dims() const {
  int count = 0;
  for (int64_t d = 0; d < ndim(); ++d) count += strides_[0][d] == 0;
  return count;
}

void ReduceIter::narrow(int64_t dim, int64_t start, int64_t size) {
  shape_[dim] = size;
  view_offsets_[dim] += start;
  for (int arg = 0; arg < ntensors(); ++arg) data_[arg] += start * strides_[arg][dim];
}

void ReduceIter::select_all_keeping_dim(int64_t start_dim, std::span<const int64_t> indices) {
  for (int64_t i = start_dim; i < ndim(); ++i) {
    for (int arg = 0; arg < ntensors(); ++arg) data_[arg] += indices[i - start_dim] * strides_[arg][i];
    shape_[i] = 1;
  }
}

// ---- loops (TensorIteratorInternal.h serial_for_each with DimCounter) ---------------------------

void ReduceIter::serial_for_each(Loop2d loop, int64_t begin, int64_t end) const {
  const int nt = ntensors();
  const int64_t nd = ndim();
  SmallVector<int64_t, 4 * 5> strides;
  strides.resize(size_t(nt) * size_t(nd));
  for (int64_t d = 0; d < nd; ++d)
    for (int t = 0; t < nt; ++t) strides[d * nt + t] = strides_[t][d];
  serial_for_each_strided(shape_, strides, data_, loop, begin, end);
}

void ReduceIter::for_each(Loop2d loop, int64_t grain) const {
  const int64_t n = numel();
  if (n == 0) return;
  if (n < grain || get_num_threads() == 1) return serial_for_each(loop, 0, n);
  parallel_for(0, n, grain, [&](int64_t b, int64_t e) { serial_for_each(loop, b, e); });
}

// ---- TensorIteratorReduce.cpp ------------------------------------------------------------------

void ReduceIter::parallel_reduce(Loop2d loop) const {
  const int64_t n = numel();
  if (n < kGrainSize || get_num_threads() == 1 || in_parallel_region()) return serial_for_each(loop, 0, n);
  if (out_numel_ == 1) return two_pass_reduction(loop);
  parallel_dim_reduction(loop);
}

void ReduceIter::two_pass_reduction(Loop2d loop) const {
  const int max_threads = get_num_threads();
  std::vector<int64_t> bshape = out0_.sizes();
  bshape.insert(bshape.begin(), max_threads);
  Tensor buffer = Tensor::empty(bshape, out0_.dtype());
  std::vector<int64_t> ushape = out0_.sizes(), ustride = out0_.strides();
  ushape.insert(ushape.begin(), 1);
  ustride.insert(ustride.begin(), 1);
  const Tensor unsqueezed = out0_.as_strided_view(ushape, ustride, out0_.storage_offset());
  copy_into(buffer, unsqueezed);  // every slot starts at the identity already in the output
  const int64_t buffer_stride = buffer.strides()[0] * int64_t(buffer.itemsize());
  const Tensor buffer0 = buffer.as_strided_view(out0_.sizes(), contiguous_strides(out0_.sizes()), 0);
  const Tensor outs[1] = {buffer0};
  const ReduceIter first(outs, input_);
  parallel_for(0, numel(), kGrainSize, [&](int64_t b, int64_t e) {
    ReduceIter mine = first;
    mine.data_[0] += buffer_stride * omp_get_thread_num();
    mine.serial_for_each(loop, b, e);
  });
  const Tensor fouts[1] = {unsqueezed};
  const ReduceIter final_reduce(fouts, buffer);
  final_reduce.for_each(loop);
}

int ReduceIter::find_split_dim() const {
  const int num_threads = get_num_threads();
  int best = int(ndim()) - 1;
  for (int d = best; d >= 0 && !is_dim_reduced(d); --d) {
    if (shape_[d] >= num_threads) return d;
    if (shape_[d] > shape_[best]) best = d;
  }
  return best;
}

void ReduceIter::parallel_dim_reduction(Loop2d loop) const {
  const int dim = find_split_dim();
  const int64_t cols = shape_[dim];
  const int64_t esize = elsize_[noutputs_];
  const bool round = strides_[noutputs_][dim] == esize;
  parallel_for(0, cols, 1, [&](int64_t b, int64_t e) {
    if (round) {  // round_columns: multiples of 128 bytes when adjacent columns are contiguous
      const int64_t m = 128 / esize;
      b -= b % m;
      if (e != cols) e -= e % m;
    }
    if (b == e) return;
    ReduceIter sub = *this;
    sub.narrow(dim, b, e - b);
    sub.for_each(loop);
  });
}

void ReduceIter::foreach_reduced_elt(const std::function<void(ReduceIter&)>& loop, bool parallelize) const {
  if (out_numel_ == 0) return;
  if (out_numel_ == 1) {
    ReduceIter self = *this;
    loop(self);
    return;
  }
  if (numel() < kGrainSize || get_num_threads() == 1 || in_parallel_region() || !parallelize) {
    const int rd = num_reduce_dims();
    const DimVector nshape(shape_.begin() + rd, shape_.end());
    int64_t nnum = 1;
    for (int64_t s : nshape) nnum *= s;
    DimCounter counter(nshape, 0);
    for (int64_t k = 0; k < nnum; ++k) {
      ReduceIter reduced = *this;
      reduced.select_all_keeping_dim(rd, counter.values);
      loop(reduced);
      counter.increment({1, 1});
    }
    return;
  }
  const int dim = find_split_dim();
  parallel_for(0, shape_[dim], 1, [&](int64_t b, int64_t e) {
    if (b == e) return;
    ReduceIter sub = *this;
    sub.narrow(dim, b, e - b);
    sub.foreach_reduced_elt(loop, false);
  });
}

}  // namespace dc
