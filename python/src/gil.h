// Releasing the GIL around native work, so other Python threads run meanwhile (torch releases it
// around every op). Tiny tensors keep it: for them the release and re-acquire would cost more than
// the op. Nothing in the core touches Python; a NumPy-backed storage freed without the GIL takes it
// back itself (creation.cpp).
#pragma once

#include <optional>

#include "bindings.h"

namespace gil {

/// Below this many elements an op is short enough to run with the GIL held.
inline constexpr int64_t kReleaseNumel = 32768;

/// Releases the GIL for its lifetime when `long_work` is true.
class ReleaseIf {
 public:
  explicit ReleaseIf(bool long_work) {
    if (long_work) release_.emplace();
  }

 private:
  std::optional<nb::gil_scoped_release> release_;
};

inline bool is_long(const dc::Tensor& t) { return t.defined() && t.numel() >= kReleaseNumel; }
inline bool is_long(const dc::Tensor& a, const dc::Tensor& b) { return is_long(a) || is_long(b); }
/// A product reads each operand many times: 64x64 matrices already take tens of microseconds.
inline bool is_long_product(const dc::Tensor& a, const dc::Tensor& b) {
  return a.defined() && b.defined() && a.numel() + b.numel() >= kReleaseNumel / 8;
}

/// Calls f() with the GIL released when any of `inputs` is big; returns what f returns.
template <class F, class... T>
auto run(F&& f, const T&... inputs) {
  ReleaseIf release((is_long(inputs) || ...));
  return f();
}

}  // namespace gil

namespace gil {

inline bool is_long_arg(const dc::Tensor& t) { return is_long(t); }
template <class T>
bool is_long_arg(const T&) {
  return false;
}

/// A free function bound with the GIL released when one of its tensor arguments is big:
///   m.def("mm", DC_RELEASING_GIL(dc::mm), ...)
template <class Sig, Sig* F>
struct Releasing;
template <class R, class... A, R (*F)(A...)>
struct Releasing<R(A...), F> {
  static R call(A... args) {
    ReleaseIf release((is_long_arg(args) || ... || false));
    return F(std::forward<A>(args)...);
  }
};

}  // namespace gil

#define DC_RELEASING_GIL(fn) &gil::Releasing<decltype(fn), fn>::call
