// The ten dtypes, their C++ types, names, categories and torch's promotion rules.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "densecore/core/error.h"
#include "densecore/core/half.h"

namespace dc {

// Order is ours (not torch's ScalarType numbering); kDTypeCount guards the tables below.
enum class DType : int8_t { Bool, UInt8, Int8, Int16, Int32, Int64, Float16, BFloat16, Float32, Float64 };
inline constexpr int kDTypeCount = 10;

/// Bytes per element. Inline: every new tensor and every iterator set-up asks.
inline size_t itemsize(DType t) {
  constexpr uint8_t kItemsize[kDTypeCount] = {1, 1, 1, 2, 4, 8, 2, 2, 4, 8};  // in DType order
  return kItemsize[static_cast<int>(t)];
}
/// torch's primary name: "float32", "int64", "bool", ...
std::string_view dtype_name(DType t);
/// torch's ScalarType spelling used in error messages: "Float", "Long", "Bool", "BFloat16", ...
std::string_view scalar_type_name(DType t);
/// caffe2::TypeMeta's name, which some of torch's messages print: "float", "long int", "c10::Half", ...
std::string_view type_meta_name(DType t);
/// The legacy tensor type of a CPU tensor, as Tensor.type() names it: "torch.FloatTensor", "torch.BoolTensor", ...
std::string tensor_type_name(DType t);
/// A CPU tensor's type as torch's error messages show it: ATen's TensorBase::toString() ("CPUFloatType"), which
/// torch's Python error translation (processErrorMsg, torch/csrc/Exceptions.cpp) rewrites to the legacy name for
/// Byte, Char, Short, Int, Long, Half, Float and Double only: "torch.FloatTensor" but "CPUBoolType",
/// "CPUBFloat16Type". checkScalarTypes and the saved-tensor version error print it.
std::string message_type_name(DType t);

inline bool is_floating(DType t) {
  return t == DType::Float16 || t == DType::BFloat16 || t == DType::Float32 || t == DType::Float64;
}
inline bool is_integral(DType t, bool include_bool) {
  return (t >= DType::UInt8 && t <= DType::Int64) || (include_bool && t == DType::Bool);
}
inline bool is_signed(DType t) { return t != DType::Bool && t != DType::UInt8; }

/// torch.promote_types: c10::promoteTypes restricted to our ten dtypes.
DType promote_types(DType a, DType b);
/// c10::canCast: may a value of dtype `from` be written into an output of dtype `to`?
bool can_cast(DType from, DType to);

DType default_dtype();
void set_default_dtype(DType t);  // float32 or float64 (torch also allows float16/bfloat16)

template <class T> struct dtype_of;
template <> struct dtype_of<bool> { static constexpr DType value = DType::Bool; };
template <> struct dtype_of<uint8_t> { static constexpr DType value = DType::UInt8; };
template <> struct dtype_of<int8_t> { static constexpr DType value = DType::Int8; };
template <> struct dtype_of<int16_t> { static constexpr DType value = DType::Int16; };
template <> struct dtype_of<int32_t> { static constexpr DType value = DType::Int32; };
template <> struct dtype_of<int64_t> { static constexpr DType value = DType::Int64; };
template <> struct dtype_of<Half> { static constexpr DType value = DType::Float16; };
template <> struct dtype_of<BFloat16> { static constexpr DType value = DType::BFloat16; };
template <> struct dtype_of<float> { static constexpr DType value = DType::Float32; };
template <> struct dtype_of<double> { static constexpr DType value = DType::Float64; };

/// Calls f.template operator()<T>() with T the C++ type of `t`: the one place a runtime dtype
/// becomes a C++ type. Use as dispatch_dtype(t, [&]<class T>() { ... });
template <class F>
decltype(auto) dispatch_dtype(DType t, F&& f) {
  switch (t) {
    case DType::Bool: return f.template operator()<bool>();
    case DType::UInt8: return f.template operator()<uint8_t>();
    case DType::Int8: return f.template operator()<int8_t>();
    case DType::Int16: return f.template operator()<int16_t>();
    case DType::Int32: return f.template operator()<int32_t>();
    case DType::Int64: return f.template operator()<int64_t>();
    case DType::Float16: return f.template operator()<Half>();
    case DType::BFloat16: return f.template operator()<BFloat16>();
    case DType::Float32: return f.template operator()<float>();
    case DType::Float64: return f.template operator()<double>();
  }
  throw Error("[dispatch_dtype] unknown dtype");
}

/// torch's opmath type: the type arithmetic happens in (Half/BFloat16 compute in float).
template <class T> struct opmath { using type = T; };
template <> struct opmath<Half> { using type = float; };
template <> struct opmath<BFloat16> { using type = float; };
template <class T> using opmath_t = typename opmath<T>::type;

}  // namespace dc
