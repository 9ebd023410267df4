// topk rows, mirroring aten/src/ATen/native/cpu/SortingKernel.cpp topk_kernel: each row copied into a
// (key, index) queue (float keys for Half/BFloat16, the type itself otherwise) and selected by
// topk_impl_loop's algorithm (kernels/baseline/topk.h). Rows are independent, split as for_each's grain
// GRAIN_SIZE / n does.
#include <algorithm>
#include <type_traits>
#include <utility>
#include <vector>

#include "densecore/core/error.h"
#include "densecore/kernels/iter/parallel.h"
#include "densecore/kernels/stubs/sort_stubs.h"
#include "densecore/kernels/baseline/topk.h"

namespace dc {
inline namespace DC_CPU_CAPABILITY {
namespace {

template <class T>
using topk_key_t = std::conditional_t<std::is_same_v<T, Half> || std::is_same_v<T, BFloat16>, float, T>;

template <class T>
void topk_rows(const T* in, int64_t n, int64_t row_begin, int64_t row_end, int64_t k, bool largest, bool sorted,
               T* values, int64_t* indices) {
  using Key = topk_key_t<T>;
  std::vector<std::pair<Key, int64_t>> queue(static_cast<size_t>(n));
  for (int64_t r = row_begin; r < row_end; ++r) {
    const T* row = in + r * n;
    for (int64_t j = 0; j < n; ++j) queue[j] = {Key(row[j]), j};
    select_topk(queue, k, largest, sorted);
    for (int64_t j = 0; j < k; ++j) {
      values[r * k + j] = T(queue[j].first);
      indices[r * k + j] = queue[j].second;
    }
  }
}

void topk_kernel(DType t, const void* in, int64_t n, int64_t rows, int64_t k, bool largest, bool sorted,
                 void* values, int64_t* indices) {
  if (k == 0 || rows == 0) return;
  if (t == DType::Bool) throw NotImplementedError("\"topk_cpu\" not implemented for 'Bool'");
  dispatch_dtype(t, [&]<class T>() {
    const int64_t grain = kGrainSize / std::max<int64_t>(1, n);
    parallel_for(0, rows, grain, [&](int64_t b, int64_t e) {
      topk_rows<T>(static_cast<const T*>(in), n, b, e, k, largest, sorted, static_cast<T*>(values), indices);
    });
  });
}

}  // namespace
}  // namespace DC_CPU_CAPABILITY

DC_REGISTER_DISPATCH(topk_stub, &topk_kernel);

}  // namespace dc
