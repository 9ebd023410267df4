// c10::checked_convert for Python numbers (c10/util/TypeCast.h + c10/util/overflows.h): the value
// is range-checked against the target type, then converted with c10::convert semantics.
// Used by fill_/full (Scalar::to<T>() in ATen) and torch.tensor's per-element store.
#pragma once

#include <cmath>
#include <cstdint>
#include <limits>
#include <string_view>
#include <type_traits>

#include "densecore/core/convert.h"
#include "densecore/core/error.h"
#include "densecore/core/scalar.h"

namespace dc {

/// numeric_limits for our types; Half and BFloat16 use c10's values (max 65504 / 0x7F7F).
template <class T>
struct value_limits {
  static double lowest() { return double(std::numeric_limits<T>::lowest()); }
  static double max() { return double(std::numeric_limits<T>::max()); }
};
template <>
struct value_limits<Half> {
  static double lowest() { return -65504.0; }
  static double max() { return 65504.0; }
};
template <>
struct value_limits<BFloat16> {
  static double lowest() { return -3.3895313892515355e+38; }
  static double max() { return 3.3895313892515355e+38; }
};

/// c10::overflows<To>(int64): unsigned targets let negatives wrap down to -max (uint8: -255).
template <class To>
bool int_overflows(int64_t v) {
  if constexpr (std::is_same_v<To, bool>) {
    return false;
  } else if constexpr (std::is_integral_v<To>) {
    using L = std::numeric_limits<To>;
    if constexpr (!L::is_signed) {
      const bool too_big = v > 0 && uint64_t(v) > uint64_t(L::max());
      const bool too_negative = v < 0 && -uint64_t(v) > uint64_t(L::max());
      return too_big || too_negative;
    } else {
      return v < int64_t(L::lowest()) || v > int64_t(L::max());
    }
  } else {
    // int64 -> floating: compared in the floating type (can only overflow Half/BFloat16).
    const double d = double(v);
    return d < value_limits<To>::lowest() || d > value_limits<To>::max();
  }
}

/// c10::overflows<To>(double): inf never overflows a floating type; NaN overflows integers;
/// integer targets compare against the exact bounds [lowest, 2^digits).
template <class To>
bool float_overflows(double f) {
  if constexpr (std::is_same_v<To, bool>) {
    return false;
  } else if constexpr (std::is_integral_v<To>) {
    if (f != f) return true;
    using L = std::numeric_limits<To>;
    const double upper = std::ldexp(1.0, L::digits);
    return f < double(L::lowest()) || f >= upper;
  } else {
    if (std::isinf(f)) return false;
    return f < value_limits<To>::lowest() || f > value_limits<To>::max();
  }
}

/// c10::checked_convert<T>(scalar, name): RuntimeError
/// "value cannot be converted to type <name> without overflow", else c10::convert.
template <class T>
T checked_convert(const Scalar& s, std::string_view name) {
  bool overflow = false;
  if (s.is_floating()) overflow = float_overflows<T>(s.v.d);
  if (s.is_integral()) overflow = int_overflows<T>(s.v.i);
  check(!overflow, "value cannot be converted to type {} without overflow", name);
  if (s.is_floating()) return convert<T>(s.v.d);
  if (s.is_integral()) return convert<T>(s.v.i);
  return convert<T>(s.v.b);
}

/// The type name ATen's Scalar accessors report (the C++ spelling: "uint8_t", "int", "float").
template <class T>
constexpr std::string_view cpp_type_name() {
  if constexpr (std::is_same_v<T, bool>) return "bool";
  else if constexpr (std::is_same_v<T, uint8_t>) return "uint8_t";
  else if constexpr (std::is_same_v<T, int8_t>) return "int8_t";
  else if constexpr (std::is_same_v<T, int16_t>) return "int16_t";
  else if constexpr (std::is_same_v<T, int32_t>) return "int";
  else if constexpr (std::is_same_v<T, int64_t>) return "int64_t";
  else if constexpr (std::is_same_v<T, Half>) return "c10::Half";
  else if constexpr (std::is_same_v<T, BFloat16>) return "c10::BFloat16";
  else if constexpr (std::is_same_v<T, float>) return "float";
  else return "double";
}

/// Scalar::to<T>() as ATen kernels call it (checked, named by the C++ type).
template <class T>
T scalar_to(const Scalar& s) {
  return checked_convert<T>(s, cpp_type_name<T>());
}

}  // namespace dc
