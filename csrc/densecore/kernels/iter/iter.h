// TensorIter: the loop layer under every elementwise kernel, mirroring ATen's TensorIterator
// (aten/src/ATen/TensorIterator.cpp, TensorIteratorInternal.h): broadcasting, common dtype
// (torch.result_type), casted input temporaries, output allocation/checks, stride-ordered and
// coalesced dimensions, and for_each over ATen's chunks. Kernels only see the loop2d arguments.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <type_traits>
#include <utility>
#include <vector>

#include "densecore/core/convert.h"
#include "densecore/core/small_vector.h"
#include "densecore/core/tensor.h"
#include "densecore/kernels/iter/parallel.h"

namespace dc {

/// A non-owning reference to a callable, so the loop can be passed from a per-capability kernel
/// TU into iter.cpp without std::function's allocation.
template <class Sig> class FunctionRef;
template <class R, class... A>
class FunctionRef<R(A...)> {
 public:
  template <class F>
  FunctionRef(F&& f)  // NOLINT: implicit, like c10::function_ref
      : obj_(const_cast<void*>(static_cast<const void*>(&f))),
        call_([](void* o, A... a) -> R { return (*static_cast<std::remove_reference_t<F>*>(o))(a...); }) {}
  R operator()(A... a) const { return call_(obj_, a...); }

 private:
  void* obj_;
  R (*call_)(void*, A...);
};

/// loop2d(data, strides, size0, size1): strides holds ntensors inner strides then ntensors outer
/// strides, in bytes (ATen's loop2d_t).
using Loop2d = FunctionRef<void(char**, const int64_t*, int64_t, int64_t)>;

/// TensorIterator's DimCounter (aten/src/ATen/TensorIterator.cpp): the multi-dim position of a
/// linear offset in `shape` (dim 0 fastest), advanced by the 2-d steps a Loop2d takes.
struct DimCounter {
  DimCounter(std::span<const int64_t> shape, int64_t begin);
  /// The largest {inner, outer} block from here that stays inside one row of dim 0, and inside
  /// dim 1 when a whole row fits; at most end - offset elements.
  std::pair<int64_t, int64_t> max_2d_step(int64_t end) const;
  /// Moves by step0 * step1 elements, carrying into the outer dims.
  void increment(std::pair<int64_t, int64_t> step);

  std::span<const int64_t> shape;
  DimVector values;
  int64_t offset;
};

/// serial_for_each of TensorIteratorBase with DimCounter (TensorIteratorInternal.h) over [begin,
/// end) of `shape`: `strides` in bytes, laid out [dim][tensor] for ntensors = base.size() tensors.
/// Shared by TensorIter and ReduceIter.
void serial_for_each_strided(std::span<const int64_t> shape, std::span<const int64_t> strides,
                             std::span<char* const> base, Loop2d loop, int64_t begin, int64_t end);

/// The builder switches of ATen's TensorIteratorConfig that our ops use.
struct IterConfig {
  bool promote_inputs_to_common_dtype = false;
  bool promote_integer_inputs_to_float = false;
  bool cast_common_dtype_to_outputs = false;
  bool enforce_safe_casting_to_output = false;
  bool check_all_same_dtype = true;
  bool resize_outputs = true;
  bool check_mem_overlap = true;
  std::optional<DType> static_dtype;  // declare_static_dtype: output dtype, no computation dtype
};

// The configs of TensorIteratorBase's builders (aten/src/ATen/TensorIterator.cpp), one home for each.
/// build_borrowing_unary_op / build_unary_op: every operand one dtype.
inline IterConfig unary_op_config() { return IterConfig{}; }
/// build_borrowing_binary_op (and build_ternary_op's flags): inputs promoted to a common dtype, which is
/// cast to the output when it is safe to.
inline IterConfig binary_op_config() {
  IterConfig c;
  c.promote_inputs_to_common_dtype = true;
  c.cast_common_dtype_to_outputs = true;
  c.enforce_safe_casting_to_output = true;
  c.check_all_same_dtype = false;
  return c;
}
/// build_borrowing_unary_float_op / build_borrowing_binary_float_op: as binary_op_config, and integer or
/// bool inputs compute in the default float dtype.
inline IterConfig float_op_config() {
  IterConfig c = binary_op_config();
  c.promote_integer_inputs_to_float = true;
  return c;
}

struct IterOperand {
  IterOperand() {}  // user-provided: emplace_back() then skips zero-filling stride_bytes' inline room
  Tensor tensor;    // what the loop reads or writes (may be a casted temporary)
  Tensor original;  // defined when `tensor` is a temporary standing in for this tensor
  DType dtype = DType::Float32;
  bool is_output = false;
  bool is_read_write = false;  // the output is also an input (in-place)
  bool will_resize = false;
  DimVector stride_bytes;
};

class TensorIter {
 public:
  /// Builds over `out` (undefined: allocated) and `inputs`, like TensorIteratorConfig::build().
  TensorIter(const IterConfig& config, const Tensor& out, std::span<const Tensor> inputs);
  /// Copy iterator (Copy.cpp): dst and src keep their dtypes, dst is not resized.
  static TensorIter copy_op(const Tensor& dst, const Tensor& src);

