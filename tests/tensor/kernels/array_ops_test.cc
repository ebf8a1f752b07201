#include "minitf/tensor/kernels/array_ops.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace minitf::kernels {
namespace {

using ::testing::ElementsAre;
using ::testing::ElementsAreArray;

void ExpectInvalidArgument(const StatusOr<Tensor>& result,
                           const std::string& message) {
  ASSERT_FALSE(result.ok());
  EXPECT_EQ(result.status().code(), error::INVALID_ARGUMENT);
  EXPECT_EQ(result.status().message(), message);
}

Tensor Iota(const TensorShape& shape) {
  Tensor t(DT_INT32, shape);
  for (int64_t i = 0; i < t.NumElements(); ++i)
    t.data<int32_t>()[i] = static_cast<int32_t>(i);
  return t;
}

// ---------------------------------------------------------------------------
// Reshape

TEST(ReshapeTest, SharesTheBuffer) {
  Tensor x({{1.f, 2.f, 3.f}, {4.f, 5.f, 6.f}});
  StatusOr<Tensor> r = Reshape(x, {3, 2});
  ASSERT_TRUE(r.ok()) << r.status();
  EXPECT_EQ(r->shape(), TensorShape({3, 2}));
  EXPECT_TRUE(r->SharesBufferWith(x));
  EXPECT_THAT(r->ToVector<float>(), ElementsAre(1, 2, 3, 4, 5, 6));
}

TEST(ReshapeTest, InfersTheMinusOne) {
  Tensor x = Iota({2, 3, 4});
  StatusOr<Tensor> r = Reshape(x, {-1, 4});
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(r->shape(), TensorShape({6, 4}));
  StatusOr<Tensor> middle = Reshape(x, {2, -1, 3});
  ASSERT_TRUE(middle.ok());
  EXPECT_EQ(middle->shape(), TensorShape({2, 4, 3}));
  StatusOr<Tensor> flat = Reshape(x, {-1});
  ASSERT_TRUE(flat.ok());
  EXPECT_EQ(flat->shape(), TensorShape({24}));
}

TEST(ReshapeTest, ScalarsAndEmptyTensors) {
  StatusOr<Tensor> up = Reshape(Tensor(5.f), {1, 1});
  ASSERT_TRUE(up.ok());
  EXPECT_EQ(up->shape(), TensorShape({1, 1}));
  StatusOr<Tensor> down = Reshape(*up, {});
  ASSERT_TRUE(down.ok());
  EXPECT_EQ(down->shape(), TensorShape({}));
  StatusOr<Tensor> empty =
      Reshape(Tensor(DT_FLOAT, TensorShape({0, 4})), {2, 0, -1});
  ASSERT_FALSE(empty.ok());
  StatusOr<Tensor> empty_known =
      Reshape(Tensor(DT_FLOAT, TensorShape({0, 4})), {4, 0});
  ASSERT_TRUE(empty_known.ok());
  EXPECT_EQ(empty_known->shape(), TensorShape({4, 0}));
}

TEST(ReshapeTest, Errors) {
  Tensor x = Iota({2, 3});
  ExpectInvalidArgument(Reshape(x, {2, 2}),
                        "Input to reshape is a tensor with 6 values, but the "
                        "requested shape has 4");
  ExpectInvalidArgument(
      Reshape(x, {-1, 4}),
      "Input to reshape is a tensor with 6 values, but the requested shape "
      "requires a multiple of 4");
  ExpectInvalidArgument(Reshape(x, {-1, -1}),
                        "Only one input size may be -1, not both 0 and 1");
  ExpectInvalidArgument(Reshape(x, {3, -2}),
                        "Size 1 must be non-negative, not -2");
  ExpectInvalidArgument(
      Reshape(Tensor(DT_FLOAT, TensorShape({0, 4})), {2, 0, -1}),
      "Reshape cannot infer the missing input size for an empty tensor unless "
      "all specified input sizes are non-zero");
  ExpectInvalidArgument(
      Reshape(x, {int64_t{1} << 40, int64_t{1} << 40}),
      "Requested shape [1099511627776,1099511627776] has too many elements");
  ExpectInvalidArgument(Reshape(Tensor(), {1}),
                        "Reshape got an uninitialized tensor as its input");
}

// ---------------------------------------------------------------------------
// Transpose

TEST(TransposeTest, MatrixByDefault) {
  StatusOr<Tensor> r =
      Transpose(Tensor({{1.f, 2.f, 3.f}, {4.f, 5.f, 6.f}}), std::nullopt);
  ASSERT_TRUE(r.ok()) << r.status();
  EXPECT_EQ(r->shape(), TensorShape({3, 2}));
  EXPECT_THAT(r->ToVector<float>(), ElementsAre(1, 4, 2, 5, 3, 6));
}

TEST(TransposeTest, DefaultReversesAllAxes) {
  // x:[2,3,4] -> [4,3,2], out[k,j,i] = x[i,j,k] = 12i + 4j + k.
  StatusOr<Tensor> r = Transpose(Iota({2, 3, 4}), std::nullopt);
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(r->shape(), TensorShape({4, 3, 2}));
  std::vector<int32_t> expected;
  for (int k = 0; k < 4; ++k)
    for (int j = 0; j < 3; ++j)
      for (int i = 0; i < 2; ++i) expected.push_back(12 * i + 4 * j + k);
  EXPECT_THAT(r->ToVector<int32_t>(), ElementsAreArray(expected));
}

TEST(TransposeTest, EveryPermutationOfThreeAxes) {
  const Tensor x = Iota({2, 3, 4});
  std::vector<int> perm = {0, 1, 2};
  do {
    StatusOr<Tensor> r = Transpose(x, perm);
    ASSERT_TRUE(r.ok());
    const TensorShape& s = r->shape();
    for (int d = 0; d < 3; ++d) EXPECT_EQ(s.dim_size(d), x.dim_size(perm[d]));
    // out[a,b,c] = x[i] where i's coordinate along perm[0] is a, and so on.
    const int64_t strides[3] = {12, 4, 1};
    int64_t n = 0;
    for (int64_t a = 0; a < s.dim_size(0); ++a)
      for (int64_t b = 0; b < s.dim_size(1); ++b)
        for (int64_t c = 0; c < s.dim_size(2); ++c, ++n) {
          const int64_t source = a * strides[perm[0]] + b * strides[perm[1]] +
                                 c * strides[perm[2]];
          ASSERT_EQ(r->data<int32_t>()[n], source)
              << perm[0] << perm[1] << perm[2];
        }
  } while (std::next_permutation(perm.begin(), perm.end()));
}

TEST(TransposeTest, KeepsTheInnerRunWhenTheLastAxisStays) {
  // perm {1,0,2} on [2,2,3] swaps whole rows of 3.
  StatusOr<Tensor> r = Transpose(Iota({2, 2, 3}), std::vector<int>{1, 0, 2});
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(r->shape(), TensorShape({2, 2, 3}));
  EXPECT_THAT(r->ToVector<int32_t>(),
              ElementsAre(0, 1, 2, 6, 7, 8, 3, 4, 5, 9, 10, 11));
}

TEST(TransposeTest, SizeOneAxesScalarsAndEmpty) {
  // [1,3] -> [3,1] moves no data.
  StatusOr<Tensor> row = Transpose(Tensor({{1.0, 2.0, 3.0}}), std::nullopt);
  ASSERT_TRUE(row.ok());
  EXPECT_EQ(row->shape(), TensorShape({3, 1}));
  EXPECT_THAT(row->ToVector<double>(), ElementsAre(1, 2, 3));
  // [2,1,3] with perm {2,1,0}: the size-1 axis does not block the transpose.
  StatusOr<Tensor> r = Transpose(*Iota({2, 3}).Reshaped(TensorShape({2, 1, 3})),
                                 std::vector<int>{2, 1, 0});
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(r->shape(), TensorShape({3, 1, 2}));
  EXPECT_THAT(r->ToVector<int32_t>(), ElementsAre(0, 3, 1, 4, 2, 5));
  StatusOr<Tensor> scalar = Transpose(Tensor(true), std::nullopt);
  ASSERT_TRUE(scalar.ok());
  EXPECT_TRUE(scalar->scalar<bool>());
  StatusOr<Tensor> empty =
      Transpose(Tensor(DT_INT64, TensorShape({0, 3})), std::nullopt);
  ASSERT_TRUE(empty.ok());
  EXPECT_EQ(empty->shape(), TensorShape({3, 0}));
}

TEST(TransposeTest, Errors) {
  Tensor x = Iota({2, 3});
  ExpectInvalidArgument(Transpose(x, std::vector<int>{0, 1, 2}),
                        "transpose expects a vector of size 2. But input(1) is "
                        "a vector of size 3");
  ExpectInvalidArgument(Transpose(x, std::vector<int>{0, 2}),
                        "2 is out of range [0 .. 2)");
  ExpectInvalidArgument(Transpose(x, std::vector<int>{-1, 0}),
                        "-1 is out of range [0 .. 2)");
  ExpectInvalidArgument(Transpose(Iota({2, 3, 4}), std::vector<int>{0, 2, 2}),
                        "1 is missing from {0,2,2}.");
  ExpectInvalidArgument(Transpose(Tensor(), std::nullopt),
                        "Transpose got an uninitialized tensor as its input");
}

// ---------------------------------------------------------------------------
// Concat

TEST(ConcatTest, AlongEachAxis) {
  Tensor a({{1, 2}, {3, 4}});
  Tensor b({{5, 6}, {7, 8}});
  StatusOr<Tensor> rows = Concat({a, b}, 0);
  ASSERT_TRUE(rows.ok()) << rows.status();
  EXPECT_EQ(rows->shape(), TensorShape({4, 2}));
  EXPECT_THAT(rows->ToVector<int32_t>(), ElementsAre(1, 2, 3, 4, 5, 6, 7, 8));
  StatusOr<Tensor> columns = Concat({a, b}, 1);
  ASSERT_TRUE(columns.ok());
  EXPECT_EQ(columns->shape(), TensorShape({2, 4}));
  EXPECT_THAT(columns->ToVector<int32_t>(),
              ElementsAre(1, 2, 5, 6, 3, 4, 7, 8));
  StatusOr<Tensor> negative = Concat({a, b}, -1);
  ASSERT_TRUE(negative.ok());
  EXPECT_THAT(negative->ToVector<int32_t>(),
              ElementsAre(1, 2, 5, 6, 3, 4, 7, 8));
}

TEST(ConcatTest, DifferentSizesAlongTheAxisAndEmptyInputs) {
  Tensor a({{1.f}, {2.f}});                      // [2,1]
  Tensor b({{3.f, 4.f, 5.f}, {6.f, 7.f, 8.f}});  // [2,3]
  Tensor empty(DT_FLOAT, TensorShape({2, 0}));
  StatusOr<Tensor> r = Concat({a, empty, b}, 1);
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(r->shape(), TensorShape({2, 4}));
  EXPECT_THAT(r->ToVector<float>(), ElementsAre(1, 3, 4, 5, 2, 6, 7, 8));
  StatusOr<Tensor> one = Concat({a}, 0);
  ASSERT_TRUE(one.ok());
  EXPECT_THAT(one->ToVector<float>(), ElementsAre(1, 2));
}

TEST(ConcatTest, Errors) {
  Tensor a = Iota({2, 3});
  ExpectInvalidArgument(
      Concat({a, Iota({2, 4})}, 0),
      "ConcatOp : Dimensions of inputs should match: shape[0] = [2,3] vs. "
      "shape[1] = [2,4]");
  ExpectInvalidArgument(Concat({a, Iota({6})}, 0),
                        "ConcatOp : Ranks of all input tensors should match: "
                        "shape[0] = [2,3] vs. "
                        "shape[1] = [6]");
  ExpectInvalidArgument(
      Concat({a, a}, 2),
      "ConcatOp : Expected concatenating dimensions in the range [-2, 2), but "
      "got 2");
  ExpectInvalidArgument(
      Concat({a, a}, -3),
      "ConcatOp : Expected concatenating dimensions in the range [-2, 2), but "
      "got -3");
  ExpectInvalidArgument(
      Concat({Tensor(1), Tensor(2)}, 0),
      "ConcatOp : Can't concatenate scalars (use tf.stack instead)");
  ExpectInvalidArgument(
      Concat({a, Tensor({{1.f, 2.f, 3.f}})}, 0),
      "ConcatOp expects all inputs to have one dtype: values[0] is int32 but "
      "values[1] is float");
  ExpectInvalidArgument(Concat({}, 0), "ConcatOp expects at least one input");
  ExpectInvalidArgument(Concat({a, Tensor()}, 0),
                        "ConcatOp got an uninitialized tensor as values[1]");
}

// ---------------------------------------------------------------------------
// Stack

TEST(StackTest, NewAxisFirstOrLast) {
  Tensor a({1, 2, 3});
  Tensor b({4, 5, 6});
  StatusOr<Tensor> first = Stack({a, b}, 0);
  ASSERT_TRUE(first.ok()) << first.status();
  EXPECT_EQ(first->shape(), TensorShape({2, 3}));
  EXPECT_THAT(first->ToVector<int32_t>(), ElementsAre(1, 2, 3, 4, 5, 6));
  StatusOr<Tensor> last = Stack({a, b}, 1);
  ASSERT_TRUE(last.ok());
  EXPECT_EQ(last->shape(), TensorShape({3, 2}));
  EXPECT_THAT(last->ToVector<int32_t>(), ElementsAre(1, 4, 2, 5, 3, 6));
  StatusOr<Tensor> negative = Stack({a, b}, -1);
  ASSERT_TRUE(negative.ok());
  EXPECT_EQ(negative->shape(), TensorShape({3, 2}));
}

TEST(StackTest, ScalarsAndMiddleAxis) {
  StatusOr<Tensor> scalars = Stack({Tensor(1.f), Tensor(2.f), Tensor(3.f)}, 0);
  ASSERT_TRUE(scalars.ok());
  EXPECT_EQ(scalars->shape(), TensorShape({3}));
  EXPECT_THAT(scalars->ToVector<float>(), ElementsAre(1, 2, 3));
  // Two [2,2] matrices stacked on axis 1: out[i, k, j] = value_k[i, j].
  StatusOr<Tensor> middle =
      Stack({Tensor({{1, 2}, {3, 4}}), Tensor({{5, 6}, {7, 8}})}, 1);
  ASSERT_TRUE(middle.ok());
  EXPECT_EQ(middle->shape(), TensorShape({2, 2, 2}));
  EXPECT_THAT(middle->ToVector<int32_t>(), ElementsAre(1, 2, 5, 6, 3, 4, 7, 8));
}

TEST(StackTest, Errors) {
  ExpectInvalidArgument(
      Stack({Tensor({1, 2}), Tensor({1, 2, 3})}, 0),
      "Shapes of all inputs must match: values[0].shape = [2] != "
      "values[1].shape = [3]");
  ExpectInvalidArgument(Stack({Tensor({1, 2}), Tensor({1, 2})}, 2),
                        "axis = 2 not in [-2, 2)");
  ExpectInvalidArgument(Stack({Tensor({1, 2}), Tensor({1, 2})}, -3),
                        "axis = -3 not in [-2, 2)");
  ExpectInvalidArgument(
      Stack({Tensor({1, 2}), Tensor({1.0, 2.0})}, 0),
      "Pack expects all inputs to have one dtype: values[0] is int32 but "
      "values[1] is double");
  ExpectInvalidArgument(Stack({}, 0), "Pack expects at least one input");
}

// ---------------------------------------------------------------------------
// Slice

TEST(SliceTest, ABlockOfAMatrix) {
  Tensor x({{1, 2, 3}, {4, 5, 6}, {7, 8, 9}});
  StatusOr<Tensor> r = Slice(x, {1, 0}, {2, 2});
  ASSERT_TRUE(r.ok()) << r.status();
  EXPECT_EQ(r->shape(), TensorShape({2, 2}));
  EXPECT_THAT(r->ToVector<int32_t>(), ElementsAre(4, 5, 7, 8));
}

TEST(SliceTest, MinusOneTakesTheRest) {
  Tensor x({{1, 2, 3}, {4, 5, 6}});
  StatusOr<Tensor> r = Slice(x, {0, 1}, {-1, -1});
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(r->shape(), TensorShape({2, 2}));
  EXPECT_THAT(r->ToVector<int32_t>(), ElementsAre(2, 3, 5, 6));
}

TEST(SliceTest, WholeTrailingAxesAreOneRun) {
  // x:[3,2,2]; rows 1..2 in full are one contiguous run of 8.
  StatusOr<Tensor> r = Slice(Iota({3, 2, 2}), {1, 0, 0}, {2, -1, -1});
  ASSERT_TRUE(r.ok());
  EXPECT_THAT(r->ToVector<int32_t>(), ElementsAre(4, 5, 6, 7, 8, 9, 10, 11));
  // The middle of a rank-3 tensor: x[:, 1:2, 1:2].
  StatusOr<Tensor> inner = Slice(Iota({3, 2, 2}), {0, 1, 1}, {3, 1, 1});
  ASSERT_TRUE(inner.ok());
  EXPECT_EQ(inner->shape(), TensorShape({3, 1, 1}));
  EXPECT_THAT(inner->ToVector<int32_t>(), ElementsAre(3, 7, 11));
}

TEST(SliceTest, EmptyAndScalar) {
  StatusOr<Tensor> empty = Slice(Iota({2, 3}), {2, 0}, {0, 3});
  ASSERT_TRUE(empty.ok());
  EXPECT_EQ(empty->shape(), TensorShape({0, 3}));
  StatusOr<Tensor> scalar = Slice(Tensor(4.5), {}, {});
  ASSERT_TRUE(scalar.ok());
  EXPECT_EQ(scalar->scalar<double>(), 4.5);
}

TEST(SliceTest, Errors) {
  Tensor x = Iota({2, 3});
  ExpectInvalidArgument(Slice(x, {0, 0}, {3, 1}),
                        "Expected size[0] in [0, 2], but got 3");
  ExpectInvalidArgument(Slice(x, {1, 2}, {1, 2}),
                        "Expected size[1] in [0, 1], but got 2");
  ExpectInvalidArgument(Slice(x, {0, 0}, {-2, 1}),
                        "Expected size[0] in [0, 2], but got -2");
  ExpectInvalidArgument(Slice(x, {3, 0}, {0, 1}),
                        "Expected begin[0] in [0, 2], but got 3");
  ExpectInvalidArgument(Slice(x, {0, -1}, {1, 1}),
                        "Expected begin[1] in [0, 3], but got -1");
  ExpectInvalidArgument(
      Slice(x, {0, 0, 0}, {1, 1}),
      "Expected begin and size arguments to be 1-D tensors of size 2, but got "
      "shapes [3] and [2] instead.");
  ExpectInvalidArgument(Slice(Tensor(), {}, {}),
                        "Slice got an uninitialized tensor as its input");
}

}  // namespace
}  // namespace minitf::kernels
