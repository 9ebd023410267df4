// Backward helpers of the view, indexing, join, matmul and elementwise rows of autograd/formulas.cpp
// (torch/csrc/autograd/FunctionsManual.cpp: mm_mat1_backward, slice_backward, split_backward, ...).
#pragma once

#include <array>
#include <optional>
#include <span>
#include <string>
#include <tuple>
#include <vector>

#include "densecore/core/dtype.h"
#include "densecore/core/int_list.h"
#include "densecore/core/scalar.h"
#include "densecore/core/tensor.h"

namespace dc {

/// mse_loss's derivative: mse_loss_backward's single kernel when grad mode is off (a backward without
/// create_graph: nothing will differentiate the result), its recording composite otherwise.
Tensor mse_loss_grad(const Tensor& grad, const Tensor& self, const Tensor& target, int64_t reduction);
/// maybe_multiply: g itself when s == 1 (double compare for floating scalars), else g * s.
Tensor maybe_multiply_grad(const Tensor& g, const Scalar& s);
/// mm_mat1_backward: (mat2^T-side) with the column-major branch chosen from mat1's forward strides.
Tensor mm_mat1_backward(const Tensor& grad, const Tensor& mat2, std::span<const int64_t> sizes,
                        std::span<const int64_t> strides, const Scalar& alpha);
/// mm_mat2_backward: likewise for the right operand.
Tensor mm_mat2_backward(const Tensor& grad, const Tensor& mat1, std::span<const int64_t> sizes,
                        std::span<const int64_t> strides, const Scalar& alpha);
/// unsqueeze_to: puts back the size-1 dims squeeze removed (all, or only those in `dims`).
Tensor unsqueeze_to(const Tensor& grad, std::span<const int64_t> sizes,
                    std::optional<std::span<const int64_t>> dims);
/// squeeze.dim's: the one dim back, when it was of size 1.
Tensor unsqueeze_to(const Tensor& grad, std::span<const int64_t> sizes, int64_t dim);
/// permute_backwards: grad permuted back by the inverse of `dims` (as given: negative ones wrapped).
Tensor permute_backwards(const Tensor& grad, std::span<const int64_t> dims);
/// slice_backward / select_backward: zeros of the input shape with grad copied into the part, sliced or
/// selected with the forward's own arguments (slice's start/end as given: None stays None).
Tensor slice_backward(const Tensor& grad, std::span<const int64_t> sizes, int64_t dim,
                      std::optional<int64_t> start, std::optional<int64_t> end, int64_t step);
Tensor select_backward(const Tensor& grad, std::span<const int64_t> sizes, int64_t dim, int64_t index);
/// split_backward: split_with_sizes_backward with the chunk sizes of split_size (one per gradient, the last
/// the rest of the dim).
Tensor split_backward(const std::vector<Tensor>& grads, int64_t split_size, int64_t dim, std::span<const int64_t> sizes,
                      DType dtype);
/// split_with_sizes_backward: undefined grads become zeros of their chunk, then cat along dim (as the call gave it).
Tensor split_with_sizes_backward(const std::vector<Tensor>& grads, std::span<const int64_t> split_sizes, int64_t dim,
                      std::span<const int64_t> sizes, DType dtype);
/// unbind_backward: undefined grads become zeros, then stack along dim (as the call gave it).
Tensor unbind_backward(const std::vector<Tensor>& grads, int64_t dim, std::span<const int64_t> sizes,
                       DType dtype);
/// cat_tensors_backward: grad narrowed to each input's range (skipped 1-D empty inputs get nothing); dim as the
/// call gave it (wrapped by the first input cat did not skip, legacy_cat_wrap_dim).
std::vector<Tensor> cat_tensors_backward(const Tensor& grad, const std::vector<Shape>& sizes, int64_t dim);
/// stack_tensors_backward: grad.unbind(dim).
std::vector<Tensor> stack_tensors_backward(const Tensor& grad, int64_t dim);
/// index_backward: zeros_like(self).index_put_(indices, grad, accumulate=True).
Tensor index_backward(const Tensor& grad, std::span<const int64_t> sizes, DType dtype,
                      std::span<const Tensor> indices);
/// index_select_backward: zeros(sizes).index_add_(dim, index, grad) (adds in index order).
Tensor index_select_backward(const Tensor& grad, std::span<const int64_t> sizes, int64_t dim,
                             const Tensor& index);
/// gather_backward: grad.new_zeros(self.sizes()).scatter_add_(dim, index, grad). It takes self, which torch saves
/// (an in-place change of self after the gather then fails backward), though it reads only the sizes.
Tensor gather_backward(const Tensor& grad, const Tensor& self, int64_t dim, const Tensor& index);
/// value_selecting_reduction_backward (topk, kthvalue, max/min with a dim): zeros(sizes).scatter_(dim,
/// indices, grad), indices and grad unsqueezed at dim first when the reduction dropped it (a 0-dim input has no
/// dim to drop).
Tensor value_selecting_reduction_backward(const Tensor& grad, int64_t dim, const Tensor& indices,
                                          std::span<const int64_t> sizes, bool keepdim);
/// evenly_distribute_backward (max()/min() of all elements): grad / count at every element equal to the
/// result (every NaN when the result is NaN), zeros elsewhere.
Tensor evenly_distribute_backward(const Tensor& grad, const Tensor& self, const Tensor& value);
/// linalg_vector_norm_backward / norm_backward: the gradient of ||self||_ord over dims (all when None or empty).
/// Undefined for ord 0 (torch returns no gradient).
Tensor linalg_vector_norm_backward(Tensor grad, const Tensor& self, const Scalar& ord, Tensor norm,
                                   OptionalIntList dims, bool keepdim);
/// div.Tensor_mode's gradients (div_tensor_self_backward / div_tensor_other_backward): zeros for a rounded
/// quotient, else true division's, grad / other and -grad * ((self / other) / other).
Tensor div_tensor_self_backward(const Tensor& grad, const Tensor& other, DType self_dtype,
                                const std::optional<std::string>& rounding_mode);
Tensor div_tensor_other_backward(const Tensor& grad, const Tensor& self, const Tensor& other,
                                 const std::optional<std::string>& rounding_mode);
/// index_put_'s self gradient: grad, or grad with zeros written at the indexed places.
Tensor index_put_self_backward(const Tensor& grad, std::span<const Tensor> indices,
                               std::span<const int64_t> value_sizes, bool accumulate);
/// grad.scatter(dim, index, 0): the places scatter_ overwrote get no gradient.
Tensor scatter_self_backward(const Tensor& grad, int64_t dim, const Tensor& index);
/// masked_fill_backward for the value: grad.masked_select(mask).sum().
Tensor masked_fill_value_backward(const Tensor& grad, const Tensor& mask);
/// clamp_backward (ClampBackward0, tensor bounds; undefined = None): self's share of grad (torch 2.14.1's rule,
/// measured: the full gradient inside the bounds, half at a tie with a bound).
Tensor clamp_backward(const Tensor& grad, const Tensor& self, const Tensor& min, const Tensor& max);
/// clamp_backward_min_max (ClampBackward0): each bound's share of the gradient where the result is that bound
/// (halved at a tie with self; crossed bounds give max everything); only those grad_input_mask asks for.
std::tuple<Tensor, Tensor> clamp_backward_min_max(const Tensor& grad, const Tensor& self, const Tensor& min,
                                                  const Tensor& max, const std::array<bool, 2>& grad_input_mask);
/// clamp_backward (ClampBackward1): grad where min < self < max (strictly, as torch 2.14.1), else 0.
Tensor clamp_backward(const Tensor& grad, const Tensor& self, const std::optional<Scalar>& min,
                      const std::optional<Scalar>& max);
/// maximum/minimum: where(self == other, grad / 2, grad).masked_fill_(self <op> other, 0).
Tensor max_min_backward(const Tensor& grad, const Tensor& self, const Tensor& other, bool self_side, bool is_max);
/// as_strided_backward: the gradient of a view with geometry (sizes, strides, offset) of a tensor
/// with geometry input_*, scattered into zeros over the storage both reach. Overlapping geometries
/// (the index_add_ path of torch's) raise NotImplementedError.
Tensor as_strided_backward(Tensor grad, std::span<const int64_t> input_sizes,
                           std::span<const int64_t> input_strides, int64_t input_offset,
                           std::span<const int64_t> sizes, std::span<const int64_t> strides, int64_t offset);
/// abs: grad * self.sgn().
Tensor abs_backward(const Tensor& grad, const Tensor& self);

/// repeat_backward: zeros of the input shape when a repeat is 0; else the new leading dims summed away one at a
/// time (sum(0)), then grad reshaped to (repeat, size) pairs for the dims repeated more than once and those dims
/// summed at once.
Tensor repeat_backward(Tensor grad, std::span<const int64_t> repeats, std::span<const int64_t> input_shape);

/// grad * exp(self - result) with the reduced dims restored: the derivative of logsumexp.
Tensor logsumexp_backward(Tensor grad, const Tensor& self, Tensor result, std::span<const int64_t> dim, bool keepdim);

}  // namespace dc