  int64_t ndim() const { return int64_t(shape_.size()); }
  const DimVector& shape() const { return shape_; }
  int64_t numel() const;
  int ntensors() const { return int(ops_.size()); }
  DType common_dtype() const { return common_dtype_; }
  DType dtype(int i) const { return ops_[i].dtype; }
  const DimVector& strides(int i) const { return ops_[i].stride_bytes; }
  char* data_ptr(int i) const { return static_cast<char*>(ops_[i].tensor.data_ptr()); }
  /// The output as the caller sees it (the original tensor when the loop wrote a temporary).
  const Tensor& output() const;

  /// All strides 0 or size 1 (ATen's is_scalar): a 0-dim or fully broadcast input.
  bool is_scalar(int arg) const;
  /// The input's value before any cast to the common dtype, converted to T (original_scalar_value).
  template <class T>
  T original_scalar_value(int arg) const;
  void remove_operand(int arg);
  /// Every operand's inner stride equals its element size.
  bool has_contiguous_first_dim() const;

  /// Runs loop over all elements: serially when numel < grain or one thread, else in ATen's
  /// parallel_for chunks of the linear index.
  void for_each(Loop2d loop, int64_t grain = kGrainSize) const;
  /// Runs loop over the linear range [begin, end) (ATen's serial_for_each with DimCounter).
  void serial_for_each(Loop2d loop, int64_t begin, int64_t end) const;
  /// Writes temporaries back into the real outputs (cast_outputs); call after the kernel.
  void cast_outputs();

 private:
  TensorIter() = default;
  void build(const IterConfig& config);
  void compute_shape(const IterConfig& config);
  void mark_resize_outputs(const IterConfig& config);
  void compute_types(const IterConfig& config);
  bool fast_set_up();
  void compute_strides();
  void reorder_dimensions();
  void allocate_or_resize_outputs();
  /// Makes `fresh` the output: resizes a will_resize out= in place, else replaces the operand.
  void set_output(IterOperand& op, Tensor fresh);
  void coalesce_dimensions();
  void check_mem_overlaps(const IterConfig& config) const;
  static constexpr int kMaxOneStepTensors = 8;
  void serial_for_each_one_step(Loop2d loop, int64_t begin, int64_t end) const;

  SmallVector<IterOperand, 4> ops_;  // outputs first; 4 inline as ATen's operands_
  int num_outputs_ = 1;
  DimVector shape_;
  DimVector perm_;
  DType common_dtype_ = DType::Float32;
  bool all_ops_are_scalars_ = false;
  bool all_ops_same_shape_ = true;
};

/// torch.result_type over tensors (0-dim wrapped numbers count as Python scalars).
DType result_type(std::span<const Tensor> tensors);
/// c10::fetch_and_cast: reads one element of dtype `t` at p as T (c10::convert semantics).
template <class T>
T fetch_and_cast(DType t, const void* p) {
  return dispatch_dtype(t, [&]<class S>() { return convert<T>(*static_cast<const S*>(p)); });
}

template <class T>
T TensorIter::original_scalar_value(int arg) const {
  const IterOperand& op = ops_[arg];
  if (op.original.defined()) return fetch_and_cast<T>(op.original.dtype(), op.original.data_ptr());
  return fetch_and_cast<T>(op.dtype, op.tensor.data_ptr());
}

}  // namespace dc
