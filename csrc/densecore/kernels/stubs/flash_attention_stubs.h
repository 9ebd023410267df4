// Dispatch stubs of the CPU flash-attention kernels (kernels/cpu/flash_attention.cpp), mirroring
// aten/src/ATen/native/cpu/FlashAttentionKernel.cpp, which registers both with
// ALSO_REGISTER_AVX512_DISPATCH: AVX-512 machines run the 16-lane build.
#pragma once

#include <cstdint>

#include "densecore/kernels/dispatch/dispatch.h"

namespace dc {

/// One (B, L|S, H, E) operand: data at element offsets i*sb + t*st + h*sh + e (stride 1 in E).
struct AttnOperand {
  const void* data = nullptr;  // float or double, as FlashAttnShape::is_double says
  int64_t sb = 0, st = 0, sh = 0;
};

/// An additive float mask already reshaped to 4-D as reshape_attn_mask_to_4d does; zero strides
/// for broadcast dims. data == nullptr: no mask.
struct AttnMask {
  const void* data = nullptr;  // the query's dtype, or float32 (float32 mask with float64 query)
  int64_t sb = 0, sh = 0, sm = 0, sn = 0;
  bool is_float = false;  // float32 values under a float64 query
};

struct FlashAttnShape {
  int64_t batch = 0, heads = 0, q_len = 0, kv_len = 0, head_dim = 0;
  int64_t kv_heads = 0;  // divides heads: q head j reads kv head j / (heads / kv_heads) (GQA/MQA)
  double scale = 0.0;  // calculate_scale(query, scale); the kernel rounds it to its accumulate type
  bool is_causal = false;
  bool is_double = false;  // float64 operands (else float32)
};

/// out (B, L, H, E) and lse (B, L, H) views written by the forward.
struct FlashAttnFwdArgs {
  FlashAttnShape shape;
  AttnOperand q, k, v, out, lse;
  AttnMask mask;
};

/// grad_q/k/v are zero-filled (B, T, H, E) views the backward accumulates into.
struct FlashAttnBwdArgs {
  FlashAttnShape shape;
  AttnOperand grad_out, q, k, v, out, lse;
  AttnOperand grad_q, grad_k, grad_v;  // written (data cast from const)
  AttnMask mask;
};

using FlashAttnFwdFn = void (*)(const FlashAttnFwdArgs& args);
using FlashAttnBwdFn = void (*)(const FlashAttnBwdArgs& args);

DC_DECLARE_DISPATCH(FlashAttnFwdFn, flash_attention_stub);
DC_DECLARE_DISPATCH(FlashAttnBwdFn, flash_attention_backward_stub);

}  // namespace dc
