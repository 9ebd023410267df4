// float16 and bfloat16 storage types with torch's float conversions.
// Scalar paths round with IEEE RNE; bfloat16 NaN -> 0x7FC0 (c10::BFloat16's scalar constructor).
#pragma once

#include <bit>
#include <cstdint>
#include <cmath>
#include <cstring>

namespace dc {

inline float fp16_bits_to_float(uint16_t h) {
  // Exact widening (same values as _cvtsh_ss, including NaN payloads).
  const uint32_t w = uint32_t(h) << 16;
  const uint32_t sign = w & 0x80000000u;
  const uint32_t two_w = w + w;
  const uint32_t exp_offset = 0xE0u << 23;
  const float exp_scale = std::bit_cast<float>(0x7800000u);
  const float normalized = std::bit_cast<float>((two_w >> 4) + exp_offset) * exp_scale;
  const uint32_t magic_mask = 126u << 23;
  const float magic_bias = 0.5f;
  const float denormalized = std::bit_cast<float>((two_w >> 17) | magic_mask) - magic_bias;
  const uint32_t denormalized_cutoff = 1u << 27;
  const uint32_t result =
      sign | (two_w < denormalized_cutoff ? std::bit_cast<uint32_t>(denormalized)
                                          : std::bit_cast<uint32_t>(normalized));
  return std::bit_cast<float>(result);
}

// Software RNE (c10's fp16_ieee_from_fp32_value without F16C): what torch's base-flag code uses.
// Kernels compiled per capability use the hardware instruction instead (see kernels/vec).
// Both agree on every non-NaN input; NaN gives sign|0x7E00 here.
inline uint16_t float_to_fp16_bits(float f) {
  const float scale_to_inf = std::bit_cast<float>(0x77800000u);
  const float scale_to_zero = std::bit_cast<float>(0x08800000u);
  float base = (std::abs(f) * scale_to_inf) * scale_to_zero;
  const uint32_t w = std::bit_cast<uint32_t>(f);
  const uint32_t shl1_w = w + w;
  const uint32_t sign = w & 0x80000000u;
  uint32_t bias = shl1_w & 0xFF000000u;
  if (bias < 0x71000000u) bias = 0x71000000u;
  base = std::bit_cast<float>((bias >> 1) + 0x07800000u) + base;
  const uint32_t bits = std::bit_cast<uint32_t>(base);
  const uint32_t exp_bits = (bits >> 13) & 0x00007C00u;
  const uint32_t mantissa_bits = bits & 0x00000FFFu;
  const uint32_t nonsign = exp_bits + mantissa_bits;
  return static_cast<uint16_t>((sign >> 16) | (shl1_w > 0xFF000000u ? 0x7E00u : nonsign));
}

inline float bf16_bits_to_float(uint16_t b) { return std::bit_cast<float>(uint32_t(b) << 16); }

inline uint16_t float_to_bf16_bits(float f) {
  const uint32_t bits = std::bit_cast<uint32_t>(f);
  if (f != f) return 0x7FC0;
  const uint32_t rounding_bias = 0x7FFFu + ((bits >> 16) & 1u);
  return static_cast<uint16_t>((bits + rounding_bias) >> 16);
}

/// IEEE binary16 value type; arithmetic goes through float as torch's c10::Half does.
struct Half {
  uint16_t x = 0;
  Half() = default;
  Half(float f) : x(float_to_fp16_bits(f)) {}  // NOLINT: implicit like c10::Half
  operator float() const { return fp16_bits_to_float(x); }
  static Half from_bits(uint16_t b) {
    Half h;
    h.x = b;
    return h;
  }
};

/// bfloat16 value type; arithmetic goes through float as torch's c10::BFloat16 does.
struct BFloat16 {
  uint16_t x = 0;
  BFloat16() = default;
  BFloat16(float f) : x(float_to_bf16_bits(f)) {}  // NOLINT: implicit like c10::BFloat16
  operator float() const { return bf16_bits_to_float(x); }
  static BFloat16 from_bits(uint16_t b) {
    BFloat16 h;
    h.x = b;
    return h;
  }
};

}  // namespace dc
