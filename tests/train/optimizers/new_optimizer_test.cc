// A new optimizer: the path the contributors' page walks (docs/contributing.md
// quotes this file). SignSGD, var -= learning_rate * sign(grad), is an
// Optimizer that builds its update of each variable from existing ops; the
// base class does the rest (gradients, name scopes, colocation with the
// variable, the grouped training op, global_step).
#include <gtest/gtest.h>

#include <string>

#include "minitf/graph/ops/array_ops.h"
#include "minitf/graph/ops/math_ops.h"
#include "minitf/graph/scope.h"
#include "minitf/graph/session.h"
#include "minitf/train/ops/state_ops.h"
#include "minitf/train/optimizers/optimizer.h"
#include "minitf/train/variables.h"

namespace minitf {
namespace {

// --8<-- [start:optimizer]
class SignSGDOptimizer : public train::Optimizer {
 public:
  explicit SignSGDOptimizer(double learning_rate)
      : Optimizer(/*use_locking=*/false, "SignSGD"),
        learning_rate_(learning_rate) {}

 protected:
  // Once per apply_gradients, inside the optimizer's name scope:
  // "SignSGD/learning_rate".
  void Prepare() override {
    learning_rate_t_ =
        constant(Tensor(static_cast<float>(learning_rate_)), "learning_rate");
  }
  // Once per variable, inside "SignSGD/update_<var>/" and colocated with it.
  Operation ApplyDense(Output grad, const Variable& var) override {
    Output step = AsDType(learning_rate_t_, var.dtype()) * sign(grad);
    return assign_sub(var.ref(), step, use_locking_).op();
  }

 private:
  const double learning_rate_;
  Output learning_rate_t_;
};
// --8<-- [end:optimizer]

// --8<-- [start:test]
TEST(NewOptimizerTest, SignSGDStepsByTheLearningRateTowardTheMinimum) {
  Graph g;
  graph_scope use(g);
  Variable x(0.0f, "x");
  Output loss = square(x.value() - 3.0f);
  Operation train_op = SignSGDOptimizer(0.5).minimize(loss);
  Session sess(SessionOptions{}, &g);
  sess.run(global_variables_initializer());
  std::string path;
  for (int step = 0; step < 8; ++step) {
    sess.run(train_op);
    path +=
        std::to_string(sess.run(x.value()).data<float>()[0]).substr(0, 3) + " ";
  }
  // Half a unit a step until the gradient, and so its sign, is zero.
  EXPECT_EQ(path, "0.5 1.0 1.5 2.0 2.5 3.0 3.0 3.0 ");
  EXPECT_EQ(train_op.node()->name(), "SignSGD");
  EXPECT_NE(g.FindNode("SignSGD/update_x/AssignSub"), nullptr);
}
// --8<-- [end:test]

}  // namespace
}  // namespace minitf
