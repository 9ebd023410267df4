// mt19937 and CPUGeneratorImpl as ATen's (core/MT19937RNGEngine.h, CPUGeneratorImpl.cpp).
#include "densecore/core/generator.h"

#include <cstring>
#include <fstream>

#include "densecore/core/error.h"

namespace dc {

namespace {

constexpr uint32_t kMatrixA = 0x9908b0df;
constexpr uint32_t kUpperMask = 0x80000000;
constexpr uint32_t kLowerMask = 0x7fffffff;

uint32_t twist(uint32_t u, uint32_t v) {
  return (((u & kUpperMask) | (v & kLowerMask)) >> 1) ^ ((v & 1) ? kMatrixA : 0);
}

// CPUGeneratorImplState: the legacy TH struct plus the float normal cache. Field offsets are
// those of the x86-64 layout torch memcpy's (8-byte alignment; padding at 5044 and 5053).
struct StateLayout {
  static constexpr size_t kSeed = 0;        // uint64_t the_initial_seed
  static constexpr size_t kLeft = 8;        // int left
  static constexpr size_t kSeeded = 12;     // int seeded
  static constexpr size_t kNext = 16;       // uint64_t next
  static constexpr size_t kState = 24;      // uint64_t state[624] (each holds a uint32)
  static constexpr size_t kNormalX = 5016;  // double, unused (0)
  static constexpr size_t kNormalY = 5024;  // double: the cached double normal sample
  static constexpr size_t kNormalRho = 5032;      // double, unused (0)
  static constexpr size_t kNormalValid = 5040;    // int normal_is_valid
  static constexpr size_t kFloatNormal = 5048;    // float next_float_normal_sample
  static constexpr size_t kFloatValid = 5052;     // bool is_next_float_normal_sample_valid
};
static_assert(StateLayout::kState + 8 * kMtStateN == StateLayout::kNormalX);

template <class T>
void put(std::vector<uint8_t>& b, size_t off, T v) {
  std::memcpy(b.data() + off, &v, sizeof(T));
}
template <class T>
T get(std::span<const uint8_t> b, size_t off) {
  T v;
  std::memcpy(&v, b.data() + off, sizeof(T));
  return v;
}

uint64_t read_urandom() {
  std::ifstream f("/dev/urandom", std::ios::binary);
  uint64_t v = 0;
  f.read(reinterpret_cast<char*>(&v), sizeof(v));
  check(bool(f), "Unable to read from /dev/urandom");
  return v;
}

}  // namespace

void Mt19937::init(uint64_t s) {
  seed = s;
  seeded = true;
  state[0] = uint32_t(s & 0xffffffff);
  for (int j = 1; j < kMtStateN; ++j)
    state[j] = 1812433253u * (state[j - 1] ^ (state[j - 1] >> 30)) + uint32_t(j);
  left = 1;
  next = 0;
}

void Mt19937::next_state() {
  uint32_t* p = state.data();
  left = kMtStateN;
  next = 0;
  for (int j = kMtStateN - kMtStateM + 1; --j; p++) *p = p[kMtStateM] ^ twist(p[0], p[1]);
  for (int j = kMtStateM; --j; p++) *p = p[kMtStateM - kMtStateN] ^ twist(p[0], p[1]);
  *p = p[kMtStateM - kMtStateN] ^ twist(p[0], state[0]);
}

uint32_t Mt19937::operator()() {
  if (--left == 0) next_state();
  uint32_t y = state[next++];
  y ^= (y >> 11);
  y ^= (y << 7) & 0x9d2c5680;
  y ^= (y << 15) & 0xefc60000;
  y ^= (y >> 18);
  return y;
}

bool Mt19937::is_valid() const {
  return seeded && left > 0 && left <= kMtStateN && next <= uint32_t(kMtStateN);
}

void GeneratorImpl::set_current_seed(uint64_t s) {
  next_float_normal_sample.reset();
  next_double_normal_sample.reset();
  engine_ = Mt19937(s);
}

uint64_t GeneratorImpl::seed() {
  const uint64_t s = read_urandom();
  set_current_seed(s);
  return s;
}

std::vector<uint8_t> GeneratorImpl::get_state() const {
  using L = StateLayout;
  std::vector<uint8_t> b(kRngStateBytes, 0);
  put<uint64_t>(b, L::kSeed, engine_.seed);
  put<int32_t>(b, L::kLeft, engine_.left);
  put<int32_t>(b, L::kSeeded, engine_.seeded ? 1 : 0);
  put<uint64_t>(b, L::kNext, engine_.next);
  for (int j = 0; j < kMtStateN; ++j) put<uint64_t>(b, L::kState + 8 * j, engine_.state[j]);
  if (next_double_normal_sample) {
    put<int32_t>(b, L::kNormalValid, 1);
    put<double>(b, L::kNormalY, *next_double_normal_sample);
  }
  if (next_float_normal_sample) {
    b[L::kFloatValid] = 1;
    put<float>(b, L::kFloatNormal, *next_float_normal_sample);
  }
  return b;
}

void GeneratorImpl::set_state(std::span<const uint8_t> b) {
  using L = StateLayout;
  check(b.size() == kRngStateBytes,
        "Expected a CPUGeneratorImplState of size {} but found the input RNG state size to be {}",
        kRngStateBytes, b.size());
  Mt19937 e;
  for (int j = 0; j < kMtStateN; ++j) e.state[j] = uint32_t(get<uint64_t>(b, L::kState + 8 * j));
  e.seed = get<uint64_t>(b, L::kSeed);
  e.left = get<int32_t>(b, L::kLeft);
  e.seeded = get<int32_t>(b, L::kSeeded) != 0;
  e.next = uint32_t(get<uint64_t>(b, L::kNext));
  check(e.is_valid(), "Invalid mt19937 state");
  engine_ = e;
  next_float_normal_sample.reset();
  next_double_normal_sample.reset();
  if (b[L::kFloatValid]) next_float_normal_sample = get<float>(b, L::kFloatNormal);
  if (get<int32_t>(b, L::kNormalValid)) next_double_normal_sample = get<double>(b, L::kNormalY);
}

const Generator& default_generator() {
  static const Generator gen = std::make_shared<GeneratorImpl>(read_urandom());
  return gen;
}

void manual_seed(uint64_t seed) {
  GeneratorImpl* g = default_generator().get();
  std::lock_guard<std::mutex> lock(g->mutex);
  g->set_current_seed(seed);
}

}  // namespace dc
