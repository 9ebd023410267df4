// The front end of linalg.vector_norm (LinearAlgebra.cpp linalg_vector_norm_out): checks, promotion, output,
// then the norm stub of kernels/stubs/math_stubs.h.
#include "densecore/ops/pointwise.h"

#include <cmath>

#include "densecore/core/error.h"
#include "densecore/kernels/stubs/copy_kernel.h"
#include "densecore/kernels/stubs/math_stubs.h"
#include "densecore/kernels/iter/reduce_iter.h"
#include "densecore/ops/copy.h"
#include "densecore/ops/creation.h"
#include "densecore/ops/elementwise.h"
#include "densecore/ops/row_fronts.h"
#include "densecore/ops/unary.h"
#include "densecore/ops/view.h"

namespace dc {

// lerp (scalar weight), addcmul and addcdiv are op rows (csrc/op_rows.toml).

namespace {

Tensor vector_norm_impl(const Tensor& x, double ord, std::span<const int64_t> dims, bool keepdim, std::optional<DType> dtype) {
  check(is_floating(x.dtype()), "linalg.vector_norm: Expected a floating point or complex tensor as input. Got {}",
        scalar_type_name(x.dtype()));
  const int64_t ndim = x.dim();
  std::vector<bool> mask(std::max<int64_t>(ndim, 0), dims.empty());
  for (int64_t d : dims) {
    const int64_t w = wrap_dim(d, ndim);
    if (ndim == 0) continue;
    check(!mask[w], "dim {} appears multiple times in the list of dims", w);
    mask[w] = true;
  }
  Shape shape;
  bool over_ones = true;
  for (int64_t d = 0; d < ndim; ++d) {
    if (!mask[d]) shape.push_back(x.size(d));
    else {
      if (keepdim) shape.push_back(1);
      over_ones = over_ones && x.size(d) == 1;
    }
  }
  const Tensor in = dtype ? to_dtype(x, *dtype) : x;
  if (over_ones) {  // every reduced dim has size 1: abs (or != 0 for ord 0)
    const Tensor v = reshape(in, shape);
    if (ord != 0.0) return abs(v);
    return to_dtype(compare(CompareOp::Ne, v, wrapped_scalar_tensor(Scalar::from_int(0))), in.dtype());
  }
  Tensor result = Tensor::empty(shape, in.dtype());
  const Tensor outs[1] = {review_reduce_result(result, ndim, mask, keepdim)};
  ReduceIter it(outs, in);
  if (it.numel() == 0) {
    native::fill_(result, Scalar::from_double(ord < 0 ? INFINITY : 0.0));
    return result;
  }
  norm_stub(it, ord);
  return result;
}

}  // namespace

// linalg_vector_norm is an op row (csrc/op_rows.toml): this is its forward. None and an empty dim list reduce every dim.
Tensor impl::linalg_vector_norm_forward(const Tensor& x, const Scalar& ord, OptionalIntList dim, bool keepdim,
                                        std::optional<DType> dtype) {
  return vector_norm_impl(x, ord.to_double(), dim.or_empty(), keepdim, dtype);
}

}  // namespace dc
