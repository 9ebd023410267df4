// kernels/gemm_mkl: the MKL path and the naive path agree on exactly representable problems,
// and degenerate leading dims (normalize_last_dims) are accepted.
#include <gtest/gtest.h>
#include <mkl_service.h>

#include <vector>

#include "densecore/kernels/blas/gemm_mkl.h"
#include "densecore/kernels/iter/parallel.h"

namespace {

using dc::cpublas::Trans;

// Small integers keep every float product and sum exact, so any summation order gives one answer.
template <class T>
std::vector<T> ramp(int64_t n, int64_t mod) {
  std::vector<T> v(n);
  for (int64_t i = 0; i < n; ++i) v[i] = T((i * 7) % mod - mod / 2);
  return v;
}

template <class T>
std::vector<T> gemm_nn(int64_t m, int64_t n, int64_t k, const std::vector<T>& a,
                       const std::vector<T>& b) {
  std::vector<T> c(m * n, T(0));
  dc::cpublas::gemm<T>(Trans::N, Trans::N, m, n, k, T(1), a.data(), m, b.data(), k, T(0), c.data(), m);
  return c;
}

TEST(Gemm, MklFloatMatchesNaiveIntegerOnExactInputs) {
  const int64_t m = 13, n = 7, k = 29;
  const auto af = ramp<float>(m * k, 9), bf = ramp<float>(k * n, 11);
  const auto ai = ramp<int32_t>(m * k, 9), bi = ramp<int32_t>(k * n, 11);
  const auto cf = gemm_nn(m, n, k, af, bf);
  const auto ci = gemm_nn(m, n, k, ai, bi);
  for (int64_t i = 0; i < m * n; ++i) EXPECT_EQ(cf[i], float(ci[i])) << i;
}

TEST(Gemm, BetaScalesExistingC) {
  const int64_t m = 3, n = 2, k = 4;
  const auto a = ramp<int64_t>(m * k, 5), b = ramp<int64_t>(k * n, 7);
  std::vector<int64_t> c(m * n, 10);
  dc::cpublas::gemm<int64_t>(Trans::N, Trans::N, m, n, k, 2, a.data(), m, b.data(), k, 3, c.data(), m);
  const auto ab = gemm_nn(m, n, k, a, b);
  for (int64_t i = 0; i < m * n; ++i) EXPECT_EQ(c[i], 30 + 2 * ab[i]);
}

TEST(Gemm, DegenerateLeadingDimsAreNormalized) {
  // n == 1 with ldc = 0 and k == 1 with lda = 0: torch fixes these before calling sgemm.
  const std::vector<float> a{1, 2, 3}, b{4};
  std::vector<float> c(3, 0);
  dc::cpublas::gemm<float>(Trans::N, Trans::N, 3, 1, 1, 1.f, a.data(), 0, b.data(), 0, 0.f, c.data(), 0);
  EXPECT_EQ(c, (std::vector<float>{4, 8, 12}));
}

// gemm inside a parallel region sets MKL's thread-local count to 1 for the call; each thread's
// count must be what it was afterwards, and the results those of a call outside the region.
TEST(Gemm, InsideAParallelRegionGivesTheSameResultsAndRestoresMklThreads) {
  const int previous_threads = dc::get_num_threads();
  dc::set_num_threads(2);
  const int64_t m = 32, n = 32, k = 64;
  const auto a = ramp<float>(m * k, 9), b = ramp<float>(k * n, 11);
  const auto expected = gemm_nn(m, n, k, a, b);
  const int mkl_before = mkl_get_max_threads();
  std::vector<std::vector<float>> results(2);
  std::vector<int> mkl_after(2, -1);
  dc::parallel_for(0, 2, 1, [&](int64_t begin, int64_t end) {
    for (int64_t i = begin; i < end; ++i) {
      const int mkl_in_thread = mkl_get_max_threads();
      results[i] = gemm_nn(m, n, k, a, b);
      mkl_after[i] = mkl_get_max_threads() == mkl_in_thread ? 1 : 0;
    }
  });
  EXPECT_EQ(mkl_get_max_threads(), mkl_before);
  for (int i = 0; i < 2; ++i) {
    EXPECT_EQ(results[i], expected) << i;
    EXPECT_EQ(mkl_after[i], 1) << i;
  }
  dc::set_num_threads(previous_threads);
}

TEST(Gemv, TransposedMatchesDot) {
  const int64_t m = 17, n = 5;
  const auto a = ramp<double>(m * n, 13), x = ramp<double>(m, 5);
  std::vector<double> y(n, 0);
  dc::cpublas::gemv<double>('t', m, n, 1.0, a.data(), m, x.data(), 1, 0.0, y.data(), 1);
  for (int64_t j = 0; j < n; ++j)
    EXPECT_EQ(y[j], dc::cpublas::dot<double>(m, a.data() + j * m, 1, x.data(), 1));
}

}  // namespace
