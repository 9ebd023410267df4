// torch's random API: torch.Generator, manual_seed/seed/initial_seed, get/set_rng_state, the
// random factories (rand, randn, randint, randperm, normal, bernoulli, multinomial) and the
// in-place Tensor methods (uniform_, normal_, random_, bernoulli_, exponential_, bernoulli).
#include <nanobind/stl/optional.h>
#include <nanobind/stl/shared_ptr.h>
#include <nanobind/stl/string.h>
#include <nanobind/stl/vector.h>

#include <cstring>

#include "bindings.h"
#include "py_number.h"
#include "dtype_caster.h"
#include "int_args.h"
#include "densecore/ops/random.h"

namespace {

using dc::DType;
using dc::Tensor;

/// torch._C.Generator: a handle to a CPU generator (the default one or a new one).
struct PyGenerator {
  dc::Generator gen;
};

dc::Generator gen_of(nb::handle h) {
  if (!h.is_valid() || h.is_none()) return nullptr;
  if (!nb::isinstance<PyGenerator>(h))
    throw dc::TypeError(dc::format("generator must be a torch.Generator, not {}", Py_TYPE(h.ptr())->tp_name));
  return nb::cast<PyGenerator&>(h).gen;
}

/// A Python int seed as torch unpacks it: negative values wrap modulo 2^64.
uint64_t unpack_seed(nb::handle h) {
  nb::object i = nb::steal(PyNumber_Index(h.ptr()));
  if (!i.is_valid()) throw nb::python_error();
  unsigned long long u = PyLong_AsUnsignedLongLong(i.ptr());
  if (!PyErr_Occurred()) return u;
  PyErr_Clear();
  long long s = PyLong_AsLongLong(i.ptr());
  if (PyErr_Occurred()) {
    PyErr_Clear();
    throw nb::value_error("Overflow when unpacking long long");
  }
  return uint64_t(s);
}

Tensor state_tensor(const dc::GeneratorImpl& g) {
  const std::vector<uint8_t> bytes = g.get_state();
  const int64_t n = int64_t(bytes.size());
  Tensor t = Tensor::empty(std::span<const int64_t>(&n, 1), DType::UInt8);
  std::memcpy(t.data_ptr(), bytes.data(), bytes.size());
  return t;
}

void set_state_from(dc::GeneratorImpl& g, nb::handle h) {
  if (!nb::isinstance<Tensor>(h) || nb::cast<const Tensor&>(h).dtype() != DType::UInt8)
    throw dc::TypeError("RNG state must be a torch.ByteTensor");
  const Tensor& t = nb::cast<const Tensor&>(h);
  std::vector<uint8_t> bytes(size_t(t.numel()));
  const uint8_t* p = t.data<uint8_t>();
  const int64_t stride = t.dim() == 1 ? t.stride(0) : 1;
  for (int64_t i = 0; i < t.numel(); ++i) bytes[size_t(i)] = p[i * stride];
  std::lock_guard<std::mutex> lock(g.mutex);
  g.set_state(bytes);
}

// Borrowed: the module attribute default_generator owns it (a static nb::object would leak).
nb::handle g_default_generator;

nb::object default_generator_object() { return nb::borrow(g_default_generator); }

// ---- factory argument parsing: f(*size, dtype=, generator=, device=, requires_grad=, ...) ----

struct FactoryKw {
  std::optional<DType> dtype;
  dc::Generator gen;
  bool requires_grad = false;
};

FactoryKw take_kwargs(nb::kwargs& kw, const char* fn) {
  FactoryKw out;
  for (const char* k : {"dtype", "generator", "device", "requires_grad", "layout", "pin_memory", "out"}) {
    if (!kw.contains(k)) continue;
    nb::object v = kw[k];
    nb::del(kw[k]);
    if (v.is_none()) continue;
    const std::string key = k;
    if (key == "dtype") out.dtype = *dtype_arg(v, fn, /*none_ok=*/false);
    else if (key == "generator") out.gen = gen_of(v);
    else if (key == "requires_grad") out.requires_grad = bool_arg(v, fn, "requires_grad");
    else if (key == "device" && nb::cast<std::string>(nb::str(v)).rfind("cpu", 0) != 0)
      throw dc::Error("densecore has no device '" + nb::cast<std::string>(nb::str(v)) + "'");
    else if (key == "out") throw dc::NotImplementedError(dc::format("{}(): out= is not supported", fn));
  }
  return out;
}

TensorObject finish(const Tensor& t, bool requires_grad) {
  nb::object o = nb::cast(t);
  if (requires_grad && nb::hasattr(o, "requires_grad_")) o.attr("requires_grad_")(true);
  return o;
}

using SizeFactory = Tensor (*)(std::span<const int64_t>, DType, const dc::Generator&);

void bind_size_factory(nb::module_& m, const char* name, SizeFactory f) {
  m.def(name, [f, name](nb::args args, nb::kwargs kw) {
    FactoryKw o = take_kwargs(kw, name);
    const std::vector<int64_t> sizes = int_args::varargs(args, kw, name, "size");
    return finish(f(sizes, o.dtype.value_or(dc::default_dtype()), o.gen), o.requires_grad);
  });
}

TensorObject randint(nb::args args, nb::kwargs kw) {
  FactoryKw o = take_kwargs(kw, "randint");
  std::vector<nb::object> pos;
  for (nb::handle a : args) pos.push_back(nb::borrow(a));
  for (const char* k : {"low", "high", "size"})
    if (kw.contains(k)) pos.push_back(kw[k]);  // keyword forms low=, high=, size= in order
  int64_t low = 0, high;
  std::vector<int64_t> size;
  if (pos.size() == 2) {
    high = int_args::to_int(pos[0], "randint", "high");
    size = int_args::to_int_list(pos[1], "randint", "size");
  } else if (pos.size() == 3) {
    low = int_args::to_int(pos[0], "randint", "low");
    high = int_args::to_int(pos[1], "randint", "high");
    size = int_args::to_int_list(pos[2], "randint", "size");
  } else {
    throw dc::TypeError("randint() received an invalid combination of arguments");
  }
  return finish(dc::randint(low, high, size, o.dtype.value_or(DType::Int64), o.gen), o.requires_grad);
}

const Tensor& self_of(nb::handle s) { return nb::cast<const Tensor&>(s); }

// ---- Tensor.random_(...) overloads: (), (to), (from, to) -------------------------------------

const Tensor& random_method(const Tensor& self, nb::args args, nb::kwargs kw) {
  dc::Generator gen = kw.contains("generator") ? gen_of(kw["generator"]) : nullptr;
  std::vector<nb::object> pos;
  for (nb::handle a : args) pos.push_back(nb::borrow(a));
  if (kw.contains("from")) pos.insert(pos.begin(), kw["from"]);
  if (kw.contains("to")) pos.push_back(kw["to"]);
  if (pos.empty()) return dc::random_(self, gen);
  if (pos.size() == 1) return dc::random_to_(self, int_args::to_int(pos[0], "random_", "to"), gen);
  const int64_t from = int_args::to_int(pos[0], "random_", "from");
  if (pos[1].is_none()) return dc::random_(self, from, std::nullopt, gen);
  return dc::random_(self, from, int_args::to_int(pos[1], "random_", "to"), gen);
}

TensorObject bernoulli_any(const Tensor& self, nb::handle p, nb::handle generator) {
  if (p.is_none()) return nb::cast(dc::bernoulli(self, gen_of(generator)));
  return nb::cast(dc::bernoulli(self, py_number::to_scalar(p, "bernoulli", "p").to_double(), gen_of(generator)));
}

void bind_generator(nb::module_& m) {
  nb::class_<PyGenerator>(m, "Generator")
      .def("__init__", [](PyGenerator* self, nb::handle device) {
        if (!device.is_none() && nb::cast<std::string>(nb::str(device)).rfind("cpu", 0) != 0)
          throw dc::Error("densecore has no device '" + nb::cast<std::string>(nb::str(device)) + "'");
        new (self) PyGenerator{std::make_shared<dc::GeneratorImpl>()};
      }, nb::arg("device") = "cpu")
      .def("manual_seed", [](nb::handle self, nb::handle seed) {
        auto& g = *nb::cast<PyGenerator&>(self).gen;
        std::lock_guard<std::mutex> lock(g.mutex);
        g.set_current_seed(unpack_seed(seed));
        return nb::borrow(self);
      }, nb::arg("seed"))
      .def("seed", [](PyGenerator& self) {
        std::lock_guard<std::mutex> lock(self.gen->mutex);
        return self.gen->seed();
      })
      .def("initial_seed", [](PyGenerator& self) { return self.gen->current_seed(); })
      .def("get_state", [](PyGenerator& self) {
        std::lock_guard<std::mutex> lock(self.gen->mutex);
        return state_tensor(*self.gen);
      })
      .def("set_state", [](nb::handle self, nb::handle state) {
        set_state_from(*nb::cast<PyGenerator&>(self).gen, state);
        return nb::borrow(self);
      }, nb::arg("new_state"))
      .def("clone_state", [](PyGenerator& self) { return PyGenerator{self.gen->clone()}; })
      .def_prop_ro("device", [](PyGenerator&) { return nb::module_::import_("densecore").attr("device")("cpu"); });
}

}  // namespace

