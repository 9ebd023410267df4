// Pure layout functions of ops/view.h: sizes/strides/offset as torch computes them (values
// checked against torch 2.14.1 by hand; the Python oracle tests cover the same ops end to end).
#include <gtest/gtest.h>

#include "densecore/core/error.h"
#include "densecore/ops/view.h"

namespace {

dc::Layout contiguous(dc::Shape sizes, int64_t offset = 0) {
  return {sizes, dc::contiguous_strides(sizes), offset};
}

}  // namespace

TEST(ViewLayout, InferSizeResolvesOneMinusOne) {
  const int64_t shape[] = {-1, 3};
  EXPECT_EQ(dc::infer_size(shape, 6), (dc::Shape{2, 3}));
  const int64_t two[] = {-1, -1};
  EXPECT_THROW(dc::infer_size(two, 6), dc::Error);
  const int64_t bad[] = {4, -1};
  EXPECT_THROW(dc::infer_size(bad, 6), dc::Error);
  const int64_t zero[] = {-1, 0};
  EXPECT_THROW(dc::infer_size(zero, 0), dc::Error);  // ambiguous
}

TEST(ViewLayout, ComputeStrideMergesAndSplitsContiguousChunks) {
  const int64_t sizes[] = {2, 3, 4}, strides[] = {12, 4, 1};
  const int64_t merged[] = {6, 4};
  EXPECT_EQ(*dc::compute_stride(sizes, strides, merged), (dc::Strides{4, 1}));
  // A transposed (3, 2) tensor cannot be flattened without a copy.
  const int64_t tsizes[] = {3, 2}, tstrides[] = {1, 3}, flat[] = {6};
  EXPECT_FALSE(dc::compute_stride(tsizes, tstrides, flat).has_value());
  // ... but size-1 dims can be added anywhere.
  const int64_t with_ones[] = {3, 1, 2};
  EXPECT_EQ(*dc::compute_stride(tsizes, tstrides, with_ones), (dc::Strides{1, 6, 3}));  // torch: (1, 6, 3)
}

TEST(ViewLayout, ComputeStrideOfEmptyTensors) {
  const int64_t sizes[] = {0, 3}, strides[] = {1, 0};
  const int64_t same[] = {0, 3}, other[] = {3, 0};
  EXPECT_EQ(*dc::compute_stride(sizes, strides, same), (dc::Strides{1, 0}));  // kept
  EXPECT_EQ(*dc::compute_stride(sizes, strides, other), (dc::Strides{1, 1}));  // resize-like
}

TEST(ViewLayout, ViewOfZeroDim) {
  const int64_t shape[] = {1, 1};
  EXPECT_EQ(dc::view_layout(contiguous({}), shape).strides, (dc::Strides{1, 1}));
}

TEST(ViewLayout, TransposeAndPermute) {
  const dc::Layout l = contiguous({2, 3, 4}, 5);
  EXPECT_EQ(dc::transpose_layout(l, 0, -1), (dc::Layout{{4, 3, 2}, {1, 4, 12}, 5}));
  const int64_t dims[] = {1, 2, 0};
  EXPECT_EQ(dc::permute_layout(l, dims), (dc::Layout{{3, 4, 2}, {4, 1, 12}, 5}));
  const int64_t dup[] = {0, 0, 1};
  EXPECT_THROW(dc::permute_layout(l, dup), dc::Error);
  EXPECT_THROW(dc::transpose_layout(l, 0, 3), dc::IndexError);
}

TEST(ViewLayout, ExpandAddsZeroStrides) {
  const dc::Layout l{{3, 1}, {1, 1}, 0};
  const int64_t sizes[] = {2, -1, 4};
  EXPECT_EQ(dc::expand_layout(l, sizes, dc::DType::Float32), (dc::Layout{{2, 3, 4}, {0, 1, 0}, 0}));
  const int64_t lead[] = {-1, 3, 1};
  EXPECT_THROW(dc::expand_layout(l, lead, dc::DType::Float32), dc::Error);
  const int64_t mismatch[] = {4, 1};
  EXPECT_THROW(dc::expand_layout(l, mismatch, dc::DType::Float32), dc::Error);
}

