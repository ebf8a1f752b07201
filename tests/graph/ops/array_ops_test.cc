#include "minitf/graph/ops/array_ops.h"

#include <gtest/gtest.h>

#include <sstream>

#include "kernel_harness.h"
#include "minitf/graph/node_builder.h"
#include "minitf/graph/ops/build.h"
#include "minitf/graph/ops/math_ops.h"
#include "minitf/graph/scope.h"

namespace minitf {
namespace {

TEST(ConstantTest, SeedConstantsAndMatMulShapes) {
  Graph g;
  graph_scope use(g);
  Output a = constant({1.f, 2.f, 3.f, 4.f, 5.f, 6.f}, {2, 3}, "a");
  Output b = constant({1.f, 2.f, 3.f, 4.f, 5.f, 6.f}, {3, 2}, "b");
  Output c = matmul(a, b);
  std::ostringstream os;
  os << c;
  EXPECT_EQ(os.str(), "Tensor(\"MatMul:0\", shape=(2, 2), dtype=float32)");
  try {
    matmul(a, a);
    FAIL() << "expected an error";
  } catch (const errors::InvalidArgumentError& e) {
    EXPECT_STREQ(e.what(),
                 "Dimensions must be equal, but are 3 and 2 for 'MatMul_1' "
                 "(op: 'MatMul') with input shapes: [2,3], [2,3].");
  }
}

using testing::RunKernel;

std::string ShapeOf(const Output& o) { return PythonShapeString(o.shape()); }

template <typename Fn>
std::string ErrorOf(Fn fn) {
  try {
    fn();
  } catch (const errors::OpError& e) {
    return e.what();
  }
  return "";
}

TEST(ArrayOpsTest, ReshapeResolvesMinusOneAndRejectsBadSizes) {
  Graph g;
  graph_scope use(g);
  Output a = constant({1.f, 2.f, 3.f, 4.f, 5.f, 6.f}, {2, 3});
  Output r = reshape(a, {-1, 2});
  EXPECT_EQ(r.op().type(), "Reshape");
  EXPECT_EQ(r.op().input(1).name(), "Reshape/shape:0");
  EXPECT_EQ(ShapeOf(r), "(3, 2)");
  Tensor t = RunKernel(r).value();
  EXPECT_EQ(t.shape(), TensorShape({3, 2}));
  EXPECT_EQ(ErrorOf([&] {
              reshape(a, {4, -1});
            }),
            "Cannot reshape a tensor with 6 elements to shape [4,?] (4 "
            "elements) for 'Reshape_1' (op: 'Reshape') with input shapes: "
            "[2,3], [2].");
  Output x = placeholder(DT_FLOAT, {None, 784});
  EXPECT_EQ(ShapeOf(reshape(x, {-1, 28, 28, 1})), "(?, 28, 28, 1)");
  // A size that slips past the graph (fed at run time) fails in the kernel.
  Output late = reshape(a, {3, 2});
  late.op().input(1).node()->SetAttr(
      "value", Tensor::FromVector(std::vector<int32_t>{4, 2}, {2}).value());
  EXPECT_EQ(RunKernel(late).status().code(), error::INVALID_ARGUMENT);
}

TEST(ArrayOpsTest, TransposeConcatStackSlice) {
  Graph g;
  graph_scope use(g);
  Output a = constant({1.f, 2.f, 3.f, 4.f, 5.f, 6.f}, {2, 3});
  Output t = transpose(a);
  EXPECT_EQ(t.op().name(), "transpose");
  EXPECT_EQ(t.op().type(), "Transpose");
  EXPECT_EQ(ShapeOf(t), "(3, 2)");
  EXPECT_EQ(RunKernel(t).value().ToVector<float>(),
            (std::vector<float>{1.f, 4.f, 2.f, 5.f, 3.f, 6.f}));
  EXPECT_EQ(ShapeOf(transpose(placeholder(DT_FLOAT, {None, 5}), {{1, 0}})),
            "(5, ?)");

  Output b = constant({7.f, 8.f}, {2, 1});
  Output c = concat({a, b}, 1);
  EXPECT_EQ(c.op().type(), "ConcatV2");
  EXPECT_EQ(c.op().name(), "concat");
  EXPECT_EQ(c.node()->attrs().at("N").get<int64_t>(), 2);
  EXPECT_EQ(ShapeOf(c), "(2, 4)");
  EXPECT_EQ(RunKernel(c).value().ToVector<float>(),
            (std::vector<float>{1.f, 2.f, 3.f, 7.f, 4.f, 5.f, 6.f, 8.f}));
  EXPECT_EQ(ErrorOf([&] {
              concat({a, b}, 0);
            }).substr(0, 97),
            "Dimension 0 in both shapes must be equal, but are 3 and 1. Shapes "
            "are [3] and [1]. for 'concat_1'");
  EXPECT_EQ(ShapeOf(concat({placeholder(DT_FLOAT, {None, 3}), a}, 0)),
            "(?, 3)");

  Output v = constant({1.f, 2.f, 3.f}, {3});
  Output w = constant({4.f, 5.f, 6.f}, {3});
  Output s0 = stack({v, w});
  EXPECT_EQ(s0.op().type(), "Pack");
  EXPECT_EQ(s0.op().name(), "stack");
  EXPECT_EQ(ShapeOf(s0), "(2, 3)");
  Output s1 = stack({v, w}, 1);
  EXPECT_EQ(ShapeOf(s1), "(3, 2)");
  EXPECT_EQ(RunKernel(s1).value().ToVector<float>(),
            (std::vector<float>{1.f, 4.f, 2.f, 5.f, 3.f, 6.f}));
  EXPECT_NE(ErrorOf([&] {
              stack({v, w}, 2);
            }).find("Invalid axis: 2; must be in [-2,2)"),
            std::string::npos);

  Output sl = slice(a, {0, 1}, {-1, 2});
  EXPECT_EQ(sl.op().type(), "Slice");
  EXPECT_EQ(ShapeOf(sl), "(2, 2)");
  EXPECT_EQ(RunKernel(sl).value().ToVector<float>(),
            (std::vector<float>{2.f, 3.f, 5.f, 6.f}));
  EXPECT_NE(ErrorOf([&] {
              slice(a, {0, 2}, {1, 2});
            }).find("Expected size[1] in [0, 1], but got 2"),
            std::string::npos);
}

TEST(ArrayOpsTest, FillZerosOnesAndLikes) {
  Graph g;
  graph_scope use(g);
  Output f = fill({2, 2}, Tensor(7));
  EXPECT_EQ(f.op().type(), "Fill");
  EXPECT_EQ(f.dtype(), DT_INT32);
  EXPECT_EQ(ShapeOf(f), "(2, 2)");
  EXPECT_EQ(RunKernel(f).value().ToVector<int32_t>(),
            (std::vector<int32_t>{7, 7, 7, 7}));
  Output z = zeros({2, 3});
  EXPECT_EQ(z.op().type(), "Const");
  EXPECT_EQ(z.op().name(), "zeros");
  EXPECT_EQ(z.dtype(), DT_FLOAT);
  Output big = ones({100, 100}, DT_INT32);
  EXPECT_EQ(big.op().type(), "Fill");
  EXPECT_EQ(big.op().name(), "ones");
  EXPECT_EQ(big.op().input(0).name(), "ones/shape_as_tensor:0");
  EXPECT_EQ(ShapeOf(big), "(100, 100)");
  EXPECT_EQ(RunKernel(big).value().ToVector<int32_t>()[9999], 1);

  Output a = constant({1.f, 2.f, 3.f}, {3});
  Output zl = zeros_like(a);
  EXPECT_EQ(zl.op().type(), "ZerosLike");
  EXPECT_EQ(zl.op().name(), "zeros_like");
  EXPECT_EQ(RunKernel(zl).value().ToVector<float>(),
            (std::vector<float>{0.f, 0.f, 0.f}));
  Output ol = ones_like(a);
  EXPECT_EQ(ol.op().type(), "OnesLike");
  EXPECT_EQ(RunKernel(ol).value().ToVector<float>(),
            (std::vector<float>{1.f, 1.f, 1.f}));
}

TEST(ArrayOpsTest, OneHotShapeSizeRank) {
  Graph g;
  graph_scope use(g);
  Output labels = constant({0, 2, 1}, {3});
  Output oh = one_hot(labels, 3);
  EXPECT_EQ(oh.op().type(), "OneHot");
  EXPECT_EQ(oh.op().name(), "one_hot");
  EXPECT_EQ(oh.node()->attrs().at("TI").get<DType>(), DT_INT32);
  EXPECT_EQ(ShapeOf(oh), "(3, 3)");
  EXPECT_EQ(RunKernel(oh).value().ToVector<float>(),
            (std::vector<float>{1, 0, 0, 0, 0, 1, 0, 1, 0}));
  Output oh0 = one_hot(labels, 4, 5.0, -1.0, 0, DT_INT32);
  EXPECT_EQ(ShapeOf(oh0), "(4, 3)");
  EXPECT_EQ(
      RunKernel(oh0).value().ToVector<int32_t>(),
      (std::vector<int32_t>{5, -1, -1, -1, -1, 5, -1, 5, -1, -1, -1, -1}));

  Output a = constant({1.f, 2.f, 3.f, 4.f, 5.f, 6.f}, {2, 3});
  Output s = shape(a);
  EXPECT_EQ(s.op().type(), "Const");  // Folded: the shape is known.
  EXPECT_EQ(s.op().name(), "Shape");
  Output x = placeholder(DT_FLOAT, {None, 784});
  Output sx = shape(x);
  EXPECT_EQ(sx.op().type(), "Shape");
  EXPECT_EQ(sx.dtype(), DT_INT32);
  EXPECT_EQ(ShapeOf(sx), "(2,)");
  EXPECT_EQ(size(x).op().type(), "Size");
  EXPECT_EQ(rank(x).op().type(), "Const");
  EXPECT_EQ(rank(placeholder(DT_FLOAT)).op().type(), "Rank");
  // The kernels, on a node built directly over a Const.
  Output shape_op = ops::AddOp(NodeBuilder("Shape").Input(a), {a});
  EXPECT_EQ(RunKernel(shape_op).value().ToVector<int32_t>(),
            (std::vector<int32_t>{2, 3}));
  Output size_op =
      ops::AddOp(NodeBuilder("Size").Input(a).Attr("out_type", DT_INT64), {a});
  EXPECT_EQ(RunKernel(size_op).value().ToVector<int64_t>(),
            (std::vector<int64_t>{6}));
  Output rank_op = ops::AddOp(NodeBuilder("Rank").Input(a), {a});
  EXPECT_EQ(RunKernel(rank_op).value().ToVector<int32_t>(),
            (std::vector<int32_t>{2}));
}

}  // namespace
}  // namespace minitf

