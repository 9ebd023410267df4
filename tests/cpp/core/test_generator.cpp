// The mt19937 engine and CPU generator against values read from torch 2.14.1
// (torch.manual_seed(1234); torch.randint(0, 2**31, ...), torch.rand(...) * 2**24, get_rng_state()).
#include <gtest/gtest.h>

#include <cstring>

#include "densecore/core/error.h"
#include "densecore/core/generator.h"

namespace {

// randint(0, 2**31) draws random64() (range >= 2^28) and keeps value % 2^31.
int64_t randint31(dc::GeneratorImpl& g) { return int64_t(g.random64() % (uint64_t(1) << 31)); }
// rand() keeps the low 24 bits of one 32-bit draw.
int64_t rand24(dc::GeneratorImpl& g) { return int64_t(g.random() & 0xFFFFFF); }

TEST(Generator, Seed1234MatchesTorchRandint) {
  dc::GeneratorImpl g(1234);
  const int64_t want[] = {2137449171, 1365105717, 481516916, 1165481977, 1549064881, 646980841};
  for (int64_t w : want) EXPECT_EQ(randint31(g), w);
}

TEST(Generator, Seed1234MatchesTorchRand) {
  dc::GeneratorImpl g(1234);
  const int64_t want[] = {486191, 6742739, 4359462, 6151221, 978124, 11754868};
  for (int64_t w : want) EXPECT_EQ(rand24(g), w);
}

TEST(Generator, DrawsAcrossTheSecondTwistMatchTorch) {
  dc::GeneratorImpl g(1234);
  for (int i = 0; i < 700; ++i) g.random();
  const int64_t want[] = {11094059, 15230913, 4864729, 5664560};
  for (int64_t w : want) EXPECT_EQ(rand24(g), w);
}

TEST(Generator, DefaultSeedIsTorchs) {
  dc::GeneratorImpl g;
  EXPECT_EQ(g.current_seed(), 67280421310721ULL);
  const int64_t want[] = {1155489284, 1147612172, 343221651, 704164334};
  for (int64_t w : want) EXPECT_EQ(randint31(g), w);
}

TEST(Generator, StateBytesHoldSeedLeftSeededNextAndState) {
  dc::GeneratorImpl g(1234);
  for (int i = 0; i < 5; ++i) g.random();
  const std::vector<uint8_t> s = g.get_state();
  ASSERT_EQ(s.size(), dc::kRngStateBytes);
  uint64_t seed, next, state0;
  int32_t left, seeded;
  std::memcpy(&seed, s.data(), 8);
  std::memcpy(&left, s.data() + 8, 4);
  std::memcpy(&seeded, s.data() + 12, 4);
  std::memcpy(&next, s.data() + 16, 8);
  std::memcpy(&state0, s.data() + 24, 8);
  EXPECT_EQ(seed, 1234u);
  EXPECT_EQ(left, 620);
  EXPECT_EQ(seeded, 1);
  EXPECT_EQ(next, 5u);
  EXPECT_EQ(state0, 2260313690u);
}

TEST(Generator, CachedDoubleNormalIsStoredAsNormalY) {
  dc::GeneratorImpl g(1234);
  g.next_double_normal_sample = 0.4024028259218943;  // torch.randn(1, dtype=float64) leaves this
  const std::vector<uint8_t> s = g.get_state();
  double y;
  std::memcpy(&y, s.data() + 5024, 8);
  EXPECT_EQ(y, 0.4024028259218943);
  EXPECT_EQ(s[5040], 1);
}

TEST(Generator, SetStateRoundTripsAndRejectsBadBytes) {
  dc::GeneratorImpl a(99);
  for (int i = 0; i < 1000; ++i) a.random();
  a.next_float_normal_sample = 1.5f;
  dc::GeneratorImpl b(1);
  b.set_state(a.get_state());
  EXPECT_EQ(b.get_state(), a.get_state());
  for (int i = 0; i < 10; ++i) EXPECT_EQ(a.random(), b.random());
  EXPECT_THROW(b.set_state(std::vector<uint8_t>(10)), dc::Error);
  EXPECT_THROW(b.set_state(std::vector<uint8_t>(dc::kRngStateBytes)), dc::Error);  // not seeded
}

TEST(Generator, ManualSeedClearsCachedNormals) {
  dc::GeneratorImpl g(5);
  g.next_double_normal_sample = 1.0;
  g.next_float_normal_sample = 2.0f;
  g.set_current_seed(5);
  EXPECT_FALSE(g.next_double_normal_sample.has_value());
  EXPECT_FALSE(g.next_float_normal_sample.has_value());
}

}  // namespace
