// Reductions and softmax for Python: torch.sum/mean/any/all/amax/amin/max/min/argmax/argmin/topk/softmax/
// log_softmax, the Tensor methods and Tensor.sum_to_size, with torch's argument forms (dim as int,
// tuple or list; keepdim; dtype=). max/min with a dim return torch.return_types-like named tuples
// (densecore/return_types.py); the computation stays in densecore/ops/reduce.cpp.
#include <optional>

#include <nanobind/stl/optional.h>

#include "bindings.h"
#include "gil.h"
#include "dtype_caster.h"
#include "int_args.h"

#include "densecore/ops/elementwise.h"
#include "densecore/ops/reduce.h"

namespace {

using dc::Tensor;
using Dtype = std::optional<dc::DType>;

nb::object named_pair(const char* name, std::tuple<Tensor, Tensor> r) {
  nb::object cls = nb::module_::import_("densecore.return_types").attr(name);
  return cls(nb::make_tuple(std::get<0>(r), std::get<1>(r)));
}

/// torch.max(input) / max(input, dim, keepdim) / max(input, other).
nb::object max_min(const Tensor& t, nb::handle dim, nb::handle keepdim_h, bool is_max) {
  const char* fn = is_max ? "max" : "min";
  if (dim.is_none()) {
    if (!keepdim_h.is_none())  // torch's overloads: max() and max(other) take no keepdim
      throw dc::TypeError(dc::format("{}() received an invalid combination of arguments - got (keepdim=bool, )", fn));
    return nb::cast(is_max ? dc::max(t) : dc::min(t));
  }
  const bool keepdim = keepdim_h.is_none() ? false : bool_arg(keepdim_h, fn, "keepdim");
  if (nb::isinstance<Tensor>(dim)) {
    const Tensor& o = nb::cast<const Tensor&>(dim);
    return nb::cast(is_max ? dc::maximum(t, o) : dc::minimum(t, o));
  }
  const int64_t d = int_args::to_int(dim, fn, "dim");
  return named_pair(is_max ? "max" : "min", is_max ? dc::max(t, d, keepdim) : dc::min(t, d, keepdim));
}

std::optional<int64_t> opt_dim(nb::handle dim, const char* fn) {
  if (dim.is_none()) return std::nullopt;
  return int_args::to_int(dim, fn, "dim");
}

/// torch.sum / torch.mean and their methods, choosing the overload as torch's parser does: without a dim
/// sum(input, *, dtype) (SumBackward0); with one, even None or (), sum.dim_IntList (SumBackward1). keepdim
/// belongs to the dim overload only. The binding's defaults are `...`, so a dim given as None is seen.
template <bool is_sum>
Tensor sum_mean_any(const Tensor& t, nb::handle dim, nb::handle keepdim_h, Dtype dtype) {
  const char* fn = is_sum ? "sum" : "mean";
  const bool has_dim = !dim.is(nb::ellipsis());
  if (!has_dim) {
    if (!keepdim_h.is(nb::ellipsis()))
      throw dc::TypeError(dc::format("{}() received an invalid combination of arguments - got (keepdim=bool, )", fn));
    gil::ReleaseIf release(gil::is_long(t));
    return is_sum ? dc::sum(t, dtype) : dc::mean(t, dtype);
  }
  const bool keepdim = keepdim_h.is(nb::ellipsis()) ? false : bool_arg(keepdim_h, fn, "keepdim", 2);
  const std::optional<std::vector<int64_t>> dims =
      dim.is_none() ? std::nullopt : std::optional(int_args::to_dim_list(dim, fn, "dim"));
  gil::ReleaseIf release(gil::is_long(t));
  return is_sum ? dc::sum(t, dims, keepdim, dtype) : dc::mean(t, dims, keepdim, dtype);
}
/// torch.any / torch.all and their methods: any(input) or any(input, dim, keepdim) with dim an int, a tuple
/// or list of ints, or None (every dim).
template <bool is_any>
Tensor any_all(const Tensor& t, nb::handle dim, nb::handle keepdim_h) {
  const char* fn = is_any ? "any" : "all";
  const bool keepdim = bool_arg(keepdim_h, fn, "keepdim", 2);
  const std::optional<std::vector<int64_t>> dims =
      dim.is_none() ? std::nullopt : std::optional(int_args::to_dim_list(dim, fn, "dim"));
  gil::ReleaseIf release(gil::is_long(t));
  return is_any ? dc::any(t, dims, keepdim) : dc::all(t, dims, keepdim);
}
Tensor argmax_any(const Tensor& t, nb::handle dim, bool keepdim) {
  return dc::argmax(t, opt_dim(dim, "argmax"), keepdim);
}
Tensor argmin_any(const Tensor& t, nb::handle dim, bool keepdim) {
  return dc::argmin(t, opt_dim(dim, "argmin"), keepdim);
}
nb::object topk_any(const Tensor& t, int64_t k, int64_t dim, bool largest, bool sorted) {
  return named_pair("topk", dc::topk(t, k, dim, largest, sorted));
}
Tensor softmax_any(const Tensor& t, int64_t dim, Dtype dtype) {
  gil::ReleaseIf release(gil::is_long(t));
  return dc::softmax(t, dim, dtype);
}
Tensor log_softmax_any(const Tensor& t, int64_t dim, Dtype dtype) {
  gil::ReleaseIf release(gil::is_long(t));
  return dc::log_softmax(t, dim, dtype);
}

}  // namespace

