// Variable scopes and get_variable against TensorFlow 2.21's tf.compat.v1
// (with disable_v2_behavior): every name, reuse flag and error text expected
// here is what TensorFlow printed for the same program.
#include "minitf/towers/variable_sharing/variable_scope.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "minitf/graph/ops/array_ops.h"
#include "minitf/graph/scope.h"
#include "minitf/graph/session.h"
#include "minitf/tensor/errors.h"
#include "towers_testing.h"

namespace minitf {
namespace {

using testing::ErrorOf;

std::vector<std::string> ClassOf(const Node* n) {
  auto it = n->attrs().find("_class");
  if (it == n->attrs().end()) return {};
  return it->second.get<std::vector<std::string>>();
}

// with tf.variable_scope("tower_0") as s0:
//   w = tf.get_variable("w", [2]); c = tf.constant(1.0, name="c")
//   with tf.name_scope("bar"):
//     v = tf.get_variable("v", [2]); d = tf.constant(1.0, name="d")
TEST(VariableScopeTest, VariablesFollowTheVariableScopeOpsTheNameScope) {
  Graph g;
  graph_scope use(g);
  // --8<-- [start:two_names]
  variable_scope s0("tower_0");
  EXPECT_EQ(s0.name(), "tower_0");
  EXPECT_EQ(s0.original_name_scope(), "tower_0/");
  EXPECT_EQ(s0.reuse(), Reuse::kFalse);
  Variable w = get_variable("w", {2});
  EXPECT_EQ(w.name(), "tower_0/w:0");
  EXPECT_EQ(w.op().name(), "tower_0/w");
  EXPECT_EQ(constant(1.f, "c").name(), "tower_0/c:0");
  name_scope bar("bar");
  EXPECT_EQ(get_variable("v", {2}).name(), "tower_0/v:0");
  EXPECT_EQ(constant(1.f, "d").name(), "tower_0/bar/d:0");
  // --8<-- [end:two_names]
}

TEST(VariableScopeTest, CreatingTwiceIsTensorFlowsError) {
  Graph g;
  graph_scope use(g);
  variable_scope s0("tower_0");
  get_variable("w", {2});
  EXPECT_EQ(ErrorOf([] { get_variable("w", {2}); }),
            "Variable tower_0/w already exists, disallowed. Did you mean to "
            "set reuse=True or reuse=tf.AUTO_REUSE in VarScope?");
}

// Entering "tower_0" again with reuse=True: the same variables, a new name
// scope "tower_0_1/" for the ops.
TEST(VariableScopeTest, ReuseTrueFindsTheSameVariable) {
  Graph g;
  graph_scope use(g);
  Variable w;
  {
    variable_scope s0("tower_0");
    w = get_variable("w", {2});
  }
  variable_scope s1("tower_0", /*reuse=*/true);
  EXPECT_EQ(s1.name(), "tower_0");
  EXPECT_EQ(s1.original_name_scope(), "tower_0_1/");
  EXPECT_EQ(s1.reuse(), Reuse::kTrue);
  EXPECT_EQ(get_variable("w", {2}), w);
  EXPECT_EQ(get_variable("w"), w);  // No shape: any shape will do.
  EXPECT_EQ(constant(1.f, "c").name(), "tower_0_1/c:0");
  EXPECT_EQ(global_variables().size(), 1u);
}

TEST(VariableScopeTest, ReuseOfAMissingVariableIsTensorFlowsError) {
  Graph g;
  graph_scope use(g);
  {
    variable_scope s("tower_0", /*reuse=*/true);
    EXPECT_EQ(ErrorOf([] { get_variable("x", {3}); }),
              "Variable tower_0/x does not exist, or was not created with "
              "tf.get_variable(). Did you mean to set reuse=tf.AUTO_REUSE in "
              "VarScope?");
  }
  variable_scope top("", /*reuse=*/true);
  EXPECT_EQ(ErrorOf([] { get_variable("w", {3}); }),
            "Variable w does not exist, or was not created with "
            "tf.get_variable(). Did you mean to set reuse=tf.AUTO_REUSE in "
            "VarScope?");
}

// A variable made with tf::Variable is not in get_variable's store.
TEST(VariableScopeTest, AVariableNotMadeByGetVariableIsNotFound) {
  Graph g;
  graph_scope use(g);
  Variable plain(0.f, "w");
  variable_scope top("", /*reuse=*/true);
  EXPECT_EQ(ErrorOf([] { get_variable("w", {}); }),
            "Variable w does not exist, or was not created with "
            "tf.get_variable(). Did you mean to set reuse=tf.AUTO_REUSE in "
            "VarScope?");
}

TEST(VariableScopeTest, SharingWithAnotherShapeOrDtypeIsTensorFlowsError) {
  Graph g;
  graph_scope use(g);
  {
    variable_scope s("s");
    get_variable("w", {2});
    get_variable("a", {2, 3});
    get_variable("i", {2}, zeros_initializer(), true,
                 {GraphKeys::GLOBAL_VARIABLES}, DT_INT32);
  }
  variable_scope s("s", /*reuse=*/true);
  EXPECT_EQ(ErrorOf([] { get_variable("w", {3}); }),
            "Trying to share variable s/w, but specified shape (3,) and found "
            "shape (2,).");
  EXPECT_EQ(ErrorOf([] {
              get_variable("a", {2, 4});
            }),
            "Trying to share variable s/a, but specified shape (2, 4) and "
            "found shape (2, 3).");
  EXPECT_EQ(ErrorOf([] { get_variable("i", {2}); }),
            "Trying to share variable s/i, but specified dtype float32 and "
            "found dtype int32_ref.");
}

TEST(VariableScopeTest, ANewVariableNeedsAShape) {
  Graph g;
  graph_scope use(g);
  EXPECT_EQ(ErrorOf([] { get_variable("z3"); }),
            "Variable z3 did not get an initializer, so its `shape` argument "
            "must be specified.");
  EXPECT_EQ(ErrorOf([] {
              get_variable("z2", TensorShape({-1, 2}));
            }),
            "The initializer passed is not valid. It should be a callable "
            "with no arguments and the shape should not be provided or an "
            "instance of `tf.keras.initializers.*' and `shape` should be "
            "fully defined.");
  EXPECT_EQ(g.num_nodes(), 0);
}

// with tf.variable_scope("a"): with tf.variable_scope("b"): ...
TEST(VariableScopeTest, NestedScopesNestBothNames) {
  Graph g;
  graph_scope use(g);
  variable_scope a("a");
  variable_scope b("b");
  EXPECT_EQ(b.name(), "a/b");
  EXPECT_EQ(get_variable("u", {}).name(), "a/b/u:0");
  EXPECT_EQ(constant(1.f, "k").name(), "a/b/k:0");
}

// Reuse is inherited, and once true it stays true inside; AUTO_REUSE is
// inherited by a scope with reuse false and replaced by one with true.
TEST(VariableScopeTest, ReuseIsInheritedAsInTensorFlow) {
  Graph g;
  graph_scope use(g);
  {
    variable_scope outer("outer", /*reuse=*/true);
    variable_scope inner("inner", /*reuse=*/false);
    EXPECT_EQ(inner.reuse(), Reuse::kTrue);
    variable_scope auto_inner("i", AUTO_REUSE);
    EXPECT_EQ(auto_inner.reuse(), Reuse::kAutoReuse);
  }
  variable_scope au("au", AUTO_REUSE);
  {
    variable_scope inner("i", /*reuse=*/false);
    EXPECT_EQ(inner.reuse(), Reuse::kAutoReuse);
  }
  {
    variable_scope inner("i2", /*reuse=*/true);
    EXPECT_EQ(inner.reuse(), Reuse::kTrue);
  }
}

TEST(VariableScopeTest, AutoReuseCreatesThenFinds) {
  Graph g;
  graph_scope use(g);
  variable_scope au("au", AUTO_REUSE);
  Variable x1 = get_variable("x", {1});
  Variable x2 = get_variable("x", {1});
  EXPECT_EQ(x1, x2);
  EXPECT_EQ(x1.name(), "au/x:0");
  EXPECT_EQ(ErrorOf([] { get_variable("x", {2}); }),
            "Trying to share variable au/x, but specified shape (2,) and found "
            "shape (1,).");
}

// with tf.variable_scope("m") as sm: tf.get_variable("p", [2]);
// sm.reuse_variables(); tf.get_variable("p", [2]) ...
TEST(VariableScopeTest, ReuseVariablesTurnsTheCurrentScopeToReuse) {
  Graph g;
  graph_scope use(g);
  Variable p;
  {
    variable_scope sm("m");
    p = get_variable("p", {2});
    sm.reuse_variables();
    EXPECT_EQ(sm.reuse(), Reuse::kTrue);
    EXPECT_EQ(get_variable_scope().reuse(), Reuse::kTrue);
    EXPECT_EQ(get_variable("p", {2}), p);
    variable_scope sn("n");
    EXPECT_EQ(sn.reuse(), Reuse::kTrue);
  }
  // A new entry of "m" is a new scope object: reuse false again.
  variable_scope again("m");
  EXPECT_EQ(again.reuse(), Reuse::kFalse);
  EXPECT_EQ(again.original_name_scope(), "m_1/");
}

TEST(VariableScopeTest, GetVariableScopeReuseVariables) {
  Graph g;
  graph_scope use(g);
  variable_scope model("model");
  Variable w = get_variable("w", {2});
  get_variable_scope().reuse_variables();
  EXPECT_EQ(model.reuse(), Reuse::kTrue);
  EXPECT_EQ(get_variable("w", {2}), w);
}

// with tf.variable_scope("tower_0") as s0: ...
// with tf.variable_scope("q"): with tf.variable_scope(s0) as s0b: ...
// with tf.variable_scope(s0, reuse=True) as s0c: ...
TEST(VariableScopeTest, AScopeReenteredByObject) {
  Graph g;
  graph_scope use(g);
  VariableScope captured;
  Variable w;
  {
    variable_scope s0("tower_0");
    captured = s0.scope();
    w = get_variable("w", {2});
  }
  // --8<-- [start:by_object]
  {
    variable_scope q("q");
    variable_scope s0b(captured);
    EXPECT_EQ(s0b.name(), "tower_0");
    EXPECT_EQ(s0b.original_name_scope(), "tower_0/");
    EXPECT_EQ(s0b.reuse(), Reuse::kFalse);
    EXPECT_EQ(constant(1.f, "e").name(), "q/tower_0/e:0");
    EXPECT_EQ(ErrorOf([] { get_variable("w", {2}); }),
              "Variable tower_0/w already exists, disallowed. Did you mean to "
              "set reuse=True or reuse=tf.AUTO_REUSE in VarScope?");
  }
  variable_scope s0c(captured, /*reuse=*/true);
  EXPECT_EQ(s0c.name(), "tower_0");
  EXPECT_EQ(s0c.original_name_scope(), "tower_0/");
  EXPECT_EQ(get_variable("w", {2}), w);
  EXPECT_EQ(constant(1.f, "e").name(), "tower_0_1/e:0");
  // --8<-- [end:by_object]
}

// A scope object's reuse_variables() is kept when it is entered again.
TEST(VariableScopeTest, AScopeObjectKeepsItsReuse) {
  Graph g;
  graph_scope use(g);
  VariableScope captured;
  {
    variable_scope s("layer");
    captured = s.scope();
    get_variable("w", {2});
  }
  captured.reuse_variables();
  variable_scope again(captured);
  EXPECT_EQ(again.reuse(), Reuse::kTrue);
  EXPECT_EQ(get_variable("w", {2}).name(), "layer/w:0");
}

// with tf.name_scope("ns"): with tf.variable_scope("vs") as s: ...
TEST(VariableScopeTest, AVariableScopeInsideANameScope) {
  Graph g;
  graph_scope use(g);
  name_scope ns("ns");
  variable_scope vs("vs");
  EXPECT_EQ(vs.name(), "vs");
  EXPECT_EQ(vs.original_name_scope(), "ns/vs/");
  EXPECT_EQ(get_variable("w", {1}).name(), "vs/w:0");
  EXPECT_EQ(constant(1.f, "f").name(), "ns/vs/f:0");
}

// with tf.variable_scope("x"): with tf.variable_scope("") as e: ...
// with tf.variable_scope("") as e: ...
TEST(VariableScopeTest, AnEmptyNameOpensNoNameScope) {
  Graph g;
  graph_scope use(g);
  {
    variable_scope x("x");
    variable_scope e("");
    EXPECT_EQ(e.name(), "x/");
    EXPECT_EQ(e.original_name_scope(), "");
    EXPECT_EQ(constant(1.f, "q").name(), "x/q:0");
    EXPECT_EQ(get_variable("w", {1}).name(), "x//w:0");
  }
  variable_scope e("");
  EXPECT_EQ(e.name(), "");
  EXPECT_EQ(constant(1.f, "q").name(), "q:0");
}

TEST(VariableScopeTest, ScopesAreRestoredOnExit) {
  Graph g;
  graph_scope use(g);
  {
    variable_scope a("a", /*reuse=*/true);
    variable_scope b("b");
  }
  EXPECT_EQ(get_variable_scope().name(), "");
  EXPECT_EQ(get_variable_scope().reuse(), Reuse::kFalse);
  EXPECT_EQ(g.name_scope(), "");
}

// The nodes TensorFlow builds for tf.get_variable("a", [2, 3]) in scope "s"
// under tf.device("/cpu:0"): the initializer's ops colocated with the
// variable by name and with no device, the variable's own ops on the CPU.
TEST(VariableScopeTest, TheGraphOfAVariableMatchesTensorFlow) {
  Graph g;
  graph_scope use(g);
  device_scope on_cpu("/cpu:0");
  variable_scope s("s");
  get_variable("a", {2, 3});
  const std::vector<std::string> expected = {
      "s/a/Initializer/random_uniform/shape",
      "s/a/Initializer/random_uniform/min",
      "s/a/Initializer/random_uniform/max",
      "s/a/Initializer/random_uniform/RandomUniform",
      "s/a/Initializer/random_uniform/sub",
      "s/a/Initializer/random_uniform/mul",
      "s/a/Initializer/random_uniform",
      "s/a",
      "s/a/Assign",
      "s/a/read"};
  std::vector<std::string> names;
  for (const Node* n : g.nodes()) {
    names.push_back(n->name());
    EXPECT_EQ(ClassOf(n), (std::vector<std::string>{"loc:@s/a"})) << n->name();
    const bool variable_op = n->name() == "s/a" || n->name() == "s/a/Assign" ||
                             n->name() == "s/a/read";
    EXPECT_EQ(n->requested_device(), variable_op ? "/device:CPU:0" : "")
        << n->name();
  }
  EXPECT_EQ(names, expected);
  EXPECT_EQ(g.FindNode("s/a/Initializer/random_uniform")->type_string(),
            "AddV2");
}

// trainable=False and collections=["mine"], as TensorFlow files them: a
// trainable variable is in trainable_variables whatever its collections.
TEST(VariableScopeTest, TrainableAndCollections) {
  Graph g;
  graph_scope use(g);
  variable_scope s("s");
  get_variable("a", {3});
  get_variable("nt", {3}, nullptr, /*trainable=*/false);
  get_variable("col", {3}, nullptr, /*trainable=*/true, {"mine"});
  auto names = [](const std::vector<Variable>& vars) {
    std::vector<std::string> out;
    for (const Variable& v : vars) out.push_back(v.name());
    return out;
  };
  EXPECT_EQ(names(global_variables()),
            (std::vector<std::string>{"s/a:0", "s/nt:0"}));
  EXPECT_EQ(names(trainable_variables()),
            (std::vector<std::string>{"s/a:0", "s/col:0"}));
  EXPECT_EQ(names(get_collection<Variable>("mine")),
            (std::vector<std::string>{"s/col:0"}));
}

// The towers' pattern: one set of variables, a name scope per tower.
TEST(VariableScopeTest, TowersShareOneSetOfVariables) {
  Graph g;
  graph_scope use(g);
  // --8<-- [start:towers]
  std::vector<Output> ys;
  for (int i = 0; i < 3; ++i) {
    variable_scope model("model", /*reuse=*/i > 0);
    Variable w = get_variable("w", {2}, ones_initializer());
    ys.push_back(identity(w.value(), "y"));
  }
  EXPECT_EQ(global_variables().size(), 1u);
  EXPECT_EQ(ys[0].name(), "model/y:0");
  EXPECT_EQ(ys[1].name(), "model_1/y:0");
  EXPECT_EQ(ys[2].name(), "model_2/y:0");
  // --8<-- [end:towers]
  Session sess;
  sess.run(global_variables_initializer());
  for (const Output& y : ys) {
    EXPECT_EQ(sess.run(y).data<float>()[1], 1.f);
  }
}

// Each graph keeps its own variables and its own current scope.
TEST(VariableScopeTest, VariablesAreSharedPerGraph) {
  Graph g1;
  Graph g2;
  Variable w1;
  {
    graph_scope use(g1);
    variable_scope s("s");
    w1 = get_variable("w", {2});
    graph_scope other(g2);
    EXPECT_EQ(get_variable_scope().name(), "");
    EXPECT_EQ(get_variable("w", {2}).name(), "w:0");
  }
  graph_scope use(g2);
  variable_scope s("s");
  Variable w2 = get_variable("w", {2});
  EXPECT_EQ(w2.name(), "s/w:0");
  EXPECT_NE(w2, w1);
  EXPECT_EQ(w2.graph(), &g2);
}

// TensorFlow 2.21 words it "'a b' is not a valid root scope name. A root
// scope name has to match ..."; the text is layer 2's name_scope's.
TEST(VariableScopeTest, AnInvalidScopeNameIsAnError) {
  Graph g;
  graph_scope use(g);
  EXPECT_EQ(ErrorOf([] { variable_scope bad("a b"); }),
            "'a b' is not a valid scope name");
  EXPECT_EQ(get_variable_scope().name(), "");
}

}  // namespace
}  // namespace minitf