TEST(ViewLayout, SqueezeAndUnsqueeze) {
  const dc::Layout l{{1, 3, 1}, {3, 1, 1}, 0};
  EXPECT_EQ(dc::squeeze_layout(l), (dc::Layout{{3}, {1}, 0}));
  const int64_t d[] = {-1};
  EXPECT_EQ(dc::squeeze_layout(l, d), (dc::Layout{{1, 3}, {3, 1}, 0}));
  const int64_t not_one[] = {1};
  EXPECT_EQ(dc::squeeze_layout(l, not_one), l);
  // unsqueeze stride: size * stride of the dim it is inserted before, 1 at the end.
  const dc::Layout t{{3, 2}, {1, 3}, 0};
  EXPECT_EQ(dc::unsqueeze_layout(t, 0), (dc::Layout{{1, 3, 2}, {3, 1, 3}, 0}));
  EXPECT_EQ(dc::unsqueeze_layout(t, 2), (dc::Layout{{3, 2, 1}, {1, 3, 1}, 0}));
}

TEST(ViewLayout, SliceClampsAndSteps) {
  const dc::Layout l = contiguous({10, 2});
  EXPECT_EQ(dc::slice_layout(l, 0, 1, 8, 3), (dc::Layout{{3, 2}, {6, 1}, 2}));
  EXPECT_EQ(dc::slice_layout(l, 0, -3, std::nullopt, 1), (dc::Layout{{3, 2}, {2, 1}, 14}));
  EXPECT_EQ(dc::slice_layout(l, 0, 8, 2, 1), (dc::Layout{{0, 2}, {2, 1}, 16}));
  EXPECT_EQ(dc::slice_layout(l, 0, -100, 100, 1), l);
  EXPECT_THROW(dc::slice_layout(l, 0, 0, 1, 0), dc::ValueError);
}

TEST(ViewLayout, NarrowAndSelect) {
  const dc::Layout l = contiguous({4, 3});
  EXPECT_EQ(dc::narrow_layout(l, 1, -2, 2), (dc::Layout{{4, 2}, {3, 1}, 1}));
  EXPECT_THROW(dc::narrow_layout(l, 0, 3, 2), dc::Error);
  EXPECT_THROW(dc::narrow_layout(l, 0, 5, 0), dc::IndexError);
  EXPECT_EQ(dc::select_layout(l, 0, -1), (dc::Layout{{3}, {1}, 9}));
  EXPECT_THROW(dc::select_layout(l, 0, 4), dc::IndexError);
  EXPECT_THROW(dc::select_layout(contiguous({}), 0, 0), dc::IndexError);
}

TEST(ViewLayout, Movedim) {
  const dc::Layout l = contiguous({2, 3, 4});
  const int64_t src[] = {0}, dst[] = {2};
  EXPECT_EQ(dc::movedim_layout(l, src, dst), (dc::Layout{{3, 4, 2}, {4, 1, 12}, 0}));
  const int64_t src2[] = {0, 1}, dst2[] = {-1, 0};
  EXPECT_EQ(dc::movedim_layout(l, src2, dst2), (dc::Layout{{3, 4, 2}, {4, 1, 12}, 0}));
}

TEST(ViewTensor, ViewsShareStorageAndVersion) {
  const int64_t sizes[] = {2, 3};
  dc::Tensor t = dc::Tensor::empty(sizes, dc::DType::Float32);
  dc::Tensor v = dc::transpose(t, 0, 1);
  EXPECT_EQ(v.storage(), t.storage());
  v.bump_version();
  EXPECT_EQ(t.version(), 1);
  const auto parts = dc::chunk(t, 2, 1);
  ASSERT_EQ(parts.size(), 2u);
  EXPECT_EQ(parts[1].sizes(), (dc::Shape{2, 1}));
  EXPECT_EQ(parts[1].storage_offset(), 2);
}
