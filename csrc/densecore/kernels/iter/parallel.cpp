#include "densecore/kernels/iter/parallel.h"

#include "densecore/core/error.h"
#include "densecore/kernels/blas/gemm_mkl.h"

namespace dc {
namespace {

// torch's default intra-op thread count is the number of physical cores, which its OpenMP runtime
// reports through omp_get_max_threads() unless OMP_NUM_THREADS is set.
int g_num_threads = 0;

}  // namespace

int get_num_threads() {
  if (g_num_threads == 0) g_num_threads = omp_get_max_threads();
  return g_num_threads;
}

void set_num_threads(int n) {
  check<ValueError>(n > 0, "Expected positive number of threads");
  g_num_threads = n;
  omp_set_num_threads(n);
  cpublas::set_mkl_num_threads(n);  // as at::set_num_threads (ParallelOpenMP.cpp)
}

}  // namespace dc
