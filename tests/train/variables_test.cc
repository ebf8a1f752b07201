#include "minitf/train/variables.h"

#include <gtest/gtest.h>

#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "minitf/graph/ops/array_ops.h"
#include "minitf/graph/ops/math_ops.h"
#include "minitf/graph/scope.h"
#include "minitf/graph/session.h"
#include "minitf/tensor/errors.h"
#include "minitf/train/ops/state_ops.h"

namespace minitf {
namespace {

std::vector<std::string> ClassOf(const Node* n) {
  auto it = n->attrs().find("_class");
  if (it == n->attrs().end()) return {};
  return it->second.get<std::vector<std::string>>();
}

std::vector<float> Values(const Tensor& t) {
  const float* p = t.data<float>();
  return std::vector<float>(p, p + t.NumElements());
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

// Seed 000: w = tf.Variable(0.0, name='weight'); b = tf.Variable(0.0, ...).
TEST(VariableTest, SeedVariablesHaveTensorFlowsNames) {
  Graph g;
  graph_scope use(g);
  Variable w(0.0f, "weight");
  Variable b(0.0f, "bias");
  EXPECT_EQ(w.name(), "weight:0");
  EXPECT_EQ(b.name(), "bias:0");
  EXPECT_EQ(w.op().name(), "weight");
  EXPECT_EQ(w.op().type(), "VariableV2");
  EXPECT_EQ(w.dtype(), DT_FLOAT);
  EXPECT_EQ(w.shape(), TensorShape({}));
  EXPECT_EQ(w.initial_value().name(), "weight/initial_value:0");
  EXPECT_EQ(w.initializer().name(), "weight/Assign");
  EXPECT_EQ(w.value().name(), "weight/read:0");
  std::ostringstream os;
  os << w;
  EXPECT_EQ(os.str(), "<tf.Variable 'weight:0' shape=() dtype=float32_ref>");
  // A second variable of the same name is made unique, as a name scope.
  Variable w2(1.0f, "weight");
  EXPECT_EQ(w2.name(), "weight_1:0");
  EXPECT_EQ(w2.initializer().name(), "weight_1/Assign");
}

TEST(VariableTest, GraphStructureMatchesTensorFlow) {
  Graph g;
  graph_scope use(g);
  Variable w(Tensor({1.f, 2.f}), "weight");
  const Node* var = g.FindNode("weight");
  ASSERT_NE(var, nullptr);
  EXPECT_EQ(GetAttr<TensorShape>(var->attrs(), "shape").value(),
            TensorShape({2}));
  EXPECT_EQ(GetAttr<DType>(var->attrs(), "dtype").value(), DT_FLOAT);
  EXPECT_EQ(GetAttr<std::string>(var->attrs(), "container").value(), "");
  EXPECT_EQ(GetAttr<std::string>(var->attrs(), "shared_name").value(), "");
  EXPECT_TRUE(ClassOf(var).empty());

  const Node* init_value = g.FindNode("weight/initial_value");
  ASSERT_NE(init_value, nullptr);
  EXPECT_EQ(init_value->type_string(), "Const");

  const Node* assign = g.FindNode("weight/Assign");
  ASSERT_NE(assign, nullptr);
  EXPECT_EQ(assign->type_string(), "Assign");
  EXPECT_EQ(assign->input(0).node(), var);
  EXPECT_EQ(assign->input(1).node(), init_value);
  EXPECT_TRUE(GetAttr<bool>(assign->attrs(), "validate_shape").value());
  EXPECT_TRUE(GetAttr<bool>(assign->attrs(), "use_locking").value());
  EXPECT_EQ(ClassOf(assign), std::vector<std::string>{"loc:@weight"});

  const Node* read = g.FindNode("weight/read");
  ASSERT_NE(read, nullptr);
  EXPECT_EQ(read->type_string(), "Identity");
  EXPECT_EQ(read->input(0).node(), var);
  EXPECT_EQ(ClassOf(read), std::vector<std::string>{"loc:@weight"});
  EXPECT_EQ(read->output_shape(0), TensorShape({2}));
}

TEST(VariableTest, InitializeThenComputeAsSeed000) {
  Graph g;
  graph_scope use(g);
  Variable w(0.5f, "weight");
  Variable b(0.25f, "bias");
  Output x = placeholder(DT_FLOAT, {}, "x");
  Output y = w * x + b;
  Operation init = global_variables_initializer();
  EXPECT_EQ(init.name(), "init");
  EXPECT_EQ(init.type(), "NoOp");
  ASSERT_EQ(init.node()->control_inputs().size(), 2u);
  EXPECT_EQ(init.node()->control_inputs()[0]->name(), "weight/Assign");
  EXPECT_EQ(init.node()->control_inputs()[1]->name(), "bias/Assign");

  Session sess;
  sess.run(init);
  EXPECT_FLOAT_EQ(sess.run(y, {{x, Tensor(2.f)}}).scalar<float>(), 1.25f);
  std::vector<Tensor> wb = sess.run({w, b});
  EXPECT_FLOAT_EQ(wb[0].scalar<float>(), 0.5f);
  EXPECT_FLOAT_EQ(wb[1].scalar<float>(), 0.25f);
}

TEST(VariableTest, AssignAssignAddAssignSub) {
  Graph g;
  graph_scope use(g);
  Variable v(Tensor({1.f, 2.f}), "v");
  Output set = v.assign(Tensor({10.f, 20.f}));
  Output add = v.assign_add(Tensor({1.f, 1.f}));
  Output sub = v.assign_sub(Tensor({0.5f, 4.f}));
  EXPECT_EQ(set.op().type(), "Assign");
  EXPECT_EQ(add.op().type(), "AssignAdd");
  EXPECT_EQ(sub.op().type(), "AssignSub");
  EXPECT_EQ(ClassOf(add.node()), std::vector<std::string>{"loc:@v"});

  Session sess;
  sess.run(v.initializer());
  EXPECT_EQ(Values(sess.run(v)), (std::vector<float>{1.f, 2.f}));
  EXPECT_EQ(Values(sess.run(add)), (std::vector<float>{2.f, 3.f}));
  EXPECT_EQ(Values(sess.run(add)), (std::vector<float>{3.f, 4.f}));
  EXPECT_EQ(Values(sess.run(sub)), (std::vector<float>{2.5f, 0.f}));
  EXPECT_EQ(Values(sess.run(set)), (std::vector<float>{10.f, 20.f}));
  EXPECT_EQ(Values(sess.run(v)), (std::vector<float>{10.f, 20.f}));
}

TEST(VariableTest, AFetchedValueDoesNotChangeWhenTheVariableDoes) {
  Graph g;
  graph_scope use(g);
  Variable v(Tensor({1.f, 2.f}), "v");
  Output add = v.assign_add(Tensor({1.f, 1.f}));
  Session sess;
  sess.run(v.initializer());
  Tensor before = sess.run(v);
  Tensor after = sess.run(add);
  EXPECT_EQ(Values(before), (std::vector<float>{1.f, 2.f}));
  EXPECT_EQ(Values(after), (std::vector<float>{2.f, 3.f}));
  // No one holds `after` but this test now; a later update may reuse it
  // only once it is dropped, so its values stay as fetched.
  sess.run(add);
  EXPECT_EQ(Values(after), (std::vector<float>{2.f, 3.f}));
}

// TensorFlow's fetch of a variable shares its buffer, which the run's
// updates write in place: sess.run([train_op, w]) shows w after the step
// (checked against TensorFlow 2.21's tf.compat.v1). A reader computes with
// the value it read.
TEST(VariableTest, AFetchOfTheVariableShowsTheUpdatesOfItsRun) {
  Graph g;
  graph_scope use(g);
  Variable v(Tensor({1.f, 2.f}), "v");
  Output add = v.assign_add(Tensor({1.f, 1.f}));
  Output reader = v + constant(Tensor({0.f, 0.f}));
  Session sess;
  sess.run(v.initializer());
  std::vector<Tensor> r = sess.run({add.op(), v});
  EXPECT_EQ(Values(r[1]), (std::vector<float>{2.f, 3.f}));
  r = sess.run({v, add.op()});
  EXPECT_EQ(Values(r[0]), (std::vector<float>{3.f, 4.f}));
  r = sess.run({v, reader}, {}, {add.op()});
  EXPECT_EQ(Values(r[0]), (std::vector<float>{4.f, 5.f}));
  EXPECT_EQ(Values(r[1]), (std::vector<float>{3.f, 4.f}));
  EXPECT_EQ(Values(sess.run(v)), (std::vector<float>{4.f, 5.f}));
}

// The fetch reads the variable when its VariableV2 runs, before the
// initializer, and only then follows it: TensorFlow fails too.
TEST(VariableTest, AFetchOfAVariableInitializedInTheSameRunFails) {
  Graph g;
  graph_scope use(g);
  Variable v(1.f, "v");
  Session sess;
  EXPECT_EQ(ErrorOf<errors::FailedPreconditionError>([&] {
              sess.run({v.initializer(), v});
            }),
            "Attempting to use uninitialized value v\n"
            "\t [[{{node v}}]]");
}

TEST(VariableTest, UpdatesWriteInPlaceWhenNoReaderHoldsTheValue) {
  Graph g;
  graph_scope use(g);
  Variable v(Tensor({1.f, 2.f}), "v");
  Output add = v.assign_add(Tensor({1.f, 1.f}));
  Session sess;
  sess.run(v.initializer());
  sess.run(add.op());  // Copies: the initial value's Const shares the buffer.
  const void* first = sess.run(v).data<float>();
  sess.run(add.op());
  sess.run(add.op());
  EXPECT_EQ(sess.run(v).data<float>(), first);
  EXPECT_EQ(Values(sess.run(v)), (std::vector<float>{4.f, 5.f}));
}

TEST(VariableTest, ReadingBeforeInitializationFailsAsInTensorFlow) {
  Graph g;
  graph_scope use(g);
  Variable w(0.0f, "weight");
  Output y = w * constant(2.f);
  Session sess;
  // A fetch of w fetches its VariableV2's output (Variable::as_graph_element).
  EXPECT_EQ(ErrorOf<errors::FailedPreconditionError>([&] { sess.run(w); }),
            "Attempting to use uninitialized value weight\n"
            "\t [[{{node weight}}]]");
  EXPECT_EQ(ErrorOf<errors::FailedPreconditionError>([&] {
              sess.run({w, y});
            }),
            "Attempting to use uninitialized value weight\n"
            "\t [[{{node weight/read}}]]");
  EXPECT_EQ(ErrorOf<errors::FailedPreconditionError>([&] { sess.run(y); }),
            "Attempting to use uninitialized value weight\n"
            "\t [[{{node weight/read}}]]");
  EXPECT_EQ(
      ErrorOf<errors::FailedPreconditionError>([&] { sess.run(w.ref()); }),
      "Attempting to use uninitialized value weight\n"
      "\t [[{{node weight}}]]");
  Output add = w.assign_add(Tensor(1.f));
  EXPECT_EQ(ErrorOf<errors::FailedPreconditionError>([&] { sess.run(add); }),
            "Attempting to use uninitialized value weight\n"
            "\t [[{{node AssignAdd}}]]");
  sess.run(w.initializer());
  EXPECT_FLOAT_EQ(sess.run(y).scalar<float>(), 0.f);
}

TEST(VariableTest, IsVariableInitialized) {
  Graph g;
  graph_scope use(g);
  Variable w(0.0f, "weight");
  Output ready = is_variable_initialized(w);
  Session sess;
  EXPECT_FALSE(sess.run(ready).scalar<bool>());
  sess.run(w.initializer());
  EXPECT_TRUE(sess.run(ready).scalar<bool>());
}

TEST(VariableTest, EachSessionHoldsItsOwnValues) {
  Graph g;
  graph_scope use(g);
  Variable w(1.0f, "weight");
  Output inc = w.assign_add(Tensor(1.f));
  Session a;
  Session b;
  a.run(global_variables_initializer());
  a.run(inc);
  a.run(inc);
  EXPECT_FLOAT_EQ(a.run(w).scalar<float>(), 3.f);
  EXPECT_THROW(b.run(w), errors::FailedPreconditionError);
  b.run(w.initializer());
  EXPECT_FLOAT_EQ(b.run(w).scalar<float>(), 1.f);
  EXPECT_FLOAT_EQ(a.run(w).scalar<float>(), 3.f);
}

TEST(VariableTest, AssignOfTheWrongShapeFailsWithTensorFlowsText) {
  Graph g;
  graph_scope use(g);
  Variable v(Tensor({1.f, 2.f}), "v");
  // With both shapes known, the graph refuses it as it is built.
  EXPECT_THROW(v.assign(Tensor({1.f, 2.f, 3.f})), errors::InvalidArgumentError);
  // Of unknown shape until it runs, the kernel refuses it. (The refused op
  // above used up the name "Assign", as in TensorFlow.)
  Output p = placeholder(DT_FLOAT, TensorShape::UnknownRank(), "p");
  Output set = v.assign(p);
  Session sess;
  EXPECT_EQ(ErrorOf<errors::InvalidArgumentError>([&] {
              sess.run(set, {{p, Tensor({1.f, 2.f, 3.f})}});
            }),
            "Assign requires shapes of both tensors to match. lhs shape= [2] "
            "rhs shape= [3]\n\t [[{{node Assign_1}}]]");
  // Before initialization too: the variable's declared shape counts.
  sess.run(v.initializer());
  EXPECT_EQ(Values(sess.run(set, {{p, Tensor({5.f, 6.f})}})),
            (std::vector<float>{5.f, 6.f}));
}

TEST(VariableTest, AssignNeedsAVariable) {
  Graph g;
  graph_scope use(g);
  Variable v(0.f, "v");
  EXPECT_EQ(ErrorOf<errors::InvalidArgumentError>(
                [&] { assign(v.value(), constant(1.f)); }),
            "Input 'ref' of 'Assign' Op requires l-value input, got "
            "v/read:0");
}

TEST(VariableTest, CollectionsAndTrainable) {
  Graph g;
  graph_scope use(g);
  Variable w(0.0f, "weight");
  Variable step(Tensor(int64_t{0}), "global_step", /*trainable=*/false);
  Variable b(0.0f, "bias");
  std::vector<Variable> all = global_variables();
  ASSERT_EQ(all.size(), 3u);
  EXPECT_EQ(all[0], w);
  EXPECT_EQ(all[1], step);
  EXPECT_EQ(all[2], b);
  std::vector<Variable> trainable = trainable_variables();
  ASSERT_EQ(trainable.size(), 2u);
  EXPECT_EQ(trainable[0].name(), "weight:0");
  EXPECT_EQ(trainable[1].name(), "bias:0");
  EXPECT_FALSE(step.trainable());
  EXPECT_EQ(global_variables("bi").size(), 1u);
}

TEST(VariableTest, VariablesInitializerRunsOnlyItsList) {
  Graph g;
  graph_scope use(g);
  Variable w(1.0f, "weight");
  Variable b(2.0f, "bias");
  Operation init_w = variables_initializer({w}, "init_w");
  EXPECT_EQ(init_w.name(), "init_w");
  Session sess;
  sess.run(init_w);
  EXPECT_FLOAT_EQ(sess.run(w).scalar<float>(), 1.f);
  EXPECT_THROW(sess.run(b), errors::FailedPreconditionError);
  EXPECT_EQ(variables_initializer({}).type(), "NoOp");
}

TEST(VariableTest, InitialValueFromTheGraph) {
  Graph g;
  graph_scope use(g);
  Output start = constant({1.f, 2.f, 3.f}, {3}, "start");
  Variable v(start * 2.f, "v");
  EXPECT_EQ(v.shape(), TensorShape({3}));
  // Built before the variable, so outside its scope, and used as it is.
  EXPECT_EQ(v.initial_value().node()->name(), "mul");
  Session sess;
  sess.run(global_variables_initializer());
  EXPECT_EQ(Values(sess.run(v)), (std::vector<float>{2.f, 4.f, 6.f}));
}

// tf.Variable(lambda: tf.zeros([2]), name="v", collections=["mine"]) under
// tf.device("/device:CPU:0"), as TensorFlow 2.21 builds it: the initial
// value's ops in "v/Initializer/", colocated with the variable by name and
// with no device of their own (checked against TensorFlow's GraphDef); the
// variable in "mine" and, being trainable, in trainable_variables, but not
// in global_variables. (The device in its full spelling, which chapter 4's
// device scopes write for "/cpu:0" too.)
TEST(VariableTest, InitialValueFromAFunctionIsBuiltInsideTheVariable) {
  Graph g;
  graph_scope use(g);
  device_scope on_cpu("/device:CPU:0");
  Variable v([] { return zeros({2}); }, "v", /*trainable=*/true, {"mine"});
  EXPECT_EQ(v.initial_value().name(), "v/Initializer/zeros:0");
  const Node* init = v.initial_value().node();
  EXPECT_EQ(ClassOf(init), (std::vector<std::string>{"loc:@v"}));
  EXPECT_EQ(init->requested_device(), "");
  EXPECT_EQ(v.op().device(), "/device:CPU:0");
  // TensorFlow's attr scope covers the variable op too.
  EXPECT_EQ(ClassOf(v.op().node()), (std::vector<std::string>{"loc:@v"}));
  EXPECT_EQ(global_variables().size(), 0u);
  EXPECT_EQ(get_collection<Variable>("mine").size(), 1u);
  EXPECT_EQ(trainable_variables().size(), 1u);
  Session sess;
  sess.run(v.initializer());
  EXPECT_EQ(Values(sess.run(v)), (std::vector<float>{0.f, 0.f}));
}

TEST(VariableTest, ConcurrentAssignAddSumsEveryUpdate) {
  Graph g;
  graph_scope use(g);
  Variable counter(Tensor({0.f, 0.f, 0.f, 0.f}), "counter");
  Output inc = counter.assign_add(Tensor({1.f, 1.f, 1.f, 1.f}));
  Session sess;
  sess.run(counter.initializer());
  constexpr int kRuns = 2000;
  auto work = [&] {
    for (int i = 0; i < kRuns; ++i) sess.run(inc.op());
  };
  std::thread t1(work);
  std::thread t2(work);
  t1.join();
  t2.join();
  EXPECT_EQ(Values(sess.run(counter)),
            std::vector<float>(4, static_cast<float>(2 * kRuns)));
}

TEST(VariableTest, EvalInTheDefaultSession) {
  Graph g;
  graph_scope use(g);
  Variable w(3.0f, "weight");
  Session sess;
  session_scope in(sess);
  global_variables_initializer().run();
  EXPECT_FLOAT_EQ(w.eval().scalar<float>(), 3.f);
}

}  // namespace
}  // namespace minitf