void bind_reduce(nb::module_& m, TensorClass& cls) {
  const auto none = nb::none();
  const auto missing = nb::ellipsis();  // sum(x) and sum(x, None) are different overloads
  m.def("sum", &sum_mean_any<true>, nb::arg("input"), nb::arg("dim").none() = missing, nb::arg("keepdim").none() = missing,
        nb::kw_only(), nb::arg("dtype") = none);
  m.def("mean", &sum_mean_any<false>, nb::arg("input"), nb::arg("dim").none() = missing, nb::arg("keepdim").none() = missing,
        nb::kw_only(), nb::arg("dtype") = none);
  m.def("max", [](const Tensor& t, nb::handle dim, nb::handle keepdim) { return max_min(t, dim, keepdim, true); },
        nb::arg("input"), nb::arg("dim") = none, nb::arg("keepdim") = none);
  m.def("min", [](const Tensor& t, nb::handle dim, nb::handle keepdim) { return max_min(t, dim, keepdim, false); },
        nb::arg("input"), nb::arg("dim") = none, nb::arg("keepdim") = none);
  m.def("any", &any_all<true>, nb::arg("input"), nb::arg("dim").none() = none, nb::arg("keepdim") = false);
  m.def("all", &any_all<false>, nb::arg("input"), nb::arg("dim").none() = none, nb::arg("keepdim") = false);
  m.def("argmax", &argmax_any, nb::arg("input"), nb::arg("dim") = none, nb::arg("keepdim") = false);
  m.def("argmin", &argmin_any, nb::arg("input"), nb::arg("dim") = none, nb::arg("keepdim") = false);
  m.def("topk", int_args::torch_ints<&topk_any>, nb::arg("input"), nb::arg("k"), nb::arg("dim") = -1, nb::arg("largest") = true,
        nb::arg("sorted") = true);
  m.def("softmax", int_args::torch_ints<&softmax_any>, nb::arg("input"), nb::arg("dim"), nb::arg("dtype") = none);
  m.def("log_softmax", int_args::torch_ints<&log_softmax_any>, nb::arg("input"), nb::arg("dim"), nb::arg("dtype") = none);

  cls.def("sum", &sum_mean_any<true>, nb::arg("dim").none() = missing, nb::arg("keepdim").none() = missing, nb::kw_only(),
          nb::arg("dtype") = none)
      .def("mean", &sum_mean_any<false>, nb::arg("dim").none() = missing, nb::arg("keepdim").none() = missing, nb::kw_only(),
           nb::arg("dtype") = none)
      .def("max", [](const Tensor& t, nb::handle dim, nb::handle keepdim) { return max_min(t, dim, keepdim, true); },
           nb::arg("dim") = none, nb::arg("keepdim") = none)
      .def("min", [](const Tensor& t, nb::handle dim, nb::handle keepdim) { return max_min(t, dim, keepdim, false); },
           nb::arg("dim") = none, nb::arg("keepdim") = none)
      .def("any", &any_all<true>, nb::arg("dim").none() = none, nb::arg("keepdim") = false)
      .def("all", &any_all<false>, nb::arg("dim").none() = none, nb::arg("keepdim") = false)
      .def("argmax", &argmax_any, nb::arg("dim") = none, nb::arg("keepdim") = false)
      .def("argmin", &argmin_any, nb::arg("dim") = none, nb::arg("keepdim") = false)
      .def("topk", int_args::torch_ints<&topk_any>, nb::arg("k"), nb::arg("dim") = -1, nb::arg("largest") = true, nb::arg("sorted") = true)
      .def("softmax", int_args::torch_ints<&softmax_any>, nb::arg("dim"), nb::arg("dtype") = none)
      .def("log_softmax", int_args::torch_ints<&log_softmax_any>, nb::arg("dim"), nb::arg("dtype") = none)
      .def("sum_to_size", [](const Tensor& t, nb::args a, nb::kwargs k) {
        return dc::sum_to_size(t, int_args::varargs(a, k, "sum_to_size", "size"));
      });
}
