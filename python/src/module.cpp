#include "bindings.h"

NB_MODULE(_C, m) {
  bind_errors(m);
  bind_dtype(m);
  TensorClass cls(m, "Tensor", nb::dynamic_attr(), nb::type_slots(tensor_number_slots()));
  bind_number_slots(cls);
  bind_tensor(m, cls);
  bind_reduce(m, cls);
  bind_random(m, cls);
  bind_elementwise(m, cls);
  bind_views(m, cls);
  bind_indexing(m, cls);
  bind_creation(m, cls);
  bind_linalg(m, cls);
  bind_autograd(m, cls);
  bind_serialization(m, cls);
  bind_attention(m, cls);
  bind_unary(m, cls);
  bind_nn(m, cls);
  bind_loss(m, cls);
  bind_optim(m);
  bind_rows(m, cls);  // the ops declared in csrc/op_rows.toml (generated)
}
