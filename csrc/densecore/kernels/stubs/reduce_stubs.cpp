// Definitions of the reduction and softmax dispatch stubs; kernels/cpu/reduce.cpp and softmax.cpp fill them.
#include "densecore/kernels/stubs/reduce_stubs.h"

namespace dc {

DC_DEFINE_DISPATCH(ReduceFn, sum_stub);
DC_DEFINE_DISPATCH(ReduceFn, max_values_stub);
DC_DEFINE_DISPATCH(ReduceFn, min_values_stub);
DC_DEFINE_DISPATCH(ReduceAllFn, max_all_stub);
DC_DEFINE_DISPATCH(ReduceAllFn, min_all_stub);
DC_DEFINE_DISPATCH(SelectFn, select_rows_stub);
DC_DEFINE_DISPATCH(SoftmaxFn, softmax_stub);

}  // namespace dc
