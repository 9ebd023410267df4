// scaled_dot_product_attention: torch 2.14.1's CPU backend choice (sdp_utils_cpp.cpp
// use_flash_attention_cpp), the flash op and its backward (attention.cpp
// _scaled_dot_product_flash_attention_cpu[_backward]) over kernels/cpu/flash_attention.cpp, and the
// math fallback (_scaled_dot_product_attention_math) composed of recorded ops in torch's order.
#include "densecore/ops/attention.h"

#include <cmath>
#include <limits>

#include "densecore/core/error.h"
#include "densecore/kernels/stubs/flash_attention_stubs.h"
#include "densecore/ops/copy.h"
#include "densecore/ops/creation.h"
#include "densecore/ops/elementwise.h"
#include "densecore/ops/linalg.h"
#include "densecore/ops/nn.h"
#include "densecore/ops/reduce.h"
#include "densecore/ops/view.h"

namespace dc {
namespace {

constexpr const char* kFlash = "scaled_dot_product_attention_flash_attention";


Tensor wrapped(double x) { return wrapped_scalar_tensor(Scalar::from_double(x)); }

/// validate_sdpa_input (attention.cpp).
void validate_sdpa_input(const Tensor& q, const Tensor& k, const Tensor& v, const Tensor& mask) {
  check(q.dtype() == k.dtype() && q.dtype() == v.dtype(),
        "Expected query, key, and value to have the same dtype, but got query.dtype: {} key.dtype: {} and "
        "value.dtype: {} instead.", type_meta_name(q.dtype()), type_meta_name(k.dtype()), type_meta_name(v.dtype()));
  check(q.dim() >= 2 && k.dim() >= 2 && v.dim() >= 2,
        "Expected query, key, and value to all be  at least 2 dimensional, but got query.dim: {} key.dim: {} "
        "and value.dim: {} instead.", q.dim(), k.dim(), v.dim());
  if (mask.defined()) {
    const DType m = mask.dtype();
    check(m == DType::Bool || m == DType::Float32 || m == q.dtype(),
          "Expected attn_mask dtype to be bool or float or to match query dtype, but got attn_mask.dtype: {} "
          "and  query.dtype: {} instead.", type_meta_name(m), type_meta_name(q.dtype()));
  }
}

/// check_attn_mask_shape (sdp_utils_cpp.h): 2-D (L|1, S|1) or 4-D (B|1, H|1, L|1, S|1), no grad.
bool mask_shape_ok(const Tensor& mask, const Tensor& q, const Tensor& k) {
  if (!mask.defined()) return true;
  if (requires_grad(mask)) return false;
  const int64_t L = q.size(2), S = k.size(2);
  if (mask.size(-2) != L && mask.size(-2) != 1) return false;
  if (mask.size(-1) != S && mask.size(-1) != 1) return false;
  if (mask.dim() == 2) return true;
  if (mask.dim() != 4) return false;
  return (mask.size(0) == 1 || mask.size(0) == q.size(0)) && (mask.size(1) == 1 || mask.size(1) == q.size(1));
}

/// use_flash_attention_cpp: the gate functions in torch's order.
bool use_flash(const Tensor& q, const Tensor& k, const Tensor& v, const Tensor& mask, double dropout_p,
               bool is_causal, bool enable_gqa) {
  if (dropout_p > 0.0) return false;
  if (is_causal && mask.defined()) return false;  // observed: torch's math path then raises
  if (q.dim() != 4 || k.dim() != 4 || v.dim() != 4) return false;
  if (q.size(0) != k.size(0) || q.size(0) != v.size(0)) return false;
  const bool same_heads = q.size(1) == k.size(1) && q.size(1) == v.size(1);
  if (enable_gqa) {
    if (k.size(1) != v.size(1) || q.size(1) % k.size(1) != 0) return false;
  } else if (!same_heads && !(k.size(1) == 1 && v.size(1) == 1)) {  // MQA: one shared kv head
    return false;
  }
  if (!mask_shape_ok(mask, q, k)) return false;
  if (q.size(-1) != k.size(-1) || q.size(-1) != v.size(-1)) return false;
  if (q.size(-2) == 0 || k.size(-2) == 0) return false;
  if (q.stride(-1) != 1 || k.stride(-1) != 1 || v.stride(-1) != 1) return false;
  return is_floating(q.dtype());
}

/// convert_boolean_attn_mask: bool -> where(mask, 0.0, -inf) in the query dtype; others unchanged.
Tensor convert_boolean_attn_mask(const Tensor& mask, DType dtype) {
  if (!mask.defined() || mask.dtype() != DType::Bool) return mask;
  return where(mask, wrapped(0.0), full({}, Scalar::from_double(-std::numeric_limits<double>::infinity()), dtype));
}

/// reshape_attn_mask_to_4d + the kernel's stride rule (size 1 -> stride 0).
/// A float32 mask under a float64 query stays float32 (the kernel mirrors torch's mixed-type loop);
/// other dtypes are converted. `keep` holds the tensor the returned pointer reads.
AttnMask mask_operand(const Tensor& mask_in, DType dtype, int64_t B, int64_t H, int64_t L, int64_t S, Tensor& keep) {
  AttnMask m;
  if (!mask_in.defined() || mask_in.numel() == 0) return m;
  const bool keep_float = dtype == DType::Float64 && mask_in.dtype() == DType::Float32;
  const Tensor mask = mask_in.dtype() == dtype || keep_float ? mask_in : to_copy(mask_in, dtype);
  m.is_float = keep_float;
  const int64_t s0 = mask.dim() == 4 && mask.size(0) == B ? B : 1;
  const int64_t s1 = mask.dim() == 4 && mask.size(1) == H ? H : 1;
  const std::vector<int64_t> shape4{s0, s1, mask.size(-2), mask.size(-1)};
  const std::vector<int64_t> full4{s0, s1, L, S};
  const Tensor m4 = expand(view(mask, shape4), full4);
  keep = m4;
  m.data = m4.data_ptr();
  m.sb = m4.size(0) > 1 ? m4.stride(0) : 0;
  m.sh = m4.size(1) > 1 ? m4.stride(1) : 0;
  m.sm = m4.size(2) > 1 ? m4.stride(2) : 0;
  m.sn = m4.size(3) > 1 ? m4.stride(3) : 0;
  return m;
}

/// A (B, H, T, E) tensor seen as torch's kernel sees its transpose(1, 2).
AttnOperand operand(const Tensor& t) { return {t.data_ptr(), t.stride(0), t.stride(2), t.stride(1)}; }

/// sdp::calculate_scale (double); the kernel rounds it to its accumulate type.
double flash_scale(const Tensor& q, std::optional<double> scale) {
  return scale ? *scale : 1.0 / std::sqrt(double(q.size(-1)));
}

FlashAttnShape flash_shape(const Tensor& q, const Tensor& v, bool is_causal, std::optional<double> scale) {
  return {q.size(0), q.size(1), q.size(2), v.size(2), q.size(3), v.size(1), flash_scale(q, scale),
          is_causal, q.dtype() == DType::Float64};
}

/// at::_safe_softmax: softmax, with rows that are entirely -inf set to 0. The fix-up runs only when
/// such a row exists, so an ordinary input records the softmax node alone.
Tensor safe_softmax(const Tensor& x, int64_t dim) {
  Tensor out = softmax(x, dim);
  const std::vector<int64_t> dims{dim};
  const Tensor masked_rows =
      contiguous(compare(CompareOp::Eq, amax(x, dims, true), full({}, Scalar::from_double(-INFINITY), x.dtype())));
  const bool* p = masked_rows.data<bool>();
  bool any = false;
  for (int64_t i = 0; i < masked_rows.numel() && !any; ++i) any = p[i];
  if (!any) return out;
  return where(masked_rows, zeros({}, out.dtype()), out);
}

}  // namespace

// _scaled_dot_product_flash_attention_for_cpu is an op row (csrc/op_rows.toml): this is its forward.
std::tuple<Tensor, Tensor> impl::scaled_dot_product_flash_attention_for_cpu_forward(
    const Tensor& q, const Tensor& k, const Tensor& v, double dropout_p, bool is_causal, const Tensor& mask,
    std::optional<double> scale) {
  check(is_floating(q.dtype()), "{}: Expected data type in FP32, FP64, BF16, FP16, but got {} instead.", kFlash,
        scalar_type_name(q.dtype()));
  check(q.dim() == 4 && k.dim() == 4 && v.dim() == 4, "{}: Accept only 4 dims inputs shape of {{B, H, T, K}}", kFlash);
  check(dropout_p == 0.0, "{}: Currently do not support dropout > 0", kFlash);
  check(q.size(3) == v.size(3) && k.size(3) == v.size(3), "{}: Q/K/V should have the same head size", kFlash);
  check(!mask.defined() || mask.dtype() == DType::Float32 || mask.dtype() == q.dtype(),
        "{}: Attention mask is the same data type as query", kFlash);
  check(!mask.defined() || mask.dim() == 2 || mask.dim() == 4, "{}: Attention mask dim in {{2, 4}}", kFlash);
  check<NotImplementedError>(q.dtype() == DType::Float32 || q.dtype() == DType::Float64,
                             "[{}] only float32 and float64 are implemented, got {}", kFlash, scalar_type_name(q.dtype()));
  check(k.size(1) == v.size(1) && k.size(1) > 0 && q.size(1) % k.size(1) == 0,
        "{}: number of key/value heads must divide the number of query heads", kFlash);
  const int64_t B = q.size(0), H = q.size(1), L = q.size(2);
  const std::vector<int64_t> lse_shape{B, L, H};
  const Tensor out = empty_like_preserve(q, q.dtype());  // attention.cpp: empty_like(query), kernel sees transpose(1, 2)
  const Tensor lse3 = empty(lse_shape, q.dtype());  // the accumulate type: float for float, double for double
  Tensor mask_keep;
  FlashAttnFwdArgs args{flash_shape(q, v, is_causal, scale), operand(q), operand(k), operand(v),
                        operand(out), {lse3.data_ptr(), L * H, H, 1},
                        mask_operand(mask, q.dtype(), B, H, L, v.size(2), mask_keep)};
  if (out.numel() > 0) flash_attention_stub(args);
  return {out, transpose(lse3, 1, 2)};
}

std::tuple<Tensor, Tensor, Tensor> scaled_dot_product_flash_attention_for_cpu_backward(
    const Tensor& grad_out, const Tensor& q, const Tensor& k, const Tensor& v, const Tensor& out,
    const Tensor& lse, double dropout_p, bool is_causal, const Tensor& mask, std::optional<double> scale) {
  if (!grad_out.defined()) return {};
  check(q.size(3) == v.size(3) && k.size(3) == v.size(3), "{}_backward: Q/K/V should have the same head size",
        kFlash);
  const auto bthe = [](const Tensor& t) {
    return std::vector<int64_t>{t.size(0), t.size(2), t.size(1), t.size(3)};
  };
  const Tensor gq4 = zeros(bthe(q), q.dtype()), gk4 = zeros(bthe(k), k.dtype()), gv4 = zeros(bthe(v), v.dtype());
  // flash_attention_backward_kernel_impl: grad_out.transpose(1, 2).contiguous() (no zero strides).
  const Tensor go4 = contiguous(transpose(grad_out, 1, 2));
  const int64_t B = q.size(0), H = q.size(1), L = q.size(2), S = v.size(2);
  const auto bthe_op = [](const Tensor& t4) {  // a (B, T, H, E) tensor as an operand
    return AttnOperand{t4.data_ptr(), t4.stride(0), t4.stride(1), t4.stride(2)};
  };
  Tensor mask_keep;
  FlashAttnBwdArgs args{flash_shape(q, v, is_causal, scale), bthe_op(go4), operand(q), operand(k), operand(v),
                        operand(out), {lse.data_ptr(), lse.stride(0), lse.stride(2), lse.stride(1)},
                        bthe_op(gq4), bthe_op(gk4), bthe_op(gv4), mask_operand(mask, q.dtype(), B, H, L, S, mask_keep)};
  (void)dropout_p;  // always 0 here: the forward refuses dropout
  if (q.numel() > 0 && k.numel() > 0) flash_attention_backward_stub(args);
  return {transpose(gq4, 1, 2), transpose(gk4, 1, 2), transpose(gv4, 1, 2)};
}

std::tuple<Tensor, Tensor> scaled_dot_product_attention_math(const Tensor& q, const Tensor& k, const Tensor& v,
                                                             const Tensor& attn_mask, double dropout_p,
                                                             bool is_causal, std::optional<double> scale,
                                                             bool enable_gqa) {
  check<NotImplementedError>(q.dtype() != DType::Float16 && q.dtype() != DType::BFloat16,
                             "[scaled_dot_product_attention] the float16/bfloat16 math path is not implemented");
  const bool negative = scale && *scale < 0.0;
  const double s = scale ? (negative ? std::abs(*scale) : *scale) : 1.0 / std::sqrt(double(q.size(-1)));
  const double sf = std::sqrt(s);  // SymFloat::sqrt, in double
  const Tensor query = mul(q, wrapped(negative ? 0.0 - sf : sf));
  Tensor mask = attn_mask;
  if (is_causal) {
    check(!mask.defined(), "_scaled_dot_product_attention: Explicit attn_mask should not be set when is_causal=True");
    const std::vector<int64_t> ls{query.size(-2), k.size(-2)};
    mask = convert_boolean_attn_mask(tril(ones(ls, DType::Bool)), query.dtype());
  }
  check<NotImplementedError>(!enable_gqa || (q.size(-3) == k.size(-3) && q.size(-3) == v.size(-3)),
                             "[scaled_dot_product_attention] grouped-query attention is not implemented");
  Tensor attn = matmul(query, mul(transpose(k, -2, -1), wrapped(sf)));
  if (mask.defined()) attn = add(attn, mask, Scalar::from_int(1));
  attn = safe_softmax(attn, -1);
  if (dropout_p > 0.0) attn = dropout(attn, dropout_p, true);  // at::dropout(attn, p, true)
  return {matmul(attn, v), attn};
}

Tensor scaled_dot_product_attention(const Tensor& q, const Tensor& k, const Tensor& v, const Tensor& attn_mask,
                                    double dropout_p, bool is_causal, std::optional<double> scale,
                                    bool enable_gqa) {
  validate_sdpa_input(q, k, v, attn_mask);
  const Tensor mask = convert_boolean_attn_mask(attn_mask, q.dtype());
  if (q.dim() == 3 && k.dim() == 3 && v.dim() == 3) {
    // 2.14.1 (checked by tracing torch's ops): unbatched inputs and the mask are unsqueezed to 4-D
    // for the flash kernel, whose output is squeezed back.
    Tensor m4 = mask;
    while (m4.defined() && m4.dim() < 4) m4 = unsqueeze(m4, 0);
    const Tensor q4 = unsqueeze(q, 0), k4 = unsqueeze(k, 0), v4 = unsqueeze(v, 0);
    if (use_flash(q4, k4, v4, m4, dropout_p, is_causal, enable_gqa)) {
      const Tensor out = std::get<0>(scaled_dot_product_flash_attention_for_cpu(q4, k4, v4, dropout_p, is_causal, m4, scale));
      return squeeze_dim(out, 0);
    }
  } else if (use_flash(q, k, v, attn_mask, dropout_p, is_causal, enable_gqa)) {
    return std::get<0>(scaled_dot_product_flash_attention_for_cpu(q, k, v, dropout_p, is_causal, mask, scale));
  }
  return std::get<0>(scaled_dot_product_attention_math(q, k, v, mask, dropout_p, is_causal, scale, enable_gqa));
}

}  // namespace dc
