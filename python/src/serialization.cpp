// Private helpers for densecore.serialization (torch.save / torch.load): storage identity and raw
// storage bytes out; storages copied (and byte-swapped) in, and tensors rebuilt over them with every
// size, stride and offset from the file checked. No NumPy needed.
#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <optional>
#include <string>
#include <unordered_set>

#include <nanobind/stl/optional.h>
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

// ---------------------------------------------------------------------------------------------
// Loading. Every number below comes from a file, so all layout arithmetic is overflow-checked, in
// the order and with the messages of torch's Tensor.set_(storage, offset, size, stride).
// TODO(core): use the core's checked extent when it lands.
// ---------------------------------------------------------------------------------------------

uint16_t bswap(uint16_t v) { return __builtin_bswap16(v); }
uint32_t bswap(uint32_t v) { return __builtin_bswap32(v); }
uint64_t bswap(uint64_t v) { return __builtin_bswap64(v); }

// Reverses the byte order of each U in n bytes (whole elements), in place.
template <class U>
void swap_in_place(unsigned char* p, size_t n) {
  for (size_t i = 0; i < n; i += sizeof(U)) {
    U v;
    std::memcpy(&v, p + i, sizeof v);
    v = bswap(v);
    std::memcpy(p + i, &v, sizeof v);
  }
}

// (a new 1-D uint8 tensor of nbytes, uninitialised; a writable memoryview of its bytes): a record is read
// straight into the storage. The view does not keep the tensor alive: the caller holds the tensor and
// releases the view (memoryview.release()) before letting go of it.
nb::tuple storage_buffer(int64_t nbytes) {
  dc::check<dc::ValueError>(nbytes >= 0, "_storage_buffer: negative size {}", nbytes);
  const std::vector<int64_t> shape{nbytes};
  dc::Tensor t = dc::Tensor::empty(shape, dc::DType::UInt8);
  PyObject* view = PyMemoryView_FromMemory(static_cast<char*>(t.storage()->data()),
                                           static_cast<Py_ssize_t>(nbytes), PyBUF_WRITE);
  if (!view) throw nb::python_error();
  return nb::make_tuple(t, nb::steal(view));
}

// torch's UntypedStorage.byteswap(dtype) for records written on a machine of the other endianness: the
// byte order of every itemsize-byte element of the uint8 tensor `storage`, reversed in place.
void byteswap_(const dc::Tensor& storage, int64_t itemsize) {
  auto* p = static_cast<unsigned char*>(storage.storage()->data());
  const size_t n = storage.storage()->nbytes();
  dc::check<dc::ValueError>(itemsize == 1 || itemsize == 2 || itemsize == 4 || itemsize == 8,
                            "_byteswap_: cannot swap elements of {} bytes", itemsize);
  dc::check<dc::ValueError>(n % size_t(itemsize) == 0, "_byteswap_: {} bytes are not whole elements of {}",
                            n, itemsize);
  if (itemsize == 2)
    swap_in_place<uint16_t>(p, n);
  else if (itemsize == 4)
    swap_in_place<uint32_t>(p, n);
  else if (itemsize == 8)
    swap_in_place<uint64_t>(p, n);
}

// c10's safe_compute_numel: the product of the sizes taken as unsigned, so a negative size overflows.
void check_numel(const std::vector<int64_t>& size) {
  uint64_t numel = 1;
  bool overflow = false;
  for (int64_t s : size) overflow |= __builtin_mul_overflow(numel, static_cast<uint64_t>(s), &numel);
  dc::check(!overflow && numel <= uint64_t(INT64_MAX), "numel: integer multiplication overflow");
}

// Row-major strides for a set_ without strides; a product past int64 (possible when another size is
// 0) is reported as torch reports a storage size that overflows.
std::vector<int64_t> contiguous_strides(const std::vector<int64_t>& size) {
  std::vector<int64_t> stride(size.size());
  int64_t running = 1;
  bool overflow = false;
  for (size_t i = size.size(); i-- > 0;) {
    stride[i] = running;
    if (i > 0) overflow |= __builtin_mul_overflow(running, std::max<int64_t>(size[i], 1), &running);
  }
  dc::check(!overflow, "Storage size calculation overflowed with sizes={}", int_list(size));
  return stride;
}

