// Tensor view methods and torch.* view / join functions (view, reshape, permute, split, cat, ...):
// forwarders to densecore/ops/view.h and join.h with torch's argument forms.
#include <optional>

#include <nanobind/stl/optional.h>
#include <nanobind/stl/vector.h>

#include "bindings.h"
#include "dtype_caster.h"
#include "fast_method.h"
#include "gil.h"
#include "int_args.h"

#include "densecore/ops/copy.h"
#include "densecore/ops/join.h"
#include "densecore/ops/view.h"

namespace {

using dc::Tensor;
using int_args::Int;
using int_args::to_int_list;
using int_args::torch_ints;
using int_args::varargs;

nb::tuple to_tuple(const std::vector<Tensor>& ts) {
  nb::list l;
  for (const Tensor& t : ts) l.append(nb::cast(t));
  return nb::tuple(l);
}

// torch.cat / stack's `tensors`: a tuple or list of Tensors.
std::vector<Tensor> tensor_list(nb::handle h, const char* fn) {
  if (!PyTuple_Check(h.ptr()) && !PyList_Check(h.ptr()))
    throw dc::TypeError(dc::format("{}(): argument 'tensors' (position 1) must be tuple of Tensors, not {}", fn,
                                   Py_TYPE(h.ptr())->tp_name));
  std::vector<Tensor> out;
  for (size_t i = 0, n = nb::len(h); i < n; ++i) {
    nb::object item = h[i];
    if (!nb::isinstance<Tensor>(item))
      throw dc::TypeError(dc::format("expected Tensor as element {} in argument 0, but got {}", i,
                                     Py_TYPE(item.ptr())->tp_name));
    out.push_back(nb::cast<Tensor>(item));
  }
  return out;
}

// The `*sizes` methods, bound with the vectorcall convention (fast_method.h).
dc::DimVector sizes_arg(const FastCall& call, const char* fn, const char* kw) {
  return varargs(call.pos, call.keyword(kw), call.keyword_count(), fn, kw);
}

// view(*shape) or view(dtype).
Tensor view_method(const Tensor& t, const FastCall& call) {
  if (call.pos.size() == 1 && nb::isinstance<PyDType>(nb::handle(call.pos[0])))
    return dc::view_dtype(t, nb::cast<dc::DType>(nb::handle(call.pos[0])));
  PyObject* dtype = call.pos.empty() && call.keyword_count() == 1 ? call.keyword("dtype") : nullptr;
  if (dtype != nullptr) return dc::view_dtype(t, *dtype_arg(dtype, "view", false));
  return dc::view(t, sizes_arg(call, "view", "size"));
}
Tensor reshape_method(const Tensor& t, const FastCall& call) { return dc::reshape(t, sizes_arg(call, "reshape", "shape")); }
Tensor permute_method(const Tensor& t, const FastCall& call) { return dc::permute(t, sizes_arg(call, "permute", "dims")); }
Tensor expand_method(const Tensor& t, const FastCall& call) { return dc::expand(t, sizes_arg(call, "expand", "size")); }

// repeat (a row) copies self once per repeat: the GIL is released when the result is long, however small self is.
Tensor repeat_releasing(const Tensor& t, std::span<const int64_t> repeats) {
  int64_t numel = t.numel();
  for (int64_t r : repeats) {
    if (r <= 0) return dc::repeat(t, repeats);  // an empty result, or the op's error: nothing to copy
    if (__builtin_mul_overflow(numel, r, &numel)) return dc::repeat(t, repeats);  // the op's size error
  }
  gil::ReleaseIf release(numel >= gil::kReleaseNumel);
  return dc::repeat(t, repeats);
}
// torch.tile / Tensor.tile (TensorShape.cpp tile_symint, CompositeImplicitAutograd): dims padded with leading 1s to
// self's dims, then repeat, whose node (RepeatBackward0) saves the padded repeats, as torch's does.
Tensor tile_any(const Tensor& t, std::span<const int64_t> dims) {
  dc::DimVector repeats(size_t(std::max<int64_t>(t.dim() - int64_t(dims.size()), 0)), 1);
  repeats.insert(repeats.end(), dims.begin(), dims.end());
  return repeat_releasing(t, repeats);
}
// There is no torch.repeat; Tensor.repeat and Tensor.tile take *sizes, torch.tile(input, dims) a tuple or list.
Tensor repeat_method(const Tensor& t, const FastCall& call) { return repeat_releasing(t, sizes_arg(call, "repeat", "repeats")); }
Tensor tile_method(const Tensor& t, const FastCall& call) { return tile_any(t, sizes_arg(call, "tile", "dims")); }

Tensor squeeze_any(const Tensor& t, nb::handle dim) {
  if (dim.is_none()) return dc::squeeze(t);
  int64_t d;
  if (int_args::try_int(dim, d)) return dc::squeeze_dim(t, d);  // squeeze.dim: SqueezeBackward1
  return dc::squeeze_dims(t, to_int_list(dim, "squeeze", "dim"));
}

std::vector<Tensor> split_any(const Tensor& t, nb::handle split, int64_t dim) {
  int64_t size;
  if (int_args::try_int(split, size)) return dc::split(t, size, dim);
  return dc::split_with_sizes(t, to_int_list(split, "split", "split_size"), dim);
}

Tensor movedim_any(const Tensor& t, nb::handle src, nb::handle dst) {
  return dc::movedim(t, int_args::to_dim_list(src, "movedim", "source"), int_args::to_dim_list(dst, "movedim", "destination"));
}

Tensor as_strided_any(const Tensor& t, nb::handle size, nb::handle stride, std::optional<int64_t> offset) {
  return dc::as_strided(t, to_int_list(size, "as_strided", "size"), to_int_list(stride, "as_strided", "stride"),
                        offset);
}

// torch.preserve_format (the default) / torch.contiguous_format; other formats are refused.
dc::MemoryFormat memory_format_arg(nb::handle h, const char* fn) {
  if (h.is_none()) return dc::MemoryFormat::Preserve;
  const std::string name = nb::repr(h).c_str();
  if (name == "torch.preserve_format") return dc::MemoryFormat::Preserve;
  if (name == "torch.contiguous_format") return dc::MemoryFormat::Contiguous;
  throw dc::NotImplementedError(dc::format("{}(): memory_format={} is not supported by densecore", fn, name));
}

Tensor contiguous_fresh(const Tensor& t) {
  if (t.is_contiguous()) return t;
  Tensor out = dc::contiguous(t);
  dc::reset_version(out);
  return out;
}

void bind_view_methods(TensorClass& cls) {
  def_fast_method<&view_method>(cls, "view", "view($self, /, *args, **kwargs)\n--\n\n");
  def_fast_method<&reshape_method>(cls, "reshape", "reshape($self, /, *args, **kwargs)\n--\n\n");
  def_fast_method<&permute_method>(cls, "permute", "permute($self, /, *args, **kwargs)\n--\n\n");
  def_fast_method<&expand_method>(cls, "expand", "expand($self, /, *args, **kwargs)\n--\n\n");
  def_fast_method<&repeat_method>(cls, "repeat", "repeat($self, /, *args, **kwargs)\n--\n\n");
  def_fast_method<&tile_method>(cls, "tile", "tile($self, /, *args, **kwargs)\n--\n\n");
  cls.def("view_as", &dc::view_as, nb::arg("other"))
      .def("reshape_as", [](const Tensor& t, const Tensor& o) { return dc::reshape(t, o.sizes()); }, nb::arg("other"))
      .def("transpose", torch_ints<&dc::transpose>, nb::arg("dim0"), nb::arg("dim1"))
      .def("swapaxes", torch_ints<&dc::transpose>, nb::arg("axis0"), nb::arg("axis1"))
      .def("swapdims", torch_ints<&dc::transpose>, nb::arg("dim0"), nb::arg("dim1"))
      .def("t", &dc::t_)
      .def_prop_ro("T", &dc::T)
      .def_prop_ro("mT", &dc::mT)
      .def("expand_as", &dc::expand_as, nb::arg("other"))
      .def("squeeze", &squeeze_any, nb::arg("dim") = nb::none())
      .def("unsqueeze", torch_ints<&dc::unsqueeze>, nb::arg("dim"))
      .def("flatten", torch_ints<&dc::flatten>, nb::arg("start_dim") = 0, nb::arg("end_dim") = -1)
      .def("unflatten", [](const Tensor& t, Int dim, nb::handle sizes) {
             return dc::unflatten(t, dim, to_int_list(sizes, "unflatten", "sizes"));
           }, nb::arg("dim"), nb::arg("sizes"))
      .def("narrow", torch_ints<&dc::narrow>, nb::arg("dim"), nb::arg("start"), nb::arg("length"))
      .def("select", torch_ints<&dc::select>, nb::arg("dim"), nb::arg("index"))
      .def("split", [](const Tensor& t, nb::handle s, Int dim) { return to_tuple(split_any(t, s, dim)); },
           nb::arg("split_size"), nb::arg("dim") = 0)
      .def("split_with_sizes", [](const Tensor& t, nb::handle s, Int dim) {
             return to_tuple(dc::split_with_sizes(t, to_int_list(s, "split_with_sizes", "split_sizes"), dim));
           }, nb::arg("split_sizes"), nb::arg("dim") = 0)
      .def("chunk", [](const Tensor& t, Int c, Int dim) { return to_tuple(dc::chunk(t, c, dim)); },
           nb::arg("chunks"), nb::arg("dim") = 0)
      .def("unbind", [](const Tensor& t, Int dim) { return to_tuple(dc::unbind(t, dim)); }, nb::arg("dim") = 0)
      .def("as_strided", torch_ints<&as_strided_any>, nb::arg("size"), nb::arg("stride"), nb::arg("storage_offset") = nb::none())
      .def("contiguous", &contiguous_fresh)
      .def("clone", [](const Tensor& t, nb::handle format) { return dc::clone(t, memory_format_arg(format, "clone")); }, nb::kw_only(),
           nb::arg("memory_format").none() = nb::none())
      .def("detach", &dc::detach)
      .def("movedim", &movedim_any, nb::arg("source"), nb::arg("destination"))
      .def("moveaxis", &movedim_any, nb::arg("source"), nb::arg("destination"));
}

void bind_view_functions(nb::module_& m) {
  m.def("reshape", [](const Tensor& t, nb::handle s) { return dc::reshape(t, to_int_list(s, "reshape", "shape")); },
        nb::arg("input"), nb::arg("shape"));
  m.def("transpose", torch_ints<&dc::transpose>, nb::arg("input"), nb::arg("dim0"), nb::arg("dim1"));
  m.def("swapaxes", torch_ints<&dc::transpose>, nb::arg("input"), nb::arg("axis0"), nb::arg("axis1"));
  m.def("swapdims", torch_ints<&dc::transpose>, nb::arg("input"), nb::arg("dim0"), nb::arg("dim1"));
  m.def("t", &dc::t_, nb::arg("input"));
  m.def("permute", [](const Tensor& t, nb::handle d) { return dc::permute(t, to_int_list(d, "permute", "dims")); },
        nb::arg("input"), nb::arg("dims"));
  m.def("squeeze", &squeeze_any, nb::arg("input"), nb::arg("dim") = nb::none());
  m.def("unsqueeze", torch_ints<&dc::unsqueeze>, nb::arg("input"), nb::arg("dim"));
  m.def("flatten", torch_ints<&dc::flatten>, nb::arg("input"), nb::arg("start_dim") = 0, nb::arg("end_dim") = -1);
  m.def("unflatten", [](const Tensor& t, Int dim, nb::handle sizes) {
          return dc::unflatten(t, dim, to_int_list(sizes, "unflatten", "sizes"));
        }, nb::arg("input"), nb::arg("dim"), nb::arg("sizes"));
  m.def("narrow", torch_ints<&dc::narrow>, nb::arg("input"), nb::arg("dim"), nb::arg("start"), nb::arg("length"));
  m.def("select", torch_ints<&dc::select>, nb::arg("input"), nb::arg("dim"), nb::arg("index"));
  m.def("split", [](const Tensor& t, nb::handle s, Int dim) { return to_tuple(split_any(t, s, dim)); },
        nb::arg("tensor"), nb::arg("split_size_or_sections"), nb::arg("dim") = 0);
  m.def("split_with_sizes", [](const Tensor& t, nb::handle s, Int dim) {
    return to_tuple(dc::split_with_sizes(t, to_int_list(s, "split_with_sizes", "split_sizes"), dim));
  }, nb::arg("input"), nb::arg("split_sizes"), nb::arg("dim") = 0);
  m.def("chunk", [](const Tensor& t, Int c, Int dim) { return to_tuple(dc::chunk(t, c, dim)); },
        nb::arg("input"), nb::arg("chunks"), nb::arg("dim") = 0);
  m.def("unbind", [](const Tensor& t, Int dim) { return to_tuple(dc::unbind(t, dim)); }, nb::arg("input"),
        nb::arg("dim") = 0);
  m.def("as_strided", torch_ints<&as_strided_any>, nb::arg("input"), nb::arg("size"), nb::arg("stride"),
        nb::arg("storage_offset") = nb::none());
  m.def("movedim", &movedim_any, nb::arg("input"), nb::arg("source"), nb::arg("destination"));
  m.def("moveaxis", &movedim_any, nb::arg("input"), nb::arg("source"), nb::arg("destination"));
  m.def("detach", &dc::detach, nb::arg("input"));
  m.def("clone", [](const Tensor& t, nb::handle format) { return dc::clone(t, memory_format_arg(format, "clone")); }, nb::arg("input"), nb::kw_only(),
        nb::arg("memory_format").none() = nb::none());
  for (const char* name : {"cat", "concat", "concatenate"})
    m.def(name, [name](nb::handle ts, Int dim) { return dc::cat(tensor_list(ts, name), dim); },
          nb::arg("tensors"), nb::arg("dim") = 0);
  m.def("stack", [](nb::handle ts, Int dim) { return dc::stack(tensor_list(ts, "stack"), dim); },
        nb::arg("tensors"), nb::arg("dim") = 0);
  m.def("tile", [](nb::handle input, nb::handle dims) {
          return tile_any(tensor_arg(input, "tile", "input", 1), to_int_list(dims, "tile", "dims", 2));
        }, nb::arg("input").none(), nb::arg("dims").none());
}

}  // namespace

void bind_views(nb::module_& m, TensorClass& cls) {
  bind_view_methods(cls);
  bind_view_functions(m);
}
