// TensorIter: coalescing, stride ordering, broadcasting and the linear-range split into rows.
#include <gtest/gtest.h>

#include <vector>

#include "densecore/kernels/iter/iter.h"

namespace {

dc::Tensor filled(std::vector<int64_t> sizes) { return dc::Tensor::empty(sizes, dc::DType::Float32); }

struct Call {
  int64_t size0, size1;
};

std::vector<Call> calls(const dc::TensorIter& it, int64_t begin, int64_t end) {
  std::vector<Call> out;
  it.serial_for_each([&](char**, const int64_t*, int64_t s0, int64_t s1) { out.push_back({s0, s1}); }, begin, end);
  return out;
}

}  // namespace

TEST(TensorIter, ContiguousOperandsCoalesceToOneDim) {
  dc::Tensor a = filled({4, 5, 6}), b = filled({4, 5, 6});
  const dc::Tensor in[] = {a, b};
  dc::TensorIter it(dc::IterConfig{.promote_inputs_to_common_dtype = true}, dc::Tensor(), in);
  EXPECT_EQ(it.ndim(), 1);
  EXPECT_EQ(it.shape()[0], 120);
  EXPECT_EQ(it.strides(1)[0], 4);
}

TEST(TensorIter, BroadcastRowStaysTwoDim) {
  dc::Tensor a = filled({8, 16}), b = filled({16});
  const dc::Tensor in[] = {a, b};
  dc::TensorIter it(dc::IterConfig{.promote_inputs_to_common_dtype = true}, dc::Tensor(), in);
  ASSERT_EQ(it.ndim(), 2);
  EXPECT_EQ(it.shape()[0], 16);
  EXPECT_EQ(it.shape()[1], 8);
  EXPECT_EQ(it.strides(2)[1], 0);
  EXPECT_EQ(it.output().sizes(), (dc::Shape{8, 16}));
}

TEST(TensorIter, TransposedInputIsReorderedAndOutputFollowsIt) {
  dc::Tensor a = filled({6, 4});
  dc::Tensor at = a.as_strided_view(std::vector<int64_t>{4, 6}, std::vector<int64_t>{1, 4}, 0);
  const dc::Tensor in[] = {at};
  dc::TensorIter it(dc::IterConfig{}, dc::Tensor(), in);
  EXPECT_EQ(it.ndim(), 1);  // output allocated in the input's order, so both coalesce
  EXPECT_EQ(it.output().strides(), (dc::Strides{1, 4}));
}

TEST(TensorIter, BroadcastMismatchMessage) {
  dc::Tensor a = filled({3}), b = filled({4});
  const dc::Tensor in[] = {a, b};
  try {
    dc::TensorIter it(dc::IterConfig{.promote_inputs_to_common_dtype = true}, dc::Tensor(), in);
    FAIL();
  } catch (const dc::Error& e) {
    EXPECT_STREQ(e.what(), "The size of tensor a (3) must match the size of tensor b (4) at non-singleton dimension 0");
  }
}

TEST(TensorIter, RangeSplitGivesPartialFirstAndLastRows) {
  dc::Tensor a = filled({4, 10}), b = filled({10});  // 2-D: inner 10, outer 4
  const dc::Tensor in[] = {a, b};
  dc::TensorIter it(dc::IterConfig{.promote_inputs_to_common_dtype = true}, dc::Tensor(), in);
  const auto c = calls(it, 7, 33);  // [7,10) row 0 tail, rows 1-2 whole, [30,33) of row 3
  ASSERT_EQ(c.size(), 3u);
  EXPECT_EQ(c[0].size0, 3);
  EXPECT_EQ(c[0].size1, 1);
  EXPECT_EQ(c[1].size0, 10);
  EXPECT_EQ(c[1].size1, 2);
  EXPECT_EQ(c[2].size0, 3);
  EXPECT_EQ(c[2].size1, 1);
}

TEST(TensorIter, ParallelChunksFollowAtenSplit) {
  // 2 threads, numel 70000 > grain: chunks [0,35000) and [35000,70000) (ceil division).
  dc::set_num_threads(2);
  dc::Tensor a = filled({70000});
  const dc::Tensor in[] = {a};
  dc::TensorIter it(dc::IterConfig{}, dc::Tensor(), in);
  std::vector<int64_t> sizes;
  it.for_each([&](char**, const int64_t*, int64_t s0, int64_t) {
#pragma omp critical
    sizes.push_back(s0);
  });
  std::sort(sizes.begin(), sizes.end());
  EXPECT_EQ(sizes, (std::vector<int64_t>{35000, 35000}));
}
