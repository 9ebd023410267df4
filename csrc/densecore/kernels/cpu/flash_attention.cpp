// CPU flash attention, float32 and float64: forward and backward kernels of
// aten/src/ATen/native/cpu/FlashAttentionKernel.cpp (cpu_flash_attention<float, float, qSplit, 512>,
// cpu_flash_attention_backward), registered with ALSO_REGISTER_AVX512_DISPATCH as torch does.
// FMA sites follow torch's machine code (libtorch_cpu.so 2.14.1, AVX2 and AVX-512 builds; see
// docs/exactness.md "Scaled dot-product attention").
#include <algorithm>
#include <cmath>
#include <limits>
#include <vector>

#include "densecore/kernels/cpu/vec_reduce.h"
#include "densecore/kernels/stubs/flash_attention_stubs.h"
#include "densecore/kernels/blas/gemm_mkl.h"
#include "densecore/kernels/iter/parallel.h"
#include "densecore/kernels/vec/lane_math.h"

namespace dc {
inline namespace DC_CPU_CAPABILITY {
namespace {

using vec::Vec;
using cpublas::Trans;
template <class T>
constexpr T kNegInf = -std::numeric_limits<T>::infinity();

// ---- exp flavours ------------------------------------------------------------------------------

/// Vectorized<float>::exp_u20() (vec256_float.h / vec512_float.h) per lane: clamp, 2^floor(x*log2e
/// + 0.5) split, degree-5 Horner in explicit FMAs, scaled by 2^(n-1) then 2. DEFAULT maps std::exp.
inline float exp_u20(float x) {
#if defined(DC_VEC_X86)
  const float ln_min = std::bit_cast<float>(0xc2aeac50u), ln_max = std::bit_cast<float>(0x42b17218u);
  const bool too_small = x < ln_min;
  float s = x < ln_max ? x : ln_max;  // min_ps(x, max): the second operand when x is NaN
  s = s > ln_min ? s : ln_min;        // max_ps(s, min)
  const float fx = std::floor(std::fma(s, std::bit_cast<float>(0x3fb8aa3bu), 0.5f));
  const float r = std::fma(-fx, std::bit_cast<float>(0x3f317218u), s);  // fnmadd
  float p = std::fma(r, 0.00828929059f, 0.0418978221f);
  p = std::fma(r, p, 0.166676521f);
  p = std::fma(r, p, 0.499991506f);
  p = std::fma(r, p, 0.999999701f);
  p = std::fma(r, p, 1.0f);
  const int32_t e = int32_t(fx - 1.0f);  // exact: fx is an integer in [-126, 128]
  const float two_n = too_small ? 0.0f : std::bit_cast<float>(uint32_t(e + 127) << 23);
  return (p * two_n) * 2.0f;
#else
  return std::exp(x);
#endif
}

/// Vectorized<double>::exp_u20() is vec_base.h's: the regular exp() (Vectorized<T>::exp, u10).
inline double exp_u20(double x) { return vec::exp_lane(x); }

// Whole-vector forms of the two float exps above for native lanes (AVX2/AVX-512): the same operations
// per lane in the same order, so the same bits; only the scalar per-lane calls are gone.
#if defined(DC_VEC_X86)
using vec::FLanes;
using vec::ILanes;
using vec::fma_lanes;
using vec::floor_lanes;
using vec::pow2i_lanes;
using vec::splat;
using vec::splat_bits;

/// exp_u20 (scalar form above) on every lane.
inline Vec<float> exp_u20(const Vec<float>& in) {
  const FLanes x = in.v, ln_min = splat_bits(0xc2aeac50u), ln_max = splat_bits(0x42b17218u);
  const ILanes too_small = x < ln_min;
  FLanes s = x < ln_max ? x : ln_max;
  s = s > ln_min ? s : ln_min;
  const FLanes fx = floor_lanes(fma_lanes(s, splat_bits(0x3fb8aa3bu), splat(0.5f)));
  const FLanes r = fma_lanes(-fx, splat_bits(0x3f317218u), s);
  FLanes p = fma_lanes(r, splat(0.00828929059f), splat(0.0418978221f));
  p = fma_lanes(r, p, splat(0.166676521f));
  p = fma_lanes(r, p, splat(0.499991506f));
  p = fma_lanes(r, p, splat(0.999999701f));
  p = fma_lanes(r, p, splat(1.0f));
  const ILanes e = __builtin_convertvector(fx - splat(1.0f), ILanes);
  const FLanes two_n = too_small ? splat(0.0f) : pow2i_lanes(e);
  return Vec<float>::native((p * two_n) * splat(2.0f));
}
#endif

/// exp_u20 of a whole Vec: the native form for float lanes, else lane by lane (exp_u10 is vec::exp_lanes).
template <class T>
inline Vec<T> exp_u20_vec(const Vec<T>& x) {
  if constexpr (vec::is_native_v<T> && std::is_same_v<T, float>) return exp_u20(x);
  else return x.map([](T t) { return exp_u20(t); });
}

// a * b + c where GCC compiled one FMA in torch's AVX2/AVX-512 builds.
using vec::fmadd_contracted;

// ---- row helpers (FlashAttentionKernel.cpp's fusion kernels) ----------------------------------

/// n rounded up to a whole number of vectors.
template <class T>
constexpr int64_t round_up_to_vec(int64_t n) {
  return divup(n, Vec<T>::size()) * Vec<T>::size();
}

/// Note [Causal columns]: in a causal kv block, row `row` of q block m holds keys up to m + row - n and
/// torch fills the rest with -inf (forward, before the scale) or 0 (backward, after the exp). The columns
/// past that are only computed to be overwritten or to add nothing, so the row helpers skip whole vectors
/// of them; each lane that is kept is computed exactly as before. The forward skip needs scale > 0
/// (otherwise -inf * scale is not -inf); a block without the causal fill has all kvb columns live.
inline int64_t causal_live_columns(bool causal_block, int64_t m, int64_t row, int64_t n, int64_t kvb) {
  if (!causal_block) return kvb;
  return std::clamp<int64_t>(m + row - n + 1, 0, kvb);
}

/// _mul_reduce_max_fusion_kernel: out = a * scale, returns the max (vector lanes, then the scalar
/// tail with std::max, then std::max(tail, vec_reduce_all(maximum)), or NaN when the lanes held one).
/// `live`: a[i] is -inf for every i >= live, and scale > 0 (see causal_live_columns): whole vectors past
/// `live` would only store -inf * scale = -inf and leave the lane maxima as they are, so they just store it.
template <class T>
T mul_reduce_max(const T* a, T scale, int64_t size, T* out, int64_t live) {
  Vec<T> vmax(kNegInf<T>);
  const int64_t vend = Vec<T>::size() * (size / Vec<T>::size());
  const int64_t vlive = std::min(vend, round_up_to_vec<T>(live));
  for (int64_t i = 0; i < vlive; i += Vec<T>::size()) {
    const Vec<T> t = Vec<T>::loadu(a + i) * Vec<T>(scale);
    vmax = vec::maximum(vmax, t);
    t.store(out + i);
  }
  for (int64_t i = vlive; i < vend; i += Vec<T>::size()) Vec<T>(kNegInf<T>).store(out + i);
  T tmax = kNegInf<T>;
  for (int64_t i = vend; i < size; ++i) {
    const T t = a[i] * scale;
    tmax = std::max(tmax, t);
    out[i] = t;
  }
  const T reduced = vec::vec_reduce_all<T>([](const Vec<T>& x, const Vec<T>& y) { return vec::maximum(x, y); }, vmax);
  // torch's guard against Q*K^T being NaN: a NaN in the vector lanes makes the row max a quiet NaN
  // (std::max alone would drop it); a NaN only in the scalar tail is still dropped.
  return std::isnan(reduced) ? std::numeric_limits<T>::quiet_NaN() : std::max(tmax, reduced);
}

/// _exp_reduce_sum_fusion_kernel: out = exp(a - max) (exp_u20 on full vectors, the double
/// ::exp on the scalar tail), returns the vector-tree sum plus the tail added in order.
/// `live` as for mul_reduce_max, and max is not NaN: whole vectors past `live` are exp_u20(-inf) = +0,
/// which leave the lane sums as they are (they are never -0), so they just store +0.
template <class T>
T exp_reduce_sum(const T* a, int64_t size, T* out, T max, int64_t live) {
  Vec<T> vsum(T(0));
  const int64_t vend = Vec<T>::size() * (size / Vec<T>::size());
  const int64_t vlive = std::isnan(max) ? vend : std::min(vend, round_up_to_vec<T>(live));
  for (int64_t i = 0; i < vlive; i += Vec<T>::size()) {
    const Vec<T> t = exp_u20_vec(Vec<T>::loadu(a + i) - Vec<T>(max));
    vsum = vsum + t;
    t.store(out + i);
  }
  for (int64_t i = vlive; i < vend; i += Vec<T>::size()) Vec<T>(T(0)).store(out + i);
  T sum = vec::vec_reduce_all<T>([](const Vec<T>& x, const Vec<T>& y) { return x + y; }, vsum);
  for (int64_t i = vend; i < size; ++i) {
    const T t = T(std::exp(double(a[i] - max)));  // torch's `exp(tmp1)` binds to double exp
    sum += t;
    out[i] = t;
  }
  return sum;
}

/// _scale_attn_mask_fusion_kernel<T, M>: a = a * scale + mask (stride0: one mask value per row);
/// `add_only` is the backward's a * 1 + mask, where GCC folded the multiply away. With a float mask
/// under double scores torch's vector loop steps by the float width but converts and stores one
/// double vector, so the upper half of each float-width block keeps its raw score: mirrored.
template <class T, class M>
void scale_add_mask(T* a, const M* mask, bool stride0, int64_t size, T scale, bool add_only) {
  constexpr int64_t kStep = Vec<M>::size(), kDone = std::min(Vec<T>::size(), Vec<M>::size());
  const auto one = [&](int64_t i) {
    const T b = T(stride0 ? mask[0] : mask[i]);
    a[i] = add_only ? a[i] + b : fmadd_contracted(a[i], scale, b);
  };
  int64_t i = 0;
  for (; i < size - (size % kStep); i += kStep)
    for (int64_t j = 0; j < kDone; ++j) one(i + j);
  for (; i < size; ++i) one(i);
}

/// The mask row pointer for (i, j, row) at column n, in its own dtype, applied to a score row.
template <class T, class M>
void apply_mask(const AttnMask& mk, T* r, int64_t i, int64_t j, int64_t row, int64_t n, int64_t kvb, T scale,
                bool add_only) {
  const M* mp = static_cast<const M*>(mk.data) + i * mk.sb + j * mk.sh + row * mk.sm;
  // torch's kernel reads the row contiguously from column n (mStrideN is only tested against 0).
  scale_add_mask<T, M>(r, mk.sn == 0 ? mp : mp + n, mk.sn == 0, kvb, scale, add_only);
}
template <class T>
void apply_mask(const AttnMask& mk, T* r, int64_t i, int64_t j, int64_t row, int64_t n, int64_t kvb, T scale,
                bool add_only) {
  if (std::is_same_v<T, double> && mk.is_float) apply_mask<T, float>(mk, r, i, j, row, n, kvb, scale, add_only);
  else apply_mask<T, T>(mk, r, i, j, row, n, kvb, scale, add_only);
}

/// vec::map2(f, out, in1, in2, size): full vectors, then one zero-padded partial vector.
template <class T, class F>
void map2(const F& f, T* out, const T* x, const T* y, int64_t size) {
  int64_t d = 0;
  for (; d < size - (size % Vec<T>::size()); d += Vec<T>::size()) f(Vec<T>::loadu(x + d), Vec<T>::loadu(y + d)).store(out + d);
  if (size - d > 0)
    vec::store_partial(f(vec::loadu_partial(x + d, size - d), vec::loadu_partial(y + d, size - d)), out + d, size - d);
}

template <class T>
const T* ptr(const AttnOperand& o) { return static_cast<const T*>(o.data); }

template <class T>
void fill(T* p, T v, int64_t n) {
  for (int64_t i = 0; i < n; ++i) p[i] = v;
}

/// The q-block size torch picks from the query length (flash_attention_kernel_impl).
int64_t q_split_for(int64_t q_len) { return q_len >= 768 ? 256 : q_len >= 192 ? 64 : 32; }
constexpr int64_t kKvSplit = 512;

// ---- forward -------------------------------------------------------------------------------------

template <class T>
struct FwdBuffers {
  std::vector<T> qk, qk_max, qk_sum, dst;
};

/// One (batch i, head j, q-block starting at m): online softmax over kv blocks, then out and lse.
template <class T>
void forward_block(const FlashAttnFwdArgs& a, FwdBuffers<T>& buf, int64_t i, int64_t j, int64_t m,
                   int64_t q_split, int64_t kv_split) {
  const FlashAttnShape& sh = a.shape;
  const int64_t E = sh.head_dim, S = sh.kv_len;
  const int64_t qb = std::min(q_split, sh.q_len - m);
  T* qk = buf.qk.data();
  T* qk_max = buf.qk_max.data();
  T* qk_sum = buf.qk_sum.data();
  T* dst = buf.dst.data();
  fill(qk_max, kNegInf<T>, qb);
  fill(qk_sum, T(0), qb);
  const int64_t num_keys = sh.is_causal ? std::min(m + qb, S) : S;
  const T* qp = ptr<T>(a.q) + i * a.q.sb + j * a.q.sh + m * a.q.st;
  const int64_t jk = j / (sh.heads / sh.kv_heads);
  for (int64_t n = 0; n < num_keys; n += kv_split) {
    const int64_t kvb = std::min(kv_split, S - n);
    cpublas::gemm<T>(Trans::T, Trans::N, kvb, qb, E, T(1), ptr<T>(a.k) + i * a.k.sb + jk * a.k.sh + n * a.k.st,
                         a.k.st, qp, a.q.st, T(0), qk, kvb);
    if (sh.is_causal && num_keys - n <= kv_split) {
      for (int64_t row = 0; row < qb; ++row) {
        const int64_t last_col = m + row - n;
        fill(qk + row * kvb + last_col + 1, kNegInf<T>, kvb - last_col - 1);
      }
    }
    if (a.mask.data) {
      for (int64_t row = 0; row < qb; ++row)
        apply_mask<T>(a.mask, qk + row * kvb, i, j, m + row, n, kvb, T(sh.scale), false);
    }
    const bool causal_block = sh.is_causal && num_keys - n <= kv_split && !a.mask.data && T(sh.scale) > T(0);
    for (int64_t row = 0; row < qb; ++row) {
      T* r = qk + row * kvb;
      const int64_t live = causal_live_columns(causal_block, m, row, n, kvb);
      T tmp_max = a.mask.data
                          ? vec::reduce_all<T>([](const Vec<T>& x, const Vec<T>& y) { return vec::maximum(x, y); }, r, kvb)
                          : mul_reduce_max(r, T(sh.scale), kvb, r, live);
      tmp_max = qk_max[row] > tmp_max ? qk_max[row] : tmp_max;
      if (tmp_max == kNegInf<T>) {
        fill(r, T(0), kvb);
        continue;
      }
      const T tmp_sum = exp_reduce_sum(r, kvb, r, tmp_max, live);
      const T exp_tmp = std::exp(qk_max[row] - tmp_max);
      qk_sum[row] = fmadd_contracted(exp_tmp, qk_sum[row], tmp_sum);
      qk_max[row] = tmp_max;
      if (n > 0) {
        T* d = dst + row * E;
        vec::map<T>([exp_tmp](const Vec<T>& x) { return x * Vec<T>(exp_tmp); }, d, d, E);
      }
    }
    cpublas::gemm<T>(Trans::N, Trans::N, E, qb, kvb, T(1), ptr<T>(a.v) + i * a.v.sb + jk * a.v.sh + n * a.v.st,
                         a.v.st, qk, kvb, n == 0 ? T(0) : T(1), dst, E);
  }
  T* out = const_cast<T*>(ptr<T>(a.out)) + i * a.out.sb + j * a.out.sh + m * a.out.st;
  for (int64_t row = 0; row < qb; ++row) {
    qk_max[row] = qk_max[row] == kNegInf<T> ? T(0) : qk_max[row];
    qk_sum[row] = qk_sum[row] == T(0) ? T(1) : qk_sum[row];
    const T rcp = T(1) / qk_sum[row];
    vec::map<T>([rcp](const Vec<T>& x) { return x * Vec<T>(rcp); }, out + row * a.out.st, dst + row * E, E);
  }
  T* lse = const_cast<T*>(ptr<T>(a.lse)) + i * a.lse.sb + j * a.lse.sh + m * a.lse.st;
  for (int64_t row = 0; row < qb; ++row) lse[row * a.lse.st] = qk_max[row] + std::log(qk_sum[row]);
}

template <class T>
void flash_attention_kernel(const FlashAttnFwdArgs& a) {
  const FlashAttnShape& sh = a.shape;
  const int64_t q_split = std::min(q_split_for(sh.q_len), sh.q_len);
  const int64_t kv_split = std::min(kKvSplit, sh.kv_len);
  const int64_t q_slice = (sh.q_len + q_split - 1) / q_split;
  parallel_for(0, sh.batch * sh.heads * q_slice, 1, [&](int64_t begin, int64_t end) {
    FwdBuffers<T> buf{std::vector<T>(q_split * kv_split), std::vector<T>(q_split),
                   std::vector<T>(q_split), std::vector<T>(q_split * sh.head_dim)};
    for (int64_t z = begin; z < end; ++z) {
      const int64_t k = z % q_slice, j = (z / q_slice) % sh.heads, i = z / (q_slice * sh.heads);
      forward_block(a, buf, i, j, k * q_split, q_split, kv_split);
    }
  });
}

// ---- backward ------------------------------------------------------------------------------------

/// vec::map2_reduce_all(x * y, +): multiply then add (no FMA in torch's build), tree reduction.
template <class T>
T dot_reduce(const T* x, const T* y, int64_t size) {
  if (size < Vec<T>::size()) {
    const Vec<T> t = vec::loadu_partial(x, size) * vec::loadu_partial(y, size);
    return vec::vec_reduce_all_seq<T>([](const Vec<T>& p, const Vec<T>& q) { return p + q; }, t, size);
  }
  Vec<T> acc = Vec<T>::loadu(x) * Vec<T>::loadu(y);
  int64_t d = Vec<T>::size();
  for (; d < size - (size % Vec<T>::size()); d += Vec<T>::size()) acc = acc + Vec<T>::loadu(x + d) * Vec<T>::loadu(y + d);
  if (size - d > 0) {
    const Vec<T> t = vec::loadu_partial(x + d, size - d) * vec::loadu_partial(y + d, size - d);
    acc = vec::set(acc, acc + t, size - d);
  }
  return vec::vec_reduce_all<T>([](const Vec<T>& p, const Vec<T>& q) { return p + q; }, acc);
}

/// One (batch i, head j, q-block m): recompute P from lse, accumulate grad_v, grad_q, grad_k
/// inside sgemm (beta 1) in torch's loop order.
template <class T>
void backward_block(const FlashAttnBwdArgs& a, T* attn, T* grad_attn, T* dsum, int64_t i,
                    int64_t j, int64_t jk, int64_t m, int64_t q_split, int64_t kv_split) {
  const FlashAttnShape& sh = a.shape;
  const int64_t E = sh.head_dim, S = sh.kv_len;
  const int64_t qb = std::min(q_split, sh.q_len - m);
  const T* go = ptr<T>(a.grad_out) + i * a.grad_out.sb + j * a.grad_out.sh + m * a.grad_out.st;
  const T* o = ptr<T>(a.out) + i * a.out.sb + j * a.out.sh + m * a.out.st;
  for (int64_t row = 0; row < qb; ++row) dsum[row] = dot_reduce(go + row * a.grad_out.st, o + row * a.out.st, E);
  const T* qp = ptr<T>(a.q) + i * a.q.sb + j * a.q.sh + m * a.q.st;
  const T* lse = ptr<T>(a.lse) + i * a.lse.sb + j * a.lse.sh + m * a.lse.st;
  T* gq = const_cast<T*>(ptr<T>(a.grad_q)) + i * a.grad_q.sb + j * a.grad_q.sh + m * a.grad_q.st;
  const int64_t num_keys = sh.is_causal ? std::min(m + qb, S) : S;
  for (int64_t n = 0; n < num_keys; n += kv_split) {
    const int64_t kvb = std::min(kv_split, S - n);
    const T* kp = ptr<T>(a.k) + i * a.k.sb + jk * a.k.sh + n * a.k.st;
    const T* vp = ptr<T>(a.v) + i * a.v.sb + jk * a.v.sh + n * a.v.st;
    T* gk = const_cast<T*>(ptr<T>(a.grad_k)) + i * a.grad_k.sb + jk * a.grad_k.sh + n * a.grad_k.st;
    T* gv = const_cast<T*>(ptr<T>(a.grad_v)) + i * a.grad_v.sb + jk * a.grad_v.sh + n * a.grad_v.st;
    cpublas::gemm<T>(Trans::T, Trans::N, kvb, qb, E, T(sh.scale), kp, a.k.st, qp, a.q.st, T(0), attn, kvb);
    if (a.mask.data) {  // attn * 1 + mask
      for (int64_t row = 0; row < qb; ++row) apply_mask<T>(a.mask, attn + row * kvb, i, j, m + row, n, kvb, T(1), true);
    }
    const bool causal_block = sh.is_causal && num_keys - n <= kv_split;
    for (int64_t row = 0; row < qb; ++row) {
      const T norm = lse[row * a.lse.st];
      T* r = attn + row * kvb;
      // Columns past `live` are zeroed below (Note [Causal columns]); exp them only up to a whole vector.
      const int64_t live = causal_live_columns(causal_block, m, row, n, kvb);
      vec::map<T>([norm](const Vec<T>& x) { return vec::exp_lanes(x - Vec<T>(norm)); }, r, r,
                  std::min(kvb, round_up_to_vec<T>(live)));
    }
    if (causal_block) {
      for (int64_t row = 0; row < qb; ++row) {
        const int64_t last_col = m + row - n;
        fill(attn + row * kvb + last_col + 1, T(0), kvb - last_col - 1);
      }
    }
    cpublas::gemm<T>(Trans::N, Trans::T, E, kvb, qb, T(1), go, a.grad_out.st, attn, kvb, T(1), gv, a.grad_v.st);
    cpublas::gemm<T>(Trans::T, Trans::N, kvb, qb, E, T(1), vp, a.v.st, go, a.grad_out.st, T(0), grad_attn, kvb);
    for (int64_t row = 0; row < qb; ++row) {
      const T d = dsum[row];
      T* ga = grad_attn + row * kvb;
      const T* p = attn + row * kvb;
      map2([d](const Vec<T>& x, const Vec<T>& g) { return x * (g - Vec<T>(d)); }, ga, p, ga, kvb);
    }
    cpublas::gemm<T>(Trans::N, Trans::N, E, qb, kvb, T(sh.scale), kp, a.k.st, grad_attn, kvb, T(1), gq, a.grad_q.st);
    cpublas::gemm<T>(Trans::N, Trans::T, E, kvb, qb, T(sh.scale), qp, a.q.st, grad_attn, kvb, T(1), gk, a.grad_k.st);
  }
}

template <class T>
void flash_attention_backward_kernel(const FlashAttnBwdArgs& a) {
  const FlashAttnShape& sh = a.shape;
  const int64_t q_split = std::min(q_split_for(sh.q_len), sh.q_len);
  const int64_t kv_split = std::min(kKvSplit, sh.kv_len);
  const int64_t rep = sh.heads / sh.kv_heads;
  // One task per (batch, kv head): it owns that head's grad_k/grad_v, looping over its q heads.
  parallel_for(0, sh.batch * sh.kv_heads, 1, [&](int64_t begin, int64_t end) {
    std::vector<T> attn(q_split * kv_split), grad_attn(q_split * kv_split), dsum(q_split);
    for (int64_t z = begin; z < end; ++z) {
      const int64_t jk = z % sh.kv_heads, i = z / sh.kv_heads;
      for (int64_t r = 0; r < rep; ++r)
        for (int64_t m = 0; m < sh.q_len; m += q_split)
          backward_block(a, attn.data(), grad_attn.data(), dsum.data(), i, jk * rep + r, jk, m, q_split, kv_split);
    }
  });
}

void flash_attention_entry(const FlashAttnFwdArgs& a) {
  a.shape.is_double ? flash_attention_kernel<double>(a) : flash_attention_kernel<float>(a);
}
void flash_attention_backward_entry(const FlashAttnBwdArgs& a) {
  a.shape.is_double ? flash_attention_backward_kernel<double>(a) : flash_attention_backward_kernel<float>(a);
}

}  // namespace

DC_ALSO_REGISTER_AVX512_DISPATCH(flash_attention_stub, &flash_attention_entry);
DC_ALSO_REGISTER_AVX512_DISPATCH(flash_attention_backward_stub, &flash_attention_backward_entry);

}  // namespace DC_CPU_CAPABILITY
}  // namespace dc
