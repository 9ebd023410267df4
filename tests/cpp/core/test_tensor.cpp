#include <gtest/gtest.h>

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
