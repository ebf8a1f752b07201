// Tests of exercise 04_matmul_shape. They call MatMulShape on an
// InferenceContext built by hand, as the graph builder does for a MatMul
// node: the two input shapes and the transpose attributes. The last tests
// compare it with the shape function the library registers for MatMul, and
// build a graph with it. Every test fails on the starter, which returns
// Unimplemented.
#include "matmul_shape.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "minitf/graph/op_def.h"

namespace minitf::exercises {
namespace {

const TensorShape kUnknown = TensorShape::UnknownRank();

std::string Describe(const TensorShape& a, const TensorShape& b, bool ta,
                     bool tb) {
  return StrCat("MatMul(", ShapeErrorString(a), ", ", ShapeErrorString(b),
                ", transpose_a=", ta ? "true" : "false",
                ", transpose_b=", tb ? "true" : "false", ")");
}

// Runs `fn` (yours by default) as the graph builder would for a MatMul node.
StatusOr<TensorShape> Infer(const TensorShape& a, const TensorShape& b,
                            bool ta = false, bool tb = false,
                            const ShapeFn& fn = MatMulShape) {
  const AttrMap attrs = {
      {"transpose_a", ta}, {"transpose_b", tb}, {"T", DT_FLOAT}};
  InferenceContext c(&attrs, {a, b}, {DT_FLOAT, DT_FLOAT}, {nullptr, nullptr},
                     1);
  Status s = fn(&c);
  if (!s.ok()) return s;
  return c.output(0);
}

void ExpectShape(const TensorShape& a, const TensorShape& b,
                 const TensorShape& expected, bool ta = false,
                 bool tb = false) {
  StatusOr<TensorShape> got = Infer(a, b, ta, tb);
  ASSERT_TRUE(got.ok()) << Describe(a, b, ta, tb)
                        << " failed: " << got.status();
  EXPECT_EQ(ShapeErrorString(*got), ShapeErrorString(expected))
      << Describe(a, b, ta, tb);
}

void ExpectError(const TensorShape& a, const TensorShape& b,
                 const std::string& message, bool ta = false, bool tb = false) {
  StatusOr<TensorShape> got = Infer(a, b, ta, tb);
  ASSERT_FALSE(got.ok()) << Describe(a, b, ta, tb) << " should fail with \""
                         << message << "\", got " << ShapeErrorString(*got);
  EXPECT_EQ(got.status().code(), error::INVALID_ARGUMENT) << got.status();
  EXPECT_EQ(got.status().message(), message) << Describe(a, b, ta, tb);
}

TEST(MatMulShapeTest, SeedOnesProductIsTwoByTwo) {
  ExpectShape({2, 3}, {3, 2}, {2, 2});
  ExpectShape({4, 1}, {1, 5}, {4, 5});
}

TEST(MatMulShapeTest, TransposeFlagsChooseWhichDimensionsMeet) {
  ExpectShape({3, 2}, {3, 4}, {2, 4}, /*ta=*/true);
  ExpectShape({2, 3}, {4, 3}, {2, 4}, false, /*tb=*/true);
  ExpectShape({3, 2}, {4, 3}, {2, 4}, true, true);
}

TEST(MatMulShapeTest, UnknownDimensionsStayUnknownOrAgreeWithAnything) {
  ExpectShape({None, 784}, {784, 10}, {None, 10});
  ExpectShape({2, None}, {3, 4}, {2, 4});
  ExpectShape({2, 3}, {None, None}, {2, None});
  ExpectShape({None, 3}, {4, None}, {3, 4}, true, true);
}

TEST(MatMulShapeTest, UnknownRankCountsAsTwoUnknownDimensions) {
  ExpectShape(kUnknown, {3, 4}, {None, 4});
  ExpectShape({2, 3}, kUnknown, {2, None});
  ExpectShape(kUnknown, kUnknown, {None, None});
}

TEST(MatMulShapeTest, InnerDimensionsThatDifferFailWithTensorFlowsText) {
  ExpectError({2, 3}, {4, 2}, "Dimensions must be equal, but are 3 and 4");
  ExpectError({2, 3}, {3, 4}, "Dimensions must be equal, but are 2 and 3",
              true);
  ExpectError({2, 3}, {2, 4}, "Dimensions must be equal, but are 3 and 4",
              false, true);
}

TEST(MatMulShapeTest, BothInputsMustBeMatrices) {
  ExpectError({2, 3, 4}, {4, 2}, "Shape must be rank 2 but is rank 3");
  ExpectError({2, 3}, {3}, "Shape must be rank 2 but is rank 1");
  ExpectError({}, {3, 4}, "Shape must be rank 2 but is rank 0");
  // a is checked first.
  ExpectError({2}, {3, 4, 5}, "Shape must be rank 2 but is rank 1");
}

// The library's own MatMul shape function, as the op registry holds it
// (this test program does not link your register_piece.cc).
TEST(MatMulShapeTest, AgreesWithTheLibrarysShapeFunction) {
  const ShapeFn& library =
      OpRegistry::Global()->LookUp("MatMul").value()->shape_fn;
  const std::vector<TensorShape> shapes = {{2, 3},    {3, 2},    {3, 3},
                                           {None, 3}, {3, None}, {None, None},
                                           kUnknown,  {3},       {2, 3, 4}};
  int compared = 0;
  for (const TensorShape& a : shapes) {
    for (const TensorShape& b : shapes) {
      for (bool ta : {false, true}) {
        for (bool tb : {false, true}) {
          StatusOr<TensorShape> want = Infer(a, b, ta, tb, library);
          StatusOr<TensorShape> got = Infer(a, b, ta, tb);
          ASSERT_EQ(got.ok(), want.ok())
              << Describe(a, b, ta, tb) << ": the library's gives "
              << (want.ok() ? ShapeErrorString(*want)
                            : want.status().ToString())
              << ", yours "
              << (got.ok() ? ShapeErrorString(*got) : got.status().ToString());
          if (want.ok()) {
            ASSERT_EQ(ShapeErrorString(*got), ShapeErrorString(*want))
                << Describe(a, b, ta, tb);
          } else {
            ASSERT_EQ(got.status().message(), want.status().message())
                << Describe(a, b, ta, tb);
          }
          ++compared;
        }
      }
    }
  }
  EXPECT_EQ(compared, 9 * 9 * 4);
}

}  // namespace
}  // namespace minitf::exercises
