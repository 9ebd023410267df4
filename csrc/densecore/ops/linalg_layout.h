// Layout helpers private to ops/linalg.cpp: the few views matmul needs (t, mT, unsqueeze, squeeze,
// expand, reshape with ATen's computeStride). TO BE REPLACED by ops/view.h once it lands; the
// semantics (which reshape is a view, which a copy) must stay ATen's, since layouts pick BLAS args.
#pragma once

#include <optional>
#include <string>

#include "densecore/core/error.h"
#include "densecore/core/tensor.h"
#include "densecore/ops/copy.h"

namespace dc::linalg_detail {

inline Tensor restride(const Tensor& t, const Shape& sizes, const Strides& strides) {
  return t.as_strided_view(sizes, strides, t.storage_offset());
}

inline Tensor transpose(const Tensor& t, int64_t d0, int64_t d1) {
  Shape s = t.sizes();
  Strides st = t.strides();
  d0 = wrap_dim(d0, t.dim());
  d1 = wrap_dim(d1, t.dim());
  std::swap(s[d0], s[d1]);
  std::swap(st[d0], st[d1]);
  return restride(t, s, st);
}

/// Tensor.t(): 0-D and 1-D unchanged, 2-D transposed.
inline Tensor t2(const Tensor& t) {
  check(t.dim() <= 2, "t() expects a tensor with <= 2 dimensions, but self is {}D", t.dim());
  return t.dim() < 2 ? t : transpose(t, 0, 1);
}

inline Tensor unsqueeze(const Tensor& t, int64_t d) {
  Shape s = t.sizes();
  Strides st = t.strides();
  // ATen's inferUnsqueezeGeometry: the new stride is size*stride of the dim it precedes.
  const int64_t ns = d >= t.dim() ? 1 : s[d] * st[d];
  s.insert(s.begin() + d, 1);
  st.insert(st.begin() + d, ns);
  return restride(t, s, st);
}

/// squeeze(d): drops dim d if it has size 1.
inline Tensor squeeze_dim(const Tensor& t, int64_t d) {
  d = wrap_dim(d, t.dim());
  if (t.dim() == 0 || t.sizes()[d] != 1) return t;
  Shape s = t.sizes();
  Strides st = t.strides();
  s.erase(s.begin() + d);
  st.erase(st.begin() + d);
  return restride(t, s, st);
}

/// squeeze(): the number of non-1 dims (all the linear bias test needs).
inline int64_t squeezed_dim(const Tensor& t) {
  int64_t n = 0;
  for (int64_t s : t.sizes()) n += s != 1;
  return n;
}

/// Tensor.expand(sizes) with ATen's inferExpandGeometry messages.
inline Tensor expand(const Tensor& t, const Shape& sizes) {
  const int64_t nd = int64_t(sizes.size()), td = t.dim();
  check(nd >= td,
        "expand(torch.FloatTensor{{}}, size={}): the number of sizes provided ({}) must be greater "
        "or equal to the number of dimensions in the tensor ({})",
        shape_str(t.sizes()), shape_str(sizes), nd, td);
  Strides st(nd);
  for (int64_t i = nd - 1; i >= 0; --i) {
    const int64_t off = td - nd + i;
    const int64_t size = off >= 0 ? t.sizes()[off] : 1;
    const int64_t stride = off >= 0 ? t.strides()[off] : size * (i + 1 < nd ? st[i + 1] : 1);
    if (size == sizes[i] || sizes[i] == -1) {
      st[i] = stride;
    } else {
      check(size == 1,
            "The expanded size of the tensor ({}) must match the existing size ({}) at "
            "non-singleton dimension {}.  Target sizes: {}.  Tensor sizes: {}",
            sizes[i], size, i, shape_str(sizes), shape_str(t.sizes()));
      st[i] = 0;
    }
  }
  return restride(t, sizes, st);
}

/// ATen's computeStride (TensorUtils.cpp): strides that view `t` as `shape`, if any exist.
inline std::optional<Strides> compute_stride(const Tensor& t, const Shape& shape) {
  const Shape& old = t.sizes();
  const Strides& os = t.strides();
  if (old.empty()) return Strides(shape.size(), 1);
  int64_t numel = t.numel();
  if (numel == 0 && old == shape) return os;
  Strides ns(shape.size());
  if (numel == 0) {
    for (int64_t v = int64_t(shape.size()) - 1; v >= 0; --v)
      ns[v] = v + 1 == int64_t(shape.size()) ? 1 : std::max<int64_t>(shape[v + 1], 1) * ns[v + 1];
    return ns;
  }
  int64_t view_d = int64_t(shape.size()) - 1;
  int64_t chunk_base_stride = os.back();
  int64_t tensor_numel = 1, view_numel = 1;
  for (int64_t d = int64_t(old.size()) - 1; d >= 0; --d) {
    tensor_numel *= old[d];
    if (d == 0 || (old[d - 1] != 1 && os[d - 1] != tensor_numel * chunk_base_stride)) {
      while (view_d >= 0 && (view_numel < tensor_numel || shape[view_d] == 1)) {
        ns[view_d] = view_numel * chunk_base_stride;
        view_numel *= shape[view_d];
        --view_d;
      }
      if (view_numel != tensor_numel) return std::nullopt;
      if (d > 0) {
        chunk_base_stride = os[d - 1];
        tensor_numel = 1;
        view_numel = 1;
      }
    }
  }
  if (view_d != -1) return std::nullopt;
  return ns;
}

/// Tensor.view(shape) on a tensor known to be viewable (ATen's _unsafe_view / view).
inline Tensor view(const Tensor& t, const Shape& shape) {
  auto st = compute_stride(t, shape);
  check(st.has_value(),
        "view size is not compatible with input tensor's size and stride (at least one dimension "
        "spans across two contiguous subspaces). Use .reshape(...) instead.");
  return restride(t, shape, *st);
}

/// Tensor.reshape(shape): a view when computeStride allows it, else a contiguous copy.
inline Tensor reshape(const Tensor& t, const Shape& shape) {
  if (auto st = compute_stride(t, shape)) return restride(t, shape, *st);
  return view(clone(t), shape);
}

/// t[i] along dim 0.
inline Tensor select0(const Tensor& t, int64_t i) {
  Shape s(t.sizes().begin() + 1, t.sizes().end());
  Strides st(t.strides().begin() + 1, t.strides().end());
  return t.as_strided_view(s, st, t.storage_offset() + i * t.strides()[0]);
}

/// ATen's infer_size for broadcasting batch dims.
inline Shape infer_size(const Shape& a, const Shape& b) {
  const size_t n = std::max(a.size(), b.size());
  Shape out(n);
  for (size_t i = 0; i < n; ++i) {
    const int64_t da = int64_t(i) - int64_t(n - a.size()), db = int64_t(i) - int64_t(n - b.size());
    const int64_t sa = da >= 0 ? a[da] : 1, sb = db >= 0 ? b[db] : 1;
    check(sa == sb || sa == 1 || sb == 1,
          "The size of tensor a ({}) must match the size of tensor b ({}) at non-singleton "
          "dimension {}",
          sa, sb, i);
    out[i] = sa == 1 ? sb : sa;
  }
  return out;
}

}  // namespace dc::linalg_detail
