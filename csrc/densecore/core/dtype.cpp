#include "densecore/core/dtype.h"

#include <array>

namespace dc {
namespace {

struct DTypeInfo {
  DType dtype;
  std::string_view name;         // torch.<name>
  std::string_view scalar_type;  // c10::ScalarType name, used in torch's messages
  std::string_view type_meta;    // caffe2::TypeMeta's C++ name, which some of torch's messages print
};

constexpr std::array<DTypeInfo, kDTypeCount> kDTypeInfo{{
    {DType::Bool, "bool", "Bool", "bool"},
    {DType::UInt8, "uint8", "Byte", "unsigned char"},
    {DType::Int8, "int8", "Char", "signed char"},
    {DType::Int16, "int16", "Short", "short int"},
    {DType::Int32, "int32", "Int", "int"},
    {DType::Int64, "int64", "Long", "long int"},
    {DType::Float16, "float16", "Half", "c10::Half"},
    {DType::BFloat16, "bfloat16", "BFloat16", "c10::BFloat16"},
    {DType::Float32, "float32", "Float", "float"},
    {DType::Float64, "float64", "Double", "double"},
}};

constexpr DType b1 = DType::Bool, u1 = DType::UInt8, i1 = DType::Int8, i2 = DType::Int16,
                i4 = DType::Int32, i8 = DType::Int64, f2 = DType::Float16, bf = DType::BFloat16,
                f4 = DType::Float32, f8 = DType::Float64;

// c10/core/ScalarType.cpp promoteTypes, rows and columns in our DType order.
// clang-format off
constexpr DType kPromote[kDTypeCount][kDTypeCount] = {
  //        b1  u1  i1  i2  i4  i8  f2  bf  f4  f8
  /* b1 */ {b1, u1, i1, i2, i4, i8, f2, bf, f4, f8},
  /* u1 */ {u1, u1, i2, i2, i4, i8, f2, bf, f4, f8},
  /* i1 */ {i1, i2, i1, i2, i4, i8, f2, bf, f4, f8},
  /* i2 */ {i2, i2, i2, i2, i4, i8, f2, bf, f4, f8},
  /* i4 */ {i4, i4, i4, i4, i4, i8, f2, bf, f4, f8},
  /* i8 */ {i8, i8, i8, i8, i8, i8, f2, bf, f4, f8},
  /* f2 */ {f2, f2, f2, f2, f2, f2, f2, f4, f4, f8},
  /* bf */ {bf, bf, bf, bf, bf, bf, f4, bf, f4, f8},
  /* f4 */ {f4, f4, f4, f4, f4, f4, f4, f4, f4, f8},
  /* f8 */ {f8, f8, f8, f8, f8, f8, f8, f8, f8, f8},
};
// clang-format on

DType g_default_dtype = DType::Float32;

const DTypeInfo& info(DType t) { return kDTypeInfo[static_cast<int>(t)]; }

}  // namespace

std::string_view dtype_name(DType t) { return info(t).name; }
std::string_view scalar_type_name(DType t) { return info(t).scalar_type; }
std::string_view type_meta_name(DType t) { return info(t).type_meta; }
std::string tensor_type_name(DType t) { return "torch." + std::string(info(t).scalar_type) + "Tensor"; }
std::string message_type_name(DType t) {
  if (t == DType::Bool || t == DType::BFloat16) return "CPU" + std::string(info(t).scalar_type) + "Type";
  return tensor_type_name(t);
}

DType promote_types(DType a, DType b) { return kPromote[static_cast<int>(a)][static_cast<int>(b)]; }

bool can_cast(DType from, DType to) {
  if (is_floating(from) && is_integral(to, /*include_bool=*/false)) return false;
  if (from != DType::Bool && to == DType::Bool) return false;
  return true;
}

DType default_dtype() { return g_default_dtype; }

void set_default_dtype(DType t) {
  check<TypeError>(is_floating(t), "only floating-point types are supported as the default type");
  g_default_dtype = t;
}

}  // namespace dc
