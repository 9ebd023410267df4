// Dispatch stubs of the reduction and softmax kernels (kernels/cpu/reduce.cpp, softmax.cpp).
// Reductions use DC_REGISTER_DISPATCH as SumKernel.cpp / ReduceOpsKernel.cpp / ReduceAllOpsKernel.cpp
// / TensorCompareKernel.cpp do (AVX-512 machines run the AVX2 build); softmax uses
// DC_ALSO_REGISTER_AVX512_DISPATCH as SoftMaxKernel.cpp does.
#pragma once

#include <cstdint>

#include "densecore/core/dtype.h"
#include "densecore/kernels/dispatch/dispatch.h"
#include "densecore/kernels/iter/reduce_iter.h"

namespace dc {

using ReduceFn = void (*)(ReduceIter& iter);
DC_DECLARE_DISPATCH(ReduceFn, sum_stub);         // cascade_sum / integer binary_kernel_reduce_vec
DC_DECLARE_DISPATCH(ReduceFn, max_values_stub);  // amax
DC_DECLARE_DISPATCH(ReduceFn, min_values_stub);  // amin

/// max_all / min_all (ReduceAllOpsKernel.cpp) over n contiguous elements; writes one element.
using ReduceAllFn = void (*)(DType t, const void* in, int64_t n, void* out);
DC_DECLARE_DISPATCH(ReduceAllFn, max_all_stub);
DC_DECLARE_DISPATCH(ReduceAllFn, min_all_stub);

/// Row-wise selection over `rows` contiguous rows of n elements: values (may be null) and int64
/// indices. Kinds: max/min (TensorCompareKernel.cpp max_kernel_impl / min_kernel_impl) and
/// argmax/argmin (ReduceOpsKernel.cpp ArgMaxOps / ArgMinOps; the index does not depend on the
/// split because GreaterOrNan/LessOrNan order ties by index).
enum class SelectKind : int { Max, Min, ArgMax, ArgMin };
using SelectFn = void (*)(SelectKind k, DType t, const void* in, int64_t n, int64_t rows, void* vals, int64_t* idx);
DC_DECLARE_DISPATCH(SelectFn, select_rows_stub);

/// softmax / log_softmax over a contiguous input viewed as [outer, dim, inner] (inner == 1: the
/// last-dim kernels _vec_softmax_lastdim / _vec_log_softmax_lastdim).
using SoftmaxFn = void (*)(DType t, const void* in, void* out, int64_t outer, int64_t dim, int64_t inner, bool log);
DC_DECLARE_DISPATCH(SoftmaxFn, softmax_stub);

}  // namespace dc
