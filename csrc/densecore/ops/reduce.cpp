// Reductions and softmax: ReduceOps.cpp (sum_out, mean_out, amax/amin, argmax/argmin),
// ReduceAllOps.cpp (max/min of everything), TensorCompare.cpp (max/min with dim), SoftMax.cpp
// (softmax_cpu_out / log_softmax_cpu_out) and ExpandUtils.h (_sum_to).
#include "densecore/ops/reduce.h"

#include <algorithm>
#include <cmath>
#include <limits>

#include "densecore/core/error.h"
#include "densecore/core/scalar.h"
#include "densecore/kernels/stubs/copy_kernel.h"
#include "densecore/kernels/stubs/reduce_stubs.h"
#include "densecore/ops/copy.h"
#include "densecore/ops/creation.h"
#include "densecore/ops/elementwise.h"
#include "densecore/ops/view.h"
#include "densecore/generated/ops.h"
#include "densecore/ops/unary.h"
#include "densecore/ops/index.h"

namespace dc {
namespace {

/// make_dim_mask: empty dims = every dim; repeated dims are an error.
std::vector<bool> make_dim_mask(std::span<const int64_t> dims, int64_t ndim) {
  std::vector<bool> mask(ndim, dims.empty());
  for (int64_t d : dims) {
    const int64_t w = wrap_dim(d, ndim);
    if (ndim == 0) continue;
    check(!mask[w], "dim {} appears multiple times in the list of dims", w);
    mask[w] = true;
  }
  return mask;
}

Shape reduction_shape(const Tensor& t, const std::vector<bool>& mask, bool keepdim) {
  Shape s;
  for (int64_t d = 0; d < t.dim(); ++d) {
    if (!mask[d]) s.push_back(t.sizes()[d]);
    else if (keepdim) s.push_back(1);
  }
  return s;
}

/// get_dtype_from_self(self, dtype, promote_integers=true).
DType sum_dtype(const Tensor& t, std::optional<DType> dtype) {
  if (dtype) return *dtype;
  return is_integral(t.dtype(), /*include_bool=*/true) ? DType::Int64 : t.dtype();
}

/// make_reduction: the result viewed to the input's rank, and the iterator over (result, input).
ReduceIter make_reduction(const Tensor& result, const Tensor& in, const std::vector<bool>& mask, bool keepdim) {
  const Tensor outs[1] = {review_reduce_result(result, in.dim(), mask, keepdim)};
  return ReduceIter(outs, in);
}

/// should_use_acc_buffer: float16/bfloat16 whose two innermost iterator dims are both reduced.
bool should_use_acc_buffer(const ReduceIter& it) {
  if (!is_floating(it.dtype(1)) || itemsize(it.dtype(1)) != 2 || it.ndim() < 2) return false;
  return it.strides(0)[0] == 0 && it.strides(0)[1] == 0;
}

void sum_into(const Tensor& result, const Tensor& t, std::span<const int64_t> dims, bool keepdim) {
  const std::vector<bool> mask = make_dim_mask(dims, t.dim());
  const Tensor in = to_dtype(t, result.dtype());  // make_reduction_from_out_ty: cast on CPU
  ReduceIter it = make_reduction(result, in, mask, keepdim);
  if (it.numel() == 0) {
    native::fill_(result, Scalar::from_int(0));
    return;
  }
  if (should_use_acc_buffer(it)) {
    const Tensor tmp = Tensor::empty(result.sizes(), DType::Float32);
    sum_into(tmp, to_dtype(t, DType::Float32), dims, keepdim);
    copy_into(result, tmp);
    return;
  }
  native::fill_(result, Scalar::from_int(0));  // cascade_sum: iter.output_base().fill_(0)
  sum_stub(it);
}

Scalar identity(DType t, bool is_max) {
  switch (t) {
    case DType::Bool: return Scalar::from_bool(!is_max);
    case DType::UInt8: return Scalar::from_int(is_max ? 0 : 255);
    case DType::Int8: return Scalar::from_int(is_max ? INT8_MIN : INT8_MAX);
    case DType::Int16: return Scalar::from_int(is_max ? INT16_MIN : INT16_MAX);
    case DType::Int32: return Scalar::from_int(is_max ? INT32_MIN : INT32_MAX);
    case DType::Int64: return Scalar::from_int(is_max ? INT64_MIN : INT64_MAX);
    default: return Scalar::from_double(is_max ? -INFINITY : INFINITY);
  }
}

/// zero_numel_check_dims for one (unwrapped) dim.
void zero_numel_check_dim(const Tensor& t, int64_t dim, const char* fn) {
  if (t.dim() == 0)
    check<IndexError>(dim == 0 || dim == -1, "{}: Expected reduction dim -1 or 0 for scalar but got {}", fn, dim);
  else
    check<IndexError>(t.size(dim) != 0, "{}: Expected reduction dim {} to have non-zero size.", fn, dim);
}

Tensor amax_amin(const Tensor& t, std::span<const int64_t> dims, bool keepdim, bool is_max) {
  const char* fn = is_max ? "amax()" : "amin()";
  const std::vector<bool> mask = make_dim_mask(dims, t.dim());
  if (t.numel() == 0) {
    check(!dims.empty(), "{}: Expected reduction dim to be specified for input.numel() == 0. Specify the "
          "reduction dim with the 'dim' argument.", fn);
    for (int64_t d : dims) zero_numel_check_dim(t, d, fn);
  }
  Tensor result = Tensor::empty(reduction_shape(t, mask, keepdim), t.dtype());
  ReduceIter it = make_reduction(result, t, mask, keepdim);
  if (it.numel() == 0) return result;
  native::fill_(result, identity(t.dtype(), is_max));  // binary_kernel_reduce_vec: output_base().fill_(ident)
  (is_max ? max_values_stub : min_values_stub)(it);
  return result;
}

Tensor all_reduce(const Tensor& t, bool is_max) {
  check(t.numel() > 0, "{}(): Expected reduction dim to be specified for input.numel() == 0. Specify the "
        "reduction dim with the 'dim' argument.", is_max ? "max" : "min");
  const Tensor in = contiguous(t);
  Tensor result = Tensor::empty({}, t.dtype());
  (is_max ? max_all_stub : min_all_stub)(t.dtype(), in.data_ptr(), in.numel(), result.data_ptr());
  return result;
}

/// allany_meta + and_kernel/or_kernel: "is it nonzero", reduced with || (any) or && (all) as the max or min of
/// bools, from the identity (false for any, true for all) so that empty reductions give it. uint8 in, uint8 out.
/// Unlike sum's, None reduces every dim and an empty list none; a repeated dim is an error even at 0-dim.
Tensor any_all(const Tensor& t, OptionalIntList dims, bool keepdim, bool is_any) {
  std::vector<bool> mask(t.dim(), !dims.has_value());
  if (dims) {
    std::vector<bool> seen(std::max<int64_t>(t.dim(), 1), false);
    for (int64_t d : *dims) {
      const int64_t w = wrap_dim(d, t.dim());
      check(!seen[w], "dim {} appears multiple times in the list of dims", w);
      seen[w] = true;
      if (t.dim() > 0) mask[w] = true;
    }
  }
  Tensor result = Tensor::empty(reduction_shape(t, mask, keepdim), DType::Bool);
  const Tensor nonzero =
      t.dtype() == DType::Bool ? t : compare(CompareOp::Ne, t, full({}, Scalar::from_int(0), t.dtype()));
  ReduceIter it = make_reduction(result, nonzero, mask, keepdim);
  native::fill_(result, Scalar::from_bool(!is_any));
  if (it.numel() != 0) (is_any ? max_values_stub : min_values_stub)(it);
  return t.dtype() == DType::UInt8 ? to_dtype(result, DType::UInt8) : result;
}

/// The reduced dim moved last and made contiguous: rows of `n` elements, one per output.
Tensor rows_along(const Tensor& t, int64_t dim) {
  const int64_t src[1] = {dim}, dst[1] = {-1};
  return contiguous(movedim(t, src, dst));
}

std::tuple<Tensor, Tensor> max_min_dim(const Tensor& t, int64_t dim, bool keepdim, bool is_max) {
  const char* fn = is_max ? "max()" : "min()";
  const int64_t d = wrap_dim(dim, t.dim());
  zero_numel_check_dim(t, d, fn);
  std::vector<bool> mask(t.dim(), false);
  if (t.dim() > 0) mask[d] = true;
  const Shape shape = reduction_shape(t, mask, keepdim);
  Tensor values = Tensor::empty(shape, t.dtype());
  Tensor indices = Tensor::empty(shape, DType::Int64);
  if (t.numel() == 0) return {values, indices};
  const Tensor rows = t.dim() == 0 ? contiguous(t) : rows_along(t, d);
  const int64_t n = t.dim() == 0 ? 1 : t.sizes()[d];
  select_rows_stub(is_max ? SelectKind::Max : SelectKind::Min, t.dtype(), rows.data_ptr(), n, rows.numel() / n,
                   values.data_ptr(), indices.data<int64_t>());
  return {values, indices};
}

Tensor arg_reduce(const Tensor& t, std::optional<int64_t> dim, bool keepdim, bool is_max) {
  const char* fn = is_max ? "argmax()" : "argmin()";
  check(t.dtype() != DType::Bool, "{}: does not support bool input", fn);
  if (dim) {
    zero_numel_check_dim(t, wrap_dim(*dim, t.dim()), fn);
  } else {
    check<IndexError>(t.numel() != 0, "{}: Expected reduction dim to be specified for input.numel() == 0.", fn);
  }
  const std::vector<bool> mask = dim ? make_dim_mask(std::span<const int64_t>(&*dim, 1), t.dim())
                                     : std::vector<bool>(t.dim(), true);
  Tensor result = Tensor::empty(reduction_shape(t, mask, keepdim), DType::Int64);
  if (t.numel() == 0) return result;
  int64_t n = t.numel();
  Tensor rows = contiguous(t);
  if (dim && t.dim() > 0) {
    const int64_t d = wrap_dim(*dim, t.dim());
    n = t.sizes()[d];
    rows = rows_along(t, d);
  } else if (dim) {
    n = 1;
  }
  if (n == 1) return native::fill_(result, Scalar::from_int(0)), result;
  select_rows_stub(is_max ? SelectKind::ArgMax : SelectKind::ArgMin, t.dtype(), rows.data_ptr(), n,
                   rows.numel() / n, nullptr, result.data<int64_t>());
  return result;
}

/// The forward of _softmax / _log_softmax (SoftMax.cpp host_softmax over a contiguous input).
Tensor softmax_forward(const Tensor& t, int64_t dim, bool half_to_float, bool log) {
  check(!half_to_float, "softmax with half to float conversion is not supported on CPU");
  const Tensor in = contiguous(t);
  const int64_t d = wrap_dim(dim, in.dim());
  Tensor out = Tensor::empty(in.sizes(), in.dtype());
  if (in.numel() == 0) return out;
  int64_t outer = 1, inner = 1;
  const int64_t n = in.dim() == 0 ? 1 : in.sizes()[d];
  for (int64_t i = 0; i < d; ++i) outer *= in.sizes()[i];
  for (int64_t i = d + 1; i < in.dim(); ++i) inner *= in.sizes()[i];
  check<NotImplementedError>(is_floating(in.dtype()), "\"{}_lastdim_kernel_impl\" not implemented for '{}'",
                             log ? "log_softmax" : "softmax", scalar_type_name(in.dtype()));
  softmax_stub(in.dtype(), in.data_ptr(), out.data_ptr(), outer, n, inner, log);
  return out;
}

/// torch.softmax(t, dim, dtype) on CPU (SoftMax.cpp softmax): the input converted first (a ToCopyBackward0 node
/// when dtype differs), then the _softmax row.
Tensor converted(const Tensor& t, std::optional<DType> dtype) {
  return dtype && *dtype != t.dtype() ? to_copy(t, *dtype) : t;
}

Tensor sum_dims(const Tensor& t, std::span<const int64_t> dims, bool keepdim, std::optional<DType> dtype) {
  const std::vector<bool> mask = make_dim_mask(dims, t.dim());
  Tensor result = Tensor::empty(reduction_shape(t, mask, keepdim), sum_dtype(t, dtype));
  sum_into(result, t, dims, keepdim);
  return result;
}

/// sum then a true division by the number of reduced elements (float32 sum for float16/bfloat16).
Tensor mean_dims(const Tensor& t, std::span<const int64_t> dims, bool keepdim, std::optional<DType> dtype) {
  const DType in_dtype = sum_dtype(t, dtype);
  check(is_floating(in_dtype),
        "mean(): could not infer output dtype. {} dtype must be either a floating point or complex dtype. Got: {}",
        dtype ? "Optional" : "Input", scalar_type_name(dtype ? *dtype : t.dtype()));
  const std::vector<bool> mask = make_dim_mask(dims, t.dim());
  int64_t dim_prod = 1;
  if (dims.empty() || t.dim() == 0) dim_prod = t.numel();
  else
    for (int64_t d : dims) dim_prod *= t.size(d);
  // BF16/FP16: cast_fp32 -> sum -> div -> cast back (ReduceOps.cpp mean_out).
  const bool half = itemsize(in_dtype) == 2;
  Tensor acc = Tensor::empty(reduction_shape(t, mask, keepdim), half ? DType::Float32 : in_dtype);
  sum_into(acc, t, dims, keepdim);
  div(acc, wrapped_scalar_tensor(Scalar::from_int(dim_prod)), acc);
  if (!half) return acc;
  Tensor result = Tensor::empty(acc.sizes(), in_dtype);
  copy_into(result, acc);
  return result;
}

}  // namespace

// sum and mean, with and without a dim, are op rows (csrc/op_rows.toml): these are their forwards. No dim, None
// and an empty list all reduce every dim.
Tensor impl::sum_forward(const Tensor& self, std::optional<DType> dtype) { return sum_dims(self, {}, false, dtype); }
Tensor impl::sum_forward(const Tensor& self, OptionalIntList dim, bool keepdim, std::optional<DType> dtype) {
  return sum_dims(self, dim.or_empty(), keepdim, dtype);
}
Tensor impl::mean_forward(const Tensor& self, std::optional<DType> dtype) { return mean_dims(self, {}, false, dtype); }
Tensor impl::mean_forward(const Tensor& self, OptionalIntList dim, bool keepdim, std::optional<DType> dtype) {
  return mean_dims(self, dim.or_empty(), keepdim, dtype);
}

// amax and amin are op rows (csrc/op_rows.toml): these are their forwards.
Tensor impl::amax_forward(const Tensor& self, std::span<const int64_t> dim, bool keepdim) {
  return amax_amin(self, dim, keepdim, /*is_max=*/true);
}
Tensor impl::amin_forward(const Tensor& self, std::span<const int64_t> dim, bool keepdim) {
  return amax_amin(self, dim, keepdim, /*is_max=*/false);
}
// any and all are op rows: these are their forwards.
Tensor impl::any_forward(const Tensor& self, OptionalIntList dim, bool keepdim) {
  return any_all(self, dim, keepdim, /*is_any=*/true);
}
Tensor impl::all_forward(const Tensor& self, OptionalIntList dim, bool keepdim) {
  return any_all(self, dim, keepdim, /*is_any=*/false);
}
// max and min (all elements) are op rows: these are their forwards.
Tensor impl::max_forward(const Tensor& self) { return all_reduce(self, /*is_max=*/true); }
Tensor impl::min_forward(const Tensor& self) { return all_reduce(self, /*is_max=*/false); }
// max.dim and min.dim are op rows too.
std::tuple<Tensor, Tensor> impl::max_forward(const Tensor& self, int64_t dim, bool keepdim) {
  return max_min_dim(self, dim, keepdim, /*is_max=*/true);
}
std::tuple<Tensor, Tensor> impl::min_forward(const Tensor& self, int64_t dim, bool keepdim) {
  return max_min_dim(self, dim, keepdim, /*is_max=*/false);
}
Tensor argmax(const Tensor& t, std::optional<int64_t> dim, bool keepdim) { return arg_reduce(t, dim, keepdim, true); }
Tensor argmin(const Tensor& t, std::optional<int64_t> dim, bool keepdim) { return arg_reduce(t, dim, keepdim, false); }
Tensor softmax(const Tensor& t, int64_t dim, std::optional<DType> dtype) { return _softmax(converted(t, dtype), dim, false); }
Tensor log_softmax(const Tensor& t, int64_t dim, std::optional<DType> dtype) {
  return _log_softmax(converted(t, dtype), dim, false);
}
// _softmax and _log_softmax are op rows (csrc/op_rows.toml): these are their forwards.
Tensor impl::_softmax_forward(const Tensor& self, int64_t dim, bool half_to_float) {
  return softmax_forward(self, dim, half_to_float, /*log=*/false);
}
Tensor impl::_log_softmax_forward(const Tensor& self, int64_t dim, bool half_to_float) {
  return softmax_forward(self, dim, half_to_float, /*log=*/true);
}

Tensor sum_to_size(const Tensor& t, std::span<const int64_t> shape) {
  const auto& sizes = t.sizes();
  // is_expandable_to
  bool ok = shape.size() <= sizes.size();
  for (size_t i = 0; ok && i < shape.size(); ++i) {
    const int64_t s = shape[shape.size() - 1 - i], z = sizes[sizes.size() - 1 - i];
    ok = s == z || s == 1;
  }
  if (!ok) throw Error("size {" + shape_str(shape) + "} is not expandable to size {" + shape_str(sizes) + "}.");
  if (shape.empty()) return sum(t);
  const int64_t leading = int64_t(sizes.size() - shape.size());
  std::vector<int64_t> reduce_dims;
  for (int64_t i = 0; i < leading; ++i) reduce_dims.push_back(i);
  for (int64_t i = leading; i < int64_t(sizes.size()); ++i)
    if (shape[i - leading] == 1 && sizes[i] != 1) reduce_dims.push_back(i);
  Tensor r = reduce_dims.empty() ? t : sum(t, reduce_dims, /*keepdim=*/true);
  return leading > 0 ? view(r, shape) : r;
}

// The forward of the logsumexp row (csrc/op_rows.toml), as ReduceOps.cpp logsumexp / logsumexp_out_impl
// compute it: integers in the default float dtype; the max over dims, 0 where it is infinite (so inf - inf
// does not make NaN); log(sum(exp(self - max))) + max, with in-place log_ and add_ as torch runs them (so
// dim=() gives torch's "output with shape [] doesn't match the broadcast shape" error).
Tensor impl::logsumexp_forward(const Tensor& self_in, std::span<const int64_t> dim, bool keepdim) {
  const Tensor self = is_integral(self_in.dtype(), true) ? to_dtype(self_in, default_dtype()) : self_in;
  if (self.numel() == 0) {
    Tensor result = sum(exp(self), dim, keepdim);
    return log(result, result);
  }
  Tensor maxes = amax(self, dim, /*keepdim=*/true);
  const Tensor infinite = compare(CompareOp::Eq, abs(maxes),
                                  wrapped_scalar_tensor(Scalar::from_double(std::numeric_limits<double>::infinity())));
  maxes = masked_fill(maxes, infinite, Scalar::from_int(0));
  const Tensor maxes_squeezed = keepdim ? maxes : squeeze_dims(maxes, dim);
  Tensor shifted = sub(self, maxes, Scalar::from_int(1));
  Tensor result = sum(exp(shifted, shifted), dim, keepdim);
  log(result, result);
  return add(result, maxes_squeezed, Scalar::from_int(1), result);
}

}  // namespace dc
