// cpublas for DenseCore: the MKL calls torch's matmul family makes (CPUBlas.cpp, BlasKernel.cpp,
// mkl/LinearAlgebra.cpp), with the same argument fix-ups, and naive loops for what BLAS cannot take.
// See docs/exactness.md "Matmul" for what was verified bit for bit.
#include "densecore/kernels/blas/gemm_mkl.h"

#include <mkl_cblas.h>
#include <mkl_service.h>
#include <omp.h>

#include <algorithm>
#include <climits>
#include <type_traits>
#include <vector>


// The Fortran BLAS entry points, declared as ATen's CPUBlas.cpp / BlasKernel.cpp declare them
// (LP64: int arguments by pointer). MKL's gf_lp64 interface provides these symbols.
extern "C" {
void sgemm_(const char* transa, const char* transb, const int* m, const int* n, const int* k,
            const float* alpha, const float* a, const int* lda, const float* b, const int* ldb,
            const float* beta, float* c, const int* ldc);
void dgemm_(const char* transa, const char* transb, const int* m, const int* n, const int* k,
            const double* alpha, const double* a, const int* lda, const double* b, const int* ldb,
            const double* beta, double* c, const int* ldc);
void sgemv_(const char* trans, const int* m, const int* n, const float* alpha, const float* a,
            const int* lda, const float* x, const int* incx, const float* beta, float* y,
            const int* incy);
void dgemv_(const char* trans, const int* m, const int* n, const double* alpha, const double* a,
            const int* lda, const double* x, const int* incx, const double* beta, double* y,
            const int* incy);
}

namespace dc::cpublas {
namespace {

template <class T>
inline constexpr bool kIsBlasType = std::is_same_v<T, float> || std::is_same_v<T, double>;

// Integer arithmetic wraps modulo 2^bits (as torch's int kernels do in practice); unsigned math
// gives that without signed-overflow UB. Floating types compute in their own type (opmath = T).
template <class T, bool = std::is_integral_v<T>>
struct ArithOf {
  using type = T;
};
template <class T>
struct ArithOf<T, true> {
  using type = std::make_unsigned_t<T>;
};
template <class T>
using Arith = typename ArithOf<T>::type;

// ATen's cpublas::internal::normalize_last_dims: legal lds for degenerate shapes.
void normalize_last_dims(Trans ta, Trans tb, int64_t m, int64_t n, int64_t k, int64_t* lda,
                         int64_t* ldb, int64_t* ldc) {
  if (n == 1) *ldc = m;
  if (ta != Trans::N) {
    if (m == 1) *lda = k;
  } else if (k == 1) {
    *lda = m;
  }
  if (tb != Trans::N) {
    if (k == 1) *ldb = n;
  } else if (n == 1) {
    *ldb = k;
  }
}

// ATen's use_blas_gemm: everything fits in int and the lds are legal for BLAS.
bool use_blas_gemm(Trans ta, Trans tb, int64_t m, int64_t n, int64_t k, int64_t lda, int64_t ldb,
                   int64_t ldc) {
  const bool ta_ = ta != Trans::N, tb_ = tb != Trans::N;
  return m <= INT_MAX && n <= INT_MAX && k <= INT_MAX && lda <= INT_MAX && ldb <= INT_MAX &&
         ldc <= INT_MAX && lda >= std::max<int64_t>(1, ta_ ? k : m) &&
         ldb >= std::max<int64_t>(1, tb_ ? n : k) && ldc >= std::max<int64_t>(1, m);
}

// The naive gemm (ATen's gemm_stub, cpu/BlasKernel.cpp) in its simplest order: C = beta*C, then
// rank-1 updates over l. Exact for integers in any order; for float/double it is only reached with
// sizes or lds beyond INT_MAX, where torch's per-capability kernel order is NOT reproduced.
template <class T>
void gemm_naive(Trans ta, Trans tb, int64_t m, int64_t n, int64_t k, T alpha, const T* a,
                int64_t lda, const T* b, int64_t ldb, T beta, T* c, int64_t ldc) {
  using A = Arith<T>;
  auto at = [&](int64_t i, int64_t l) { return A(ta == Trans::N ? a[i + l * lda] : a[l + i * lda]); };
  auto bt = [&](int64_t l, int64_t j) { return A(tb == Trans::N ? b[l + j * ldb] : b[j + l * ldb]); };
  for (int64_t j = 0; j < n; ++j) {
    for (int64_t i = 0; i < m; ++i) {
      A acc = 0;
      for (int64_t l = 0; l < k; ++l) acc = A(acc + A(at(i, l) * bt(l, j)));
      T& out = c[i + j * ldc];
      out = beta == T(0) ? T(A(alpha) * acc) : T(A(A(beta) * A(out)) + A(A(alpha) * acc));
    }
  }
}

// Inside a parallel region MKL computes on the calling thread alone, but its threaded driver still
// opens a nested OpenMP region (and libgomp allocates a team) for every call; the flash-attention
// blocks make thousands of such calls per step. A thread-local MKL count of 1 for the call takes
// the same one-thread kernel without the nested region, so the results are the same.
class SequentialMklInParallelRegion {
 public:
  SequentialMklInParallelRegion() : active_(omp_in_parallel()) {
    if (active_) previous_ = mkl_set_num_threads_local(1);
  }
  ~SequentialMklInParallelRegion() {
    if (active_) mkl_set_num_threads_local(previous_);
  }
  SequentialMklInParallelRegion(const SequentialMklInParallelRegion&) = delete;
  SequentialMklInParallelRegion& operator=(const SequentialMklInParallelRegion&) = delete;

