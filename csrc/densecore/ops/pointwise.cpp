// Front ends of lerp / addcmul / addcdiv (Lerp.cpp, PointwiseOps.cpp: build_ternary_op-style
// iterators) and linalg.vector_norm (LinearAlgebra.cpp linalg_vector_norm_out): checks, promotion,
// output, then the stubs of kernels/stubs/math_stubs.h; autograd rows Lerp / Addcmul / Addcdiv.
#include "densecore/ops/pointwise.h"

#include <cmath>

#include "densecore/autograd/function.h"
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

Tensor lerp(const Tensor& self, const Tensor& end, const Scalar& weight, const Tensor& out) {
  check(self.dtype() == end.dtype(), "expected dtype {} for `end` but got dtype {}", type_meta_name(self.dtype()),
        type_meta_name(end.dtype()));
  auto rec = record_with_out<Op::Lerp>("lerp", {self, end}, out);
  if (rec.active()) rec.saved().weight = weight;
  return rec.finish(run_iter(binary_op_config() /* build_ternary_op */, out, {self, end}, [&](TensorIter& it) { lerp_scalar_stub(it, weight); }));
}

Tensor addcmul(const Tensor& self, const Tensor& t1, const Tensor& t2, const Scalar& value, const Tensor& out) {
  auto rec = record_with_out<Op::Addcmul>("addcmul", {self, t1, t2}, out);
  if (rec.active()) {
    rec.saved().value = value;
    rec.saved().tensor1 = t1;
    rec.saved().tensor2 = t2;
  }
  return rec.finish(run_iter(binary_op_config() /* build_ternary_op */, out, {self, t1, t2}, [&](TensorIter& it) { addcmul_stub(it, value); }));
}

Tensor addcdiv(const Tensor& self, const Tensor& t1, const Tensor& t2, const Scalar& value, const Tensor& out) {
  check(!(is_integral(t1.dtype(), true) && is_integral(t2.dtype(), true)),
        "Integer division with addcdiv is no longer supported, and in a future  release addcdiv will perform "
        "a true division of tensor1 and tensor2. The historic addcdiv behavior can be implemented as "
        "(input + value * torch.trunc(tensor1 / tensor2)).to(input.dtype) for integer inputs and as "
        "(input + value * tensor1 / tensor2) for float inputs. The future addcdiv behavior is just the "
        "latter implementation: (input + value * tensor1 / tensor2), for all dtypes.");
  auto rec = record_with_out<Op::Addcdiv>("addcdiv", {self, t1, t2}, out);
  if (rec.active()) {
    rec.saved().value = value;
    rec.saved().tensor1 = t1;
    rec.saved().tensor2 = t2;
  }
  return rec.finish(run_iter(binary_op_config() /* build_ternary_op */, out, {self, t1, t2}, [&](TensorIter& it) { addcdiv_stub(it, value); }));
}

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
    fill_(result, Scalar::from_double(ord < 0 ? INFINITY : 0.0));
    return result;
  }
  norm_stub(it, ord);
  return result;
}

}  // namespace

Tensor vector_norm(const Tensor& x, double ord, std::span<const int64_t> dims, bool keepdim, std::optional<DType> dtype) {
  OpRecord<Op::LinalgVectorNorm> rec({x});  // LinalgVectorNormBackward0 saves self and the result
  Tensor out = vector_norm_impl(x, ord, dims, keepdim, dtype);
  if (rec.active()) {
    auto& s = rec.saved();
    s.ord = ord;
    s.dim.assign(dims.begin(), dims.end());
    s.keepdim = keepdim;
    s.self = x;
    s.result = saved_output(out);
  }
  return rec.finish(out);
}

}  // namespace dc
