// kernels/baseline/onednn_gelu: the backward from the forward's derivative gives gelu_backward's bits, NaN
// payloads included (tests/python/test_nn_layers.py compares both with torch through autograd; this covers
// gelu_backward called directly, which autograd no longer reaches where the forward writes the derivative).
#include <gtest/gtest.h>

#include <bit>
#include <cstdint>
#include <random>
#include <vector>

#include "densecore/kernels/baseline/onednn_gelu.h"

namespace {

std::vector<float> random_bits(int64_t n, uint32_t seed) {
  std::mt19937 rng(seed);
  std::vector<float> v(n);
  for (float& x : v) x = std::bit_cast<float>(uint32_t(rng()));
  return v;
}

std::vector<uint32_t> bits(const std::vector<float>& v) {
  std::vector<uint32_t> out(v.size());
  for (size_t i = 0; i < v.size(); ++i) out[i] = std::bit_cast<uint32_t>(v[i]);
  return out;
}

TEST(OnednnGelu, BackwardFromTheForwardsDerivativeIsGeluBackward) {
  if (!dc::onednn::forward_gives_derivative()) GTEST_SKIP() << "avx512_core: the forward is the minimax polynomial";
  for (const int64_t n : {1, 7, 8, 9, 37, 4099, 70001}) {  // tails, and two parallel chunks when threads allow
    const auto x = random_bits(n, uint32_t(n)), dy = random_bits(n, uint32_t(n) + 1);
    std::vector<float> y(n), y_alone(n), d(n), dx(n), dx_direct(n);
    dc::onednn::gelu_forward_with_derivative(x.data(), y.data(), d.data(), n);
    dc::onednn::gelu_forward(x.data(), y_alone.data(), n);
    dc::onednn::gelu_backward_from_derivative(dy.data(), d.data(), dx.data(), n);
    dc::onednn::gelu_backward(dy.data(), x.data(), dx_direct.data(), n);
    EXPECT_EQ(bits(y), bits(y_alone)) << n;
    EXPECT_EQ(bits(dx), bits(dx_direct)) << n;
  }
}

TEST(OnednnGelu, BothNaNGivesTheDerivativesNaN) {
  // x NaN makes the derivative x's (quieted) NaN; with dy NaN too, x86 keeps the first operand's: the derivative's.
  const std::vector<float> x(19, std::bit_cast<float>(0x7fc00001u)), dy(19, std::bit_cast<float>(0x7fc00777u));
  std::vector<float> dx(19);
  dc::onednn::gelu_backward(dy.data(), x.data(), dx.data(), 19);
  for (const uint32_t b : bits(dx)) EXPECT_EQ(b, 0x7fc00001u);
}

}  // namespace
