#include "minitf/graph/op_def.h"

#include <gtest/gtest.h>

#include "minitf/graph/node_builder.h"
#include "minitf/graph/ops/array_ops.h"
#include "minitf/graph/scope.h"
#include "minitf/tensor/errors.h"

namespace minitf {
namespace {

TEST(OpDefBuilderTest, ParsesTensorFlowSpecStrings) {
  OpDef def = OpDefBuilder("Example")
                  .Input("a: T")
                  .Input("values: N * T")
                  .Input("axis: int32")
                  .Output("out: T")
                  .Attr("T: {float, double}")
                  .Attr("N: int >= 2")
                  .Attr("flag: bool = true")
                  .Attr("shape: shape = <unknown>")
                  .Finalize()
                  .value();
  ASSERT_EQ(def.inputs.size(), 3u);
  EXPECT_EQ(def.inputs[0].type_attr, "T");
  EXPECT_EQ(def.inputs[1].number_attr, "N");
  EXPECT_EQ(def.inputs[2].type, DT_INT32);
  const AttrDef* t = def.FindAttr("T");
  ASSERT_NE(t, nullptr);
  EXPECT_EQ(t->allowed_types, (std::vector<DType>{DT_FLOAT, DT_DOUBLE}));
  EXPECT_EQ(*def.FindAttr("N")->minimum, 2);
  EXPECT_EQ(def.FindAttr("flag")->default_value->get<bool>(), true);
  EXPECT_TRUE(
      def.FindAttr("shape")->default_value->get<TensorShape>().unknown_rank());
}

TEST(OpDefBuilderTest, ParsesAReferenceArgument) {
  OpDef def = OpDefBuilder("RefExample")
                  .Input("ref: Ref(T)")
                  .Input("value: T")
                  .Output("output_ref: Ref(T)")
                  .Attr("T: type")
                  .Finalize()
                  .value();
  EXPECT_TRUE(def.inputs[0].is_ref);
  EXPECT_EQ(def.inputs[0].type_attr, "T");
  EXPECT_FALSE(def.inputs[1].is_ref);
  EXPECT_TRUE(def.outputs[0].is_ref);
  EXPECT_EQ(def.outputs[0].type_attr, "T");
  EXPECT_FALSE(OpDefBuilder("X").Input("a: Ref(U)").Finalize().ok());
}

TEST(OpDefBuilderTest, RejectsMalformedSpecs) {
  EXPECT_FALSE(OpDefBuilder("X").Input("a T").Finalize().ok());
  EXPECT_FALSE(OpDefBuilder("X").Input("a: T").Finalize().ok());  // No T.
  EXPECT_FALSE(OpDefBuilder("X").Attr("T: {float, half}").Finalize().ok());
  EXPECT_FALSE(OpDefBuilder("X").Attr("b: bool = maybe").Finalize().ok());
  EXPECT_FALSE(OpDefBuilder("X").Attr("b: blob").Finalize().ok());
}

TEST(OpRegistryTest, UnknownOpsAndDuplicatesAreErrors) {
  auto missing = OpRegistry::Global()->LookUp("NoSuchOp");
  EXPECT_EQ(missing.status().message(),
            "Op type not registered 'NoSuchOp' in binary running on this "
            "machine.");
  OpDef duplicate;
  duplicate.name = "Const";
  EXPECT_EQ(OpRegistry::Global()->Register(duplicate).code(),
            error::ALREADY_EXISTS);
}

TEST(NodeBuilderTest, ChecksAttrsAgainstTheOpDef) {
  Graph g;
  auto missing = NodeBuilder("Placeholder").Finalize(&g);
  EXPECT_EQ(missing.status().message(),
            "NodeDef 'Placeholder' (op: 'Placeholder') is missing attr "
            "'dtype'");
  auto extra = NodeBuilder("NoOp").Attr("bogus", 1).Finalize(&g);
  EXPECT_EQ(extra.status().message(),
            "NodeDef 'NoOp' mentions attr 'bogus' not in Op<name=NoOp>");
  auto kind = NodeBuilder("Placeholder").Attr("dtype", 1).Finalize(&g);
  EXPECT_EQ(kind.status().code(), error::INVALID_ARGUMENT);
  auto unknown = NodeBuilder("NoSuchOp").Finalize(&g);
  EXPECT_EQ(unknown.status().code(), error::NOT_FOUND);
  auto arity = NodeBuilder("Identity").Finalize(&g);
  EXPECT_EQ(arity.status().message(),
            "Op 'Identity' takes 1 inputs but 'Identity' was given 0");
  EXPECT_EQ(g.num_nodes(), 0);
}

TEST(NodeBuilderTest, DeducesTypeAttrsAndReportsMismatches) {
  Graph g;
  graph_scope use(g);
  Output x = constant(1.f, "x");
  Output i = constant(1, "i");
  Node* n = NodeBuilder("Add").Input(x).Input(x).Finalize(&g).value();
  EXPECT_EQ(n->attrs().find("T")->second.get<DType>(), DT_FLOAT);
  auto bad = NodeBuilder("Add").Input(x).Input(i).Finalize(&g);
  EXPECT_EQ(bad.status().message(),
            "Input 'y' of 'Add' Op has type int32 that does not match type "
            "float32 of argument 'x'.");
  Output flag = constant(true, "flag");
  auto disallowed = NodeBuilder("Add").Input(flag).Input(flag).Finalize(&g);
  EXPECT_EQ(disallowed.status().message(),
            "Value for attr 'T' of bool is not in the list of allowed values: "
            "float32, float64, int32, int64 (op: 'Add', node: 'Add')");
}

}  // namespace
}  // namespace minitf
