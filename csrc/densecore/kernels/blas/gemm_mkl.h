// Column-major BLAS-style gemm / batched gemm / gemv / dot over raw pointers, mirroring ATen's
// cpublas (aten/src/ATen/native/CPUBlas.cpp, BlasKernel.cpp): float/double go to the same MKL 2024.2
// calls torch makes (sgemm_, cblas_sgemm_batch, sgemv_, cblas_sdot); other dtypes use naive loops.
#pragma once

#include <cstdint>

namespace dc::cpublas {

enum class Trans : char { N = 'n', T = 't' };  // ATen's TransposeType (to_blas gives 'n'/'t')

/// C (m x n, ld ldc) = alpha * op(A) op(B) + beta * C, all column-major (ATen's cpublas::gemm).
/// float/double: normalize_last_dims, then MKL ?gemm_ when use_blas_gemm holds, else the naive
/// kernel. Integers: the naive kernel (exact modulo 2^bits in any summation order).
template <class T>
void gemm(Trans ta, Trans tb, int64_t m, int64_t n, int64_t k, T alpha, const T* a, int64_t lda,
          const T* b, int64_t ldb, T beta, T* c, int64_t ldc);

/// gemm over `batch` matrices at fixed element strides (ATen's gemm_batched_with_stride): float and
/// double go to MKL cblas_?gemm_batch (one group) when the lds are valid, else one gemm per matrix.
template <class T>
void gemm_batched_with_stride(Trans ta, Trans tb, int64_t batch, int64_t m, int64_t n, int64_t k,
                              T alpha, const T* a, int64_t lda, int64_t stride_a, const T* b,
                              int64_t ldb, int64_t stride_b, T beta, T* c, int64_t ldc,
                              int64_t stride_c);

/// y (len m or n) = alpha * op(A) x + beta * y, A is m x n column-major (ATen's gemv in
/// BlasKernel.cpp): MKL ?gemv_ for float/double when incx, incy > 0, else the naive loop.
template <class T>
void gemv(char trans, int64_t m, int64_t n, T alpha, const T* a, int64_t lda, const T* x,
          int64_t incx, T beta, T* y, int64_t incy);

/// sum_i x[i*incx] * y[i*incy] (ATen's dot_impl): cblas_?dot for float/double, naive otherwise.
template <class T>
T dot(int64_t n, const T* x, int64_t incx, const T* y, int64_t incy);

/// Sets MKL's thread count as at::set_num_threads does (mkl_set_num_threads_local + dynamic off).
void set_mkl_num_threads(int n);

}  // namespace dc::cpublas
