// A Python number as torch's arg parser sees it: bool, int (int64) or float (double).
#pragma once

#include <cstdint>

#include "densecore/core/dtype.h"

namespace dc {

struct Scalar {
  enum class Kind : uint8_t { Bool, Int, Float };
  Kind kind = Kind::Int;
  union {
    bool b;
    int64_t i;
    double d;
  } v{.i = 0};

  Scalar() = default;
  static Scalar from_bool(bool x) { Scalar s; s.kind = Kind::Bool; s.v.b = x; return s; }
  static Scalar from_int(int64_t x) { Scalar s; s.kind = Kind::Int; s.v.i = x; return s; }
  static Scalar from_double(double x) { Scalar s; s.kind = Kind::Float; s.v.d = x; return s; }

  bool is_floating() const { return kind == Kind::Float; }
  bool is_integral() const { return kind == Kind::Int; }
  bool is_bool() const { return kind == Kind::Bool; }

  /// dtype of the 0-dim "wrapped number" tensor torch makes from it: float64, int64 or bool.
  DType wrapped_dtype() const {
    return kind == Kind::Float ? DType::Float64 : kind == Kind::Int ? DType::Int64 : DType::Bool;
  }
  double to_double() const {
    return kind == Kind::Float ? v.d : kind == Kind::Int ? double(v.i) : double(v.b);
  }
  int64_t to_int() const {
    return kind == Kind::Float ? int64_t(v.d) : kind == Kind::Int ? v.i : int64_t(v.b);
  }
  /// c10::Scalar::to<T>() without overflow checks (c10::convert of the held value).
  template <class T>
  T to() const;
};

/// c10::Scalar's unary minus: a float negates, an int wraps (two's complement); bool alpha is refused by
/// alpha_check before anything negates it, so it maps to -int(b) only for completeness.
inline Scalar operator-(const Scalar& s) {
  if (s.is_floating()) return Scalar::from_double(-s.v.d);
  if (s.is_integral()) return Scalar::from_int(int64_t(0 - uint64_t(s.v.i)));
  return Scalar::from_int(-int64_t(s.v.b));
}

}  // namespace dc
