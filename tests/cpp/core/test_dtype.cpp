#include <gtest/gtest.h>

#include "densecore/core/convert.h"
#include "densecore/core/dtype.h"

using dc::DType;

TEST(DType, PromotionMatchesTorchSpotChecks) {
  EXPECT_EQ(dc::promote_types(DType::UInt8, DType::Int8), DType::Int16);
  EXPECT_EQ(dc::promote_types(DType::Int64, DType::Float16), DType::Float16);
  EXPECT_EQ(dc::promote_types(DType::Float16, DType::BFloat16), DType::Float32);
  EXPECT_EQ(dc::promote_types(DType::Bool, DType::Bool), DType::Bool);
}

TEST(DType, PromotionIsSymmetric) {
  for (int a = 0; a < dc::kDTypeCount; ++a)
    for (int b = 0; b < dc::kDTypeCount; ++b)
      EXPECT_EQ(dc::promote_types(DType(a), DType(b)), dc::promote_types(DType(b), DType(a)));
}

TEST(Convert, FloatToIntUsesX86IntegerIndefinite) {
  EXPECT_EQ(dc::convert<int64_t>(std::numeric_limits<float>::quiet_NaN()), INT64_MIN);
  EXPECT_EQ(dc::convert<int32_t>(3e9f), INT32_MIN);
  EXPECT_EQ(dc::convert<int16_t>(40000.0f), int16_t(-25536));
  EXPECT_EQ(dc::convert<uint8_t>(-1.5f), uint8_t(255));
  EXPECT_EQ(dc::convert<uint8_t>(3e9f), uint8_t(0));
  EXPECT_EQ(dc::convert<bool>(-0.0f), false);
}

TEST(Convert, BFloat16RoundsToNearestEvenAndNaNIs7FC0) {
  EXPECT_EQ(dc::BFloat16(1.0f).x, 0x3F80);
  EXPECT_EQ(dc::BFloat16(std::numeric_limits<float>::quiet_NaN()).x, 0x7FC0);
  EXPECT_EQ(dc::BFloat16(std::bit_cast<float>(0x7F7FFFFFu)).x, 0x7F80);
}
