// Private helpers for densecore.serialization (torch.save / torch.load): storage identity and raw
// storage bytes out, tensors over copied bytes in. No NumPy needed.
#include <cstdio>
#include <cstring>
#include <string>
#include <unordered_set>

#include <nanobind/stl/string.h>
#include <nanobind/stl/vector.h>

#include "bindings.h"
#include "dtype_caster.h"
#include "densecore/core/error.h"

namespace {

std::string int_list(const std::vector<int64_t>& v) {
  std::string s = "[";
  for (size_t i = 0; i < v.size(); ++i) s += (i ? ", " : "") + std::to_string(v[i]);
  return s + "]";
}

// A contiguous tensor holding a copy of `data` (its length must match shape and dtype).
dc::Tensor tensor_from_bytes(nb::bytes data, const std::vector<int64_t>& shape, dc::DType dtype) {
  dc::Tensor t = dc::Tensor::empty(shape, dtype);
  const size_t n = size_t(t.numel()) * t.itemsize();
  dc::check<dc::ValueError>(data.size() == n, "_tensor_from_bytes: expected {} bytes, got {}", n,
                            data.size());
  if (n) std::memcpy(t.data_ptr(), data.c_str(), n);
  return t;
}

// A view of `base`'s storage with the given layout: what torch._utils._rebuild_tensor does with
// Tensor.set_(storage, offset, size, stride). Bounds checked as TensorImpl's setStorage checks them
// (aten/src/ATen/native/Resize.h checkInBoundsForStorage), with its message.
dc::Tensor view_of_storage(const dc::Tensor& base, const std::vector<int64_t>& size,
                           const std::vector<int64_t>& stride, int64_t offset) {
  dc::check(size.size() == stride.size(), "mismatch in length of strides and shape");
  dc::check(offset >= 0, "Tensor: invalid storage offset {}", offset);
  int64_t needed = 0;  // elements the layout reaches past the offset; 0 for an empty tensor
  bool empty = false;
  for (size_t i = 0; i < size.size(); ++i) {
    dc::check(size[i] >= 0 && stride[i] >= 0, "negative sizes or strides are not supported");
    empty = empty || size[i] == 0;
    needed += (size[i] - 1) * stride[i];
  }
  const int64_t item = int64_t(base.itemsize());
  const int64_t bytes = empty ? 0 : (offset + needed + 1) * item;
  const int64_t have = int64_t(base.storage()->nbytes());
  dc::check(bytes <= have,
            "setStorage: sizes {}, strides {}, storage offset {}, and itemsize {} requiring a "
            "storage size of {} are out of bounds for storage of size {}",
            int_list(size), int_list(stride), offset, item, bytes, have);
  return base.as_strided_view(size, stride, offset);
}

// torch's hash_combine (c10/util/hash.h).
uint64_t hash_combine(uint64_t seed, uint64_t value) {
  return seed ^ (value + 0x9e3779b9 + (seed << 6) + (seed >> 2));
}

// The `.data/serialization_id` record of torch.save (caffe2/serialize/inline_container.cc
// writeSerializationId): 20 digits of the record-name hashes combined in the iteration order of an
// std::unordered_set filled in write order (so it needs libstdc++'s own std::hash and bucket
// layout, hence C++), then 20 digits of the data-descriptor CRC32s combined in write order.
std::string serialization_id(const std::vector<std::string>& names, uint64_t combined_crc32) {
  std::unordered_set<std::string> written;
  for (const auto& n : names) written.insert(n);
  uint64_t combined = 0;
  for (const auto& n : written) combined = hash_combine(combined, std::hash<std::string>{}(n));
  char buf[41];
  std::snprintf(buf, sizeof buf, "%020llu%020llu", static_cast<unsigned long long>(combined),
                static_cast<unsigned long long>(combined_crc32));
  return buf;
}

}  // namespace

void bind_serialization(nb::module_& m, TensorClass& cls) {
  m.def("_tensor_from_bytes", &tensor_from_bytes, nb::arg("data"), nb::arg("shape"),
        nb::arg("dtype"));
  m.def("_serialization_id", &serialization_id, nb::arg("record_names"), nb::arg("combined_crc32"));
  m.def("_view_of_storage", &view_of_storage, nb::arg("base"), nb::arg("size"), nb::arg("stride"),
        nb::arg("storage_offset"));
  // Identity of the storage (torch's storage._cdata): views of one tensor report the same key.
  cls.def("_storage_key",
          [](const dc::Tensor& t) { return reinterpret_cast<uintptr_t>(t.storage().get()); })
      .def("_storage_data_ptr",
           [](const dc::Tensor& t) { return reinterpret_cast<uintptr_t>(t.storage()->data()); })
      .def("_storage_nbytes", [](const dc::Tensor& t) { return t.storage()->nbytes(); })
      // The whole storage (not just the viewed elements): torch.save writes storages whole.
      .def("_storage_bytes", [](const dc::Tensor& t) {
        return nb::bytes(static_cast<const char*>(t.storage()->data()), t.storage()->nbytes());
      });
}
