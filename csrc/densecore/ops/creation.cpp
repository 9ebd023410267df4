// Tensor factories, fill_ and tril/triu (aten/src/ATen/native/TensorFactories.cpp,
// RangeFactories.cpp, RangeUtils.h, FillKernel.cpp, TriangularOps.cpp).
#include "densecore/ops/creation.h"

#include <cmath>
#include <cstring>
#include <limits>

#include "densecore/core/checked_convert.h"
#include "densecore/kernels/stubs/copy_kernel.h"
#include "densecore/ops/copy.h"
#include "densecore/kernels/stubs/fill.h"
#include "densecore/kernels/iter/parallel.h"

namespace dc {

DC_DEFINE_DISPATCH(ArangeFn, arange_stub);
DC_DEFINE_DISPATCH(LinspaceFn, linspace_stub);

namespace {

// fill_ converts with Scalar::to<T>() (checked), except that a one-element tensor goes through
// at::detail::scalar_fill, which converts Half and BFloat16 unchecked.
template <class T>
T fill_value(const Scalar& value, int64_t numel) {
  if constexpr (is_reduced_float_v<T>) {
    if (numel != 1) return scalar_to<T>(value);
    if (value.is_floating()) return convert<T>(value.v.d);
    if (value.is_integral()) return convert<T>(value.v.i);
    return convert<T>(value.v.b);
  } else {
    return scalar_to<T>(value);
  }
}

// Calls f(element pointer) for every element of t, row-major order.
template <class T, class F>
void for_each_element(const Tensor& t, F&& f) {
  const int64_t n = t.numel();
  if (n == 0) return;
  const int64_t nd = t.dim();
  T* base = t.data<T>();
  if (t.is_contiguous()) {
    for (int64_t i = 0; i < n; ++i) f(base + i);
    return;
  }
  std::vector<int64_t> idx(nd, 0);
  int64_t off = 0;
  for (int64_t i = 0; i < n; ++i) {
    f(base + off);
    for (int64_t k = nd - 1; k >= 0; --k) {
      if (++idx[k] < t.sizes()[k]) {
        off += t.strides()[k];
        break;
      }
      off -= t.strides()[k] * (idx[k] - 1);
      idx[k] = 0;
    }
  }
}

void check_steps(int64_t steps) { check(steps >= 0, "number of steps must be non-negative"); }

// RangeUtils.h arange_check_bounds: validation in double whatever the dtype.
void arange_check_bounds(const Scalar& start, const Scalar& end, const Scalar& step) {
  const double dstart = start.to_double(), dend = end.to_double(), dstep = step.to_double();
  check(dstep > 0 || dstep < 0, "step must be nonzero");
  check(std::isfinite(dstart) && std::isfinite(dend), "unsupported range: {} -> {}", dstart, dend);
  check((dstep > 0 && dend >= dstart) || (dstep < 0 && dend <= dstart),
        "upper bound and lower bound inconsistent with step sign");
}

// RangeUtils.h compute_arange_size: exact integer arithmetic only for int64 over integer bounds.
int64_t arange_size(DType dtype, const Scalar& start, const Scalar& end, const Scalar& step) {
  arange_check_bounds(start, end, step);
  double size_d;
  if (dtype == DType::Int64 && start.is_integral() && end.is_integral() && step.is_integral()) {
    const int64_t xstart = start.v.i, xend = end.v.i, xstep = step.v.i;
    const int64_t sgn = (xstep > 0) - (xstep < 0);
    size_d = std::ceil(double((xend - xstart + xstep - sgn) / xstep));
  } else {
    size_d = std::ceil((end.to_double() - start.to_double()) / step.to_double());
  }
  check(size_d >= 0 && size_d <= double(std::numeric_limits<int64_t>::max()),
        "invalid size, possible overflow?");
  return static_cast<int64_t>(size_d);
}

/// The columns [begin, end) a row of tril/triu keeps.
struct ColumnRange {
  int64_t begin, end;
};

// Copies t's elements into a new contiguous tensor, zeroing those outside each row's kept columns.
// kept(row, cols) gives the half-open column range [begin, end) row `row` keeps. Rows are copied as
// ranges (one memcpy when the last dim is contiguous) and zeroed with memset: an element at a time, a
// 64x64 tril took 23 us against torch's 3 (issue 10).
template <class KeptColumns>
Tensor triangle(const Tensor& t, const char* name, KeptColumns&& kept) {
  check(t.dim() >= 2, "{}: input tensor must have at least 2 dimensions", name);
  Tensor out = empty(t.sizes(), t.dtype());
  if (t.numel() == 0) return out;
  const int64_t nd = t.dim(), rows = t.sizes()[nd - 2], cols = t.sizes()[nd - 1];
  const int64_t row_stride = t.strides()[nd - 2], col_stride = t.strides()[nd - 1];
  const int64_t item = int64_t(t.itemsize());
  const char* src = static_cast<const char*>(t.data_ptr());
  char* dst = static_cast<char*>(out.data_ptr());
  std::vector<int64_t> batch(nd - 2, 0);  // index over the leading dims
  for (int64_t m = 0, matrices = t.numel() / (rows * cols); m < matrices; ++m) {
    int64_t base = 0;
    for (int64_t k = 0; k < nd - 2; ++k) base += batch[k] * t.strides()[k];
    for (int64_t r = 0; r < rows; ++r) {
      const auto [begin, end] = kept(r, cols);
      char* drow = dst + (m * rows + r) * cols * item;
      const char* srow = src + (base + r * row_stride) * item;
      std::memset(drow, 0, size_t(begin * item));
      if (col_stride == 1) {
        std::memcpy(drow + begin * item, srow + begin * item, size_t((end - begin) * item));
      } else {
        for (int64_t c = begin; c < end; ++c) std::memcpy(drow + c * item, srow + c * col_stride * item, size_t(item));
      }
      std::memset(drow + end * item, 0, size_t((cols - end) * item));
    }
    for (int64_t k = nd - 3; k >= 0 && ++batch[k] == t.sizes()[k]; --k) batch[k] = 0;
  }
  return out;
}

}  // namespace

Tensor empty(std::span<const int64_t> sizes, DType dtype) {
  for (int64_t s : sizes)
    check(s >= 0, "Trying to create tensor with negative dimension {}: {}", s, shape_text(sizes));
  return Tensor::empty(sizes, dtype);
}

const Tensor& native::fill_(const Tensor& self, const Scalar& value) {
  dispatch_dtype(self.dtype(), [&]<class T>() {
    const T v = fill_value<T>(value, self.numel());
    for_each_element<T>(self, [&](T* p) { *p = v; });
  });
  self.bump_version();
  return self;
}

// fill_.Tensor (Fill.cpp fill_out): a copy_ of the 0-dim value, so a write into expanded memory is refused;
// a value that shares self's storage is copied first.
const Tensor& native::fill_(const Tensor& self, const Tensor& value) {
  check(value.dim() == 0,
        "fill_ only supports 0-dimension value tensor but got tensor with {} dimensions.", value.dim());
  return native::copy_(self, value.storage() == self.storage() ? clone(value, MemoryFormat::Contiguous) : value);
}

const Tensor& native::zero_(const Tensor& self) { return native::fill_(self, Scalar::from_int(0)); }

Tensor zeros(std::span<const int64_t> sizes, DType dtype) {
  for (int64_t s : sizes) check(s >= 0, "zeros: Dimension size must be non-negative.");
  Tensor t = empty(sizes, dtype);
  std::memset(t.data_ptr(), 0, size_t(t.numel()) * t.itemsize());
  return t;
}

Tensor ones(std::span<const int64_t> sizes, DType dtype) {
  return full(sizes, Scalar::from_int(1), dtype);
}

Tensor full(std::span<const int64_t> sizes, const Scalar& value, DType dtype) {
  Tensor t = empty(sizes, dtype);
  native::fill_(t, value);
  t.restart_version_of_new_tensor();
  return t;
}

DType full_dtype(const Scalar& value) {
  if (value.is_bool()) return DType::Bool;
  if (value.is_integral()) return DType::Int64;
  return default_dtype();
}

// The *_like factories keep t's memory format (torch's preserve_format): t's strides when t is
// dense, else dense strides in t's stride order (empty_like_preserve).
Tensor empty_like(const Tensor& t, std::optional<DType> dtype) {
  return empty_like_preserve(t, dtype.value_or(t.dtype()));
}
Tensor zeros_like(const Tensor& t, std::optional<DType> dtype) {
  Tensor out = empty_like(t, dtype);
  std::memset(out.storage()->data(), 0, out.storage()->nbytes());  // dense: the storage is the tensor
  return out;
}
Tensor ones_like(const Tensor& t, std::optional<DType> dtype) { return full_like(t, Scalar::from_int(1), dtype); }
Tensor full_like(const Tensor& t, const Scalar& value, std::optional<DType> dtype) {
  Tensor out = empty_like(t, dtype);
  native::fill_(out, value);
  out.restart_version_of_new_tensor();
  return out;
}

Tensor arange(const Scalar& start, const Scalar& end, const Scalar& step,
              std::optional<DType> dtype) {
  // TensorFactories.cpp arange: bools count as integers for the int64 inference.
  const bool all_integral = !start.is_floating() && !end.is_floating() && !step.is_floating();
  const DType dt = dtype.value_or(all_integral ? DType::Int64 : default_dtype());
  if (dt == DType::Bool) throw NotImplementedError("\"arange_cpu\" not implemented for 'Bool'");
  const int64_t n = arange_size(dt, start, end, step);
  const int64_t sizes[1] = {n};
  Tensor out = empty(sizes, dt);
  arange_stub(out.data_ptr(), dt, n, start, step);
  return out;
}

Tensor linspace(const Scalar& start, const Scalar& end, int64_t steps, std::optional<DType> dtype) {
  check_steps(steps);
  const DType dt = dtype.value_or(default_dtype());
  const int64_t sizes[1] = {steps};
  Tensor out = empty(sizes, dt);
  if (steps == 1) {
    native::fill_(out, start);
  } else if (steps > 1) {
    linspace_stub(out.data_ptr(), dt, steps, start, end);
  }
  return out;
}

Tensor eye(int64_t n, std::optional<int64_t> m_opt, DType dtype) {
  const int64_t m = m_opt.value_or(n);
  check(n >= 0, "n must be greater or equal to 0, got {}", n);
  check(m >= 0, "m must be greater or equal to 0, got {}", m);
  const int64_t sizes[2] = {n, m};
  safe_numel(sizes);  // torch's eye reports n * m overflowing as a numel overflow
  Tensor out = zeros(sizes, dtype);
  dispatch_dtype(dtype, [&]<class T>() {
    T* p = out.data<T>();
    const T one = convert<T>(int64_t{1});
    for (int64_t i = 0; i < std::min(n, m); ++i) p[i * m + i] = one;
  });
  return out;
}

// tril and triu are op rows (csrc/op_rows.toml): these are their forwards.
Tensor impl::tril_forward(const Tensor& self, int64_t diagonal) {
  // Columns c <= r + diagonal, clamped to [0, cols) without forming r + diagonal (diagonal may be huge).
  return triangle(self, "tril", [=](int64_t r, int64_t cols) {
    if (diagonal >= cols - r - 1) return ColumnRange{0, cols};
    if (diagonal < -r) return ColumnRange{0, 0};
    return ColumnRange{0, r + diagonal + 1};
  });
}

Tensor impl::triu_forward(const Tensor& self, int64_t diagonal) {
  // Columns c >= r + diagonal, clamped as tril's.
  return triangle(self, "triu", [=](int64_t r, int64_t cols) {
    if (diagonal <= -r) return ColumnRange{0, cols};
    if (diagonal >= cols - r) return ColumnRange{cols, cols};
    return ColumnRange{r + diagonal, cols};
  });
}

}  // namespace dc
