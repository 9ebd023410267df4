#include <gtest/gtest.h>

#include <memory>
#include <span>
#include <string>
#include <vector>

#include "densecore/core/small_vector.h"

namespace {

using dc::DimVector;
using dc::SmallVector;

TEST(SmallVector, StaysInlineUpToItsCapacityThenGrows) {
  DimVector v;
  const int64_t* inline_at = v.data();
  for (int64_t i = 0; i < 5; ++i) v.push_back(i);
  EXPECT_EQ(v.data(), inline_at);
  v.push_back(5);
  EXPECT_NE(v.data(), inline_at);
  EXPECT_EQ(std::vector<int64_t>(v), (std::vector<int64_t>{0, 1, 2, 3, 4, 5}));
}

TEST(SmallVector, PushBackOfItsOwnElementWhileGrowing) {
  DimVector v{7, 1, 2, 3, 4};
  v.push_back(v[0]);  // the argument lives in the inline buffer the growth leaves
  EXPECT_EQ(v.back(), 7);
  v.resize(20, v[5]);
  EXPECT_EQ(v[19], 7);
}

TEST(SmallVector, InsertEraseAndAssign) {
  DimVector v{1, 2, 3};
  v.insert(v.begin() + 1, {8, 9});
  EXPECT_EQ(v, (DimVector{1, 8, 9, 2, 3}));
  v.insert(v.end(), 3, int64_t{0});
  EXPECT_EQ(v, (DimVector{1, 8, 9, 2, 3, 0, 0, 0}));
  v.erase(v.begin());
  EXPECT_EQ(v.size(), 7u);
  EXPECT_EQ(v.front(), 8);
  v.assign(2, 4);
  EXPECT_EQ(v, (std::vector<int64_t>{4, 4}));
}

TEST(SmallVector, CopyAndMoveInlineAndOnHeap) {
  for (size_t n : {size_t(3), size_t(9)}) {
    DimVector a;
    for (size_t i = 0; i < n; ++i) a.push_back(int64_t(i) * 10);
    DimVector b = a;
    EXPECT_EQ(a, b);
    DimVector c = std::move(a);
    EXPECT_EQ(c, b);
    EXPECT_TRUE(a.empty());  // NOLINT: a moved-from SmallVector is empty and usable
    a = c;
    EXPECT_EQ(a, b);
    c = std::move(a);
    EXPECT_EQ(c, b);
  }
}

TEST(SmallVector, OwnsNonTrivialElements) {
  auto counter = std::make_shared<int>(0);
  {
    SmallVector<std::shared_ptr<int>, 2> v;
    for (int i = 0; i < 5; ++i) v.push_back(counter);  // past the inline two: moved to the heap
    EXPECT_EQ(counter.use_count(), 6);
    SmallVector<std::shared_ptr<int>, 2> w = std::move(v);
    EXPECT_EQ(counter.use_count(), 6);
    w.resize(1);
    EXPECT_EQ(counter.use_count(), 2);
    SmallVector<std::string, 2> s{"a", "b"};
    s.emplace_back("c");
    EXPECT_EQ(s[2], "c");
  }
  EXPECT_EQ(counter.use_count(), 1);
}

TEST(SmallVector, ConvertsToSpanAndVector) {
  const DimVector v{2, 3};
  std::span<const int64_t> s = v;
  EXPECT_EQ(s.size(), 2u);
  const std::vector<int64_t> w = v;
  EXPECT_EQ(w, (std::vector<int64_t>{2, 3}));
  const DimVector back = w;
  EXPECT_EQ(back, v);
}

}  // namespace
