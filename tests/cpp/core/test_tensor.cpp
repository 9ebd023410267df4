#include <gtest/gtest.h>

#include <vector>

#include "densecore/core/error.h"
#include "densecore/core/tensor.h"

TEST(Tensor, EmptyIsContiguousAndAligned) {
  const int64_t sizes[] = {2, 3};
  dc::Tensor t = dc::Tensor::empty(sizes, dc::DType::Float32);
  EXPECT_EQ(t.numel(), 6);
  EXPECT_EQ(t.strides(), (dc::Strides{3, 1}));
  EXPECT_TRUE(t.is_contiguous());
  EXPECT_EQ(reinterpret_cast<uintptr_t>(t.data_ptr()) % 64, 0u);
}

// Note [Small blocks] in storage.cpp: small storages are aligned by hand inside a malloc block.
TEST(Tensor, EverySmallSizeIsSixtyFourByteAligned) {
  std::vector<dc::Tensor> keep;
  for (int64_t n = 0; n < 300; ++n) {
    const int64_t sizes[] = {n};
    keep.push_back(dc::Tensor::empty(sizes, dc::DType::Float32));
    EXPECT_EQ(reinterpret_cast<uintptr_t>(keep.back().data_ptr()) % 64, 0u) << n;
    EXPECT_GE(keep.back().storage()->nbytes(), size_t(n) * 4);
  }
}

TEST(Tensor, ViewSharesStorageAndVersion) {
  const int64_t sizes[] = {2, 3};
  dc::Tensor t = dc::Tensor::empty(sizes, dc::DType::Float32);
  const int64_t vs[] = {3, 2}, vt[] = {1, 3};
  dc::Tensor v = t.as_strided_view(vs, vt, 0);
  EXPECT_EQ(v.storage(), t.storage());
  EXPECT_FALSE(v.is_contiguous());
  v.bump_version();
  EXPECT_EQ(t.version(), 1);
}

TEST(Tensor, WrapDimRejectsOutOfRange) {
  EXPECT_EQ(dc::wrap_dim(-1, 3), 2);
  EXPECT_THROW(dc::wrap_dim(3, 3), dc::IndexError);
}
