#include "bindings.h"

NB_MODULE(_C, m) {
  bind_errors(m);
  bind_dtype(m);
  TensorClass cls(m, "Tensor", nb::dynamic_attr());
  bind_tensor(m, cls);
}
