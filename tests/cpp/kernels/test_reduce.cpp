// Reduction structure tests that need no torch: cascade_sum's summation order (vector lanes, scalar
// tail first, ILP partials), the iterator's reduced-dims-first order, max/argmax tie and NaN rules, and
// one softmax against bits torch produced (softmax_expected.inc). The full comparison with live torch is
// in tests/python/test_reduce.py / test_softmax.py.
#include <gtest/gtest.h>

#include <array>
#include <bit>
#include <cmath>
#include <cstdint>
#include <ios>
#include <limits>
#include <vector>

#include "densecore/kernels/dispatch/cpu_capability.h"
#include "densecore/kernels/iter/reduce_iter.h"
#include "densecore/ops/reduce.h"

namespace {

dc::Tensor from(const std::vector<float>& v, std::vector<int64_t> shape = {}) {
  if (shape.empty()) shape = {int64_t(v.size())};
  dc::Tensor t = dc::Tensor::empty(shape, dc::DType::Float32);
  std::copy(v.begin(), v.end(), t.data<float>());
  return t;
}

TEST(ReduceSum, ExactOnIntegers) {
  for (int64_t n : {1, 7, 8, 17, 33, 65, 1000, 4097, 100003}) {
    std::vector<float> v(n);
    for (int64_t i = 0; i < n; ++i) v[i] = float(i % 7);
    double want = 0;
    for (float x : v) want += x;
    EXPECT_EQ(dc::sum(from(v)).data<float>()[0], float(want)) << n;
  }
}

// n = 17, 8 lanes: vectors 0 and 1 go to ILP partial 0 in order, the scalar tail (element 16) is
// summed first, then lanes 0..7. With -1e8 at 0 and 1e8 at 16: 1e8 + (-1e8 + 1) + 7 * 2 = 14,
// where a left-to-right sum gives 0.
TEST(ReduceSum, CascadeOrderTailFirstThenLanes) {
  std::vector<float> v(17, 1.0f);
  v[0] = -1e8f;
  v[16] = 1e8f;
  EXPECT_EQ(dc::sum(from(v)).data<float>()[0], 14.0f);
}

// A strided row takes scalar row_sum: four interleaved partials (element i -> partial i % 4) over
// 4 rows of 4, leftovers into partial 0, then p0 + p1 + p2 + p3.
TEST(ReduceSum, ScalarRowSumIlpPartials) {
  std::vector<float> v(2 * 9, 0.0f);
  const float row[9] = {1e8f, 1, 1, 1, -1e8f, 1, 1, 1, 1};
  for (int i = 0; i < 9; ++i) v[2 * i] = row[i];
  const dc::Tensor t = from(v, {9, 2});
  const int64_t d1[1] = {0};
  // partial0 = (1e8 + -1e8) + 1 = 1, partials 1..3 = 2 each: 7
  EXPECT_EQ(dc::sum(t, d1).data<float>()[0], 7.0f);
}

TEST(ReduceIter, ReducedDimsComeFirst) {
  const dc::Tensor in = dc::Tensor::empty(std::vector<int64_t>{4, 6}, dc::DType::Float32);
  const dc::Tensor out = dc::Tensor::empty(std::vector<int64_t>{6}, dc::DType::Float32);
  const dc::Tensor outs[1] = {dc::review_reduce_result(out, 2, {true, false}, false)};
  const dc::ReduceIter it(outs, in);
  ASSERT_EQ(it.ndim(), 2);
  EXPECT_EQ(it.shape()[0], 4);  // the reduced dim, though it is not the contiguous one
  EXPECT_EQ(it.strides(0)[0], 0);
  EXPECT_TRUE(it.is_dim_reduced(0));
  EXPECT_EQ(it.num_reduce_dims(), 1);
}

TEST(ReduceArg, TiesTakeFirstIndexAndNanWins) {
  const float nan = std::numeric_limits<float>::quiet_NaN();
  EXPECT_EQ(dc::argmax(from({1, 3, 3, 2})).data<int64_t>()[0], 1);
  EXPECT_EQ(dc::argmin(from({2, 1, 5, 1})).data<int64_t>()[0], 1);
  EXPECT_EQ(dc::argmax(from({1, nan, 3, nan})).data<int64_t>()[0], 1);
  auto [v, i] = dc::max(from({1, 4, nan, 9}), 0);
  EXPECT_TRUE(std::isnan(v.data<float>()[0]));
  EXPECT_EQ(i.data<int64_t>()[0], 2);
}

struct TorchValues {
  dc::CpuCapability capability;
  std::array<float, 3 * 33> values;
};
// torch's results, per capability: regenerate with
//   python tests/cpp/kernels/gen_reduce_expected.py > tests/cpp/kernels/softmax_expected.inc
#include "softmax_expected.inc"

// Bit for bit torch's softmax (last-dim kernel: vector max, exp, vector-tree sum, times 1/sum) at this
// process's capability (ATEN_CPU_CAPABILITY).
TEST(Softmax, MatchesTorchBits) {
  const dc::CpuCapability cap = dc::cpu_capability();
  const TorchValues* want = nullptr;
  for (const TorchValues& t : kTorchSoftmax) {
    if (t.capability == cap) want = &t;
  }
  if (want == nullptr) {
    GTEST_SKIP() << "softmax_expected.inc has no torch values for " << dc::cpu_capability_name(cap)
                 << ": regenerate it on a machine with that capability (see gen_reduce_expected.py)";
  }
  std::vector<float> v(3 * 33);
  for (size_t i = 0; i < v.size(); ++i) v[i] = float(int(i * 7919 % 1000) - 500) / 97.0f;
  const dc::Tensor s = dc::softmax(from(v, {3, 33}), -1);
  for (size_t i = 0; i < v.size(); ++i) {
    const float got = s.data<float>()[i];
    EXPECT_EQ(std::bit_cast<uint32_t>(got), std::bit_cast<uint32_t>(want->values[i]))
        << "element " << i << ": densecore " << std::hexfloat << got << ", torch " << want->values[i];
  }
}

TEST(SumToSize, ReducesLeadingAndOnes) {
  std::vector<float> v(2 * 3 * 4, 1.0f);
  const int64_t shape[2] = {1, 4};
  const dc::Tensor r = dc::sum_to_size(from(v, {2, 3, 4}), shape);
  EXPECT_EQ(r.sizes(), (std::vector<int64_t>{1, 4}));
  for (int i = 0; i < 4; ++i) EXPECT_EQ(r.data<float>()[i], 6.0f);
}

}  // namespace
