#include "densecore/autograd/inplace.h"

#include "densecore/autograd/function.h"
#include "densecore/core/error.h"
#include "densecore/ops/copy.h"
#include "densecore/ops/creation.h"
#include "densecore/ops/index.h"

namespace dc::autograd {

const Tensor& copy_(const Tensor& self, const Tensor& src) {
  OpRecord<Op::Copy> rec(self, {src});
  if (rec.active()) rec.saved().src_dtype = src.dtype();
  dc::copy_(self, src);
  rec.finish(self);
  return self;
}

const Tensor& fill_(const Tensor& self, const Scalar& value) {
  OpRecord<Op::Fill> rec(self, {});
  rec.set_overload(2);  // fill_.Scalar
  dc::fill_(self, value);
  rec.finish(self);
  return self;
}

const Tensor& fill_(const Tensor& self, const Tensor& value) {
  check(value.dim() == 0,
        "fill_ only supports 0-dimension value tensor but got tensor with {} dimensions.", value.dim());
  OpRecord<Op::Fill> rec(self, {value});
  rec.set_overload(3);  // fill_.Tensor
  // torch's fill_.Tensor is a copy_ of the value (so a write into expanded memory is refused).
  dc::copy_(self, value.storage() == self.storage() ? clone(value) : value);
  rec.finish(self);
  return self;
}

const Tensor& zero_(const Tensor& self) {
  OpRecord<Op::Zero> rec(self, {});
  dc::fill_(self, Scalar::from_int(0));
  rec.finish(self);
  return self;
}

}  // namespace dc::autograd
