// Random sampling ops (aten/src/ATen/native/Distributions.cpp, DistributionTemplates.h,
// TensorFactories.cpp randperm): argument checks with torch's messages, then the kernels of
// kernels/cpu/distributions.cpp under the generator's lock. In-place ops bump the version.
#include "densecore/ops/random.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>

#include "densecore/core/error.h"
#include "densecore/kernels/stubs/distribution_stubs.h"
#include "densecore/ops/creation.h"

namespace dc {

namespace {

/// TensorIterator::borrowing_nullary_op over self (no resize, overlap checked).
TensorIter nullary_iter(const Tensor& self) {
  IterConfig cfg;
  cfg.check_all_same_dtype = false;
  cfg.resize_outputs = false;
  return TensorIter(cfg, self, {});
}

/// Runs f(iter, gen) under the generator's lock, unless self is empty; then bumps the version.
template <class F>
const Tensor& run_nullary(const Tensor& self, const Generator& gen, F&& f) {
  if (self.numel() != 0) {
    TensorIter iter = nullary_iter(self);
    GeneratorImpl* g = generator_or_default(gen);
    std::lock_guard<std::mutex> lock(g->mutex);
    f(iter, g);
  }
  self.bump_version();
  return self;
}

// numeric_limits of a floating dtype as doubles (lowest, max) and its mantissa digits.
struct FloatLimits {
  double lowest, max;
  int digits;
};
FloatLimits float_limits(DType t, const char* op) {
  switch (t) {
    case DType::Float64: return {-std::numeric_limits<double>::max(), std::numeric_limits<double>::max(), 53};
    case DType::Float32: return {-double(std::numeric_limits<float>::max()), double(std::numeric_limits<float>::max()), 24};
    case DType::Float16: return {-65504.0, 65504.0, 11};
    case DType::BFloat16: return {-3.3895313892515355e38, 3.3895313892515355e38, 8};
    default:
      throw NotImplementedError(dc::format("\"{}\" not implemented for '{}'", op, scalar_type_name(t)));
  }
}

/// Integer dtypes' [lowest, max] as int64 (bool is [0, 1]).
std::pair<int64_t, int64_t> int_limits(DType t) {
  switch (t) {
    case DType::Bool: return {0, 1};
    case DType::UInt8: return {0, 255};
    case DType::Int8: return {-128, 127};
    case DType::Int16: return {-32768, 32767};
    case DType::Int32: return {INT32_MIN, INT32_MAX};
    default: return {INT64_MIN, INT64_MAX};
  }
}

// static_cast<scalar_t>(double) for the floating dtypes, as int64 (update_from/update_to).
int64_t round_trip(DType t, int64_t v) {
  double d = double(v);
  if (t == DType::Float32) d = double(float(d));
  else if (t == DType::Float16) d = double(float(Half(float(d))));
  else if (t == DType::BFloat16) d = double(float(BFloat16(float(d))));
  return int64_t(d);
}

int64_t update_from(DType t, int64_t from, int digits) {
  const int64_t from_plus_1 = round_trip(t, from + 1);
  if (from_plus_1 < from) {
    int64_t f = std::abs(from + 1);
    int n = 0;
    while (f >>= 1) ++n;
    from = from_plus_1 + (int64_t(1) << (n - digits + 1));
  }
  return from;
}

int64_t update_to(DType t, int64_t to, int digits) {
  const int64_t to_minus_1 = round_trip(t, to - 1);
  if (to_minus_1 >= to) {
    int64_t v = std::abs(to - 1);
    int n = 0;
    while (v >>= 1) ++n;
    to = to_minus_1 - (int64_t(1) << (n - digits + 1));
  }
  return to;
}

void check_from_to_in_range(int64_t from, int64_t to_inc, DType t) {
  const char* name = dtype_name(t).data();
  if (is_floating(t)) {
    const FloatLimits l = float_limits(t, "check_random_fp_bounds");
    check(double(from) >= l.lowest && double(from) <= l.max, "from is out of bounds for {}", name);
    check(double(to_inc) >= l.lowest && double(to_inc) <= l.max, "to - 1 is out of bounds for {}", name);
    return;
  }
  const auto [lo, hi] = int_limits(t);
  check(from >= lo && from <= hi, "from is out of bounds for {}", name);
  check(to_inc >= lo && to_inc <= hi, "to - 1 is out of bounds for {}", name);
}

Strided2d as_2d(const Tensor& t) {
  const bool two = t.dim() == 2;
  return {t.data_ptr(), t.dtype(), two ? t.size(0) : 1, t.size(-1), two ? t.stride(0) : 0,
          t.stride(-1)};
}

}  // namespace

// The in-place distributions (their rows in csrc/op_rows.toml record torch's nodes around them).
const Tensor& native::uniform_(const Tensor& self, double from, double to, const Generator& gen) {
  const DType t = self.dtype();
  const FloatLimits l = float_limits(t, "check_uniform_bounds");
  check(from >= l.lowest && from <= l.max, "from is out of bounds for {}", dtype_name(t));
  check(to >= l.lowest && to <= l.max, "to is out of bounds for {}", dtype_name(t));
  check(from <= to, "uniform_ expects to return a [from, to) range, but found from={} > to={}", from, to);
  check(to - from <= l.max,
        "uniform_ expects to-from <= std::numeric_limits<{}>::max(), but found to={} and from={} "
        "which result in to-from to exceed the limit",
        scalar_type_name(t), to, from);
  return run_nullary(self, gen, [&](TensorIter& it, GeneratorImpl* g) { uniform_stub(it, from, to, g); });
}

const Tensor& native::normal_(const Tensor& self, double mean, double std, const Generator& gen) {
  check(std >= 0.0, "normal expects std >= 0.0, but found std {}", std);
  const bool contiguous = self.is_contiguous();
  return run_nullary(self, gen, [&](TensorIter& it, GeneratorImpl* g) {
    normal_stub(it, contiguous, mean, std, g);
  });
}

const Tensor& native::random_(const Tensor& self, const Generator& gen) {
  return run_nullary(self, gen, [&](TensorIter& it, GeneratorImpl* g) { random_stub(it, g); });
}

// random_(from, to): the values in [from, to) (or the dtype's range).
const Tensor& native::random_(const Tensor& self, int64_t from, std::optional<int64_t> to_opt, const Generator& gen) {
  const DType t = self.dtype();
  if (!to_opt && from == std::numeric_limits<int64_t>::lowest())
    return run_nullary(self, gen, [&](TensorIter& it, GeneratorImpl* g) {
      random_full_64_bits_range_stub(it, g);
    });
  int64_t to_inc;
  if (to_opt) {
    int64_t to = *to_opt;
    check(from < to, "random_ expects 'from' to be less than 'to', but got from={} >= to={}", from, to);
    if (is_floating(t)) {
      const int digits = float_limits(t, "random_update_from_to").digits;
      from = update_from(t, from, digits);
      to = update_to(t, to, digits);
      check(from < to,
            "random_ expects 'from' casted to dtype to be less than 'to' casted to dtype, but got "
            "from={} >= to={}", from, to);
    }
    to_inc = to - 1;
  } else if (is_floating(t)) {
    const int digits = float_limits(t, "random_from_to_range_calc").digits;
    to_inc = digits >= 63 ? INT64_MAX : int64_t(1) << digits;
    from = update_from(t, from, digits);
    check(from < to_inc,
          "random_ expects 'from' casted to dtype to be less than or equal to 'to_inc' casted to "
          "dtype, but got from={} > to_inc={}", from, to_inc);
  } else {
    to_inc = int_limits(t).second;
  }
  check_from_to_in_range(from, to_inc, t);
  const uint64_t range = uint64_t(to_inc) - uint64_t(from) + 1;
  return run_nullary(self, gen, [&](TensorIter& it, GeneratorImpl* g) {
    random_from_to_stub(it, range, from, g);
  });
}

const Tensor& native::random_to_(const Tensor& self, int64_t to, const Generator& gen) {
  return native::random_(self, 0, to, gen);
}

const Tensor& native::bernoulli_(const Tensor& self, double p, const Generator& gen) {
  check(0 <= p && p <= 1, "bernoulli_ expects p to be in [0, 1], but got p={}", p);
  return run_nullary(self, gen, [&](TensorIter& it, GeneratorImpl* g) {
    bernoulli_scalar_stub(it, p, g);
  });
}

const Tensor& native::bernoulli_(const Tensor& self, const Tensor& p, const Generator& gen) {
  if (self.numel() != 0) {
    // expand_inplace(self, p): p must broadcast to self's shape.
    const std::vector<int64_t> shape = broadcast_shapes(self.sizes(), p.sizes());
    check(shape == self.sizes(), "The expanded size of the tensor ({}) must match the existing size "
          "({}) at non-singleton dimension", self.numel(), p.numel());
    IterConfig cfg;
    cfg.check_all_same_dtype = false;
    cfg.resize_outputs = false;
    const Tensor inputs[1] = {p};
    TensorIter iter(cfg, self, inputs);
    GeneratorImpl* g = generator_or_default(gen);
    std::lock_guard<std::mutex> lock(g->mutex);
    bernoulli_tensor_stub(iter, g);
  }
  self.bump_version();
  return self;
}

const Tensor& native::exponential_(const Tensor& self, double lambd, const Generator& gen) {
  check(lambd > 0.0, "exponential_ expects lambda > 0.0, but found lambda={}", lambd);
  if (!is_floating(self.dtype()))
    throw Error(dc::format("Exponential distribution is a continuous probability distribution. "
                           "dtype must be a floating point but you specified {}",
                           scalar_type_name(self.dtype())));
  return run_nullary(self, gen, [&](TensorIter& it, GeneratorImpl* g) {
    exponential_stub(it, lambd, g);
  });
}

// torch.bernoulli(p) and torch.bernoulli(input, p): draws into a new tensor of the input's shape and dtype.
Tensor impl::bernoulli_forward(const Tensor& self, const Generator& gen) {
  Tensor out = empty(self.sizes(), self.dtype());
  native::bernoulli_(out, self, gen);
  return out;
}

Tensor impl::bernoulli_forward(const Tensor& self, double p, const Generator& gen) {
  Tensor out = empty(self.sizes(), self.dtype());
  native::bernoulli_(out, p, gen);
  return out;
}

Tensor rand(std::span<const int64_t> sizes, DType dtype, const Generator& gen) {
  Tensor out = empty(sizes, dtype);
  native::uniform_(out, 0, 1, gen);
  out.restart_version_of_new_tensor();
  return out;
}

Tensor randn(std::span<const int64_t> sizes, DType dtype, const Generator& gen) {
  Tensor out = empty(sizes, dtype);
  native::normal_(out, 0, 1, gen);
  out.restart_version_of_new_tensor();
  return out;
}

Tensor randint(int64_t low, int64_t high, std::span<const int64_t> sizes, DType dtype,
               const Generator& gen) {
  Tensor out = empty(sizes, dtype);
  native::random_(out, low, high, gen);
  out.restart_version_of_new_tensor();
  return out;
}

Tensor normal(double mean, double std, std::span<const int64_t> sizes, DType dtype,
              const Generator& gen) {
  check(std >= 0.0, "normal expects std >= 0.0, but found std {}", std);
  Tensor out = empty(sizes, dtype);
  native::normal_(out, mean, std, gen);
  out.restart_version_of_new_tensor();
  return out;
}

Tensor randperm(int64_t n, DType dtype, const Generator& gen) {
  Tensor out = empty(std::vector<int64_t>{n}, dtype);  // torch allocates first: its error wins
  if (is_floating(dtype)) {
    const int digits = float_limits(dtype, "randperm").digits;
    check(n <= (int64_t(1) << digits), "n cannot be greater than {}^{} for {} dtype",
          2, digits, scalar_type_name(dtype));
  } else {
    check<NotImplementedError>(dtype != DType::Bool, "\"randperm\" not implemented for 'Bool'");
    check(n - 1 <= int_limits(dtype).second, "n is too large for result tensor type: '{}'",
          scalar_type_name(dtype));
  }
  GeneratorImpl* g = generator_or_default(gen);
  std::lock_guard<std::mutex> lock(g->mutex);
  dispatch_dtype(dtype, [&]<class T>() {
    T* r = out.data<T>();
    for (int64_t i = 0; i < n; ++i) r[i] = convert<T>(i);
    // randperm_cpu for n < 2^32 / 20: n-1 32-bit draws, swap(r[i], r[i + z]).
    for (int64_t i = 0; i < n - 1; ++i) {
      const int64_t z = int64_t(g->random() % uint64_t(n - i));
      std::swap(r[i], r[z + i]);
    }
  });
  return out;
}

Tensor multinomial(const Tensor& self, int64_t n_sample, bool replacement, const Generator& gen) {
  check(self.dim() > 0 && self.dim() <= 2, "prob_dist must be 1 or 2 dim");
  check(is_floating(self.dtype()), "multinomial only supports floating-point dtypes for input, got: {}",
        scalar_type_name(self.dtype()));
  check(n_sample > 0, "cannot sample n_sample <= 0 samples");
  const int64_t n_categories = self.size(-1);
  check(replacement || n_sample <= n_categories,
        "cannot sample n_sample > prob_dist.size(-1) samples without replacement");
  check(n_categories <= (int64_t(1) << 24), "number of categories cannot exceed 2^24");
  Tensor result = self.dim() == 1 ? empty(std::vector<int64_t>{n_sample}, DType::Int64)
                                  : empty(std::vector<int64_t>{self.size(0), n_sample}, DType::Int64);
  if (result.numel() == 0) return result;
  const Strided2d p = as_2d(self);
  if (!replacement || n_sample == 1) {
    bool valid = true, zero_row = false;
    dispatch_dtype(self.dtype(), [&]<class T>() {
      const T* d = static_cast<const T*>(p.data);
      for (int64_t i = 0; i < p.rows; ++i) {
        bool all_zero = true;
        for (int64_t j = 0; j < p.cols; ++j) {
          const double v = convert<double>(d[i * p.row_stride + j * p.col_stride]);
          if (!(v < INFINITY) || !(v >= 0)) valid = false;
          if (v != 0) all_zero = false;
        }
        zero_row = zero_row || all_zero;
      }
    });
    check(valid, "probability tensor contains either `inf`, `nan` or element < 0");
    check(!zero_row, "invalid multinomial distribution (sum of probabilities <= 0)");
    // The exponential race: q ~ Exp(1), samples = argmax / topk of p / q.
    Tensor q = empty_like_preserve(self, self.dtype());
    native::exponential_(q, 1, gen);
    multinomial_race_stub(result.data<int64_t>(), self.dim() == 2 ? result.stride(0) : 0,
                          result.stride(-1), p, as_2d(q), n_sample);
    return result;
  }
  GeneratorImpl* g = generator_or_default(gen);
  std::lock_guard<std::mutex> lock(g->mutex);
  multinomial_with_replacement_stub(result.data<int64_t>(), self.dim() == 2 ? result.stride(0) : 0,
                                    result.stride(-1), p, n_sample, g);
  return result;
}

}  // namespace dc