// ATen's computeStorageNbytes: bytes from the storage start to one past the last element, 0 when some
// size is 0; strides are taken as unsigned, so a negative stride overflows (torch refuses those too).
uint64_t storage_nbytes_needed(const std::vector<int64_t>& size, const std::vector<int64_t>& stride,
                               uint64_t itemsize, int64_t offset) {
  uint64_t extent = static_cast<uint64_t>(offset) + 1;
  bool overflow = false;
  for (size_t i = 0; i < size.size(); ++i) {
    if (size[i] == 0) return 0;
    uint64_t span = 0;
    overflow |= __builtin_mul_overflow(static_cast<uint64_t>(stride[i]),
                                       static_cast<uint64_t>(size[i] - 1), &span);
    overflow |= __builtin_add_overflow(extent, span, &extent);
  }
  overflow |= __builtin_mul_overflow(extent, itemsize, &extent);
  dc::check(!overflow && extent <= uint64_t(INT64_MAX),
            "Storage size calculation overflowed with sizes={} and strides={}", int_list(size),
            int_list(stride));
  return extent;
}

// c10's TensorImpl::set_sizes_and_strides keeps no negative stride (they pass the extent check only
// where they multiply a size of 0 or 1): the last dim's becomes 1, any other's the next dim's size
// times its stride. That product cannot overflow in torch's accepted files except by wrapping; here
// it is refused instead.
std::vector<int64_t> without_negative_strides(const std::vector<int64_t>& size,
                                              std::vector<int64_t> stride) {
  for (size_t d = stride.size(); d-- > 0;) {
    if (stride[d] >= 0) continue;
    if (d + 1 == stride.size()) {
      stride[d] = 1;
    } else {
      dc::check(!__builtin_mul_overflow(std::max<int64_t>(size[d + 1], 1), stride[d + 1], &stride[d]),
                "Storage size calculation overflowed with sizes={} and strides={}", int_list(size),
                int_list(stride));
    }
  }
  return stride;
}

// torch._utils._rebuild_tensor: a `dtype` tensor over the bytes of `storage` (a uint8 tensor from
// _storage_buffer) with the given layout, sharing them. Checked as Tensor.set_ checks: lengths,
// offset, numel, extent, then the storage bound (torch reports a storage too small as a failed resize).
dc::Tensor rebuild_view(const dc::Tensor& storage, dc::DType dtype, const std::vector<int64_t>& size,
                        const std::optional<std::vector<int64_t>>& stride_or_none, int64_t offset) {
  if (stride_or_none)
    dc::check(size.size() == stride_or_none->size(), "unequal size length ({}) and stride length ({})",
              size.size(), stride_or_none->size());
  dc::check(offset >= 0, "Tensor: invalid storage offset {}", offset);
  check_numel(size);
  const std::vector<int64_t> stride = stride_or_none ? *stride_or_none : contiguous_strides(size);
  const uint64_t item = dc::itemsize(dtype);
  const uint64_t needed = storage_nbytes_needed(size, stride, item, offset);
  dc::check(needed <= storage.storage()->nbytes(), "Trying to resize storage that is not resizable");
  // Beyond torch: DenseCore sizes copies as numel * itemsize and addresses element 0 as offset *
  // itemsize in int64, so a layout where either overflows is refused rather than left to wrap
  // (torch accepts e.g. 2**62 floats of stride 0, a view no op could ever copy).
  // TODO(core): drop once the core's factories and data_ptr check these themselves.
  uint64_t numel = 1, bytes = 0, offset_bytes = 0;
  for (int64_t s : size) numel *= static_cast<uint64_t>(s);  // cannot overflow: check_numel passed
  const bool too_big = __builtin_mul_overflow(numel, item, &bytes) || bytes > uint64_t(INT64_MAX) ||
                       __builtin_mul_overflow(static_cast<uint64_t>(offset), item, &offset_bytes) ||
                       offset_bytes > uint64_t(INT64_MAX);
  dc::check(!too_big,
            "densecore.load: a tensor with sizes {}, strides {} and storage offset {} spans more than "
            "2**63 - 1 bytes; DenseCore cannot address it",
            int_list(size), int_list(stride), offset);
  return dc::Tensor::from_storage(storage.storage(), size, without_negative_strides(size, stride),
                                  offset, dtype);
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
  m.def("_storage_buffer", &storage_buffer, nb::arg("nbytes"));
  m.def("_byteswap_", &byteswap_, nb::arg("storage"), nb::arg("itemsize"));
  m.def("_rebuild_view", &rebuild_view, nb::arg("storage"), nb::arg("dtype"), nb::arg("size"),
        nb::arg("stride").none(), nb::arg("storage_offset"));
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