namespace minitf {
namespace {

// A GraphDef from elsewhere can carry a Const whose value disagrees with its
// dtype attr; the graph refuses it rather than letting a kernel trip on it.
TEST(ConstantTest, ValueAndDtypeAttrMustAgree) {
  Graph g;
  auto bad = NodeBuilder("Const", "c")
                 .Attr("value", Tensor(1.f))
                 .Attr("dtype", int32)
                 .Finalize(&g);
  EXPECT_EQ(bad.status().code(), error::INVALID_ARGUMENT);
  EXPECT_EQ(bad.status().message(),
            "Const value has dtype float but attr dtype is int32 for 'c' "
            "(op: 'Const') with input shapes: .");
}

// The names of the nodes `op` waits for, through control edges.
std::vector<std::string> Waits(const Operation& op) {
  std::vector<std::string> names;
  for (const Node* n : op.node()->control_inputs()) names.push_back(n->name());
  return names;
}

// tf.global_variables_initializer() of variables made under tf.device: the
// "init" NoOp asks for their device, as TensorFlow's tf.group puts it there.
TEST(GroupTest, IsNamedAsAScopeAndAsksForTheDeviceItsInputsShare) {
  Graph g;
  graph_scope use(g);
  Operation a, b;
  {
    device_scope on_cpu("/cpu:0");
    a = no_op("a");
    b = no_op("b");
  }
  Operation init = group({a, b}, "init");
  EXPECT_EQ(init.name(), "init");
  EXPECT_EQ(init.device(), a.device());
  EXPECT_NE(init.device(), "");
  EXPECT_EQ(Waits(init), (std::vector<std::string>{"a", "b"}));
  EXPECT_EQ(group({a}, "init").name(), "init_1");
  Operation none = group({});
  EXPECT_EQ(none.name(), "group_deps");
  EXPECT_EQ(none.device(), "");
}

TEST(GroupTest, InputsOnSeveralDevicesMakeATreeOfOneNoOpPerDevice) {
  Graph g;
  graph_scope use(g);
  Operation on_gpu1, on_cpu, anywhere = no_op("anywhere"), on_gpu1_too;
  {
    device_scope on("/gpu:1");
    on_gpu1 = no_op("on_gpu1");
    on_gpu1_too = no_op("on_gpu1_too");
  }
  {
    device_scope on("/cpu:0");
    on_cpu = no_op("on_cpu");
  }
  Operation train = group({on_gpu1, on_cpu, anywhere, on_gpu1_too}, "train");
  EXPECT_EQ(train.device(), "");
  // One NoOp per device, in the order of the devices' names ("" first).
  EXPECT_EQ(Waits(train), (std::vector<std::string>{
                              "train/NoOp", "train/NoOp_1", "train/NoOp_2"}));
  const Node* per_device[] = {g.FindNode("train/NoOp"),
                              g.FindNode("train/NoOp_1"),
                              g.FindNode("train/NoOp_2")};
  EXPECT_EQ(per_device[0]->requested_device(), "");
  EXPECT_EQ(per_device[1]->requested_device(), on_cpu.device());
  EXPECT_EQ(per_device[2]->requested_device(), on_gpu1.device());
  EXPECT_EQ(Waits(Operation(g.FindNode("train/NoOp_2"))),
            (std::vector<std::string>{"on_gpu1", "on_gpu1_too"}));
}

}  // namespace
}  // namespace minitf
