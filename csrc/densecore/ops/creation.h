// Tensor factories (torch's empty/zeros/ones/full/arange/linspace/eye and the *_like variants),
// fill_, and tril/triu. Mirrors aten/src/ATen/native/TensorFactories.cpp and RangeFactories.cpp.
#pragma once

#include <optional>
#include <span>

#include "densecore/core/scalar.h"
#include "densecore/core/tensor.h"
#include "densecore/generated/ops.h"

namespace dc {

/// A contiguous tensor with uninitialised contents; RuntimeError on a negative size, as torch.
Tensor empty(std::span<const int64_t> sizes, DType dtype);
Tensor zeros(std::span<const int64_t> sizes, DType dtype);
Tensor ones(std::span<const int64_t> sizes, DType dtype);
/// torch.full: `value` checked against dtype ("value cannot be converted to type ... without
/// overflow"); Half and BFloat16 are not range-checked, as in ATen's fill kernel.
Tensor full(std::span<const int64_t> sizes, const Scalar& value, DType dtype);
/// torch.full's dtype when none is given: bool -> bool, int -> int64, float -> default dtype.
DType full_dtype(const Scalar& value);

Tensor empty_like(const Tensor& t, std::optional<DType> dtype = std::nullopt);
Tensor zeros_like(const Tensor& t, std::optional<DType> dtype = std::nullopt);
Tensor ones_like(const Tensor& t, std::optional<DType> dtype = std::nullopt);
Tensor full_like(const Tensor& t, const Scalar& value, std::optional<DType> dtype = std::nullopt);

// native::fill_(self, value) writes value into every element of self (any layout) and bumps its version;
// native::zero_(self) writes 0 (fill_'s and zero_'s rows; defined here).

/// torch.arange(start, end, step): int64 when every bound is an integer (or bool) and no dtype
/// is given, else the default dtype. Size and checks as ATen's compute_arange_size.
Tensor arange(const Scalar& start, const Scalar& end, const Scalar& step,
              std::optional<DType> dtype = std::nullopt);
/// torch.linspace; the default dtype when none is given.
Tensor linspace(const Scalar& start, const Scalar& end, int64_t steps,
                std::optional<DType> dtype = std::nullopt);
/// torch.eye(n, m): ones on the main diagonal; m = n when not given.
Tensor eye(int64_t n, std::optional<int64_t> m, DType dtype);

/// Lower / upper triangle of the last two dims (diagonal shifts the boundary, as torch's).
// tril(self, diagonal = 0) and triu are op rows (csrc/op_rows.toml), declared in densecore/generated/ops.h.

}  // namespace dc
