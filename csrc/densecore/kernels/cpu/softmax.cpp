// softmax / log_softmax forward kernels: aten/src/ATen/native/cpu/SoftMaxKernel.cpp
// (_vec_softmax_lastdim, _vec_log_softmax_lastdim, _vec_softmax) and LogSoftmaxKernelImpl.h
// (serial_vec_logsoftmax_range). Registered with ALSO_REGISTER_AVX512_DISPATCH in torch, so the
// AVX-512 build (16 float lanes) runs on AVX-512 machines. Vectorized exp/log are SLEEF u10
// (kernels/cpu/sleef_port.h) on AVX2/AVX-512 and std::exp/std::log per lane on DEFAULT; scalar
// tails call glibc's std::exp as torch's do.
#include <algorithm>
#include <cmath>
#include <limits>
#include <memory>

#include "densecore/kernels/cpu/vec_reduce.h"
#include "densecore/kernels/stubs/reduce_stubs.h"
#include "densecore/kernels/vec/lane_math.h"

namespace dc {
inline namespace DC_CPU_CAPABILITY {
namespace {

using vec::Vec;

using vec::exp_lanes;
using vec::log_lane;
using vec::log_lanes;
template <class T>
inline Vec<T> vmax(const Vec<T>& a, const Vec<T>& b) {
  return vec::maximum(a, b);
}

// Note [NaN operand order] (kernels/vec/vec.h): where two NaNs meet, torch's sums and products keep the
// first operand's NaN.
template <class T>
inline Vec<T> vadd(const Vec<T>& a, const Vec<T>& b) {
  return vec::add_ordered(a, b);
}
template <class T>
inline Vec<T> vmul(const Vec<T>& a, const Vec<T>& b) {
  return vec::mul_ordered(a, b);
}

/// _vec_softmax_lastdim: max, exp(x - max) stored, vector-tree sum, multiply by 1/sum.
template <class T>
void softmax_lastdim(const T* in_base, T* out_base, int64_t outer, int64_t dim) {
  parallel_for(0, outer, 0, [&](int64_t b, int64_t e) {
    for (int64_t i = b; i < e; ++i) {
      const T* in = in_base + i * dim;
      T* out = out_base + i * dim;
      const T mx = vec::reduce_all<T>(vmax<T>, in, dim);
      vec::map<T>([mx](const Vec<T>& x) { return exp_lanes(x - Vec<T>(mx)); }, out, in, dim);
      T sum = vec::reduce_all<T>(vadd<T>, out, dim);
      sum = T(1) / sum;
      // torch's build multiplies full vectors as (1/sum) * x, and the partial last one as x * (1/sum)
      // except in the AVX-512 float build (Note [NaN operand order]; found against torch's output).
      constexpr int64_t V = Vec<T>::size();
#if defined(DC_CPU_CAPABILITY_AVX512)
      constexpr bool kPartialSumFirst = std::is_same_v<T, float>;
#else
      constexpr bool kPartialSumFirst = false;
#endif
      int64_t d = 0;
      for (; d < dim - (dim % V); d += V) vmul(Vec<T>(sum), Vec<T>::loadu(out + d)).store(out + d);
      if (dim - d > 0) {
        const Vec<T> x = vec::loadu_partial(out + d, dim - d);
        vec::store_partial(kPartialSumFirst ? vmul(Vec<T>(sum), x) : vmul(x, Vec<T>(sum)), out + d, dim - d);
      }
    }
  });
}

/// serial_vec_log_softmax_lastdim_range per row (the chunking only groups rows; every step is
/// per row or per lane, so it does not change bits): (x - max) - log(sum exp(x - max)).
template <class T>
void log_softmax_lastdim(const T* in_base, T* out_base, int64_t outer, int64_t dim) {
  parallel_for(0, outer, 0, [&](int64_t b, int64_t e) {
    for (int64_t i = b; i < e; ++i) {
      const T* in = in_base + i * dim;
      T* out = out_base + i * dim;
      const T mx = vec::reduce_all<T>(vmax<T>, in, dim);
      T s = vec::map_reduce_all<T>([mx](const Vec<T>& x) { return exp_lanes(x - Vec<T>(mx)); }, vadd<T>, in, dim);
      s = log_lane(s);
      vec::map<T>([mx, s](const Vec<T>& x) { return (x - Vec<T>(mx)) - Vec<T>(s); }, out, in, dim);
    }
  });
}

/// _vec_softmax (dim != last): V inner positions at a time down the dim; positions that do not fill
/// a vector (inner tail, or a thread range's end) take the scalar path with std::exp and a division.
template <class T>
void softmax_inner(const T* in_base, T* out_base, int64_t outer, int64_t dim, int64_t inner) {
  constexpr int64_t V = Vec<T>::size();
  const int64_t outer_stride = dim * inner;
  parallel_for(0, outer * inner, 0, [&](int64_t begin, int64_t end) {
    int64_t idx = begin;
    while (idx < end) {
      int64_t oi = idx / inner, ii = idx % inner;
      if (ii + V <= inner && idx + V <= end) {
        const T* in = in_base + oi * outer_stride + ii;
        T* out = out_base + oi * outer_stride + ii;
        Vec<T> mx = Vec<T>::loadu(in);
        for (int64_t d = 1; d < dim; ++d) mx = vec::maximum(mx, Vec<T>::loadu(in + d * inner));
        Vec<T> sum(T(0));
        for (int64_t d = 0; d < dim; ++d) {
          const Vec<T> o = exp_lanes(Vec<T>::loadu(in + d * inner) - mx);
          o.store(out + d * inner);
          sum = vadd(sum, o);
        }
        for (int64_t d = 0; d < dim; ++d) (Vec<T>::loadu(out + d * inner) / sum).store(out + d * inner);
        idx += V;
      } else {
        const int64_t tail = idx + V > end ? end - idx : inner - ii;
        for (int64_t t = 0; t < tail; ++t) {
          oi = (idx + t) / inner;
          ii = (idx + t) % inner;
          const T* in = in_base + oi * outer_stride + ii;
          T* out = out_base + oi * outer_stride + ii;
          T mx = in[0];
          for (int64_t d = 1; d < dim; ++d) mx = std::max(mx, in[d * inner]);
          T sum = 0;
          for (int64_t d = 0; d < dim; ++d) {
            out[d * inner] = std::exp(in[d * inner] - mx);
            sum += out[d * inner];
          }
          for (int64_t d = 0; d < dim; ++d) out[d * inner] = out[d * inner] / sum;
        }
        idx += tail;
      }
    }
  });
}

/// _vec_logsoftmax + serial_vec_logsoftmax_range: inner blocked into chunks of CHUNK_SIZE.
template <class T>
void log_softmax_inner(const T* in_base, T* out_base, int64_t outer, int64_t dim, int64_t inner) {
  constexpr int64_t V = Vec<T>::size();
  int64_t max_chunk = std::max<int64_t>(128 * 1024 / dim / int64_t(sizeof(T)), V);
  max_chunk = max_chunk / V * V;
  const int64_t chunk = std::min<int64_t>(max_chunk, inner);
  const int64_t num_chunks = divup(inner, chunk);
  parallel_for(0, outer * num_chunks, 0, [&](int64_t begin, int64_t end) {
    auto buffer = std::make_unique<T[]>(size_t(chunk) * 2);
    T* mxd = buffer.get();
    T* sumd = buffer.get() + chunk;
    for (int64_t i = begin; i < end; ++i) {
      const int64_t oi = i / num_chunks, k = i % num_chunks, ib = k * chunk;
      const int64_t size = std::min(chunk, inner - ib);
      const int64_t vend = size - (size % V);
      for (int64_t d = 0; d < size; ++d) {
        mxd[d] = -std::numeric_limits<T>::infinity();
        sumd[d] = T(0);
      }
      auto row = [&](int64_t d) { return oi * dim * inner + d * inner + ib; };
      for (int64_t d = 0; d < dim; ++d) {
        const T* in = in_base + row(d);
        int64_t j = 0;
        for (; j < vend; j += V) {
          const Vec<T> x = Vec<T>::loadu(in + j), m = Vec<T>::loadu(mxd + j);
          Vec<T>::raw_zip(m, x, [](T a, T b) { return b > a ? b : a; }).store(mxd + j);  // blendv(x > max)
        }
        for (; j < size; ++j) mxd[j] = in[j] > mxd[j] ? in[j] : mxd[j];
      }
      for (int64_t d = 0; d < dim; ++d) {
        const T* in = in_base + row(d);
        int64_t j = 0;
        for (; j < vend; j += V)
          vadd(Vec<T>::loadu(sumd + j), exp_lanes(Vec<T>::loadu(in + j) - Vec<T>::loadu(mxd + j))).store(sumd + j);
        for (; j < size; ++j) sumd[j] += std::exp(in[j] - mxd[j]);
      }
      vec::map<T>([](const Vec<T>& x) { return log_lanes(x); }, sumd, sumd, size);
      for (int64_t d = 0; d < dim; ++d) {
        const T* in = in_base + row(d);
        T* out = out_base + row(d);
        int64_t j = 0;
        for (; j < vend; j += V)
          ((Vec<T>::loadu(in + j) - Vec<T>::loadu(mxd + j)) - Vec<T>::loadu(sumd + j)).store(out + j);
        for (; j < size; ++j) out[j] = in[j] - mxd[j] - sumd[j];
      }
    }
  });
}

// ---- float16 / bfloat16: computed in float (SoftMaxKernel.cpp's !opmath overloads,
// LogSoftmaxKernelImpl.h, functional_bfloat16.h) --------------------------------------------------

using FVec = Vec<float>;

/// convert_to_float: a Vec<H> as two float vectors (lanes 0..F-1, F..2F-1).
template <class H>
inline void to_float2(const Vec<H>& b, FVec& f0, FVec& f1) {
  for (int i = 0; i < FVec::size(); ++i) {
    f0.v[i] = float(b.v[i]);
    f1.v[i] = float(b.v[i + FVec::size()]);
  }
}
/// convert_from_float: two float vectors rounded back by the vector converter.
template <class H>
inline Vec<H> from_float2(const FVec& f0, const FVec& f1) {
  Vec<H> r;
  for (int i = 0; i < FVec::size(); ++i) {
    r.v[i] = vec::vec_from_float<H>(f0.v[i]);
    r.v[i + FVec::size()] = vec::vec_from_float<H>(f1.v[i]);
  }
  return r;
}
template <class H>
inline Vec<H> loadu_h(const H* p, int64_t count) {
  return count >= Vec<H>::size() ? Vec<H>::loadu(p) : vec::loadu_partial(p, count);
}

/// functional_bfloat16.h map_reduce_all for float16/bfloat16 data, reduced in float.
template <class H, class M, class R>
float map_reduce_all_h(const M& map, const R& red, const H* data, int64_t size) {
  constexpr int64_t B = Vec<H>::size(), F = FVec::size();
  FVec a0, a1;
  if (size < B) {
    to_float2(loadu_h(data, size), a0, a1);
    a0 = map(a0);
    if (size > F) {
      a1 = map(a1);
      a0 = vec::set(a0, red(a0, a1), size - F);
      return vec::vec_reduce_all_seq<float>(red, a0, F);
    }
    return vec::vec_reduce_all_seq<float>(red, a0, size);
  }
  int64_t d = B;
  to_float2(Vec<H>::loadu(data), a0, a1);
  a0 = map(a0);
  a1 = map(a1);
  for (; d < size - (size % B); d += B) {
    FVec f0, f1;
    to_float2(Vec<H>::loadu(data + d), f0, f1);
    a0 = red(a0, map(f0));
    a1 = red(a1, map(f1));
  }
  if (size - d > 0) {
    FVec f0, f1;
    to_float2(loadu_h(data + d, size - d), f0, f1);
    if (size - d > F) {
      a0 = red(a0, map(f0));
      a1 = vec::set(a1, red(a1, map(f1)), size - d - F);
    } else {
      a0 = vec::set(a0, red(a0, map(f0)), size - d);
    }
  }
  a0 = red(a0, a1);
  return vec::vec_reduce_all<float>(red, a0);
}

/// functional_bfloat16.h map(f, H* out, const H* in, size): through float, partial last vector.
template <class H, class F>
void map_h(const F& f, H* out, const H* in, int64_t size) {
  constexpr int64_t B = Vec<H>::size();
  int64_t d = 0;
  for (; d < size - (size % B); d += B) {
    FVec f0, f1;
    to_float2(Vec<H>::loadu(in + d), f0, f1);
    from_float2<H>(f(f0), f(f1)).store(out + d);
  }
  if (size - d > 0) {
    FVec f0, f1;
    to_float2(vec::loadu_partial(in + d, size - d), f0, f1);
    vec::store_partial(from_float2<H>(f(f0), f(f1)), out + d, size - d);
  }
}

/// _vec_softmax_lastdim (!opmath): a float copy of the row, max, exp, sum, multiply by 1/sum.
template <class H>
void softmax_lastdim_h(const H* in_base, H* out_base, int64_t outer, int64_t dim) {
  constexpr int64_t B = Vec<H>::size(), F = FVec::size();
  parallel_for(0, outer, 0, [&](int64_t b, int64_t e) {
    auto buffer = std::make_unique<float[]>(size_t(dim));
    float* buf = buffer.get();
    for (int64_t i = b; i < e; ++i) {
      const H* in = in_base + i * dim;
      H* out = out_base + i * dim;
      FVec mx(-std::numeric_limits<float>::infinity());
      int64_t d0 = 0;
      for (; d0 < dim - (dim % B); d0 += B) {
        FVec f0, f1;
        to_float2(Vec<H>::loadu(in + d0), f0, f1);
        mx = vec::maximum(mx, f0);
        mx = vec::maximum(mx, f1);
        f0.store(buf + d0);
        f1.store(buf + d0 + F);
      }
      float max_val = vec::vec_reduce_all<float>(vmax<float>, mx);
      for (; d0 < dim; ++d0) {
        const float x = float(in[d0]);
        max_val = std::max(max_val, x);
        buf[d0] = x;
      }
      FVec sum(0.0f);
      int64_t d1 = 0;
      for (; d1 < dim - (dim % F); d1 += F) {
        const FVec x = exp_lanes(FVec::loadu(buf + d1) - FVec(max_val));
        sum = sum + x;
        x.store(buf + d1);
      }
      float sum_val = vec::vec_reduce_all<float>(vadd<float>, sum);
      for (; d1 < dim; ++d1) {
        const float x = std::exp(buf[d1] - max_val);
        sum_val += x;
        buf[d1] = x;
      }
      sum_val = 1 / sum_val;
      int64_t d2 = 0;
      for (; d2 < dim - (dim % B); d2 += B)
        from_float2<H>(FVec::loadu(buf + d2) * FVec(sum_val), FVec::loadu(buf + d2 + F) * FVec(sum_val))
            .store(out + d2);
      for (; d2 < dim; ++d2) out[d2] = vec::scalar_from_float<H>(buf[d2] * sum_val);
    }
  });
}

/// serial_vec_log_softmax_lastdim_range for float16/bfloat16: max and log-sum kept as H.
template <class H>
void log_softmax_lastdim_h(const H* in_base, H* out_base, int64_t outer, int64_t dim) {
  parallel_for(0, outer, 0, [&](int64_t b, int64_t e) {
    for (int64_t i = b; i < e; ++i) {
      const H* in = in_base + i * dim;
      H* out = out_base + i * dim;
      const H mx = vec::scalar_from_float<H>(map_reduce_all_h<H>([](const FVec& x) { return x; }, vmax<float>, in, dim));
      const float mxf = float(mx);
      H s = vec::scalar_from_float<H>(
          map_reduce_all_h<H>([mxf](const FVec& x) { return exp_lanes(x - FVec(mxf)); }, vadd<float>, in, dim));
      map_h<H>([](const FVec& x) { return log_lanes(x); }, &s, &s, 1);
      const float sf = float(s);
      map_h<H>([mxf, sf](const FVec& x) { return (x - FVec(mxf)) - FVec(sf); }, out, in, dim);
    }
  });
}

/// _vec_softmax (!opmath): B inner positions per step through float buffers; scalar tails round
/// the exp to H before dividing, as torch's do.
template <class H>
void softmax_inner_h(const H* in_base, H* out_base, int64_t outer, int64_t dim, int64_t inner) {
  constexpr int64_t B = Vec<H>::size(), F = FVec::size();
  const int64_t outer_stride = dim * inner;
  parallel_for(0, outer * inner, 0, [&](int64_t begin, int64_t end) {
    auto tin = std::make_unique<float[]>(size_t(dim * B));
    auto tout = std::make_unique<float[]>(size_t(dim * B));
    int64_t idx = begin;
    while (idx < end) {
      int64_t oi = idx / inner, ii = idx % inner;
      if (ii + B <= inner && idx + B <= end) {
        const H* in = in_base + oi * outer_stride + ii;
        H* out = out_base + oi * outer_stride + ii;
        FVec m0, m1;
        to_float2(Vec<H>::loadu(in), m0, m1);
        m0.store(tin.get());
        m1.store(tin.get() + F);
        for (int64_t d = 1; d < dim; ++d) {
          FVec f0, f1;
          to_float2(Vec<H>::loadu(in + d * inner), f0, f1);
          m0 = vec::maximum(m0, f0);
          m1 = vec::maximum(m1, f1);
          f0.store(tin.get() + d * B);
          f1.store(tin.get() + d * B + F);
        }
        FVec s0(0.0f), s1(0.0f);
        for (int64_t d = 0; d < dim; ++d) {
          const FVec o0 = exp_lanes(FVec::loadu(tin.get() + d * B) - m0);
          const FVec o1 = exp_lanes(FVec::loadu(tin.get() + d * B + F) - m1);
          o0.store(tout.get() + d * B);
          o1.store(tout.get() + d * B + F);
          s0 = s0 + o0;
          s1 = s1 + o1;
        }
        for (int64_t d = 0; d < dim; ++d)
          from_float2<H>(FVec::loadu(tout.get() + d * B) / s0, FVec::loadu(tout.get() + d * B + F) / s1)
              .store(out + d * inner);
        idx += B;
      } else {
        const int64_t tail = idx + B > end ? end - idx : inner - ii;
        for (int64_t t = 0; t < tail; ++t) {
          oi = (idx + t) / inner;
          ii = (idx + t) % inner;
          const H* in = in_base + oi * outer_stride + ii;
          H* out = out_base + oi * outer_stride + ii;
          float mx = float(in[0]);
          for (int64_t d = 1; d < dim; ++d) mx = std::max(mx, float(in[d * inner]));
          float sum = 0;
          for (int64_t d = 0; d < dim; ++d) {
            const float o = std::exp(float(in[d * inner]) - mx);
            sum += o;
            out[d * inner] = vec::scalar_from_float<H>(o);
          }
          for (int64_t d = 0; d < dim; ++d) out[d * inner] = vec::scalar_from_float<H>(float(out[d * inner]) / sum);
        }
        idx += tail;
      }
    }
  });
}

/// serial_vec_logsoftmax_range for float16/bfloat16 (LogSoftmaxKernelImpl.h): float buffers.
template <class H>
void log_softmax_inner_h(const H* in_base, H* out_base, int64_t outer, int64_t dim, int64_t inner) {
  constexpr int64_t B = Vec<H>::size(), F = FVec::size();
  int64_t max_chunk = std::max<int64_t>(128 * 1024 / dim / int64_t(sizeof(H)), B);
  max_chunk = max_chunk / B * B;
  const int64_t chunk = std::min<int64_t>(max_chunk, inner);
  const int64_t num_chunks = divup(inner, chunk);
  parallel_for(0, outer * num_chunks, 0, [&](int64_t begin, int64_t end) {
    auto buffer = std::make_unique<float[]>(size_t(chunk) * 2);
    float* mxd = buffer.get();
    float* sumd = buffer.get() + chunk;
    auto ibuf = std::make_unique<float[]>(size_t(dim * chunk));
    for (int64_t i = begin; i < end; ++i) {
      const int64_t oi = i / num_chunks, k = i % num_chunks, ib = k * chunk;
      const int64_t size = std::min(chunk, inner - ib);
      const int64_t vend = size - (size % B);
      for (int64_t d = 0; d < size; ++d) {
        mxd[d] = -std::numeric_limits<float>::infinity();
        sumd[d] = 0.0f;
      }
      auto row = [&](int64_t d) { return oi * dim * inner + d * inner + ib; };
      auto gt = [](float a, float b) { return b > a ? b : a; };
      for (int64_t d = 0; d < dim; ++d) {
        const H* in = in_base + row(d);
        float* ip = ibuf.get() + d * chunk;
        int64_t j = 0;
        for (; j < vend; j += B) {
          FVec f0, f1;
          to_float2(Vec<H>::loadu(in + j), f0, f1);
          FVec::raw_zip(FVec::loadu(mxd + j), f0, gt).store(mxd + j);
          FVec::raw_zip(FVec::loadu(mxd + j + F), f1, gt).store(mxd + j + F);
          f0.store(ip + j);
          f1.store(ip + j + F);
        }
        for (; j < size; ++j) {
          const float x = float(in[j]);
          mxd[j] = x > mxd[j] ? x : mxd[j];
          ip[j] = x;
        }
      }
      for (int64_t d = 0; d < dim; ++d) {
        const float* ip = ibuf.get() + d * chunk;
        int64_t j = 0;
        for (; j < vend; j += B) {
          (FVec::loadu(sumd + j) + exp_lanes(FVec::loadu(ip + j) - FVec::loadu(mxd + j))).store(sumd + j);
          (FVec::loadu(sumd + j + F) + exp_lanes(FVec::loadu(ip + j + F) - FVec::loadu(mxd + j + F))).store(sumd + j + F);
        }
        for (; j < size; ++j) sumd[j] += std::exp(ip[j] - mxd[j]);
      }
      vec::map<float>([](const FVec& x) { return log_lanes(x); }, sumd, sumd, size);
      for (int64_t d = 0; d < dim; ++d) {
        const float* ip = ibuf.get() + d * chunk;
        H* out = out_base + row(d);
        int64_t j = 0;
        for (; j < vend; j += B)
          from_float2<H>((FVec::loadu(ip + j) - FVec::loadu(mxd + j)) - FVec::loadu(sumd + j),
                         (FVec::loadu(ip + j + F) - FVec::loadu(mxd + j + F)) - FVec::loadu(sumd + j + F))
              .store(out + j);
        for (; j < size; ++j) out[j] = vec::scalar_from_float<H>(ip[j] - mxd[j] - sumd[j]);
      }
    }
  });
}

void softmax_kernel(DType t, const void* in, void* out, int64_t outer, int64_t dim, int64_t inner, bool log) {
  auto run = [&]<class T>() {
    const T* i = static_cast<const T*>(in);
    T* o = static_cast<T*>(out);
    if (inner == 1) log ? log_softmax_lastdim<T>(i, o, outer, dim) : softmax_lastdim<T>(i, o, outer, dim);
    else log ? log_softmax_inner<T>(i, o, outer, dim, inner) : softmax_inner<T>(i, o, outer, dim, inner);
  };
  auto run_h = [&]<class H>() {
    const H* i = static_cast<const H*>(in);
    H* o = static_cast<H*>(out);
    if (inner == 1) log ? log_softmax_lastdim_h<H>(i, o, outer, dim) : softmax_lastdim_h<H>(i, o, outer, dim);
    else log ? log_softmax_inner_h<H>(i, o, outer, dim, inner) : softmax_inner_h<H>(i, o, outer, dim, inner);
  };
  if (t == DType::Float32) run.template operator()<float>();
  else if (t == DType::Float64) run.template operator()<double>();
  else if (t == DType::Float16) run_h.template operator()<Half>();
  else if (t == DType::BFloat16) run_h.template operator()<BFloat16>();
  else throw NotImplementedError(dc::format("\"softmax_kernel_impl\" not implemented for '{}'", scalar_type_name(t)));
}

}  // namespace

DC_ALSO_REGISTER_AVX512_DISPATCH(softmax_stub, &softmax_kernel);

}  // namespace DC_CPU_CAPABILITY
}  // namespace dc
