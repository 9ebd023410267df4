// at::parallel_for / parallel_reduce with ATen's OpenMP chunking (aten/src/ATen/ParallelOpenMP.h):
// the range is split into ceil(n / threads) blocks, threads = min(omp threads, ceil(n / grain)).
// Which elements share a block decides scalar tails and summation order, so this must not change.
#pragma once

#include <omp.h>

#include <algorithm>
#include <cstdint>
#include <exception>

namespace dc {

inline constexpr int64_t kGrainSize = 32768;  // at::internal::GRAIN_SIZE

int get_num_threads();
void set_num_threads(int n);
inline bool in_parallel_region() { return omp_in_parallel(); }

inline int64_t divup(int64_t x, int64_t y) { return (x + y - 1) / y; }

/// Runs f(begin, end) over [begin, end) in ATen's chunks; serial when the range is at most `grain`
/// elements, when one thread is set, or inside another parallel region.
template <class F>
void parallel_for(int64_t begin, int64_t end, int64_t grain, const F& f) {
  if (begin >= end) return;
  const int64_t n = end - begin;
  if (n <= grain || get_num_threads() == 1 || in_parallel_region()) {
    f(begin, end);
    return;
  }
  std::exception_ptr error;
#pragma omp parallel num_threads(get_num_threads())
  {
    int64_t threads = omp_get_num_threads();
    if (grain > 0) threads = std::min(threads, divup(n, grain));
    const int64_t tid = omp_get_thread_num();
    const int64_t chunk = divup(n, threads);
    const int64_t b = begin + tid * chunk;
    if (b < end) {
      try {
        f(b, std::min(end, b + chunk));
      } catch (...) {
#pragma omp critical
        if (!error) error = std::current_exception();
      }
    }
  }
  if (error) std::rethrow_exception(error);
}

}  // namespace dc