 private:
  bool active_;
  int previous_ = 0;
};

void blas_gemm(Trans ta, Trans tb, int m, int n, int k, float alpha, const float* a, int lda,
               const float* b, int ldb, float beta, float* c, int ldc) {
  const char ta_ = char(ta), tb_ = char(tb);
  SequentialMklInParallelRegion sequential;
  sgemm_(&ta_, &tb_, &m, &n, &k, &alpha, a, &lda, b, &ldb, &beta, c, &ldc);
}
void blas_gemm(Trans ta, Trans tb, int m, int n, int k, double alpha, const double* a, int lda,
               const double* b, int ldb, double beta, double* c, int ldc) {
  const char ta_ = char(ta), tb_ = char(tb);
  SequentialMklInParallelRegion sequential;
  dgemm_(&ta_, &tb_, &m, &n, &k, &alpha, a, &lda, b, &ldb, &beta, c, &ldc);
}

CBLAS_TRANSPOSE to_cblas(Trans t) { return t == Trans::N ? CblasNoTrans : CblasTrans; }

// ATen's mkl_gemm_batched (mkl/LinearAlgebra.cpp): one group of `batch` equal problems.
void blas_gemm_batch(Trans ta, Trans tb, int batch, int m, int n, int k, float alpha,
                     const float** a, int lda, const float** b, int ldb, float beta, float** c,
                     int ldc) {
  const CBLAS_TRANSPOSE ta_ = to_cblas(ta), tb_ = to_cblas(tb);
  const MKL_INT m_ = m, n_ = n, k_ = k, lda_ = lda, ldb_ = ldb, ldc_ = ldc, batch_ = batch;
  cblas_sgemm_batch(CblasColMajor, &ta_, &tb_, &m_, &n_, &k_, &alpha, a, &lda_, b, &ldb_, &beta, c,
                    &ldc_, 1, &batch_);
}
void blas_gemm_batch(Trans ta, Trans tb, int batch, int m, int n, int k, double alpha,
                     const double** a, int lda, const double** b, int ldb, double beta, double** c,
                     int ldc) {
  const CBLAS_TRANSPOSE ta_ = to_cblas(ta), tb_ = to_cblas(tb);
  const MKL_INT m_ = m, n_ = n, k_ = k, lda_ = lda, ldb_ = ldb, ldc_ = ldc, batch_ = batch;
  cblas_dgemm_batch(CblasColMajor, &ta_, &tb_, &m_, &n_, &k_, &alpha, a, &lda_, b, &ldb_, &beta, c,
                    &ldc_, 1, &batch_);
}

}  // namespace

template <class T>
void gemm(Trans ta, Trans tb, int64_t m, int64_t n, int64_t k, T alpha, const T* a, int64_t lda,
          const T* b, int64_t ldb, T beta, T* c, int64_t ldc) {
  normalize_last_dims(ta, tb, m, n, k, &lda, &ldb, &ldc);
  if constexpr (kIsBlasType<T>) {
    // torch first tries oneDNN's reduced-precision f32 gemm; with the default ("highest") fp32
    // matmul precision it declines, so MKL is next (numerics_A Q1.2).
    if (use_blas_gemm(ta, tb, m, n, k, lda, ldb, ldc)) {
      blas_gemm(ta, tb, int(m), int(n), int(k), alpha, a, int(lda), b, int(ldb), beta, c, int(ldc));
      return;
    }
  }
  gemm_naive(ta, tb, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc);
}

template <class T>
void gemm_batched_with_stride(Trans ta, Trans tb, int64_t batch, int64_t m, int64_t n, int64_t k,
                              T alpha, const T* a, int64_t lda, int64_t stride_a, const T* b,
                              int64_t ldb, int64_t stride_b, T beta, T* c, int64_t ldc,
                              int64_t stride_c) {
  if (batch == 1) return gemm(ta, tb, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc);
  if constexpr (kIsBlasType<T>) {
    normalize_last_dims(ta, tb, m, n, k, &lda, &ldb, &ldc);
    if (use_blas_gemm(ta, tb, m, n, k, lda, ldb, ldc)) {
      std::vector<const T*> ap(batch), bp(batch);
      std::vector<T*> cp(batch);
      for (int64_t i = 0; i < batch; ++i) {
        ap[i] = a + stride_a * i;
        bp[i] = b + stride_b * i;
        cp[i] = c + stride_c * i;
      }
      for (int64_t i = 0; i < batch;) {  // MKL takes at most INT_MAX problems per call
        const int sub = int(std::min<int64_t>(batch - i, INT_MAX));
        blas_gemm_batch(ta, tb, sub, int(m), int(n), int(k), alpha, &ap[i], int(lda), &bp[i],
                        int(ldb), beta, &cp[i], int(ldc));
        i += sub;
      }
      return;
    }
  }
  for (int64_t i = 0; i < batch; ++i)
    gemm(ta, tb, m, n, k, alpha, a + stride_a * i, lda, b + stride_b * i, ldb, beta,
         c + stride_c * i, ldc);
}

namespace {

// ATen's naive gemv (BlasKernel.cpp, compiled with base flags: no FMA). T is the opmath type here.
template <class T>
void gemv_naive(char trans, int64_t m, int64_t n, T alpha, const T* a, int64_t lda, const T* x,
                int64_t incx, T beta, T* y, int64_t incy) {
  using A = Arith<T>;
  if (trans == 't' || trans == 'T') {
    for (int64_t i = 0; i < n; ++i) {
      A sum = 0;
      const T* row = a + lda * i;
      for (int64_t j = 0; j < m; ++j) sum = A(sum + A(A(x[j * incx]) * A(row[j])));
      T& out = y[i * incy];
      out = beta == T(0) ? T(A(alpha) * sum) : T(A(A(beta) * A(out)) + A(A(alpha) * sum));
    }
    return;
  }
  if (beta != T(1) && beta != T(0))  // ATen's scal: sscal_ for float (one multiply each)
    for (int64_t i = 0; i < m; ++i) y[i * incy] = T(A(y[i * incy]) * A(beta));
  for (int64_t j = 0; j < n; ++j) {
    const T* col = a + lda * j;
    const A z = A(A(alpha) * A(x[j * incx]));
    for (int64_t i = 0; i < m; ++i) {
      if (j == 0 && beta == T(0)) y[i * incy] = 0;
      y[i * incy] = T(A(y[i * incy]) + A(z * A(col[i])));
    }
  }
}

}  // namespace

template <class T>
void gemv(char trans, int64_t m, int64_t n, T alpha, const T* a, int64_t lda, const T* x,
          int64_t incx, T beta, T* y, int64_t incy) {
  if (n == 1) lda = m;
  if constexpr (kIsBlasType<T>) {
    // ATen's gemv_use_fast_path<float>: ints fit and positive increments.
    if (m <= INT_MAX && n <= INT_MAX && lda <= INT_MAX && incx > 0 && incx <= INT_MAX &&
        incy > 0 && incy <= INT_MAX) {
      const int m_ = int(m), n_ = int(n), lda_ = int(lda), incx_ = int(incx), incy_ = int(incy);
      if constexpr (std::is_same_v<T, float>)
        sgemv_(&trans, &m_, &n_, &alpha, a, &lda_, x, &incx_, &beta, y, &incy_);
      else
        dgemv_(&trans, &m_, &n_, &alpha, a, &lda_, x, &incx_, &beta, y, &incy_);
      return;
    }
  }
  gemv_naive(trans, m, n, alpha, a, lda, x, incx, beta, y, incy);
}

template <class T>
T dot(int64_t n, const T* x, int64_t incx, const T* y, int64_t incy) {
  if (n == 1) incx = incy = 1;
  if constexpr (kIsBlasType<T>) {
    if (n <= INT_MAX && incx <= INT_MAX && incy <= INT_MAX) {
      if constexpr (std::is_same_v<T, float>)
        return cblas_sdot(MKL_INT(n), x, MKL_INT(incx), y, MKL_INT(incy));
      else
        return cblas_ddot(MKL_INT(n), x, MKL_INT(incx), y, MKL_INT(incy));
    }
  }
  using A = Arith<T>;
  A sum = 0;  // ATen's dot_naive: sequential, in opmath (= T for these types)
  for (int64_t i = 0; i < n; ++i) sum = A(sum + A(A(x[i * incx]) * A(y[i * incy])));
  return T(sum);
}

void set_mkl_num_threads(int n) {
  mkl_set_num_threads_local(n);
  // at::set_num_threads turns MKL's dynamic adjustment off (pytorch issue 13757).
  mkl_set_dynamic(0);
}

#define DC_INSTANTIATE(T)                                                                         \
  template void gemm<T>(Trans, Trans, int64_t, int64_t, int64_t, T, const T*, int64_t, const T*,  \
                        int64_t, T, T*, int64_t);                                                 \
  template void gemm_batched_with_stride<T>(Trans, Trans, int64_t, int64_t, int64_t, int64_t, T,  \
                                            const T*, int64_t, int64_t, const T*, int64_t,        \
                                            int64_t, T, T*, int64_t, int64_t);                    \
  template void gemv<T>(char, int64_t, int64_t, T, const T*, int64_t, const T*, int64_t, T, T*,   \
                        int64_t);                                                                 \
  template T dot<T>(int64_t, const T*, int64_t, const T*, int64_t);
DC_INSTANTIATE(float)
DC_INSTANTIATE(double)
DC_INSTANTIATE(uint8_t)
DC_INSTANTIATE(int8_t)
DC_INSTANTIATE(int16_t)
DC_INSTANTIATE(int32_t)
DC_INSTANTIATE(int64_t)
#undef DC_INSTANTIATE

}  // namespace dc::cpublas
