// An exercise's override of an op's shape function (shape_fn_override.h):
// graphs are built with it while it is there, and with the registered
// function again once it is removed.
#include "minitf/graph/shape_fn_override.h"

#include <gtest/gtest.h>

#include "minitf/graph/ops/array_ops.h"
#include "minitf/graph/ops/math_ops.h"
#include "minitf/graph/scope.h"
#include "minitf/graph/shape_inference.h"

namespace minitf {
namespace {

std::string ProductShape() {
  Graph g;
  graph_scope use(g);
  auto a = constant({1.f, 2.f, 3.f, 4.f, 5.f, 6.f}, {2, 3}, "a");
  auto b = constant({1.f, 2.f, 3.f, 4.f, 5.f, 6.f}, {3, 2}, "b");
  return matmul(a, b).shape().DebugString();
}

TEST(ShapeFnOverrideTest, AnOverrideBuildsGraphsUntilRemoved) {
  const std::string registered = ProductShape();
  ASSERT_EQ(registered, "[2,2]");
  // A wrong shape on purpose, the first input's: the answer says whose it is.
  OverrideShapeFnForExercise("MatMul", [](InferenceContext* c) {
    c->set_output(0, c->input(0));
    return Status::OK();
  });
  EXPECT_EQ(ProductShape(), "[2,3]");
  RemoveShapeFnOverrideForExercise("MatMul");
  EXPECT_EQ(ProductShape(), registered);
}

// The shape `def`'s shape function gives one [2,3] input.
std::string ShapeOfOneInput(const OpDef& def) {
  AttrMap attrs;
  InferenceContext c(&attrs, {TensorShape({2, 3})}, {DT_FLOAT}, {nullptr}, 1);
  EXPECT_TRUE(def.shape_fn(&c).ok());
  return c.output(0).DebugString();
}

TEST(ShapeFnOverrideTest, AnOverrideMadeBeforeTheOpIsRegisteredIsKept) {
  OverrideShapeFnForExercise("ShapeFnOverrideTestLate",
                             [](InferenceContext* c) {
                               c->set_output(0, TensorShape({}));
                               return Status::OK();
                             });
  ASSERT_TRUE(OpRegistry::Global()
                  ->Register(OpDefBuilder("ShapeFnOverrideTestLate")
                                 .Input("x: float")
                                 .Output("y: float")
                                 .SetShapeFn(shape_fns::UnchangedShape)
                                 .Finalize()
                                 .value())
                  .ok());
  const OpDef* def =
      OpRegistry::Global()->LookUp("ShapeFnOverrideTestLate").value();
  EXPECT_EQ(ShapeOfOneInput(*def), "[]");
  RemoveShapeFnOverrideForExercise("ShapeFnOverrideTestLate");
  EXPECT_EQ(ShapeOfOneInput(*def), "[2,3]");
}

TEST(ShapeFnOverrideTest, RemovingWhatWasNeverOverriddenChangesNothing) {
  RemoveShapeFnOverrideForExercise("MatMul");
  EXPECT_EQ(ProductShape(), "[2,2]");
}

}  // namespace
}  // namespace minitf
