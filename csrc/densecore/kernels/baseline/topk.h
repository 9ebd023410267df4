// The row selection torch.topk and multinomial's exponential race share: topk_impl_loop
// (aten/src/ATen/native/TopKImpl.h) with its exact choice of std:: algorithm, because the order of
// equal keys (and of the unsorted tail) is whatever that algorithm leaves.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <utility>
#include <vector>

namespace dc {

/// Reorders `queue` (key, index) so that its first k entries are the k largest (or smallest) keys,
/// NaN counting as the largest; with `sorted` they are in order. partial_sort when k is small
/// against the row (k * 64 <= n), else nth_element and a sort of the first k - 1 entries.
template <class Acc>
void select_topk(std::vector<std::pair<Acc, int64_t>>& queue, int64_t k, bool largest, bool sorted) {
  using Elem = std::pair<Acc, int64_t>;
  if (k == 0) return;
  auto before_largest = [](const Elem& x, const Elem& y) -> bool {
    return (std::isnan(x.first) && !std::isnan(y.first)) || (x.first > y.first);
  };
  auto before_smallest = [](const Elem& x, const Elem& y) -> bool {
    return (!std::isnan(x.first) && std::isnan(y.first)) || (x.first < y.first);
  };
  auto run = [&](auto before) {
    if (k * 64 <= int64_t(queue.size())) {
      std::partial_sort(queue.begin(), queue.begin() + k, queue.end(), before);
    } else {
      std::nth_element(queue.begin(), queue.begin() + k - 1, queue.end(), before);
      if (sorted) std::sort(queue.begin(), queue.begin() + k - 1, before);
    }
  };
  if (largest) run(before_largest);
  else run(before_smallest);
}

}  // namespace dc
