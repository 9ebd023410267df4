// multinomial with replacement, mirroring aten/src/ATen/native/cpu/MultinomialKernel.cpp: per row a
// running-sum CDF (float for Half/BFloat16/float, double for double), normalised by its sum, then one
// 53-bit uniform per sample and a binary search. Registered with DC_REGISTER_DISPATCH as torch's.
#include <algorithm>
#include <cmath>
#include <utility>
#include <vector>

#include "densecore/kernels/stubs/distribution_stubs.h"
#include "densecore/kernels/baseline/topk.h"

namespace dc {
inline namespace DC_CPU_CAPABILITY {
namespace {

template <class T>
using float_t_of = std::conditional_t<std::is_same_v<T, double>, double, float>;

template <class T>
void multinomial_rows(int64_t* result, int64_t rs0, int64_t rs1, const Strided2d& p,
                      int64_t n_sample, GeneratorImpl* g) {
  using Acc = std::conditional_t<std::is_same_v<T, double>, double, float>;
  const T* probs = static_cast<const T*>(p.data);
  std::vector<Acc> cum(size_t(p.cols));
  for (int64_t i = 0; i < p.rows; ++i) {
    Acc sum = 0;
    for (int64_t j = 0; j < p.cols; ++j) {
      const Acc val = Acc(probs[i * p.row_stride + j * p.col_stride]);
      check(val >= 0, "invalid multinomial distribution (encountering probability entry < 0)");
      check(std::isfinite(val),
            "invalid multinomial distribution (encountering probability entry = infinity or NaN)");
      sum += val;
      cum[j] = sum;
    }
    check(sum > 0, "invalid multinomial distribution (sum of probabilities <= 0)");
    for (auto& c : cum) c /= sum;
    for (int64_t s = 0; s < n_sample; ++s) {
      const double u = double(g->random64() & ((uint64_t(1) << 53) - 1)) * 0x1p-53;
      cum[p.cols - 1] = 1;  // the last bucket always ends at 1
      int64_t left = 0, right = p.cols;
      while (right - left > 0) {
        const int64_t mid = left + (right - left) / 2;
        if (double(cum[mid]) < u) left = mid + 1;
        else right = mid;
      }
      result[i * rs0 + s * rs1] = left;
    }
  }
}

void multinomial_with_replacement_kernel(int64_t* result, int64_t rs0, int64_t rs1,
                                         const Strided2d& p, int64_t n_sample, GeneratorImpl* g) {
  switch (p.dtype) {
    case DType::Float64: return multinomial_rows<double>(result, rs0, rs1, p, n_sample, g);
    case DType::Float32: return multinomial_rows<float>(result, rs0, rs1, p, n_sample, g);
    case DType::Float16: return multinomial_rows<Half>(result, rs0, rs1, p, n_sample, g);
    case DType::BFloat16: return multinomial_rows<BFloat16>(result, rs0, rs1, p, n_sample, g);
    default:
      throw NotImplementedError(
          dc::format("\"multinomial\" not implemented for '{}'", scalar_type_name(p.dtype)));
  }
}

// argmax's GreaterOrNan (SharedReduceOps.h): NaN wins, ties go to the lower index.
template <class T>
int64_t argmax_row(const std::vector<T>& v) {
  int64_t best = 0;
  for (int64_t j = 1; j < int64_t(v.size()); ++j) {
    const float_t_of<T> a = v[j], b = v[best];
    if (std::isnan(b)) continue;
    if (std::isnan(a) || a > b) best = j;
  }
  return best;
}

template <class T>
void race_rows(int64_t* result, int64_t rs0, int64_t rs1, const Strided2d& p, const Strided2d& q,
               int64_t n_sample) {
  using Op = std::conditional_t<std::is_same_v<T, double>, double, float>;
  using Acc = std::conditional_t<std::is_same_v<T, double> || std::is_same_v<T, float>, double,
                                 float>;  // at::acc_type<T, false>, as topk uses
  const T* pp = static_cast<const T*>(p.data);
  const T* qp = static_cast<const T*>(q.data);
  std::vector<T> v(size_t(p.cols));
  std::vector<std::pair<Acc, int64_t>> queue(size_t(p.cols));
  for (int64_t i = 0; i < p.rows; ++i) {
    for (int64_t j = 0; j < p.cols; ++j)  // div_out(q, self, q) in T's arithmetic
      v[j] = T(Op(pp[i * p.row_stride + j * p.col_stride]) /
               Op(qp[i * q.row_stride + j * q.col_stride]));
    if (n_sample == 1) {
      result[i * rs0] = argmax_row(v);
      continue;
    }
    for (int64_t j = 0; j < p.cols; ++j) queue[j] = {Acc(Op(v[j])), j};
    select_topk(queue, n_sample, /*largest=*/true, /*sorted=*/true);
    for (int64_t s = 0; s < n_sample; ++s) result[i * rs0 + s * rs1] = queue[s].second;
  }
}

void multinomial_race_kernel(int64_t* result, int64_t rs0, int64_t rs1, const Strided2d& p,
                             const Strided2d& q, int64_t n_sample) {
  switch (p.dtype) {
    case DType::Float64: return race_rows<double>(result, rs0, rs1, p, q, n_sample);
    case DType::Float32: return race_rows<float>(result, rs0, rs1, p, q, n_sample);
    case DType::Float16: return race_rows<Half>(result, rs0, rs1, p, q, n_sample);
    case DType::BFloat16: return race_rows<BFloat16>(result, rs0, rs1, p, q, n_sample);
    default: throw NotImplementedError("\"multinomial\" not implemented for this dtype");
  }
}

}  // namespace
}  // namespace DC_CPU_CAPABILITY

DC_REGISTER_DISPATCH(multinomial_with_replacement_stub, &multinomial_with_replacement_kernel);
DC_REGISTER_DISPATCH(multinomial_race_stub, &multinomial_race_kernel);

}  // namespace dc