void bind_random(nb::module_& m, TensorClass& cls) {
  bind_generator(m);
  m.attr("default_generator") = nb::cast(PyGenerator{dc::default_generator()});
  g_default_generator = m.attr("default_generator");
  m.def("manual_seed", [](nb::handle seed) {
    dc::manual_seed(unpack_seed(seed));
    return default_generator_object();
  }, nb::arg("seed"));
  m.def("seed", [] {
    auto& g = *dc::default_generator();
    std::lock_guard<std::mutex> lock(g.mutex);
    return g.seed();
  });
  m.def("initial_seed", [] { return dc::default_generator()->current_seed(); });
  m.def("get_rng_state", [] {
    auto& g = *dc::default_generator();
    std::lock_guard<std::mutex> lock(g.mutex);
    return state_tensor(g);
  });
  m.def("set_rng_state", [](nb::handle state) { set_state_from(*dc::default_generator(), state); },
        nb::arg("new_state"));

  bind_size_factory(m, "rand", &dc::rand);
  bind_size_factory(m, "randn", &dc::randn);
  m.def("randint", &randint);
  m.def("randperm", [](int_args::Int n, nb::handle generator, nb::handle dtype, nb::handle,
                       bool requires_grad, nb::handle, nb::handle) {
    const DType t = dtype_arg(dtype, "randperm").value_or(DType::Int64);
    return finish(dc::randperm(n, t, gen_of(generator)), requires_grad);
  }, nb::arg("n"), nb::kw_only(), nb::arg("generator") = nb::none(), nb::arg("dtype") = nb::none(),
     nb::arg("device") = nb::none(), nb::arg("requires_grad") = false, nb::arg("layout") = nb::none(),
     nb::arg("pin_memory") = nb::none());
  m.def("normal", [](double mean, double std, nb::handle size, nb::handle generator, nb::handle dtype,
                     nb::handle, bool requires_grad, nb::handle) {
    const std::vector<int64_t> sizes = int_args::to_int_list(size, "normal", "size");
    const DType t = dtype_arg(dtype, "normal").value_or(dc::default_dtype());
    return finish(dc::normal(mean, std, sizes, t, gen_of(generator)), requires_grad);
  }, nb::arg("mean"), nb::arg("std"), nb::arg("size"), nb::kw_only(), nb::arg("generator") = nb::none(),
     nb::arg("dtype") = nb::none(), nb::arg("device") = nb::none(), nb::arg("requires_grad") = false,
     nb::arg("out") = nb::none());
  m.def("bernoulli", [](const Tensor& input, nb::handle p, nb::handle generator, nb::handle) {
    return bernoulli_any(input, p, generator);
  }, nb::arg("input"), nb::arg("p") = nb::none(), nb::kw_only(), nb::arg("generator") = nb::none(),
     nb::arg("out") = nb::none());
  m.def("multinomial", [](const Tensor& input, int_args::Int n, bool replacement, nb::handle generator,
                          nb::handle) {
    return dc::multinomial(input, n, replacement, gen_of(generator));
  }, nb::arg("input"), nb::arg("num_samples"), nb::arg("replacement") = false, nb::kw_only(),
     nb::arg("generator") = nb::none(), nb::arg("out") = nb::none());

  // In-place methods return the same Python object, as torch's do.
  cls.def("uniform_", [](nb::handle s, double from, double to, nb::handle generator) {
    dc::uniform_(self_of(s), from, to, gen_of(generator));
    return nb::borrow(s);
  }, nb::arg("from") = 0.0, nb::arg("to") = 1.0, nb::kw_only(), nb::arg("generator") = nb::none());
  cls.def("normal_", [](nb::handle s, double mean, double std, nb::handle generator) {
    dc::normal_(self_of(s), mean, std, gen_of(generator));
    return nb::borrow(s);
  }, nb::arg("mean") = 0.0, nb::arg("std") = 1.0, nb::kw_only(), nb::arg("generator") = nb::none());
  cls.def("random_", [](nb::handle s, nb::args args, nb::kwargs kw) {
    random_method(self_of(s), args, kw);
    return nb::borrow(s);
  });
  cls.def("bernoulli_", [](nb::handle s, nb::handle p, nb::handle generator) {
    if (nb::isinstance<Tensor>(p)) dc::bernoulli_(self_of(s), nb::cast<const Tensor&>(p), gen_of(generator));
    else dc::bernoulli_(self_of(s), py_number::to_scalar(p, "bernoulli_", "p").to_double(), gen_of(generator));
    return nb::borrow(s);
  }, nb::arg("p") = 0.5, nb::kw_only(), nb::arg("generator") = nb::none());
  cls.def("exponential_", [](nb::handle s, double lambd, nb::handle generator) {
    dc::exponential_(self_of(s), lambd, gen_of(generator));
    return nb::borrow(s);
  }, nb::arg("lambd") = 1.0, nb::kw_only(), nb::arg("generator") = nb::none());
  cls.def("bernoulli", [](const Tensor& self, nb::handle p, nb::handle generator) {
    return bernoulli_any(self, p, generator);
  }, nb::arg("p") = nb::none(), nb::kw_only(), nb::arg("generator") = nb::none());
  cls.def("multinomial", [](const Tensor& self, int_args::Int n, bool replacement, nb::handle generator) {
    return dc::multinomial(self, n, replacement, gen_of(generator));
  }, nb::arg("num_samples"), nb::arg("replacement") = false, nb::kw_only(),
     nb::arg("generator") = nb::none());
}
