#include "minitf/tensor/kernels/reduction_ops.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <string>
#include <vector>

namespace minitf::kernels {
namespace {

using ::testing::ElementsAre;

constexpr float kNaN = std::numeric_limits<float>::quiet_NaN();
constexpr float kInf = std::numeric_limits<float>::infinity();

void ExpectInvalidArgument(const StatusOr<Tensor>& result,
                           const std::string& message) {
  ASSERT_FALSE(result.ok());
  EXPECT_EQ(result.status().code(), error::INVALID_ARGUMENT);
  EXPECT_EQ(result.status().message(), message);
}

Tensor Iota(const TensorShape& shape) {
  Tensor t(DT_FLOAT, shape);
  for (int64_t i = 0; i < t.NumElements(); ++i)
    t.data<float>()[i] = static_cast<float>(i);
  return t;
}

// The textbook definition, for comparison: visit every input element, work
// out which output element it belongs to, and add it there.
std::vector<double> NaiveSum(const Tensor& x,
                             const std::vector<bool>& reduced) {
  const int rank = x.dims();
  std::vector<int64_t> out_dims;
  for (int i = 0; i < rank; ++i)
    out_dims.push_back(reduced[i] ? 1 : x.dim_size(i));
  const int64_t out_count = TensorShape(out_dims).num_elements();
  std::vector<double> out(out_count, 0.0);
  std::vector<int64_t> index(rank, 0);
  for (int64_t n = 0; n < x.NumElements(); ++n) {
    int64_t o = 0;
    for (int i = 0; i < rank; ++i)
      o = o * out_dims[i] + (reduced[i] ? 0 : index[i]);
    out[o] += x.data<float>()[n];
    for (int i = rank - 1; i >= 0; --i) {
      if (++index[i] < x.dim_size(i)) break;
      index[i] = 0;
    }
  }
  return out;
}

TEST(ReduceSumTest, NoAxesReducesEverything) {
  Tensor x({{1.f, 2.f, 3.f}, {4.f, 5.f, 6.f}});
  StatusOr<Tensor> r = ReduceSum(x, std::nullopt, false);
  ASSERT_TRUE(r.ok()) << r.status();
  EXPECT_EQ(r->shape(), TensorShape({}));
  EXPECT_EQ(r->scalar<float>(), 21.f);
}

TEST(ReduceSumTest, EmptyAxisListReducesNothing) {
  Tensor x({{1.f, 2.f, 3.f}, {4.f, 5.f, 6.f}});
  StatusOr<Tensor> r = ReduceSum(x, std::vector<int>{}, false);
  ASSERT_TRUE(r.ok()) << r.status();
  EXPECT_EQ(r->shape(), TensorShape({2, 3}));
  EXPECT_THAT(r->ToVector<float>(), ElementsAre(1, 2, 3, 4, 5, 6));
  EXPECT_FALSE(r->SharesBufferWith(x));
}

TEST(ReduceSumTest, RowsAndColumns) {
  Tensor x({{1.f, 2.f, 3.f}, {4.f, 5.f, 6.f}});
  StatusOr<Tensor> rows = ReduceSum(x, std::vector<int>{1}, false);
  ASSERT_TRUE(rows.ok());
  EXPECT_EQ(rows->shape(), TensorShape({2}));
  EXPECT_THAT(rows->ToVector<float>(), ElementsAre(6, 15));
  StatusOr<Tensor> columns = ReduceSum(x, std::vector<int>{0}, false);
  ASSERT_TRUE(columns.ok());
  EXPECT_EQ(columns->shape(), TensorShape({3}));
  EXPECT_THAT(columns->ToVector<float>(), ElementsAre(5, 7, 9));
}

TEST(ReduceSumTest, NegativeAxisCountsFromTheEnd) {
  Tensor x({{1.f, 2.f, 3.f}, {4.f, 5.f, 6.f}});
  StatusOr<Tensor> r = ReduceSum(x, std::vector<int>{-1}, false);
  ASSERT_TRUE(r.ok());
  EXPECT_THAT(r->ToVector<float>(), ElementsAre(6, 15));
  StatusOr<Tensor> r2 = ReduceSum(x, std::vector<int>{-2}, false);
  ASSERT_TRUE(r2.ok());
  EXPECT_THAT(r2->ToVector<float>(), ElementsAre(5, 7, 9));
}

TEST(ReduceSumTest, KeepDimsLeavesSizeOneAxes) {
  Tensor x({{1.f, 2.f, 3.f}, {4.f, 5.f, 6.f}});
  StatusOr<Tensor> r = ReduceSum(x, std::vector<int>{1}, true);
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(r->shape(), TensorShape({2, 1}));
  EXPECT_THAT(r->ToVector<float>(), ElementsAre(6, 15));
  StatusOr<Tensor> all = ReduceSum(x, std::nullopt, true);
  ASSERT_TRUE(all.ok());
  EXPECT_EQ(all->shape(), TensorShape({1, 1}));
  EXPECT_EQ(all->scalar<float>(), 21.f);
}

TEST(ReduceSumTest, MiddleAxisOfThree) {
  // x:[2,3,2] = 0..11; summing axis 1 adds x[i,0,k] + x[i,1,k] + x[i,2,k].
  StatusOr<Tensor> r = ReduceSum(Iota({2, 3, 2}), std::vector<int>{1}, false);
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(r->shape(), TensorShape({2, 2}));
  EXPECT_THAT(r->ToVector<float>(),
              ElementsAre(0 + 2 + 4, 1 + 3 + 5, 6 + 8 + 10, 7 + 9 + 11));
}

TEST(ReduceSumTest, AlternatingAxesTakeSeveralPasses) {
  // [reduce, keep, reduce]: x:[2,3,2] axes {0,2} -> [3].
  StatusOr<Tensor> r =
      ReduceSum(Iota({2, 3, 2}), std::vector<int>{0, 2}, false);
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(r->shape(), TensorShape({3}));
  EXPECT_THAT(r->ToVector<float>(),
              ElementsAre(0 + 1 + 6 + 7, 2 + 3 + 8 + 9, 4 + 5 + 10 + 11));
}

TEST(ReductionPassTest, InnermostReducedRunFirstThenItsNeighboursMerge) {
  // [2,3,4,5] reducing axes 0 and 2: runs [2r,3k,4r,5k].
  MergedAxes merged =
      MergeAxes(TensorShape({2, 3, 4, 5}), {true, false, true, false});
  ReductionPass pass = NextReductionPass(merged);
  EXPECT_EQ(pass.run, 2);
  EXPECT_EQ(pass.reduced_runs, 2);
  EXPECT_EQ(pass.outer, 6);
  EXPECT_EQ(pass.middle, 4);
  EXPECT_EQ(pass.inner, 5);
  RemoveReducedRun(pass, &merged);
  EXPECT_THAT(merged.sizes, ElementsAre(2, 15));
  pass = NextReductionPass(merged);
  EXPECT_EQ(pass.run, 0);
  EXPECT_EQ(pass.reduced_runs, 1);
  EXPECT_EQ(pass.outer, 1);
  EXPECT_EQ(pass.middle, 2);
  EXPECT_EQ(pass.inner, 15);
}

TEST(ReductionPassTest, ALastReducedRunIsDropped) {
  // [3,4,5] reducing axes 0 and 2: runs [3r,4k,5r].
  MergedAxes merged = MergeAxes(TensorShape({3, 4, 5}), {true, false, true});
  ReductionPass pass = NextReductionPass(merged);
  EXPECT_EQ(pass.run, 2);
  EXPECT_EQ(pass.inner, 1);
  RemoveReducedRun(pass, &merged);
  EXPECT_THAT(merged.sizes, ElementsAre(3, 4));
}

TEST(ReductionPassTest, OnlySizeOneAxesReducedIsNoPass) {
  MergedAxes merged = MergeAxes(TensorShape({1, 4}), {true, false});
  EXPECT_EQ(NextReductionPass(merged).reduced_runs, 0);
}

TEST(ReduceSumTest, SizeOneAxesDoNotChangeTheResult) {
  // [2,1,3] reducing axes {1,2}: the size-1 axis merges with axis 2.
  Tensor x = *Iota({2, 3}).Reshaped(TensorShape({2, 1, 3}));
  StatusOr<Tensor> r = ReduceSum(x, std::vector<int>{1, 2}, false);
  ASSERT_TRUE(r.ok());
  EXPECT_THAT(r->ToVector<float>(), ElementsAre(3, 12));
  // Reducing only the size-1 axis is a copy with that axis removed.
  StatusOr<Tensor> squeezed = ReduceSum(x, std::vector<int>{1}, false);
  ASSERT_TRUE(squeezed.ok());
  EXPECT_EQ(squeezed->shape(), TensorShape({2, 3}));
  EXPECT_THAT(squeezed->ToVector<float>(), ElementsAre(0, 1, 2, 3, 4, 5));
}

TEST(ReduceSumTest, MatchesTheDefinitionForEveryAxisSubset) {
  // Every subset of axes of a rank-4 tensor, including size-1 axes: every
  // merged pattern the kernel can meet, checked against the naive sum.
  for (const TensorShape& shape :
       {TensorShape({2, 3, 4, 5}), TensorShape({3, 1, 4, 2}),
        TensorShape({1, 5, 1, 3})}) {
    const Tensor x = Iota(shape);
    for (int mask = 0; mask < 16; ++mask) {
      std::vector<int> axes;
      std::vector<bool> reduced(4, false);
      for (int i = 0; i < 4; ++i) {
        if (mask & (1 << i)) {
          axes.push_back(i);
          reduced[i] = true;
        }
      }
      StatusOr<Tensor> r = ReduceSum(x, axes, /*keep_dims=*/true);
      ASSERT_TRUE(r.ok()) << r.status();
      const std::vector<double> expected = NaiveSum(x, reduced);
      ASSERT_EQ(r->NumElements(), static_cast<int64_t>(expected.size()));
      for (size_t i = 0; i < expected.size(); ++i) {
        EXPECT_EQ(r->data<float>()[i], expected[i])
            << shape << " mask " << mask << " at " << i;
      }
    }
  }
}

TEST(ReduceSumTest, WideColumnsSpanSeveralTiles) {
  // 3 rows of 10000 columns: more columns than one accumulator tile.
  Tensor x(DT_DOUBLE, TensorShape({3, 10000}));
  for (int64_t i = 0; i < x.NumElements(); ++i)
    x.data<double>()[i] = static_cast<double>(i % 10000);
  StatusOr<Tensor> r = ReduceSum(x, std::vector<int>{0}, false);
  ASSERT_TRUE(r.ok());
  for (int64_t c = 0; c < 10000; ++c) ASSERT_EQ(r->data<double>()[c], 3.0 * c);
}

TEST(ReduceSumTest, IntegersAndScalars) {
  Tensor x({{1, 2, 3}, {4, 5, 6}});
  StatusOr<Tensor> r = ReduceSum(x, std::vector<int>{0}, false);
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(r->dtype(), DT_INT32);
  EXPECT_THAT(r->ToVector<int32_t>(), ElementsAre(5, 7, 9));
  StatusOr<Tensor> s = ReduceSum(Tensor(int64_t{7}), std::nullopt, false);
  ASSERT_TRUE(s.ok());
  EXPECT_EQ(s->scalar<int64_t>(), 7);
}

TEST(ReduceSumTest, EmptyReductionsGiveZero) {
  Tensor x(DT_FLOAT, TensorShape({0, 3}));
  StatusOr<Tensor> columns = ReduceSum(x, std::vector<int>{0}, false);
  ASSERT_TRUE(columns.ok());
  EXPECT_THAT(columns->ToVector<float>(), ElementsAre(0, 0, 0));
  StatusOr<Tensor> rows = ReduceSum(x, std::vector<int>{1}, false);
  ASSERT_TRUE(rows.ok());
  EXPECT_EQ(rows->shape(), TensorShape({0}));
  StatusOr<Tensor> all = ReduceSum(x, std::nullopt, false);
  ASSERT_TRUE(all.ok());
  EXPECT_EQ(all->scalar<float>(), 0.f);
}

TEST(ReduceSumTest, InfinityAndNaN) {
  Tensor x({{1.f, kInf}, {1.f, kNaN}});
  StatusOr<Tensor> r = ReduceSum(x, std::vector<int>{1}, false);
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(r->data<float>()[0], kInf);
  EXPECT_TRUE(std::isnan(r->data<float>()[1]));
}

TEST(ReduceSumTest, RejectsBadAxes) {
  Tensor x({{1.f, 2.f}, {3.f, 4.f}});
  ExpectInvalidArgument(
      ReduceSum(x, std::vector<int>{2}, false),
      "Invalid reduction dimension 2 for input with 2 dimensions");
  ExpectInvalidArgument(
      ReduceSum(x, std::vector<int>{-3}, false),
      "Invalid reduction dimension -3 for input with 2 dimensions");
  ExpectInvalidArgument(
      ReduceSum(x, std::vector<int>{1, -1}, false),
      "Invalid reduction arguments: Axes contains duplicate dimension: 1");
  ExpectInvalidArgument(
      ReduceSum(Tensor(1.f), std::vector<int>{0}, false),
      "Invalid reduction dimension 0 for input with 0 dimensions");
}

TEST(ReduceSumTest, RejectsBoolAndUninitialized) {
  ExpectInvalidArgument(ReduceSum(Tensor({true, false}), std::nullopt, false),
                        "Sum has no kernel for dtype bool");
  ExpectInvalidArgument(ReduceSum(Tensor(), std::nullopt, false),
                        "Sum has no kernel for dtype invalid");
}

TEST(ReduceMeanTest, FloatMeans) {
  Tensor x({{1.f, 2.f, 3.f}, {4.f, 5.f, 6.f}});
  StatusOr<Tensor> r = ReduceMean(x, std::vector<int>{1}, false);
  ASSERT_TRUE(r.ok());
  EXPECT_THAT(r->ToVector<float>(), ElementsAre(2, 5));
  StatusOr<Tensor> all = ReduceMean(x, std::nullopt, false);
  ASSERT_TRUE(all.ok());
  EXPECT_EQ(all->scalar<float>(), 3.5f);
}

TEST(ReduceMeanTest, IntegerMeanTruncatesTowardZero) {
  Tensor x({{1, 2}, {-1, -2}, {7, 7}});
  StatusOr<Tensor> r = ReduceMean(x, std::vector<int>{1}, false);
  ASSERT_TRUE(r.ok());
  EXPECT_THAT(r->ToVector<int32_t>(), ElementsAre(1, -1, 7));
  StatusOr<Tensor> r64 =
      ReduceMean(Tensor({int64_t{5}, int64_t{6}}), std::nullopt, false);
  ASSERT_TRUE(r64.ok());
  EXPECT_EQ(r64->scalar<int64_t>(), 5);
}

TEST(ReduceMeanTest, EmptyMeanIsNaNForFloatsAndAnErrorForIntegers) {
  StatusOr<Tensor> f = ReduceMean(Tensor(DT_FLOAT, TensorShape({0, 2})),
                                  std::vector<int>{0}, false);
  ASSERT_TRUE(f.ok());
  EXPECT_EQ(f->shape(), TensorShape({2}));
  EXPECT_TRUE(std::isnan(f->data<float>()[0]));
  EXPECT_TRUE(std::isnan(f->data<float>()[1]));
  ExpectInvalidArgument(ReduceMean(Tensor(DT_INT32, TensorShape({0, 2})),
                                   std::vector<int>{0}, false),
                        "Mean of an empty set of int32 values is undefined "
                        "(reducing shape [0,2])");
  // No output element, nothing undefined.
  StatusOr<Tensor> none = ReduceMean(Tensor(DT_INT32, TensorShape({2, 0})),
                                     std::vector<int>{0}, false);
  ASSERT_TRUE(none.ok());
  EXPECT_EQ(none->shape(), TensorShape({0}));
}

TEST(ReduceMeanTest, AlternatingAxesDivideByTheWholeCount) {
  StatusOr<Tensor> r =
      ReduceMean(Iota({2, 3, 2}), std::vector<int>{0, 2}, true);
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(r->shape(), TensorShape({1, 3, 1}));
  EXPECT_THAT(r->ToVector<float>(), ElementsAre(3.5f, 5.5f, 7.5f));
}

TEST(ReduceMeanTest, RejectsBool) {
  ExpectInvalidArgument(ReduceMean(Tensor({true}), std::nullopt, false),
                        "Mean has no kernel for dtype bool");
}

TEST(ReduceMaxTest, RowsColumnsAndAll) {
  Tensor x({{1.f, 9.f, 3.f}, {8.f, -5.f, 6.f}});
  StatusOr<Tensor> rows = ReduceMax(x, std::vector<int>{1}, false);
  ASSERT_TRUE(rows.ok());
  EXPECT_THAT(rows->ToVector<float>(), ElementsAre(9, 8));
  StatusOr<Tensor> columns = ReduceMax(x, std::vector<int>{0}, false);
  ASSERT_TRUE(columns.ok());
  EXPECT_THAT(columns->ToVector<float>(), ElementsAre(8, 9, 6));
  StatusOr<Tensor> all = ReduceMin(x, std::nullopt, false);
  ASSERT_TRUE(all.ok());
  EXPECT_EQ(all->scalar<float>(), -5.f);
}

TEST(ReduceMaxTest, NaNPropagatesAsInNumPy) {
  // np.max([[1, nan, 3], [4, 5, 6]], axis=1) is [nan, 6.]; axis=0 is [4, nan,
  // 6].
  Tensor x({{1.f, kNaN, 3.f}, {4.f, 5.f, 6.f}});
  StatusOr<Tensor> rows = ReduceMax(x, std::vector<int>{1}, false);
  ASSERT_TRUE(rows.ok());
  EXPECT_TRUE(std::isnan(rows->data<float>()[0]));
  EXPECT_EQ(rows->data<float>()[1], 6.f);
  StatusOr<Tensor> columns = ReduceMax(x, std::vector<int>{0}, false);
  ASSERT_TRUE(columns.ok());
  EXPECT_EQ(columns->data<float>()[0], 4.f);
  EXPECT_TRUE(std::isnan(columns->data<float>()[1]));
  EXPECT_EQ(columns->data<float>()[2], 6.f);
  // Also when the NaN comes last, where a plain max(a, b) would drop it.
  StatusOr<Tensor> last =
      ReduceMax(Tensor({1.f, 2.f, kNaN}), std::nullopt, false);
  ASSERT_TRUE(last.ok());
  EXPECT_TRUE(std::isnan(last->scalar<float>()));
}

TEST(ReduceMinTest, NaNPropagatesAsInNumPy) {
  Tensor x({{1.f, kNaN}, {0.f, 5.f}});
  StatusOr<Tensor> columns = ReduceMin(x, std::vector<int>{0}, false);
  ASSERT_TRUE(columns.ok());
  EXPECT_EQ(columns->data<float>()[0], 0.f);
  EXPECT_TRUE(std::isnan(columns->data<float>()[1]));
  StatusOr<Tensor> all = ReduceMin(x, std::nullopt, false);
  ASSERT_TRUE(all.ok());
  EXPECT_TRUE(std::isnan(all->scalar<float>()));
}

TEST(ReduceMaxTest, InfinitiesAreOrdinaryValues) {
  StatusOr<Tensor> r =
      ReduceMax(Tensor({-kInf, 3.f, kInf}), std::nullopt, false);
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(r->scalar<float>(), kInf);
  StatusOr<Tensor> m =
      ReduceMin(Tensor({-kInf, 3.f, kInf}), std::nullopt, false);
  ASSERT_TRUE(m.ok());
  EXPECT_EQ(m->scalar<float>(), -kInf);
}

TEST(ReduceMaxTest, EmptyReductionsGiveTheIdentity) {
  StatusOr<Tensor> max =
      ReduceMax(Tensor(DT_FLOAT, TensorShape({0})), std::nullopt, false);
  ASSERT_TRUE(max.ok());
  EXPECT_EQ(max->scalar<float>(), -kInf);
  StatusOr<Tensor> min =
      ReduceMin(Tensor(DT_DOUBLE, TensorShape({0})), std::nullopt, false);
  ASSERT_TRUE(min.ok());
  EXPECT_EQ(min->scalar<double>(), std::numeric_limits<double>::infinity());
  StatusOr<Tensor> imax =
      ReduceMax(Tensor(DT_INT32, TensorShape({0})), std::nullopt, false);
  ASSERT_TRUE(imax.ok());
  EXPECT_EQ(imax->scalar<int32_t>(), std::numeric_limits<int32_t>::lowest());
  StatusOr<Tensor> imin =
      ReduceMin(Tensor(DT_INT64, TensorShape({0})), std::nullopt, false);
  ASSERT_TRUE(imin.ok());
  EXPECT_EQ(imin->scalar<int64_t>(), std::numeric_limits<int64_t>::max());
}

TEST(ReduceMaxTest, Integers) {
  Tensor x({{int64_t{-3}, int64_t{-7}}, {int64_t{2}, int64_t{-1}}});
  StatusOr<Tensor> r = ReduceMax(x, std::vector<int>{0}, false);
  ASSERT_TRUE(r.ok());
  EXPECT_THAT(r->ToVector<int64_t>(), ElementsAre(2, -1));
  StatusOr<Tensor> m = ReduceMin(x, std::vector<int>{1}, false);
  ASSERT_TRUE(m.ok());
  EXPECT_THAT(m->ToVector<int64_t>(), ElementsAre(-7, -1));
}

TEST(ReduceMaxTest, RejectsBool) {
  ExpectInvalidArgument(ReduceMax(Tensor({true}), std::nullopt, false),
                        "Max has no kernel for dtype bool");
  ExpectInvalidArgument(ReduceMin(Tensor({true}), std::nullopt, false),
                        "Min has no kernel for dtype bool");
}

TEST(ReduceProdTest, ProductsAndEmptyIsOne) {
  Tensor x({{1.f, 2.f, 3.f}, {4.f, 5.f, 6.f}});
  StatusOr<Tensor> r = ReduceProd(x, std::vector<int>{0}, false);
  ASSERT_TRUE(r.ok());
  EXPECT_THAT(r->ToVector<float>(), ElementsAre(4, 10, 18));
  StatusOr<Tensor> all = ReduceProd(Tensor({2, 3, 4}), std::nullopt, false);
  ASSERT_TRUE(all.ok());
  EXPECT_EQ(all->scalar<int32_t>(), 24);
  StatusOr<Tensor> empty = ReduceProd(Tensor(DT_FLOAT, TensorShape({2, 0})),
                                      std::vector<int>{1}, false);
  ASSERT_TRUE(empty.ok());
  EXPECT_THAT(empty->ToVector<float>(), ElementsAre(1, 1));
  ExpectInvalidArgument(ReduceProd(Tensor({true}), std::nullopt, false),
                        "Prod has no kernel for dtype bool");
}

TEST(ReduceAllTest, AllAndAny) {
  Tensor x({{true, true, false}, {true, true, true}});
  StatusOr<Tensor> all_rows = ReduceAll(x, std::vector<int>{1}, false);
  ASSERT_TRUE(all_rows.ok());
  EXPECT_THAT(all_rows->ToVector<bool>(), ElementsAre(false, true));
  StatusOr<Tensor> all_columns = ReduceAll(x, std::vector<int>{0}, false);
  ASSERT_TRUE(all_columns.ok());
  EXPECT_THAT(all_columns->ToVector<bool>(), ElementsAre(true, true, false));
  Tensor y({{false, false, true}, {false, false, false}});
  StatusOr<Tensor> any_rows = ReduceAny(y, std::vector<int>{1}, false);
  ASSERT_TRUE(any_rows.ok());
  EXPECT_THAT(any_rows->ToVector<bool>(), ElementsAre(true, false));
  StatusOr<Tensor> any_columns = ReduceAny(y, std::vector<int>{-2}, true);
  ASSERT_TRUE(any_columns.ok());
  EXPECT_EQ(any_columns->shape(), TensorShape({1, 3}));
  EXPECT_THAT(any_columns->ToVector<bool>(), ElementsAre(false, false, true));
}

TEST(ReduceAllTest, EmptyAllIsTrueAndEmptyAnyIsFalse) {
  Tensor x(DT_BOOL, TensorShape({0}));
  StatusOr<Tensor> all = ReduceAll(x, std::nullopt, false);
  ASSERT_TRUE(all.ok());
  EXPECT_TRUE(all->scalar<bool>());
  StatusOr<Tensor> any = ReduceAny(x, std::nullopt, false);
  ASSERT_TRUE(any.ok());
  EXPECT_FALSE(any->scalar<bool>());
}

TEST(ReduceAllTest, RejectsNonBool) {
  ExpectInvalidArgument(ReduceAll(Tensor({1.f}), std::nullopt, false),
                        "All has no kernel for dtype float");
  ExpectInvalidArgument(ReduceAny(Tensor({1}), std::nullopt, false),
                        "Any has no kernel for dtype int32");
  ExpectInvalidArgument(
      ReduceAll(Tensor({true}), std::vector<int>{1}, false),
      "Invalid reduction dimension 1 for input with 1 dimensions");
}

TEST(ArgMaxTest, AlongEachAxis) {
  Tensor x({{1.f, 9.f, 3.f}, {8.f, -5.f, 6.f}});
  StatusOr<Tensor> rows = ArgMax(x, 1);
  ASSERT_TRUE(rows.ok());
  EXPECT_EQ(rows->dtype(), DT_INT64);
  EXPECT_EQ(rows->shape(), TensorShape({2}));
  EXPECT_THAT(rows->ToVector<int64_t>(), ElementsAre(1, 0));
  StatusOr<Tensor> columns = ArgMax(x, 0);
  ASSERT_TRUE(columns.ok());
  EXPECT_THAT(columns->ToVector<int64_t>(), ElementsAre(1, 0, 1));
  StatusOr<Tensor> negative = ArgMin(x, -1);
  ASSERT_TRUE(negative.ok());
  EXPECT_THAT(negative->ToVector<int64_t>(), ElementsAre(0, 1));
}

TEST(ArgMaxTest, MiddleAxisOfThree) {
  // x:[2,3,2] = 0..11 is increasing along axis 1, so argmax is 2, argmin 0.
  StatusOr<Tensor> max = ArgMax(Iota({2, 3, 2}), 1);
  ASSERT_TRUE(max.ok());
  EXPECT_EQ(max->shape(), TensorShape({2, 2}));
  EXPECT_THAT(max->ToVector<int64_t>(), ElementsAre(2, 2, 2, 2));
  StatusOr<Tensor> min = ArgMin(Iota({2, 3, 2}), 1);
  ASSERT_TRUE(min.ok());
  EXPECT_THAT(min->ToVector<int64_t>(), ElementsAre(0, 0, 0, 0));
}

TEST(ArgMaxTest, TiesGiveTheFirstIndex) {
  StatusOr<Tensor> max = ArgMax(Tensor({3, 7, 7, 1, 7}), 0);
  ASSERT_TRUE(max.ok());
  EXPECT_EQ(max->scalar<int64_t>(), 1);
  StatusOr<Tensor> min = ArgMin(Tensor({3.0, 1.0, 7.0, 1.0}), 0);
  ASSERT_TRUE(min.ok());
  EXPECT_EQ(min->scalar<int64_t>(), 1);
}

TEST(ArgMaxTest, TheFirstNaNWinsAsInNumPy) {
  // np.argmax([1, nan, 5, nan]) == 1 == np.argmin([1, nan, 5, nan]).
  Tensor x({1.f, kNaN, 5.f, kNaN});
  StatusOr<Tensor> max = ArgMax(x, 0);
  ASSERT_TRUE(max.ok());
  EXPECT_EQ(max->scalar<int64_t>(), 1);
  StatusOr<Tensor> min = ArgMin(x, 0);
  ASSERT_TRUE(min.ok());
  EXPECT_EQ(min->scalar<int64_t>(), 1);
  StatusOr<Tensor> first = ArgMax(Tensor({kNaN, kInf}), 0);
  ASSERT_TRUE(first.ok());
  EXPECT_EQ(first->scalar<int64_t>(), 0);
}

TEST(ArgMaxTest, SizeOneAxisGivesZeros) {
  StatusOr<Tensor> r = ArgMax(Tensor({{4.f}, {2.f}}), 1);
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(r->shape(), TensorShape({2}));
  EXPECT_THAT(r->ToVector<int64_t>(), ElementsAre(0, 0));
}

TEST(ArgMaxTest, Errors) {
  Tensor x({{1.f, 2.f}, {3.f, 4.f}});
  ExpectInvalidArgument(ArgMax(x, 2),
                        "Expected dimension in the range [-2, 2), but got 2");
  ExpectInvalidArgument(ArgMin(x, -3),
                        "Expected dimension in the range [-2, 2), but got -3");
  ExpectInvalidArgument(ArgMax(Tensor(1.f), 0),
                        "Expected dimension in the range [0, 0), but got 0");
  ExpectInvalidArgument(ArgMax(Tensor(DT_FLOAT, TensorShape({2, 0})), 1),
                        "Reduction axis 1 is empty in shape [2,0]");
  ExpectInvalidArgument(ArgMax(Tensor({true}), 0),
                        "ArgMax has no kernel for dtype bool");
}

}  // namespace
}  // namespace minitf::kernels
