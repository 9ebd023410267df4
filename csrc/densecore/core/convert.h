// c10::convert for our dtypes (c10/util/TypeCast.h): float -> integral is a plain truncating cast
// (x86's integer-indefinite result out of range), float -> uint8 goes through int64, -> bool is
// x != 0, Half/BFloat16 convert through float (so double -> half rounds twice, as in torch).
#pragma once

#include <cstdint>
#include <type_traits>

#include "densecore/core/half.h"

namespace dc {

template <class T>
inline constexpr bool is_reduced_float_v = std::is_same_v<T, Half> || std::is_same_v<T, BFloat16>;

/// Float -> integer truncation with x86 semantics (cvttss2si/cvttsd2si), without C++ UB.
template <class To, class From>
inline To float_to_int(From x) {
  if constexpr (sizeof(To) == 8) {
    int64_t r;
    if constexpr (std::is_same_v<From, float>)
      asm("cvttss2si %1, %0" : "=r"(r) : "x"(x));
    else
      asm("cvttsd2si %1, %0" : "=r"(r) : "x"(x));
    return static_cast<To>(r);
  } else {
    // int32, int16, int8: GCC truncates to int32 and keeps the low bits.
    int32_t r;
    if constexpr (std::is_same_v<From, float>)
      asm("cvttss2si %1, %0" : "=r"(r) : "x"(x));
    else
      asm("cvttsd2si %1, %0" : "=r"(r) : "x"(x));
    return static_cast<To>(r);
  }
}

template <class To, class From>
inline To convert(From x) {
  if constexpr (std::is_same_v<To, From>) {
    return x;
  } else if constexpr (is_reduced_float_v<From>) {
    return convert<To>(static_cast<float>(x));
  } else if constexpr (std::is_same_v<To, bool>) {
    return x != From(0);
  } else if constexpr (is_reduced_float_v<To>) {
    return To(static_cast<float>(x));
  } else if constexpr (std::is_floating_point_v<From> && std::is_same_v<To, uint8_t>) {
    return static_cast<uint8_t>(float_to_int<int64_t>(x));
  } else if constexpr (std::is_floating_point_v<From> && std::is_integral_v<To>) {
    return float_to_int<To>(x);
  } else {
    return static_cast<To>(x);
  }
}

}  // namespace dc
