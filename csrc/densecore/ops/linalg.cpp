// mm / addmm / bmm / mv / dot: argument checks and ATen's choice of transposes, leading dims and
// copies (aten/src/ATen/native/LinearAlgebra.cpp addmm_impl_cpu_, bmm_out_or_baddbmm_; Blas.cpp),
// then one call into kernels/gemm_mkl. matmul and linear are in linalg_matmul.cpp.
#include "densecore/ops/linalg.h"

#include <algorithm>

#include "densecore/core/convert.h"
#include "densecore/core/error.h"
#include "densecore/kernels/blas/gemm_mkl.h"
#include "densecore/kernels/iter/parallel.h"
#include "densecore/ops/copy.h"
#include "densecore/ops/view.h"

namespace dc {
using cpublas::Trans;

namespace {

// c10::Scalar::to<T>: the held value converted as c10::convert does.
template <class T>
T scalar_to(const Scalar& s) {
  if (s.is_floating()) return convert<T>(s.v.d);
  if (s.is_integral()) return convert<T>(s.v.i);
  return convert<T>(s.v.b);
}


// Runs f<T>() for the dtypes our BLAS layer covers; torch's "not implemented for 'Bool'" for bool;
// float16/bfloat16 go through oneDNN/fp16 kernels in torch on this CPU, which we do not mirror yet.
template <class F>
void dispatch_blas(DType t, const char* name, F&& f) {
  check<NotImplementedError>(t != DType::Bool, "\"{}\" not implemented for 'Bool'", name);
  check<NotImplementedError>(t != DType::Float16 && t != DType::BFloat16,
                             "[{}] float16/bfloat16 matmul is not implemented in densecore yet",
                             name);
  dispatch_dtype(t, [&]<class T>() {
    if constexpr (!std::is_same_v<T, bool> && !std::is_same_v<T, Half> &&
                  !std::is_same_v<T, BFloat16>)
      f.template operator()<T>();
  });
}

// result = beta * result elementwise (torch's mul_(beta) in addmm's K == 0 branch).
void scale_(const Tensor& result, const Scalar& beta) {
  dispatch_dtype(result.dtype(), [&]<class T>() {
    if constexpr (!std::is_same_v<T, bool>) {
      using O = opmath_t<T>;
      const O b = scalar_to<O>(beta);
      T* p = result.data<T>();  // result is contiguous here
      for (int64_t i = 0, n = result.numel(); i < n; ++i) p[i] = T(O(p[i]) * b);
    }
  });
}

// Zeros a contiguous result the op made (or resized): no version bump, as the results are new here.
void zero_contiguous(const Tensor& t) { std::fill_n(static_cast<char*>(t.data_ptr()), t.numel() * t.itemsize(), 0); }

// A copy of `t` in column-major (Fortran) order: t.transpose(0,1).contiguous().transpose(0,1).
Tensor fortran_copy(const Tensor& t) {
  return transpose(clone(transpose(t, 0, 1), MemoryFormat::Contiguous), 0, 1);
}

// How one operand enters gemm: ATen's rule in addmm_impl_cpu_ ("row" is the dim of length m or k
// in the column-major problem; a copy is made when neither layout is BLAS-legal).
struct Operand {
  Tensor t;
  bool trans;
};
Operand choose_operand(const Tensor& m, bool transpose_c, int64_t rows, int64_t cols) {
  const Strides& s = m.strides();
  if (s[transpose_c ? 1 : 0] == 1 && s[transpose_c ? 0 : 1] >= std::max<int64_t>(1, rows))
    return {m, false};
  if (s[transpose_c ? 0 : 1] == 1 && s[transpose_c ? 1 : 0] >= std::max<int64_t>(1, cols))
    return {m, true};
  return {clone(m, MemoryFormat::Contiguous), !transpose_c};
}

void check_mm_dtypes(const Tensor& m1, const Tensor& m2) {
  check(m1.dtype() == m2.dtype(), "expected m1 and m2 to have the same dtype, but got: {} != {}",
        type_meta_name(m1.dtype()), type_meta_name(m2.dtype()));
}

// ATen's addmm_impl_cpu_: result (contiguous, M x N, already allocated) = beta*self + alpha*m1@m2.
void addmm_impl(const Tensor& result, const Tensor& self, Tensor m1, Tensor m2, const Scalar& beta,
                const Scalar& alpha) {
  check_mm_dtypes(m1, m2);
  check(self.sizes()[0] == m1.sizes()[0] && self.sizes()[1] == m2.sizes()[1],
        "input shape is incompatible with matrix multiplication ({}x{} @ {}x{} != {}x{})",
        m1.sizes()[0], m1.sizes()[1], m2.sizes()[0], m2.sizes()[1], self.sizes()[0],
        self.sizes()[1]);
  if (result.numel() == 0) return;
  const bool beta_zero = beta.to_double() == 0.0;
  if (m1.sizes()[1] == 0) {
    if (beta_zero) return zero_contiguous(result);
    if (!self.is_same(result)) native::copy_(result, self);
    return scale_(result, beta);
  }
  if (!beta_zero && !self.is_same(result)) native::copy_(result, self);

  const Shape& rs = result.sizes();
  const Strides& rst = result.strides();
  bool transpose_c = false;
  Tensor c = result;
  if (rst[0] == 1 && (rs[1] == 1 || rst[1] >= std::max<int64_t>(1, rs[0]))) {
    transpose_c = false;
  } else if (rst[1] == 1 && (rs[0] == 1 || rst[0] >= std::max<int64_t>(1, rs[1]))) {
    std::swap(m1, m2);  // compute C^T = m2^T m1^T
    transpose_c = true;
  } else {
    c = fortran_copy(result);
  }
  const int64_t m = rs[transpose_c ? 1 : 0], n = rs[transpose_c ? 0 : 1];
  const int64_t k = m1.sizes()[transpose_c ? 0 : 1];
  const Operand a = choose_operand(m1, transpose_c, m, k);
  const Operand b = choose_operand(m2, transpose_c, k, n);
  const int64_t lda = a.t.strides()[(a.trans == transpose_c) ? 1 : 0];
  const int64_t ldb = b.t.strides()[(b.trans == transpose_c) ? 1 : 0];
  const int64_t ldc = c.strides()[transpose_c ? 0 : 1];
  dispatch_blas(result.dtype(), "addmm_impl_cpu_", [&]<class T>() {
    cpublas::gemm<T>(a.trans ? Trans::T : Trans::N, b.trans ? Trans::T : Trans::N, m, n, k,
                     scalar_to<T>(alpha), a.t.data<T>(), lda, b.t.data<T>(), ldb,
                     scalar_to<T>(beta), c.data<T>(), ldc);
  });
  if (!c.is_same(result)) native::copy_(result, c);
  result.bump_version();
}

void check_mm_shapes(const Tensor& m1, const Tensor& m2) {
  check(m1.sizes()[1] == m2.sizes()[0], "mat1 and mat2 shapes cannot be multiplied ({}x{} and {}x{})",
        m1.sizes()[0], m1.sizes()[1], m2.sizes()[0], m2.sizes()[1]);
}

}  // namespace

// mm and addmm are op rows (csrc/op_rows.toml): these are their forwards.
Tensor impl::mm_forward(const Tensor& self, const Tensor& mat2) {
  check(self.dim() == 2, "self must be a matrix");
  check(mat2.dim() == 2, "mat2 must be a matrix");
  check_mm_shapes(self, mat2);
  const Shape out_shape{self.sizes()[0], mat2.sizes()[1]};
  Tensor result = Tensor::empty(out_shape, self.dtype());
  addmm_impl(result, result, self, mat2, Scalar::from_int(0), Scalar::from_int(1));
  return result;
}

Tensor impl::addmm_forward(const Tensor& self, const Tensor& mat1, const Tensor& mat2, const Scalar& beta,
                   const Scalar& alpha) {
  check(self.dtype() == mat2.dtype(), "self and mat2 must have the same dtype, but got {} and {}",
        scalar_type_name(self.dtype()), scalar_type_name(mat2.dtype()));
  check(mat1.dtype() == mat2.dtype(), "mat1 and mat2 must have the same dtype, but got {} and {}",
        scalar_type_name(mat1.dtype()), scalar_type_name(mat2.dtype()));
  check(mat1.dim() == 2, "mat1 must be a matrix, got {}-D tensor", mat1.dim());
  check(mat2.dim() == 2, "mat2 must be a matrix, got {}-D tensor", mat2.dim());
  check_mm_shapes(mat1, mat2);
  const Shape out_shape{mat1.sizes()[0], mat2.sizes()[1]};
  Tensor result = Tensor::empty(out_shape, mat1.dtype());
  addmm_impl(result, expand(self, out_shape), mat1, mat2, beta, alpha);
  return result;
}

namespace {

// ATen's baddbmm_cpu_kernel<scalar_t, is_bmm=true> (LinearAlgebra.cpp, base x86-64 flags, no FMA):
// r[b,i,j] = sum over k in order, accumulated in opmath. r is contiguous (B, M, N).
template <class T>
void bmm_naive(T* r, const T* s, const Strides& ss, const T* m, const Strides& ms, int64_t bs,
               int64_t is, int64_t js, int64_t ks) {
  using O = opmath_t<T>;
  using A = std::conditional_t<std::is_integral_v<O>, std::make_unsigned_t<std::conditional_t<std::is_integral_v<O>, O, int>>, O>;
  const int64_t grain = std::max<int64_t>(kGrainSize / (is * js * ks), 1);
  parallel_for(0, bs, grain, [&](int64_t b0, int64_t b1) {
    for (int64_t b = b0; b < b1; ++b)
      for (int64_t i = 0; i < is; ++i)
        for (int64_t j = 0; j < js; ++j) {
          A acc = 0;
          const T* srow = s + b * ss[0] + i * ss[1];
          const T* mcol = m + b * ms[0] + j * ms[2];
          for (int64_t k = 0; k < ks; ++k)
            acc = A(acc + A(A(O(srow[k * ss[2]])) * A(O(mcol[k * ms[1]]))));
          r[(b * is + i) * js + j] = T(O(acc));
        }
  });
}

// baddbmm_with_gemm_: one MKL batch call computing C^T = B^T A^T per matrix.
template <class T>
void bmm_with_gemm(const Tensor& result, const Tensor& mat1, const Tensor& mat2) {
  const Strides &s1 = mat1.strides(), &s2 = mat2.strides(), &rs = result.strides();
  auto is_transposed = [](const Strides& st, const Shape& sz) { return st[1] == 1 && st[2] >= sz[1]; };
  const bool ta = is_transposed(s2, mat2.sizes()), tb = is_transposed(s1, mat1.sizes());
  const int64_t m = result.sizes()[2], n = result.sizes()[1], k = mat2.sizes()[1];
  cpublas::gemm_batched_with_stride<T>(ta ? Trans::T : Trans::N, tb ? Trans::T : Trans::N,
                                       mat1.sizes()[0], m, n, k, T(1), mat2.data<T>(),
                                       s2[ta ? 2 : 1], s2[0], mat1.data<T>(), s1[tb ? 2 : 1], s1[0],
                                       T(0), result.data<T>(), rs[1], rs[0]);
}

bool contiguous_or_transposed(const Tensor& t) {
  const Shape& s = t.sizes();
  const Strides& st = t.strides();
  return (st[2] == 1 && (s[1] == 1 || st[1] >= s[2])) || (st[1] == 1 && (s[2] == 1 || st[2] >= s[1]));
}

}  // namespace

// bmm, mv and dot are op rows (csrc/op_rows.toml): these are their forwards.

Tensor impl::bmm_forward(const Tensor& self, const Tensor& mat2) {
  check(self.dim() == 3, "batch1 must be a 3D tensor");
  check(mat2.dim() == 3, "batch2 must be a 3D tensor");
  const int64_t bs = self.sizes()[0], ks = self.sizes()[2], is = self.sizes()[1];
  const int64_t js = mat2.sizes()[2];
  check(mat2.sizes()[0] == bs && mat2.sizes()[1] == ks,
        "Expected size for first two dimensions of batch2 tensor to be: [{}, {}] but got: [{}, {}].",
        bs, ks, mat2.sizes()[0], mat2.sizes()[1]);
  Tensor result = Tensor::empty(Shape{bs, is, js}, mat2.dtype());
  if (result.numel() == 0) return result;
  if (ks == 0) {
    zero_contiguous(result);
    return result;
  }
  check(self.dtype() == mat2.dtype(), "expected scalar type {} but found {}",
        scalar_type_name(self.dtype()), scalar_type_name(mat2.dtype()));
  if (ks * is * js < 400) {
    check<NotImplementedError>(self.dtype() != DType::Bool, "\"bmm\" not implemented for 'Bool'");
    dispatch_dtype(self.dtype(), [&]<class T>() {
      if constexpr (!std::is_same_v<T, bool>)
        bmm_naive<T>(result.data<T>(), self.data<T>(), self.strides(), mat2.data<T>(),
                     mat2.strides(), bs, is, js, ks);
    });
  } else if ((self.dtype() == DType::Float32 || self.dtype() == DType::Float64) &&
             contiguous_or_transposed(self) && contiguous_or_transposed(mat2)) {
    dispatch_dtype(self.dtype(), [&]<class T>() {
      if constexpr (std::is_same_v<T, float> || std::is_same_v<T, double>)
        bmm_with_gemm<T>(result, self, mat2);
    });
  } else {
    for (int64_t b = 0; b < bs; ++b) {
      const Tensor r = select(result, 0, b);
      addmm_impl(r, r, select(self, 0, b), select(mat2, 0, b), Scalar::from_int(0), Scalar::from_int(1));
    }
  }
  return result;
}

Tensor impl::mv_forward(const Tensor& self, const Tensor& vec) {
  check(self.dim() == 2 && vec.dim() == 1, "vector + matrix @ vector expected, got 1, {}, {}",
        self.dim(), vec.dim());
  check(self.sizes()[1] == vec.sizes()[0], "size mismatch, got input ({}), mat ({}x{}), vec ({})",
        self.sizes()[0], self.sizes()[0], self.sizes()[1], vec.sizes()[0]);
  check(self.dtype() == vec.dtype(),
        "addmv input tensors must have the same dtype, but got {}, {}, and {}",
        scalar_type_name(vec.dtype()), scalar_type_name(self.dtype()), scalar_type_name(vec.dtype()));
  Tensor result = Tensor::empty(Shape{self.sizes()[0]}, vec.dtype());
  if (self.numel() == 0) {
    zero_contiguous(result);
    return result;
  }
  if (result.numel() == 0) return result;
  const int64_t rows = self.sizes()[0], cols = self.sizes()[1];
  auto lda_cond = [](int64_t m, int64_t n, int64_t lda) { return n == 1 || lda >= std::max<int64_t>(1, m); };
  dispatch_blas(self.dtype(), "addmv_impl_cpu", [&]<class T>() {
    const T* x = vec.data<T>();
    const int64_t incx = vec.strides()[0];
    T* y = result.data<T>();
    if (self.strides()[0] == 1 && lda_cond(rows, cols, self.strides()[1])) {
      cpublas::gemv<T>('n', rows, cols, T(1), self.data<T>(), self.strides()[1], x, incx, T(0), y, 1);
    } else if (self.strides()[1] == 1 && lda_cond(cols, rows, self.strides()[0])) {
      cpublas::gemv<T>('t', cols, rows, T(1), self.data<T>(), self.strides()[0], x, incx, T(0), y, 1);
    } else {
      const Tensor c = contiguous(self);
      cpublas::gemv<T>('t', cols, rows, T(1), c.data<T>(), c.strides()[0], x, incx, T(0), y, 1);
    }
  });
  return result;
}

Tensor impl::dot_forward(const Tensor& self, const Tensor& other) {
  check(self.dim() == 1 && other.dim() == 1, "1D tensors expected, but got {}D and {}D tensors",
        self.dim(), other.dim());
  check(self.dtype() == other.dtype(),
        "dot : expected both vectors to have same dtype, but found {} and {}",
        scalar_type_name(self.dtype()), scalar_type_name(other.dtype()));
  const int64_t n = self.numel();
  check(n == other.numel(),
        "inconsistent tensor size, expected tensor [{}] and src [{}] to have the same number of "
        "elements, but got {} and {} elements respectively",
        n, other.numel(), n, other.numel());
  Tensor result = Tensor::empty(Shape{}, self.dtype());
  dispatch_blas(self.dtype(), "dot", [&]<class T>() {
    *result.data<T>() = cpublas::dot<T>(n, self.data<T>(), self.strides()[0], other.data<T>(),
                                        other.strides()[0]);
  });
  return result;
}

}  // namespace dc
