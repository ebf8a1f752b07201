#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <string>
#include <thread>
#include <type_traits>
#include <vector>

#include "minitf/graph/ops/array_ops.h"
#include "minitf/graph/scope.h"
#include "minitf/graph/session.h"
#include "minitf/tensor/errors.h"
#include "minitf/train/ops/training_ops.h"
#include "minitf/train/optimizers/adam.h"
#include "minitf/train/optimizers/gradient_descent.h"
#include "minitf/train/optimizers/momentum.h"
#include "minitf/train/optimizers/rmsprop.h"
#include "minitf/train/variables.h"

namespace minitf {
namespace {

using train::AdamOptimizer;
using train::GradientDescentOptimizer;
using train::MomentumOptimizer;
using train::RMSPropOptimizer;

template <typename T>
std::vector<double> Values(const Tensor& t) {
  const T* p = t.data<T>();
  return std::vector<double>(p, p + t.NumElements());
}

std::vector<double> ValuesOf(const Tensor& t) {
  return t.dtype() == DT_FLOAT ? Values<float>(t) : Values<double>(t);
}

void ExpectNear(const std::vector<double>& got, const std::vector<double>& want,
                double tol) {
  ASSERT_EQ(got.size(), want.size());
  for (size_t i = 0; i < got.size(); ++i) {
    EXPECT_NEAR(got[i], want[i], tol) << "element " << i;
  }
}

std::vector<std::string> ClassOf(const Node* n) {
  auto it = n->attrs().find("_class");
  if (it == n->attrs().end()) return {};
  return it->second.get<std::vector<std::string>>();
}

// The message of the error that `f` throws, or "" when it throws none.
template <typename E, typename F>
std::string ErrorOf(F f) {
  try {
    f();
  } catch (const E& e) {
    return e.what();
  }
  return "";
}

// A tensor of T from doubles, shaped as a vector.
template <typename T>
Tensor Vec(const std::vector<double>& v) {
  Tensor t(DataTypeToEnum<T>::value,
           TensorShape({static_cast<int64_t>(v.size())}));
  for (size_t i = 0; i < v.size(); ++i) t.data<T>()[i] = static_cast<T>(v[i]);
  return t;
}

template <typename T>
Output Scalar(double v) {
  return constant(Tensor(static_cast<T>(v)));
}

template <typename T>
class ApplyKernelTest : public ::testing::Test {};
using FloatTypes = ::testing::Types<float, double>;
TYPED_TEST_SUITE(ApplyKernelTest, FloatTypes);

TYPED_TEST(ApplyKernelTest, GradientDescent) {
  using T = TypeParam;
  Graph g;
  graph_scope use(g);
  Variable var(Vec<T>({1, 2}), "var");
  Output step = apply_gradient_descent(var.ref(), Scalar<T>(0.5),
                                       constant(Vec<T>({1, -2})));
  EXPECT_EQ(step.op().type(), "ApplyGradientDescent");
  Session sess;
  sess.run(var.initializer());
  ExpectNear(ValuesOf(sess.run(step)), {0.5, 3}, 0);
  ExpectNear(ValuesOf(sess.run(step)), {0, 4}, 0);
  ExpectNear(ValuesOf(sess.run(step)), {-0.5, 5}, 0);
  ExpectNear(ValuesOf(sess.run(var)), {-0.5, 5}, 0);
}

TYPED_TEST(ApplyKernelTest, MomentumAndNesterov) {
  using T = TypeParam;
  Graph g;
  graph_scope use(g);
  Variable var(Vec<T>({1}), "var");
  Variable accum(Vec<T>({0}), "accum");
  Variable nvar(Vec<T>({1}), "nvar");
  Variable naccum(Vec<T>({0}), "naccum");
  Output grad = constant(Vec<T>({1}));
  Output plain = apply_momentum(var.ref(), accum.ref(), Scalar<T>(0.5), grad,
                                Scalar<T>(0.5));
  Output nesterov =
      apply_momentum(nvar.ref(), naccum.ref(), Scalar<T>(0.5), grad,
                     Scalar<T>(0.5), false, /*use_nesterov=*/true);
  Session sess;
  sess.run(global_variables_initializer());
  // accum: 1, 1.5, 1.75; var -= 0.5 * accum.
  ExpectNear(ValuesOf(sess.run(plain)), {0.5}, 0);
  ExpectNear(ValuesOf(sess.run(plain)), {-0.25}, 0);
  ExpectNear(ValuesOf(sess.run(plain)), {-1.125}, 0);
  ExpectNear(ValuesOf(sess.run(accum)), {1.75}, 0);
  // var -= 0.5 * grad + 0.5 * 0.5 * accum.
  ExpectNear(ValuesOf(sess.run(nesterov)), {0.25}, 0);
  ExpectNear(ValuesOf(sess.run(nesterov)), {-0.625}, 0);
  ExpectNear(ValuesOf(sess.run(nesterov)), {-1.5625}, 0);
}

TYPED_TEST(ApplyKernelTest, AdamWithBiasCorrection) {
  using T = TypeParam;
  Graph g;
  graph_scope use(g);
  Variable var(Vec<T>({1, 2}), "var");
  Variable m(Vec<T>({0, 0}), "m");
  Variable v(Vec<T>({0, 0}), "v");
  Output grad = constant(Vec<T>({0.5, -4}));
  // Step 1: beta1_power = 0.9, beta2_power = 0.999. With m and v at zero the
  // bias correction makes m_hat / sqrt(v_hat) = grad / |grad|, so each
  // element moves by lr, whatever the gradient's size.
  Output step = apply_adam(var.ref(), m.ref(), v.ref(), Scalar<T>(0.9),
                           Scalar<T>(0.999), Scalar<T>(0.1), Scalar<T>(0.9),
                           Scalar<T>(0.999), Scalar<T>(1e-8), grad);
  Session sess;
  sess.run(global_variables_initializer());
  ExpectNear(ValuesOf(sess.run(step)), {0.9, 2.1}, 1e-6);
  ExpectNear(ValuesOf(sess.run(m)), {0.05, -0.4}, 1e-7);
  ExpectNear(ValuesOf(sess.run(v)), {0.00025, 0.016}, 1e-6);
}

// A variable long enough for every path of the update: chunks, blocks of a
// fixed size within them, the last shorter block and the last shorter
// chunk; each value against TensorFlow's ApplyAdam formula in double.
TYPED_TEST(ApplyKernelTest, AdamOverBlocksAndTheirRemainders) {
  using T = TypeParam;
  for (bool nesterov : {false, true}) {
    Graph g;
    graph_scope use(g);
    const int n = 70000;  // 34 chunks of 2,048 and 368 values: 5 blocks + 48
    std::vector<double> var0(n), grad(n);
    for (int i = 0; i < n; ++i) {
      var0[i] = std::sin(0.37 * i);
      grad[i] = std::cos(0.11 * i) * (1 + i % 7);
    }
    Variable var(Vec<T>(var0), "var");
    Variable m(Vec<T>(std::vector<double>(n, 0.0)), "m");
    Variable v(Vec<T>(std::vector<double>(n, 0.0)), "v");
    const double lr = 0.01, b1 = 0.9, b2 = 0.999, eps = 1e-8;
    Output b1p = placeholder(DataTypeToEnum<T>::value, TensorShape({}));
    Output b2p = placeholder(DataTypeToEnum<T>::value, TensorShape({}));
    Output step = apply_adam(var.ref(), m.ref(), v.ref(), b1p, b2p,
                             Scalar<T>(lr), Scalar<T>(b1), Scalar<T>(b2),
                             Scalar<T>(eps), constant(Vec<T>(grad)),
                             /*use_locking=*/false, nesterov);
    Session sess;
    sess.run(global_variables_initializer());
    std::vector<double> want = var0, wm(n, 0.0), wv(n, 0.0);
    for (int t = 1; t <= 3; ++t) {
      const double p1 = std::pow(b1, t), p2 = std::pow(b2, t);
      const std::vector<double> got =
          ValuesOf(sess.run(step, {{b1p, Tensor(static_cast<T>(p1))},
                                   {b2p, Tensor(static_cast<T>(p2))}}));
      const double alpha = lr * std::sqrt(1 - p2) / (1 - p1);
      for (int i = 0; i < n; ++i) {
        wm[i] += (grad[i] - wm[i]) * (1 - b1);
        wv[i] += (grad[i] * grad[i] - wv[i]) * (1 - b2);
        const double dir = nesterov ? grad[i] * (1 - b1) + wm[i] * b1 : wm[i];
        want[i] -= dir * alpha / (std::sqrt(wv[i]) + eps);
      }
      ExpectNear(got, want, 1e-5);
    }
  }
}

TYPED_TEST(ApplyKernelTest, RMSProp) {
  using T = TypeParam;
  Graph g;
  graph_scope use(g);
  Variable var(Vec<T>({1}), "var");
  Variable ms(Vec<T>({0}), "ms");
  Variable mom(Vec<T>({0}), "mom");
  Output step = apply_rms_prop(var.ref(), ms.ref(), mom.ref(), Scalar<T>(0.5),
                               Scalar<T>(0.75), Scalar<T>(0.5), Scalar<T>(0),
                               constant(Vec<T>({2})));
  Session sess;
  sess.run(global_variables_initializer());
  // ms = 0 + (4 - 0) * 0.25 = 1; mom = 0.5 * 2 / 1 = 1; var = 0.
  ExpectNear(ValuesOf(sess.run(step)), {0}, 0);
  // ms = 1 + 3 * 0.25 = 1.75; mom = 0.5 + 1 / sqrt(1.75).
  const double mom2 = 0.5 + 1 / std::sqrt(1.75);
  ExpectNear(ValuesOf(sess.run(step)), {-mom2}, 1e-6);
  // ms = 1.75 + (4 - 1.75) * 0.25 = 2.3125; mom = mom2 / 2 + 1 / sqrt(ms).
  const double mom3 = mom2 / 2 + 1 / std::sqrt(2.3125);
  ExpectNear(ValuesOf(sess.run(step)), {-mom2 - mom3}, 1e-6);
  ExpectNear(ValuesOf(sess.run(ms)), {2.3125}, 1e-6);
}

// Adam over three steps against the formulas of TensorFlow's ApplyAdam, with
// the hyperparameters rounded to float32 as the optimizer's Consts are.
template <typename T>
void CheckAdamOptimizer() {
  Graph g;
  graph_scope use(g);
  Variable w(Vec<T>({1, -2, 3}), "weight");
  const std::vector<double> grad = {0.1, -1, 10};
  AdamOptimizer opt(0.01);
  Operation train_op = opt.apply_gradients({{constant(Vec<T>(grad)), w}});
  EXPECT_EQ(train_op.name(), "Adam");
  Session sess;
  sess.run(global_variables_initializer());
  const double lr = 0.01f, b1 = 0.9f, b2 = 0.999f, eps = 1e-8f;
  std::vector<double> var = {1, -2, 3}, m(3), v(3);
  // The powers are float32 variables, multiplied in float32.
  float p1 = 0.9f, p2 = 0.999f;
  for (int step = 0; step < 3; ++step) {
    sess.run(train_op);
    const double alpha = lr * std::sqrt(1 - p2) / (1 - p1);
    for (int i = 0; i < 3; ++i) {
      m[i] += (grad[i] - m[i]) * (1 - b1);
      v[i] += (grad[i] * grad[i] - v[i]) * (1 - b2);
      var[i] -= alpha * m[i] / (std::sqrt(v[i]) + eps);
    }
    p1 *= 0.9f;
    p2 *= 0.999f;
    // float64 steps still see the float32 powers' rounding.
    const double tol = std::is_same_v<T, float> ? 1e-6 : 1e-8;
    ExpectNear(ValuesOf(sess.run(w)), var, tol);
    ExpectNear(ValuesOf(sess.run(opt.get_slot(w, "m"))), m, tol);
    ExpectNear(ValuesOf(sess.run(opt.get_slot(w, "v"))), v, tol);
  }
  // The powers are float32, as TensorFlow makes them: beta^(steps + 1).
  const std::vector<Variable> vars = global_variables();
  ASSERT_EQ(vars.size(), 5u);  // weight, the powers, m and v.
  const Variable beta1_power = vars[1];
  EXPECT_EQ(beta1_power.name(), "beta1_power:0");
  EXPECT_FALSE(beta1_power.trainable());
  EXPECT_NEAR(sess.run(beta1_power).scalar<float>(), std::pow(0.9, 4), 1e-6);
}

TEST(AdamOptimizerTest, ThreeStepsFloat32) { CheckAdamOptimizer<float>(); }
TEST(AdamOptimizerTest, ThreeStepsFloat64) { CheckAdamOptimizer<double>(); }

template <typename T>
void CheckRMSPropOptimizer() {
  Graph g;
  graph_scope use(g);
  Variable w(Vec<T>({1, -2}), "weight");
  const std::vector<double> grad = {0.5, -3};
  RMSPropOptimizer opt(0.125, /*decay=*/0.75, /*momentum=*/0.5,
                       /*epsilon=*/0.25);
  Operation train_op = opt.apply_gradients({{constant(Vec<T>(grad)), w}});
  EXPECT_EQ(train_op.name(), "RMSProp");
  Session sess;
  sess.run(global_variables_initializer());
  // ms starts at ones, mom at zeros, as in TensorFlow.
  std::vector<double> var = {1, -2}, ms = {1, 1}, mom = {0, 0};
  for (int step = 0; step < 3; ++step) {
    sess.run(train_op);
    for (int i = 0; i < 2; ++i) {
      ms[i] += (grad[i] * grad[i] - ms[i]) * 0.25;
      mom[i] = mom[i] * 0.5 + 0.125 * grad[i] / std::sqrt(ms[i] + 0.25);
      var[i] -= mom[i];
    }
    const double tol = std::is_same_v<T, float> ? 1e-6 : 1e-12;
    ExpectNear(ValuesOf(sess.run(w)), var, tol);
    ExpectNear(ValuesOf(sess.run(opt.get_slot(w, "rms"))), ms, tol);
    ExpectNear(ValuesOf(sess.run(opt.get_slot(w, "momentum"))), mom, tol);
  }
}

TEST(RMSPropOptimizerTest, ThreeStepsFloat32) {
  CheckRMSPropOptimizer<float>();
}
TEST(RMSPropOptimizerTest, ThreeStepsFloat64) {
  CheckRMSPropOptimizer<double>();
}

TEST(OptimizerTest, GradientDescentAndMomentumThroughApplyGradients) {
  Graph g;
  graph_scope use(g);
  Variable w(Tensor({1.0, 2.0}), "weight");  // float64
  Variable b(0.0f, "bias");
  GradientDescentOptimizer sgd(0.5);
  Operation sgd_op = sgd.apply_gradients(
      {{constant(Tensor({1.0, -2.0})), w}, {constant(Tensor(4.f)), b}});
  EXPECT_EQ(sgd_op.name(), "GradientDescent");
  EXPECT_EQ(sgd_op.type(), "NoOp");
  EXPECT_NE(g.FindNode("GradientDescent/update_weight/ApplyGradientDescent"),
            nullptr);
  // The float32 learning rate is cast for the float64 variable.
  EXPECT_NE(g.FindNode("GradientDescent/update_weight/Cast"), nullptr);
  MomentumOptimizer nesterov(0.5, 0.5, /*use_nesterov=*/true);
  Operation mom_op = nesterov.apply_gradients({{constant(Tensor(1.f)), b}});
  Session sess;
  sess.run(global_variables_initializer());
  sess.run(sgd_op);
  ExpectNear(ValuesOf(sess.run(w)), {0.5, 3}, 0);
  ExpectNear(ValuesOf(sess.run(b)), {-2}, 0);
  sess.run(mom_op);
  sess.run(mom_op);
  ExpectNear(ValuesOf(sess.run(b)), {-3.625}, 0);  // -2 - 0.75 - 0.875
}

TEST(OptimizerTest, GlobalStepIncrementsAfterTheUpdates) {
  Graph g;
  graph_scope use(g);
  Variable w(1.0f, "weight");
  Variable global_step(Tensor(int64_t{0}), "global_step", false);
  GradientDescentOptimizer opt(0.25);
  Operation train_op =
      opt.apply_gradients({{constant(Tensor(1.f)), w}}, &global_step);
  EXPECT_EQ(train_op.name(), "GradientDescent");
  EXPECT_EQ(train_op.type(), "AssignAdd");
  EXPECT_EQ(ClassOf(train_op.node()),
            std::vector<std::string>{"loc:@global_step"});
  const Node* update = g.FindNode("GradientDescent/update");
  ASSERT_NE(update, nullptr);
  // The increment's Const waits for the updates; the AssignAdd reads it, so
  // it needs no control edge of its own (TensorFlow's graph has none).
  const Node* one = train_op.node()->input(1).node();
  EXPECT_EQ(one->name(), "GradientDescent/value");
  ASSERT_EQ(one->control_inputs().size(), 1u);
  EXPECT_EQ(one->control_inputs()[0], update);
  EXPECT_TRUE(train_op.node()->control_inputs().empty());
  Session sess;
  sess.run(global_variables_initializer());
  for (int i = 0; i < 3; ++i) sess.run(train_op);
  EXPECT_EQ(sess.run(global_step).scalar<int64_t>(), 3);
  EXPECT_FLOAT_EQ(sess.run(w).scalar<float>(), 0.25f);
}

TEST(OptimizerTest, SlotsAreNamedAndColocatedAsInTensorFlow) {
  Graph g;
  graph_scope use(g);
  Variable w(Tensor({1.f, 2.f}), "weight");
  Variable b(0.f, "bias");
  MomentumOptimizer momentum(0.1, 0.9);
  AdamOptimizer adam;
  RMSPropOptimizer rmsprop(0.1);
  {
    name_scope inside("train");  // Slots ignore the scope they are made in.
    const Output gw = constant(Tensor({1.f, 1.f}));
    const Output gb = constant(Tensor(1.f));
    momentum.apply_gradients({{gw, w}, {gb, b}});
    adam.apply_gradients({{gw, w}, {gb, b}});
    rmsprop.apply_gradients({{gw, w}});
  }
  EXPECT_EQ(momentum.get_slot(w, "momentum").name(), "weight/Momentum:0");
  EXPECT_EQ(momentum.get_slot(b, "momentum").name(), "bias/Momentum:0");
  EXPECT_EQ(adam.get_slot(w, "m").name(), "weight/Adam:0");
  EXPECT_EQ(adam.get_slot(w, "v").name(), "weight/Adam_1:0");
  EXPECT_EQ(rmsprop.get_slot(w, "rms").name(), "weight/RMSProp:0");
  EXPECT_EQ(rmsprop.get_slot(w, "momentum").name(), "weight/RMSProp_1:0");
  EXPECT_FALSE(rmsprop.get_slot(b, "rms").valid());
  EXPECT_EQ(adam.get_slot_names(), (std::vector<std::string>{"m", "v"}));

  const Node* slot = g.FindNode("weight/Momentum");
  ASSERT_NE(slot, nullptr);
  EXPECT_EQ(ClassOf(slot), std::vector<std::string>{"loc:@weight"});
  EXPECT_EQ(adam.get_slot(w, "m").shape(), TensorShape({2}));
  // beta1_power goes with the variable first by name: "bias".
  const Node* power = g.FindNode("beta1_power");
  ASSERT_NE(power, nullptr);
  EXPECT_NE(g.FindNode("beta2_power"), nullptr);
  EXPECT_EQ(ClassOf(power), std::vector<std::string>{"loc:@bias"});

  const Node* update = g.FindNode("train/Momentum/update_weight/ApplyMomentum");
  ASSERT_NE(update, nullptr);
  EXPECT_EQ(ClassOf(update), std::vector<std::string>{"loc:@weight"});
  EXPECT_NE(g.FindNode("train/Adam/update_bias/ApplyAdam"), nullptr);
  EXPECT_NE(g.FindNode("train/RMSProp/update_weight/ApplyRMSProp"), nullptr);

  // Slots are global, not trainable.
  std::vector<std::string> trainable, global;
  for (const Variable& v : trainable_variables()) trainable.push_back(v.name());
  for (const Variable& v : global_variables()) global.push_back(v.name());
  EXPECT_EQ(trainable, (std::vector<std::string>{"weight:0", "bias:0"}));
  EXPECT_EQ(global.size(), 12u);  // 2 variables, 8 slots, 2 powers.
  EXPECT_NE(std::find(global.begin(), global.end(), "beta2_power:0"),
            global.end());
}

TEST(OptimizerTest, NoneGradientsAreSkipped) {
  Graph g;
  graph_scope use(g);
  Variable w(1.f, "weight");
  Variable b(1.f, "bias");
  MomentumOptimizer opt(0.5, 0.5);
  Operation train_op =
      opt.apply_gradients({{Output(), w}, {constant(Tensor(1.f)), b}});
  EXPECT_FALSE(opt.get_slot(w, "momentum").valid());
  EXPECT_EQ(g.FindNode("Momentum/update_weight/ApplyMomentum"), nullptr);
  Session sess;
  sess.run(global_variables_initializer());
  sess.run(train_op);
  EXPECT_FLOAT_EQ(sess.run(w).scalar<float>(), 1.f);
  EXPECT_FLOAT_EQ(sess.run(b).scalar<float>(), 0.5f);

  EXPECT_EQ(ErrorOf<errors::InvalidArgumentError>([&] {
              opt.apply_gradients({{Output(), w}, {Output(), b}});
            }),
            "No gradients provided for any variable: ['weight:0', "
            "'bias:0'].");
  EXPECT_EQ(
      ErrorOf<errors::InvalidArgumentError>([&] { opt.apply_gradients({}); }),
      "No variables provided.");
}

TEST(OptimizerTest, ShapeMismatchIsReportedAsTensorFlowDoes) {
  Graph g;
  graph_scope use(g);
  Variable w(Tensor({1.f, 2.f}), "weight");
  Output grad = placeholder(DT_FLOAT, TensorShape::UnknownRank(), "grad");
  GradientDescentOptimizer opt(0.1);
  Operation train_op = opt.apply_gradients({{grad, w}});
  Session sess;
  sess.run(global_variables_initializer());
  EXPECT_EQ(ErrorOf<errors::InvalidArgumentError>([&] {
              sess.run(train_op, {{grad, Tensor({1.f, 2.f, 3.f})}});
            }),
            "var and delta do not have the same shape[2] [3]\n"
            "\t [[{{node GradientDescent/update_weight/"
            "ApplyGradientDescent}}]]");
  Output mgrad = placeholder(DT_FLOAT, TensorShape::UnknownRank(), "mgrad");
  MomentumOptimizer mom(0.1, 0.9);
  Operation mom_op = mom.apply_gradients({{mgrad, w}});
  sess.run(global_variables_initializer());
  const std::string err = ErrorOf<errors::InvalidArgumentError>([&] {
    sess.run(mom_op, {{mgrad, Tensor({{1.f, 2.f}})}});
  });
  EXPECT_EQ(err.substr(0, err.find('\n')),
            "var and grad do not have the same shape[2] [1,2]");
  // Known shapes are refused when the graph is built.
  EXPECT_THROW(opt.apply_gradients({{constant(Tensor({1.f})), w}}),
               errors::InvalidArgumentError);
}

TEST(OptimizerTest, UninitializedSlotFailsAsInTensorFlow) {
  Graph g;
  graph_scope use(g);
  Variable w(1.f, "weight");
  MomentumOptimizer opt(0.1, 0.9);
  Operation train_op = opt.apply_gradients({{constant(Tensor(1.f)), w}});
  Session sess;
  sess.run(w.initializer());
  const std::string err =
      ErrorOf<errors::FailedPreconditionError>([&] { sess.run(train_op); });
  EXPECT_EQ(err.substr(0, err.find('\n')),
            "Attempting to use uninitialized value weight/Momentum");
}

// Both threads' steps land, and each updates var and accum together: with
// lr = momentum = grad = 1 the k-th step leaves accum = k and subtracts k,
// so after n steps in any interleaving var = -n(n+1)/2 exactly.
TEST(OptimizerTest, ConcurrentStepsFromTwoThreadsStayConsistent) {
  Graph g;
  graph_scope use(g);
  Variable w(Tensor({0.f, 0.f}), "weight");
  MomentumOptimizer opt(1.0, 1.0);
  Operation train_op = opt.apply_gradients({{constant(Tensor({1.f, 1.f})), w}});
  Session sess;
  sess.run(global_variables_initializer());
  constexpr int kSteps = 100;
  auto work = [&] {
    for (int i = 0; i < kSteps; ++i) sess.run(train_op);
  };
  std::thread t1(work), t2(work);
  t1.join();
  t2.join();
  const double n = 2 * kSteps;
  ExpectNear(ValuesOf(sess.run(w)), {-n * (n + 1) / 2, -n * (n + 1) / 2}, 0);
  ExpectNear(ValuesOf(sess.run(opt.get_slot(w, "momentum"))), {n, n}, 0);
}

}  // namespace
}  // namespace minitf
