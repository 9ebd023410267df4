// The copy/convert kernel, mirroring aten/src/ATen/native/cpu/CopyKernel.cpp (REGISTER_DISPATCH:
// the AVX2 build runs on AVX-512 machines). Which path an element takes decides NaN encodings:
//  - float32 -> bfloat16/float16 rows with a contiguous output and a contiguous input use the
//    vector converter for EVERY element (masked tail): bfloat16 NaN -> 0xFFFF on AVX2;
//    a broadcast input (stride 0) is converted once with the scalar constructor (NaN -> 0x7FC0).
//  - other pairs with contiguous rows go through at::vec::convert: AVX2 specialises
//    float64 -> bfloat16/float16 (blocks of 16 through float + vector converter, scalar tail).
//  - everything else is c10::convert element by element.
// float16 <-> float32 copies that fit Copy.cpp's fbgemm shortcut never get here (kernels/baseline/copy_fbgemm.cpp).
#include <cstring>

#include "densecore/kernels/stubs/copy_kernel.h"
#include "densecore/kernels/iter/loops.h"

namespace dc {
inline namespace DC_CPU_CAPABILITY {
namespace {

using vec::Vec;

/// c10::convert<D>(s) as compiled in this TU (Half's constructor uses F16C on AVX2/AVX-512).
template <class D, class S>
inline D kconvert(S s) {
  if constexpr (is_reduced_float_v<D> && !std::is_same_v<D, S>) return vec::scalar_from_float<D>(convert<float>(s));
  else return convert<D>(s);
}

void direct_copy(TensorIter& iter) {
  dispatch_dtype(iter.dtype(0), [&]<class T>() {
    if constexpr (std::is_same_v<T, bool>)
      cpu_kernel(iter, [](bool a) -> bool { return a; });
    else
      cpu_kernel_vec(iter, [](T a) -> T { return a; }, [](Vec<T> a) { return a; });
  });
}

bool is_reduced(DType t) { return t == DType::Float16 || t == DType::BFloat16; }

/// CopyKernel.cpp reduced_float_type_copy.
bool reduced_float_type_copy(const TensorIter& iter) {
  const DType out = iter.dtype(0), in = iter.dtype(1);
  const int64_t so = iter.strides(0).empty() ? 0 : iter.strides(0)[0];
  const int64_t si = iter.strides(1).empty() ? 0 : iter.strides(1)[0];
  if (iter.ndim() == 0) return false;
  if (is_reduced(in) && out == DType::Float32)
    return so == 4 && (si == int64_t(itemsize(in)) || si == 0);
  if (is_reduced(out) && in == DType::Float32) return so == int64_t(itemsize(out)) && (si == 4 || si == 0);
  return false;
}

template <class D, class S>
void reduced_float_rows(TensorIter& iter) {
  const bool broadcast = iter.strides(1)[0] == 0;
  iter.for_each([&](char** base, const int64_t* strides, int64_t size0, int64_t size1) {
    char* out = base[0];
    const char* in = base[1];
    for (int64_t j = 0; j < size1; ++j) {
      D* o = reinterpret_cast<D*>(out);
      if (broadcast) {
        // Vecd(dest_t(src)): one scalar conversion, stored to the whole row.
        const D v = kconvert<D>(load_as<S>(in));
        std::fill_n(o, size0, v);
      } else if constexpr (is_reduced_float_v<D>) {
        for (int64_t i = 0; i < size0; ++i) o[i] = vec::vec_from_float<D>(load_as<float>(in + i * 4));
      } else {
        for (int64_t i = 0; i < size0; ++i) o[i] = float(load_as<S>(in + i * sizeof(S)));
      }
      out += strides[2];
      in += strides[3];
    }
  });
}

void reduced_float_copy(TensorIter& iter) {
  const DType out = iter.dtype(0), in = iter.dtype(1);
  if (out == DType::BFloat16) reduced_float_rows<BFloat16, float>(iter);
  else if (out == DType::Float16) reduced_float_rows<Half, float>(iter);
  else if (in == DType::BFloat16) reduced_float_rows<float, BFloat16>(iter);
  else reduced_float_rows<float, Half>(iter);
}

/// at::vec::convert(src, dst, n) for one contiguous row.
template <class D, class S>
inline void vec_convert_row(const S* src, D* dst, int64_t n) {
  int64_t i = 0;
#if defined(DC_VEC_X86)
  if constexpr (std::is_same_v<S, double> && is_reduced_float_v<D>) {
    // vec256_bfloat16.h / vec256_half.h convert(const double*, T*, n): blocks of
    // Vectorized<T>::size() through _mm256_cvtpd_ps and the vector converter.
    constexpr int64_t kBlock = Vec<D>::size();
    for (; i + kBlock <= n; i += kBlock)
      for (int64_t k = 0; k < kBlock; ++k) dst[i + k] = vec::vec_from_float<D>(float(src[i + k]));
  }
#endif
  for (; i < n; ++i) dst[i] = kconvert<D>(src[i]);
}

template <class D, class S>
void convert_copy(TensorIter& iter) {
  if (iter.has_contiguous_first_dim()) {
    iter.for_each([&](char** base, const int64_t* strides, int64_t size0, int64_t size1) {
      char* out = base[0];
      const char* in = base[1];
      for (int64_t j = 0; j < size1; ++j) {
        vec_convert_row(reinterpret_cast<const S*>(in), reinterpret_cast<D*>(out), size0);
        out += strides[2];
        in += strides[3];
      }
    });
    iter.cast_outputs();
  } else {
    cpu_kernel(iter, [](S x) -> D { return kconvert<D>(x); });
  }
}

void copy_kernel(TensorIter& iter) {
  const DType out = iter.dtype(0), in = iter.dtype(1);
  if (out == in) return direct_copy(iter);
  if (reduced_float_type_copy(iter)) return reduced_float_copy(iter);
  dispatch_dtype(out, [&]<class D>() { dispatch_dtype(in, [&]<class S>() { convert_copy<D, S>(iter); }); });
}

}  // namespace
}  // namespace DC_CPU_CAPABILITY

DC_REGISTER_DISPATCH(copy_stub, &copy_kernel);

}  // namespace dc
