// The differentiable ops: one X-macro row each. autograd/formulas.cpp defines formula<Op::Name> for every
// row; a row without one fails to compile (tests/build/ keeps that true). The name is torch's node name
// minus "Backward0" (MulBackward0 -> Mul).
#pragma once

#define DC_DIFFERENTIABLE_OPS(X) \
  X(Add)                         \
  X(Sub)                         \
  X(Mul)                         \
  X(Div)                         \
  X(Neg)                         \
  X(Sqrt)                        \
  X(Rsqrt)                       \
  X(Exp)                         \
  X(Log)                         \
  X(Tanh)                        \
  X(Erf)                         \
  X(Sin)                         \
  X(Cos)                         \
  X(Sigmoid)                     \
  X(Reciprocal)                  \
  X(Pow)                         \
  X(Relu)                        \
  X(Lerp)                        \
  X(Addcmul)                     \
  X(Addcdiv)                     \
  X(ScaledDotProductFlashAttentionForCpu) \
  X(Embedding)                   \
  X(NativeLayerNorm)             \
  X(Gelu)                        \
  X(Sum)                         \
  X(Mean)                        \
  X(Softmax)                     \
  X(LogSoftmax)                  \
  X(NllLoss)                     \
  X(MseLoss)                     \
  X(View)                        \
  X(UnsafeView)                  \
  X(Alias)                       \
  X(Transpose)                   \
  X(T)                           \
  X(Permute)                     \
  X(Expand)                      \
  X(Squeeze)                     \
  X(SqueezeDim)                  \
  X(SqueezeDims)                 \
  X(Unsqueeze)                   \
  X(Slice)                       \
  X(AsStrided)                   \
  X(Select)                      \
  X(Split)                       \
  X(SplitWithSizes)              \
  X(Unbind)                      \
  X(Index)                       \
  X(IndexSelect)                 \
  X(MaskedFill)                  \
  X(MaskedFillTensor)            \
  X(Gather)                      \
  X(Cat)                         \
  X(Stack)                       \
  X(Mm)                          \
  X(Addmm)                       \
  X(Bmm)                         \
  X(Mv)                          \
  X(Dot)                         \
  X(Clone)                       \
  X(ToCopy)                      \
  X(Where)                       \
  X(ClampScalar)                 \
  X(Maximum)                     \
  X(Minimum)                     \
  X(Abs)                         \
  X(Amax)                        \
  X(Amin)                        \
  X(Topk)                        \
  X(Tril)                        \
  X(Triu)                        \
  X(MaxAll)                      \
  X(MinAll)                      \
  X(MaxDim)                      \
  X(MinDim)                      \
  X(LinalgVectorNorm)            \
  X(DivRounding)                 \
  X(Copy)                        \
  X(Fill)                        \
  X(Zero)                        \
  X(Normal)                      \
  X(Uniform)                     \
  X(Exponential)                 \
  X(Bernoulli)                   \
  X(Random)                      \
  X(IndexPut)                    \
  X(Scatter)                     \
  X(ScatterAdd)                  \
  X(NotImplemented)

namespace dc {

enum class Op : int {
#define DC_OP_ENUM(name) name,
  DC_DIFFERENTIABLE_OPS(DC_OP_ENUM)
#undef DC_OP_ENUM
};

inline constexpr int kOpCount = 0
#define DC_OP_COUNT(name) +1
    DC_DIFFERENTIABLE_OPS(DC_OP_COUNT)
#undef DC_OP_COUNT
    ;

const char* op_name(Op op);

}  // namespace dc
