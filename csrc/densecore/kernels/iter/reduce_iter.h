// ReduceIter: ATen's TensorIterator in reduction mode (TensorIterator::reduce_op + is_reduction,
// aten/src/ATen/TensorIterator.cpp) and its reduction drivers (TensorIteratorReduce.cpp:
// parallel_reduce = serial / two_pass_reduction / parallel_dim_reduction; foreach_reduced_elt).
// Reduced dims come first after reordering; outputs have stride 0 there. Built on TensorIter's
// Loop2d type; kept separate because TensorIter has no reduction mode.
#pragma once

#include <cstdint>
#include <functional>
#include <span>
#include <vector>

#include "densecore/core/tensor.h"
#include "densecore/kernels/iter/iter.h"

namespace dc {

class ReduceIter {
 public:
  /// reduce_op(outs..., input): `outs` are already viewed to the input's rank (review_reduce_result:
  /// size 1 / stride 0 in reduced dims) or broadcastable to it; `input` has the loop dtype.
  ReduceIter(std::span<const Tensor> outs, const Tensor& input);

  int ntensors() const { return int(strides_.size()); }
  int noutputs() const { return noutputs_; }
  int64_t ndim() const { return int64_t(shape_.size()); }
  const DimVector& shape() const { return shape_; }
  int64_t numel() const;
  const DimVector& strides(int arg) const { return strides_[arg]; }
  char* data_ptr(int arg) const { return data_[arg]; }
  int64_t element_size(int arg) const { return elsize_[arg]; }
  DType dtype(int arg) const { return dtypes_[arg]; }
  int64_t view_offset(int d) const { return view_offsets_[d]; }
  /// The number of output elements (iter.output(0).numel()).
  int64_t num_output_elements() const { return out_numel_; }
  bool is_dim_reduced(int64_t d) const { return strides_[0][d] == 0 && shape_[d] > 1; }
  int num_reduce_dims() const;

  void narrow(int64_t dim, int64_t start, int64_t size);
  void select_all_keeping_dim(int64_t start_dim, std::span<const int64_t> indices);

  void serial_for_each(Loop2d loop, int64_t begin, int64_t end) const;
  void for_each(Loop2d loop, int64_t grain = kGrainSize) const;
  /// TensorIteratorBase::parallel_reduce (one output, one input).
  void parallel_reduce(Loop2d loop) const;
  /// TensorIteratorBase::foreach_reduced_elt: loop(sub) once per output element.
  void foreach_reduced_elt(const std::function<void(ReduceIter&)>& loop, bool parallelize = true) const;

 private:
  void reorder_dimensions();
  void coalesce_dimensions();
  int find_split_dim() const;
  void two_pass_reduction(Loop2d loop) const;
  void parallel_dim_reduction(Loop2d loop) const;

  // Inline lists (core/small_vector.h), as ATen's SmallVectors: building a ReduceIter, or copying one per
  // thread or output element, allocates nothing for up to 4 operands of up to 5 dims.
  static constexpr size_t kInlineOperands = 4;
  template <class T>
  using OperandVector = SmallVector<T, kInlineOperands>;

  int noutputs_ = 1;
  DimVector shape_;
  OperandVector<DimVector> strides_;  // [operand][dim], bytes
  OperandVector<char*> data_;
  OperandVector<int64_t> elsize_;
  OperandVector<DType> dtypes_;
  DimVector view_offsets_;
  int64_t out_numel_ = 1;
  Tensor out0_, input_;  // for two_pass_reduction
};

/// make_dim_mask + review_reduce_result: `result` (keepdim shape or squeezed) seen with the input's
/// rank, size 1 and stride 0 in the reduced dims.
Tensor review_reduce_result(const Tensor& result, int64_t ndim, const std::vector<bool>& mask, bool keepdim);

}  // namespace dc
