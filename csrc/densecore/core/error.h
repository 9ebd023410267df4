// Exceptions the core throws; the binding maps each class to the Python exception torch raises
// (RuntimeError, IndexError, TypeError, ValueError, NotImplementedError).
#pragma once

#include <stdexcept>
#include <string>

#include "densecore/core/format.h"

namespace dc {

struct Error : std::runtime_error {
  using std::runtime_error::runtime_error;
};
struct IndexError : Error {
  using Error::Error;
};
struct TypeError : Error {
  using Error::Error;
};
struct ValueError : Error {
  using Error::Error;
};
struct NotImplementedError : Error {
  using Error::Error;
};

/// Throws E with a dc::format message ("{}" placeholders) when cond is false.
template <class E = Error, class... Args>
inline void check(bool cond, std::string_view fmt, const Args&... args) {
  if (!cond) [[unlikely]]
    throw E(dc::format(fmt, args...));
}

}  // namespace dc
