// A schema's `int[1]?` (ATen's OptionalIntArrayRef): no list at all (None) or a list, which may be empty. torch
// keeps the two apart where it matters to a user: x.sum(dim=None) and x.sum(()) are the dim overload
// (SumBackward1), x.sum() is not (SumBackward0).
#pragma once

#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <optional>
#include <span>
#include <vector>

namespace dc {

/// Borrows the list for the call it is passed to, as a std::span does.
class OptionalIntList : public std::optional<std::span<const int64_t>> {
  using Base = std::optional<std::span<const int64_t>>;

 public:
  OptionalIntList() = default;
  OptionalIntList(std::nullopt_t) {}                                       // NOLINT: implicit, as None
  OptionalIntList(std::span<const int64_t> list) : Base(list) {}          // NOLINT: implicit, as a list
  OptionalIntList(const std::vector<int64_t>& list) : Base(std::span<const int64_t>(list)) {}  // NOLINT
  template <size_t n>
  OptionalIntList(const int64_t (&list)[n]) : Base(std::span<const int64_t>(list, n)) {}  // NOLINT
  OptionalIntList(std::initializer_list<int64_t> list)                     // NOLINT: sum(t, {0, 1})
      : Base(std::span<const int64_t>(list.begin(), list.size())) {}
  OptionalIntList(const std::optional<std::vector<int64_t>>& list)  // NOLINT: a saved one, read by a formula
      : Base(list ? Base(std::span<const int64_t>(*list)) : Base()) {}

  /// The list, or an empty one for None: the reductions treat both as "every dim".
  std::span<const int64_t> or_empty() const { return has_value() ? **this : std::span<const int64_t>(); }
};

}  // namespace dc
