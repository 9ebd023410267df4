// nll_loss frames as aten/src/ATen/native/LossNLL.cpp writes them (see kernels/baseline/nll_loss.h).
#include "densecore/kernels/baseline/nll_loss.h"

#include <bit>

#include "densecore/core/error.h"
#include "densecore/kernels/iter/parallel.h"

namespace dc::kernels {
namespace {

int64_t target_at(const NllArgs& a, int64_t i) {
  return a.target_u8 ? int64_t(static_cast<const uint8_t*>(a.target)[i * a.tgt_stride])
                     : static_cast<const int64_t*>(a.target)[i * a.tgt_stride];
}

void check_target(int64_t t, int64_t classes) {
  check<IndexError>(t >= 0 && t < classes, "Target {} is out of bounds.", t);
}

/// at::native::utils::CeilLog2 (cpu/utils.h).
int64_t ceil_log2(int64_t x) {
  if (x <= 2) return 1;
  return int64_t(63 - std::countl_zero(uint64_t(x) - 1)) + 1;
}

template <class T>
void forward_none(const NllArgs& a, T* out, int64_t out_stride) {
  const T* in = static_cast<const T*>(a.input);
  const T* w = static_cast<const T*>(a.weight);
  parallel_for(0, a.batch, 0, [&](int64_t b, int64_t e) {
    for (int64_t i = b; i < e; ++i) {
      const int64_t t = target_at(a, i);
      if (t == a.ignore_index) {
        out[i * out_stride] = T(0);
        continue;
      }
      check_target(t, a.classes);
      const T cur_weight = w ? w[t] : T(1);
      out[i * out_stride] = -in[i * a.in_stride0 + t * a.in_stride1] * cur_weight;
    }
  });
}

/// nll_loss_out_frame's reduction: cascade_sum_num_levels = 8 partial sums, level 0 flushed into
/// level 1 every 2^level_power non-skipped rows (ignored rows skip the flush too), then
/// std::accumulate from 0.
template <class T>
void forward_reduce(const NllArgs& a, Reduction r, T* out, T* total_weight) {
  const T* in = static_cast<const T*>(a.input);
  const T* w = static_cast<const T*>(a.weight);
  constexpr int64_t kLevels = 8;
  const int64_t level_power = std::max<int64_t>(4, ceil_log2(a.batch) / kLevels);
  const int64_t level_mask = (int64_t(1) << level_power) - 1;
  int64_t num_ignored = 0;
  T weight_sums[kLevels] = {}, loss_sums[kLevels] = {};
  for (int64_t b = 0; b < a.batch; ++b) {
    const int64_t t = target_at(a, b);
    if (t == a.ignore_index) {
      ++num_ignored;
      continue;
    }
    check_target(t, a.classes);
    const T x = in[b * a.classes + t];
    if (w) {
      loss_sums[0] -= x * w[t];
      weight_sums[0] += w[t];
    } else {
      loss_sums[0] -= x;
    }
    for (int64_t j = 0; j + 1 < kLevels; ++j) {
      if ((b & (level_mask << (j * level_power))) != 0) break;
      weight_sums[j + 1] += weight_sums[j];
      loss_sums[j + 1] += loss_sums[j];
      weight_sums[j] = T(0);
      loss_sums[j] = T(0);
    }
  }
  T total = T(0), sum = T(0);
  if (w)
    for (T s : weight_sums) total = total + s;
  else
    total = T(a.batch - num_ignored);
  for (T s : loss_sums) sum = sum + s;
  if (r == Reduction::Mean) sum /= total;
  *out = sum;
  *total_weight = total;
}

template <class T>
void backward(const NllArgs& a, Reduction r, const T* go, int64_t go_stride, const T* total_weight, T* gin) {
  const T* w = static_cast<const T*>(a.weight);
  if (r == Reduction::None && !a.input_1d) {
    parallel_for(0, a.batch, 0, [&](int64_t b, int64_t e) {
      for (int64_t i = b; i < e; ++i) {
        const int64_t t = target_at(a, i);
        if (t == a.ignore_index) continue;
        const T wt = w ? w[t] : T(1);
        gin[i * a.classes + t] = -wt * go[i * go_stride];
      }
    });
    return;
  }
  const T grad = -(r == Reduction::Mean ? *go / *total_weight : *go);
  parallel_for(0, a.input_1d ? 1 : a.batch, 0, [&](int64_t b, int64_t e) {
    for (int64_t i = b; i < e; ++i) {
      const int64_t t = target_at(a, i);
      if (t == a.ignore_index) continue;
      check_target(t, a.classes);
      gin[i * a.classes + t] = w ? w[t] * grad : grad;
    }
  });
}

template <class F>
void dispatch_float(DType t, const char* name, F&& f) {
  if (t == DType::Float32) f.template operator()<float>();
  else if (t == DType::Float64) f.template operator()<double>();
  else if (t == DType::Float16 || t == DType::BFloat16)
    throw NotImplementedError(dc::format("\"{}\" for '{}' is not implemented in densecore yet", name, scalar_type_name(t)));
  else throw NotImplementedError(dc::format("\"{}\" not implemented for '{}'", name, scalar_type_name(t)));
}

}  // namespace

void nll_loss_forward_none(const NllArgs& a, void* out, int64_t out_stride) {
  dispatch_float(a.dtype, "nll_loss_out_frame", [&]<class T>() { forward_none<T>(a, static_cast<T*>(out), out_stride); });
}

void nll_loss_forward_reduce(const NllArgs& a, Reduction r, void* out, void* total_weight) {
  dispatch_float(a.dtype, "nll_loss_out_frame",
                 [&]<class T>() { forward_reduce<T>(a, r, static_cast<T*>(out), static_cast<T*>(total_weight)); });
}

void nll_loss_backward(const NllArgs& a, Reduction r, const void* grad_output, int64_t go_stride,
                       const void* total_weight, void* grad_input) {
  dispatch_float(a.dtype, "nll_loss_backward_out_frame", [&]<class T>() {
    backward<T>(a, r, static_cast<const T*>(grad_output), go_stride, static_cast<const T*>(total_weight),
                static_cast<T*>(grad_input));
  });
}

}  // namespace dc::kernels
