// A small "{}"-substitution formatter for messages (gcc 12 has no <format>).
// Each "{}" takes the next argument, written with operator<<; other braces are literal.
#pragma once

#include <sstream>
#include <string>
#include <string_view>

namespace dc {
namespace detail {

inline void format_rest(std::ostringstream& os, std::string_view fmt) { os << fmt; }

template <class T, class... Rest>
void format_rest(std::ostringstream& os, std::string_view fmt, const T& first, const Rest&... rest) {
  const size_t at = fmt.find("{}");
  if (at == std::string_view::npos) {
    os << fmt;
    return;
  }
  os << fmt.substr(0, at) << first;
  format_rest(os, fmt.substr(at + 2), rest...);
}

}  // namespace detail

template <class... Args>
std::string format(std::string_view fmt, const Args&... args) {
  std::ostringstream os;
  detail::format_rest(os, fmt, args...);
  return os.str();
}

}  // namespace dc
