// Tensor's arithmetic operators (+ - * / // @) as CPython number slots (nb_add, ...), set when the type is
// created. `x + y` then calls them directly. A dunder bound as a method instead costs CPython's generic
// slot_nb_add on every use: a lookup of __add__ (and __radd__) in the type's MRO, then a call through
// nanobind's overload dispatch. CPython makes the __add__/__radd__ attributes from the slot (wrapper
// descriptors, as on a built-in type), and a Python subclass such as nn.Parameter inherits the slot.
//
// Each operator gives torch's result for `self OP other` and for the reflected `other OP self`
// (torch/_tensor.py and python_variable_methods.cpp): a Python number becomes a wrapped 0-dim tensor, as
// torch's arg parser makes it; any other operand gives NotImplemented, so Python tries the other side and
// then raises TypeError.
#include <optional>

#include "bindings.h"
#include "gil.h"
#include "py_number.h"
#include "densecore/ops/elementwise.h"
#include "densecore/ops/linalg.h"

namespace {

using dc::Scalar;
using dc::Tensor;

/// `self OP other` with both operands tensors; `reflected` is `other OP self`, where other was the left operand.
using BinaryOp = Tensor (*)(const Tensor& self, const Tensor& other);

Tensor add(const Tensor& s, const Tensor& o) { return dc::add(s, o, Scalar::from_int(1)); }
Tensor sub(const Tensor& s, const Tensor& o) { return dc::sub(s, o, Scalar::from_int(1)); }
Tensor rsub(const Tensor& s, const Tensor& o) { return dc::sub(o, s, Scalar::from_int(1)); }  // torch.rsub
Tensor mul(const Tensor& s, const Tensor& o) { return dc::mul(s, o); }
Tensor div(const Tensor& s, const Tensor& o) { return dc::div(s, o); }
// torch/_tensor.py __rdiv__: self.reciprocal() * other, two roundings (not other / self).
Tensor rdiv(const Tensor& s, const Tensor& o) { return dc::mul(dc::div(dc::wrapped_scalar_tensor(Scalar::from_int(1)), s), o); }
Tensor floordiv(const Tensor& s, const Tensor& o) { return dc::floor_divide(s, o); }
Tensor rfloordiv(const Tensor& s, const Tensor& o) { return dc::floor_divide(o, s); }
Tensor matmul(const Tensor& s, const Tensor& o) { return dc::matmul(s, o); }
Tensor rmatmul(const Tensor& s, const Tensor& o) { return dc::matmul(o, s); }

/// How an operator takes its other operand and when it lets other threads run.
struct Elementwise {  // a Tensor or a Python number
  static std::optional<Tensor> operand(nb::handle h) { return py_number::try_tensor_or_number(h); }
  static bool is_long(const Tensor& a, const Tensor& b) { return gil::is_long(a, b); }
};
struct Product {  // a Tensor only: `x @ 2` is a TypeError in torch
  static std::optional<Tensor> operand(nb::handle h) {
    Tensor* t = nullptr;
    if (nb::try_cast<Tensor*>(h, t) && t != nullptr) return *t;
    return std::nullopt;
  }
  static bool is_long(const Tensor& a, const Tensor& b) { return gil::is_long_product(a, b); }
};

PyTypeObject* tensor_type = nullptr;  // set by bind_number_slots once the type exists

/// The Tensor an object holds, or null for any other object (or a subclass instance whose __init__ never ran).
const Tensor* as_tensor(PyObject* o) {
  if (!PyObject_TypeCheck(o, tensor_type) || !nb::inst_ready(o)) return nullptr;
  return nb::inst_ptr<Tensor>(o);
}

template <BinaryOp Op, class Operands>
PyObject* apply(const Tensor& self, PyObject* other_obj) {
  std::optional<Tensor> other = Operands::operand(other_obj);
  if (!other) Py_RETURN_NOTIMPLEMENTED;
  Tensor r;
  {
    gil::ReleaseIf release(Operands::is_long(self, *other));
    r = Op(self, *other);
  }
  return nb::cast(std::move(r), nb::rv_policy::move).release().ptr();
}

/// The slot CPython calls for `a OP b` when either side is a Tensor, and for a.__op__(b) (a, b) and
/// a.__rop__(b) (b, a). `a` is the left operand: it is self unless its type does not use this slot (not a
/// Tensor, or a subclass overriding the operator, whose own method Python has tried first).
template <binaryfunc PyNumberMethods::*Slot, BinaryOp Op, BinaryOp Reflected, class Operands>
PyObject* binary_slot(PyObject* a, PyObject* b) noexcept {
  try {
    const Tensor* left = as_tensor(a);
    if (left != nullptr && Py_TYPE(a)->tp_as_number->*Slot == &binary_slot<Slot, Op, Reflected, Operands>)
      return apply<Op, Operands>(*left, b);
    if (const Tensor* right = as_tensor(b)) return apply<Reflected, Operands>(*right, a);
    Py_RETURN_NOTIMPLEMENTED;
  } catch (...) {
    return set_error_from_current_exception();
  }
}

template <int SlotId, binaryfunc PyNumberMethods::*Slot, BinaryOp Op, BinaryOp Reflected, class Operands = Elementwise>
constexpr PyType_Slot slot() {
  return {SlotId, reinterpret_cast<void*>(&binary_slot<Slot, Op, Reflected, Operands>)};
}

PyType_Slot kSlots[] = {
    slot<Py_nb_add, &PyNumberMethods::nb_add, add, add>(),
    slot<Py_nb_subtract, &PyNumberMethods::nb_subtract, sub, rsub>(),
    slot<Py_nb_multiply, &PyNumberMethods::nb_multiply, mul, mul>(),
    slot<Py_nb_true_divide, &PyNumberMethods::nb_true_divide, div, rdiv>(),
    slot<Py_nb_floor_divide, &PyNumberMethods::nb_floor_divide, floordiv, rfloordiv>(),
    slot<Py_nb_matrix_multiply, &PyNumberMethods::nb_matrix_multiply, matmul, rmatmul, Product>(),
    {0, nullptr},
};

}  // namespace

PyType_Slot* tensor_number_slots() { return kSlots; }

void bind_number_slots(TensorClass& cls) { tensor_type = reinterpret_cast<PyTypeObject*>(cls.ptr()); }
