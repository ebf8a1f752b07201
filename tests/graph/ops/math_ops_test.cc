#include "minitf/graph/ops/math_ops.h"

#include <gtest/gtest.h>

#include <cmath>

#include "kernel_harness.h"
#include "minitf/graph/ops/array_ops.h"
#include "minitf/graph/scope.h"

namespace minitf {
namespace {

using testing::RunKernel;

std::string ShapeOf(const Output& o) { return PythonShapeString(o.shape()); }

// The message of the typed error `fn` throws, or "" when it throws nothing.
template <typename Error, typename Fn>
std::string ErrorOf(Fn fn) {
  try {
    fn();
  } catch (const Error& e) {
    return e.what();
  }
  return "";
}

std::vector<float> Floats(const Output& o) {
  return RunKernel(o).value().ToVector<float>();
}

TEST(MathOpsTest, BinaryOpsHaveTensorFlowTypesNamesAndShapes) {
  Graph g;
  graph_scope use(g);
  Output a = constant({1.f, 2.f, 3.f, 4.f, 5.f, 6.f}, {2, 3});
  Output b = constant({10.f, 20.f, 30.f}, {3});
  EXPECT_EQ(a.name(), "Const:0");
  EXPECT_EQ(b.name(), "Const_1:0");
  Output s = add(a, b);
  EXPECT_EQ(s.op().type(), "AddV2");
  EXPECT_EQ(s.name(), "AddV2:0");
  EXPECT_EQ(ShapeOf(s), "(2, 3)");
  EXPECT_EQ(s.dtype(), DT_FLOAT);
  EXPECT_EQ(subtract(a, b).op().type(), "Sub");
  EXPECT_EQ(multiply(a, b, "m").name(), "m:0");
  EXPECT_EQ(multiply(a, b, "m").name(), "m_1:0");
  EXPECT_EQ(div(a, b).op().type(), "Div");
  EXPECT_EQ(div(a, b).op().name(), "div_1");
  Output t = truediv(a, b);
  EXPECT_EQ(t.op().type(), "RealDiv");
  EXPECT_EQ(t.op().name(), "truediv");
  EXPECT_EQ(maximum(a, b).op().type(), "Maximum");
  EXPECT_EQ(minimum(a, b).op().type(), "Minimum");
  Output less_ab = less(a, b);
  EXPECT_EQ(less_ab.dtype(), DT_BOOL);
  EXPECT_EQ(ShapeOf(less_ab), "(2, 3)");
  EXPECT_EQ(equal(a, b).op().type(), "Equal");
  EXPECT_EQ(greater_equal(a, b).op().type(), "GreaterEqual");
}

TEST(MathOpsTest, ShapeAndDtypeErrorsUseTensorFlowText) {
  Graph g;
  graph_scope use(g);
  Output a = constant({1.f, 2.f, 3.f, 4.f, 5.f, 6.f}, {2, 3});
  Output i = constant({1, 2, 3}, {3});
  EXPECT_EQ(ErrorOf<errors::InvalidArgumentError>([&] { add(a, i); }),
            "Input 'y' of 'AddV2' Op has type int32 that does not match type "
            "float32 of argument 'x'.");
  EXPECT_EQ(ErrorOf<errors::InvalidArgumentError>([&] { matmul(a, a); }),
            "Dimensions must be equal, but are 3 and 2 for 'MatMul' (op: "
            "'MatMul') with input shapes: [2,3], [2,3].");
  Output c = constant({1.f, 2.f}, {2});
  EXPECT_EQ(ErrorOf<errors::InvalidArgumentError>([&] { add(a, c); }),
            "Dimensions must be equal, but are 3 and 2 for 'AddV2' (op: "
            "'AddV2') with input shapes: [2,3], [2].");
  EXPECT_EQ(ErrorOf<errors::InvalidArgumentError>([&] { sqrt(i); }),
            "Value for attr 'T' of int32 is not in the list of allowed "
            "values: float32, float64 (op: 'Sqrt', node: 'Sqrt')");
  // In a list argument the first element fixes T, so a mismatch is the
  // list's own fault.
  EXPECT_EQ(ErrorOf<errors::InvalidArgumentError>([&] {
              add_n({c, i, c});
            }),
            "Tensors in list passed to 'inputs' of 'AddN' Op have types "
            "[float32, int32, float32] that don't all match.");
}

TEST(MathOpsTest, UnknownDimsFlowThroughMatMulAndReductions) {
  Graph g;
  graph_scope use(g);
  Output x = placeholder(DT_FLOAT, {None, 784});
  Output w = zeros({784, 10});
  Output y = matmul(x, w);
  EXPECT_EQ(ShapeOf(y), "(?, 10)");
  EXPECT_EQ(ShapeOf(reduce_sum(y, 1)), "(?,)");
  EXPECT_EQ(ShapeOf(reduce_sum(y, 1, true)), "(?, 1)");
  EXPECT_EQ(ShapeOf(reduce_mean(y)), "()");
  EXPECT_EQ(ShapeOf(argmax(y, 1)), "(?,)");
  EXPECT_EQ(argmax(y, 1).dtype(), DT_INT64);
  EXPECT_EQ(ShapeOf(y + constant({1.f}, {1})), "(?, 10)");
  Output any = placeholder(DT_FLOAT);
  EXPECT_EQ(ShapeOf(reduce_sum(any, {0, 1})), "<unknown>");
  EXPECT_EQ(ShapeOf(square(any)), "<unknown>");
}

TEST(MathOpsTest, ReductionsNameTheirAxesConstInsideTheOpScope) {
  Graph g;
  graph_scope use(g);
  Output a = constant({1.f, 2.f, 3.f, 4.f, 5.f, 6.f}, {2, 3});
  Output s = reduce_sum(a, 1);
  EXPECT_EQ(s.op().name(), "Sum");
  EXPECT_EQ(s.op().input(1).name(), "Sum/reduction_indices:0");
  EXPECT_EQ(s.node()->attrs().at("keep_dims").get<bool>(), false);
  EXPECT_EQ(s.node()->attrs().at("Tidx").get<DType>(), DT_INT32);
  Output all = reduce_mean(a);
  EXPECT_EQ(all.op().name(), "Mean");
  EXPECT_EQ(all.op().input(1).name(), "Const_1:0");
  Output named = reduce_max(a, std::vector<int>{0, 1}, false, "top");
  EXPECT_EQ(named.op().name(), "top");
  EXPECT_EQ(named.op().input(1).name(), "top/reduction_indices:0");
  EXPECT_EQ(reduce_min(a, 0).op().type(), "Min");
  EXPECT_EQ(reduce_prod(a, 0).op().type(), "Prod");
}

TEST(MathOpsTest, ReductionKernelsAndBadAxis) {
  Graph g;
  graph_scope use(g);
  Output a = constant({1.f, 2.f, 3.f, 4.f, 5.f, 6.f}, {2, 3});
  EXPECT_EQ(Floats(reduce_sum(a, 1)), (std::vector<float>{6.f, 15.f}));
  EXPECT_EQ(Floats(reduce_sum(a)), (std::vector<float>{21.f}));
  Tensor kept = RunKernel(reduce_mean(a, 0, true)).value();
  EXPECT_EQ(kept.shape(), TensorShape({1, 3}));
  EXPECT_EQ(kept.ToVector<float>(), (std::vector<float>{2.5f, 3.5f, 4.5f}));
  EXPECT_EQ(Floats(reduce_max(a, -1)), (std::vector<float>{3.f, 6.f}));
  EXPECT_EQ(Floats(reduce_min(a, 0)), (std::vector<float>{1.f, 2.f, 3.f}));
  EXPECT_EQ(Floats(reduce_prod(a, 1)), (std::vector<float>{6.f, 120.f}));
  EXPECT_EQ(ErrorOf<errors::InvalidArgumentError>([&] { reduce_sum(a, 2); }),
            "Invalid reduction dimension 2 for input with 2 dimensions. for "
            "'Sum_2' (op: 'Sum') with input shapes: [2,3], [].");
  // The same mistake reaching the kernel (as when the axis is fed at run
  // time) is an error Status, not a crash.
  Output late = reduce_sum(a, 1);
  late.op().input(1).node()->SetAttr("value", Tensor(int32_t{5}));
  Status s = RunKernel(late).status();
  EXPECT_EQ(s.code(), error::INVALID_ARGUMENT);
}

TEST(MathOpsTest, ElementwiseKernelsBroadcast) {
  Graph g;
  graph_scope use(g);
  Output a = constant({1.f, 2.f, 3.f, 4.f, 5.f, 6.f}, {2, 3});
  Output b = constant({10.f, 20.f, 30.f}, {3});
  EXPECT_EQ(Floats(a + b),
            (std::vector<float>{11.f, 22.f, 33.f, 14.f, 25.f, 36.f}));
  EXPECT_EQ(Floats(b - a),
            (std::vector<float>{9.f, 18.f, 27.f, 6.f, 15.f, 24.f}));
  EXPECT_EQ(Floats(a * b),
            (std::vector<float>{10.f, 40.f, 90.f, 40.f, 100.f, 180.f}));
  EXPECT_EQ(Floats(b / a),
            (std::vector<float>{10.f, 10.f, 10.f, 2.5f, 4.f, 5.f}));
  EXPECT_EQ(Floats(-b), (std::vector<float>{-10.f, -20.f, -30.f}));
  EXPECT_EQ(Floats(maximum(a, constant(3.5f))),
            (std::vector<float>{3.5f, 3.5f, 3.5f, 4.f, 5.f, 6.f}));
  EXPECT_EQ(Floats(square(b)), (std::vector<float>{100.f, 400.f, 900.f}));
  EXPECT_EQ(Floats(sqrt(constant({4.f, 9.f}, {2}))),
            (std::vector<float>{2.f, 3.f}));
  EXPECT_EQ(Floats(abs(constant({-1.5f, 2.f}, {2}))),
            (std::vector<float>{1.5f, 2.f}));
  EXPECT_EQ(Floats(sign(constant({-3.f, 0.f, 2.f}, {3}))),
            (std::vector<float>{-1.f, 0.f, 1.f}));
  EXPECT_NEAR(Floats(exp(constant(1.f)))[0], std::exp(1.f), 1e-6);
  EXPECT_NEAR(Floats(log(constant(1.f)))[0], 0.f, 1e-6);
  EXPECT_NEAR(Floats(sigmoid(constant(0.f)))[0], 0.5f, 1e-6);
  EXPECT_NEAR(Floats(tanh(constant(0.5f)))[0], std::tanh(0.5f), 1e-6);
  // tf.div floors integers; Python 3's / casts them to float64.
  Output m7 = constant({-7, 7}, {2});
  Output two = constant(Tensor(int32_t{2}));
  EXPECT_EQ(RunKernel(div(m7, two)).value().ToVector<int32_t>(),
            (std::vector<int32_t>{-4, 3}));
  Output q = m7 / two;
  EXPECT_EQ(q.dtype(), DT_DOUBLE);
  EXPECT_EQ(q.op().input(0).name(), "truediv_1/Cast:0");
}

TEST(MathOpsTest, ComparisonAndLogicKernels) {
  Graph g;
  graph_scope use(g);
  Output a = constant({1, 2, 3}, {3});
  Output b = constant({2, 2, 2}, {3});
  auto bools = [](Output o) { return RunKernel(o).value().ToVector<bool>(); };
  EXPECT_EQ(bools(less(a, b)), (std::vector<bool>{true, false, false}));
  EXPECT_EQ(bools(less_equal(a, b)), (std::vector<bool>{true, true, false}));
  EXPECT_EQ(bools(greater(a, b)), (std::vector<bool>{false, false, true}));
  EXPECT_EQ(bools(greater_equal(a, b)), (std::vector<bool>{false, true, true}));
  EXPECT_EQ(bools(equal(a, b)), (std::vector<bool>{false, true, false}));
  EXPECT_EQ(bools(not_equal(a, b)), (std::vector<bool>{true, false, true}));
  Output t = constant({true, true, false}, {3});
  Output f = constant({true, false, false}, {3});
  EXPECT_EQ(bools(logical_and(t, f)), (std::vector<bool>{true, false, false}));
  EXPECT_EQ(bools(logical_or(t, f)), (std::vector<bool>{true, true, false}));
  EXPECT_EQ(bools(logical_not(f)), (std::vector<bool>{false, true, true}));
  EXPECT_EQ(ErrorOf<errors::InvalidArgumentError>([&] { logical_and(a, t); }),
            "Input 'x' of 'LogicalAnd' Op has type int32 that does not match "
            "expected type of bool.");
}

TEST(MathOpsTest, OperatorsWithNumbersFollowPythonNaming) {
  Graph g;
  graph_scope use(g);
  Output x = constant({1.f, 2.f}, {2});
  Output y = x * x;
  EXPECT_EQ(y.name(), "mul:0");
  Output z = x + 1.5;
  EXPECT_EQ(z.op().name(), "add");
  EXPECT_EQ(z.op().input(1).name(), "add/y:0");
  EXPECT_EQ(z.op().input(1).dtype(), DT_FLOAT);
  Output r = 10 - x;
  EXPECT_EQ(r.op().type(), "Sub");
  EXPECT_EQ(r.op().input(0).name(), "sub/x:0");
  EXPECT_EQ(Floats(r), (std::vector<float>{9.f, 8.f}));
  EXPECT_EQ(Floats(2 * x), (std::vector<float>{2.f, 4.f}));
  EXPECT_EQ(Floats(x / 2), (std::vector<float>{0.5f, 1.f}));
  EXPECT_EQ(Floats(1.f / x), (std::vector<float>{1.f, 0.5f}));
  EXPECT_EQ((x - x).name(), "sub_1:0");
  EXPECT_EQ((-x).op().type(), "Neg");
  Output n = constant({1, 2}, {2});
  EXPECT_EQ((n + 1).dtype(), DT_INT32);
  EXPECT_EQ(ErrorOf<errors::InvalidArgumentError>([&] { n + 1.5; }),
            "Expected int32, got 1.5 instead.");
}

TEST(MathOpsTest, ArgMaxCastAndAddN) {
  Graph g;
  graph_scope use(g);
  Output a = constant({1.f, 9.f, 3.f, 7.f, 5.f, 6.f}, {2, 3});
  Output am = argmax(a, 1);
  EXPECT_EQ(am.op().type(), "ArgMax");
  EXPECT_EQ(am.op().input(1).name(), "ArgMax/dimension:0");
  EXPECT_EQ(RunKernel(am).value().ToVector<int64_t>(),
            (std::vector<int64_t>{1, 0}));
  Output am32 = argmin(a, 0, "", DT_INT32);
  EXPECT_EQ(am32.dtype(), DT_INT32);
  EXPECT_EQ(RunKernel(am32).value().ToVector<int32_t>(),
            (std::vector<int32_t>{0, 1, 0}));
  EXPECT_NE(ErrorOf<errors::InvalidArgumentError>([&] {
              argmax(a, 2);
            }).find("Dimension (2) must be in the range [-2, 2)"),
            std::string::npos);

  Output c = cast(a, DT_INT32);
  EXPECT_EQ(c.op().type(), "Cast");
  EXPECT_EQ(c.node()->attrs().at("SrcT").get<DType>(), DT_FLOAT);
  EXPECT_EQ(c.node()->attrs().at("DstT").get<DType>(), DT_INT32);
  EXPECT_EQ(RunKernel(c).value().ToVector<int32_t>(),
            (std::vector<int32_t>{1, 9, 3, 7, 5, 6}));
  EXPECT_EQ(cast(a, DT_FLOAT), a);

  Output s = add_n({a, a, a});
  EXPECT_EQ(s.op().type(), "AddN");
  EXPECT_EQ(s.node()->attrs().at("N").get<int64_t>(), 3);
  EXPECT_EQ(Floats(s), (std::vector<float>{3.f, 27.f, 9.f, 21.f, 15.f, 18.f}));
  EXPECT_EQ(add_n({a}), a);
  EXPECT_EQ(add_n({a}, "one").op().type(), "Identity");
  Output p = placeholder(DT_FLOAT, {None, 3});
  EXPECT_EQ(ShapeOf(add_n({p, a})), "(2, 3)");
  Output v = constant({1.f, 2.f}, {2});
  EXPECT_NE(ErrorOf<errors::InvalidArgumentError>([&] {
              add_n({a, v});
            }).find("Shapes must be equal rank, but are 2 and 1"),
            std::string::npos);
}

}  // namespace
}  // namespace minitf
