// The CPU random number generator, as ATen's CPUGeneratorImpl (aten/src/ATen/CPUGeneratorImpl.cpp)
// over its mt19937 (aten/src/ATen/core/MT19937RNGEngine.h): seeding, 32/64-bit draws, the cached
// normal samples, and get_state/set_state in torch's exact 5056-byte layout.
#pragma once

#include <array>
#include <cstdint>
#include <memory>
#include <mutex>
#include <optional>
#include <span>
#include <vector>

namespace dc {

inline constexpr int kMtStateN = 624;
inline constexpr int kMtStateM = 397;
inline constexpr uint64_t kDefaultRngSeed = 67280421310721ULL;  // c10 default_rng_seed_val
inline constexpr size_t kRngStateBytes = 5056;  // sizeof(CPUGeneratorImplState) in torch

/// Matsumoto-Nishimura mt19937 with torch's bookkeeping (seed_, left_, seeded_, next_).
/// Invariant when valid: seeded, 0 < left <= 624, next <= 624.
struct Mt19937 {
  uint64_t seed = 0;
  int left = 1;
  bool seeded = false;
  uint32_t next = 0;
  std::array<uint32_t, kMtStateN> state{};

  explicit Mt19937(uint64_t s = 5489) { init(s); }
  /// init_genrand on the low 32 bits of s; the whole s is remembered as the seed.
  void init(uint64_t s);
  uint32_t operator()();
  bool is_valid() const;

 private:
  void next_state();
};

class GeneratorImpl {
 public:
  explicit GeneratorImpl(uint64_t seed = kDefaultRngSeed) : engine_(seed) {}

  /// torch's set_current_seed: a fresh engine and no cached normal samples.
  void set_current_seed(uint64_t seed);
  uint64_t current_seed() const { return engine_.seed; }
  /// Seeds from /dev/urandom (c10::detail::getNonDeterministicRandom) and returns the seed.
  uint64_t seed();

  uint32_t random() { return engine_(); }
  /// Two draws; the first is the high word.
  uint64_t random64() {
    const uint64_t hi = engine_();
    const uint64_t lo = engine_();
    return (hi << 32) | lo;
  }

  std::optional<float> next_float_normal_sample;
  std::optional<double> next_double_normal_sample;

  /// The state bytes torch.get_rng_state() returns (CPUGeneratorImplState, padding zeroed).
  std::vector<uint8_t> get_state() const;
  /// Accepts torch's bytes; RuntimeError on a wrong size or an invalid engine state.
  void set_state(std::span<const uint8_t> bytes);

  std::shared_ptr<GeneratorImpl> clone() const { return std::make_shared<GeneratorImpl>(*this); }
  GeneratorImpl(const GeneratorImpl& o)
      : next_float_normal_sample(o.next_float_normal_sample),
        next_double_normal_sample(o.next_double_normal_sample),
        engine_(o.engine_) {}

  /// Held by every kernel for the whole draw (Note [Acquire lock when using random generators]).
  std::mutex mutex;

 private:
  Mt19937 engine_;
};

using Generator = std::shared_ptr<GeneratorImpl>;

/// The process-wide default generator, seeded non-deterministically at first use (as torch's).
const Generator& default_generator();
/// gen when given, else the default generator (get_generator_or_default).
inline GeneratorImpl* generator_or_default(const Generator& gen) {
  return gen ? gen.get() : default_generator().get();
}

/// torch.manual_seed(s) on the default generator; torch.initial_seed(); torch.seed().
void manual_seed(uint64_t seed);

}  // namespace dc
