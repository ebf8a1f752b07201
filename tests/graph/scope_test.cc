#include "minitf/graph/scope.h"

#include <gtest/gtest.h>

#include <sstream>
#include <thread>

#include "minitf/graph/ops/array_ops.h"
#include "minitf/graph/ops/math_ops.h"
#include "minitf/tensor/errors.h"

namespace minitf {
namespace {

// Each test builds in a graph of its own, made default for the test's scope.
class ScopeTest : public ::testing::Test {
 protected:
  Graph g_;
  graph_scope use_{g_};
};

TEST_F(ScopeTest, DefaultNamesComeFromTheOpType) {
  Output a = constant(1.f);
  Output b = constant(2.f);
  Output c = add(a, b);
  Output d = add(a, b);
  EXPECT_EQ(a.name(), "Const:0");
  EXPECT_EQ(b.name(), "Const_1:0");
  EXPECT_EQ(c.name(), "AddV2:0");
  EXPECT_EQ(d.name(), "AddV2_1:0");
}

TEST_F(ScopeTest, ExplicitNamesAreMadeUnique) {
  EXPECT_EQ(constant(1.f, "a").op().name(), "a");
  EXPECT_EQ(constant(1.f, "a").op().name(), "a_1");
  EXPECT_EQ(constant(1.f, "a_1").op().name(), "a_1_1");
  EXPECT_EQ(constant(1.f, "a").op().name(), "a_2");
}

TEST_F(ScopeTest, NameScopesPrefixAndReenterWithASuffix) {
  Output a = constant(1.f);
  {
    name_scope tower("tower_0");
    EXPECT_EQ(tower.name(), "tower_0/");
    EXPECT_EQ(
        matmul(constant({1.f}, {1, 1}), constant({1.f}, {1, 1})).op().name(),
        "tower_0/MatMul");
    {
      name_scope inner("inner");
      EXPECT_EQ(identity(a).op().name(), "tower_0/inner/Identity");
    }
  }
  {
    name_scope again("tower_0");
    EXPECT_EQ(again.name(), "tower_0_1/");
    EXPECT_EQ(identity(a).op().name(), "tower_0_1/Identity");
  }
  {
    // A name ending in '/' re-enters that exact scope.
    name_scope exact("tower_0/");
    EXPECT_EQ(identity(a).op().name(), "tower_0/Identity");
    name_scope top("");
    EXPECT_EQ(identity(a).op().name(), "Identity");
  }
  EXPECT_EQ(identity(a).op().name(), "Identity_1");
}

TEST_F(ScopeTest, InvalidNamesAreRejectedWithTensorFlowsWording) {
  try {
    name_scope bad("a b");
    FAIL() << "expected an error";
  } catch (const errors::InvalidArgumentError& e) {
    EXPECT_STREQ(e.what(), "'a b' is not a valid scope name");
  }
  // '_' may not start a top-level scope, but may start a nested one.
  EXPECT_THROW(name_scope("_hidden"), errors::InvalidArgumentError);
  name_scope outer("outer");
  EXPECT_NO_THROW(name_scope("_hidden"));
  try {
    constant(1.f, "x y");
    FAIL() << "expected an error";
  } catch (const errors::InvalidArgumentError& e) {
    EXPECT_STREQ(e.what(), "'outer/x y' is not a valid node name");
  }
}

TEST_F(ScopeTest, OpsGoToTheirInputsGraphAndMixingGraphsFails) {
  Output a = constant(1.f, "a");
  Graph other;
  Output b;
  {
    graph_scope use_other(other);
    b = constant(2.f, "b");
    // The inputs' graph wins over the default graph.
    EXPECT_EQ(identity(a).graph(), &g_);
  }
  try {
    add(a, b);
    FAIL() << "expected an error";
  } catch (const errors::InvalidArgumentError& e) {
    EXPECT_STREQ(e.what(),
                 "Tensor(\"b:0\", shape=(), dtype=float32) must be from the "
                 "same graph as Tensor(\"a:0\", shape=(), dtype=float32).");
  }
}

TEST(DefaultGraphTest, ResetGivesAFreshGraphAndIsRefusedWhenNested) {
  reset_default_graph();
  Graph* first = get_default_graph();
  EXPECT_EQ(constant(1.f).name(), "Const:0");
  reset_default_graph();
  EXPECT_NE(get_default_graph(), first);
  EXPECT_EQ(constant(1.f).name(), "Const:0");
  Graph g;
  graph_scope use(g);
  EXPECT_EQ(get_default_graph(), &g);
  EXPECT_THROW(reset_default_graph(), errors::FailedPreconditionError);
}

TEST(DefaultGraphTest, EachThreadHasItsOwn) {
  Graph* here = get_default_graph();
  Graph* there = nullptr;
  std::thread t([&] { there = get_default_graph(); });
  t.join();
  EXPECT_NE(here, there);
}

TEST_F(ScopeTest, DeviceScopesNestAndInnerRequestsWin) {
  Output a;
  Output b;
  Output c;
  Output d;
  {
    device_scope cpu("/cpu:0");
    a = constant(1.f);
    {
      device_scope gpu("/gpu:1");
      b = constant(1.f);
      {
        device_scope none(nullptr);
        c = constant(1.f);
      }
    }
    device_scope fn([](const Node& n) {
      return n.type_string() == "Const" ? std::string("/gpu:0")
                                        : n.requested_device();
    });
    d = identity(constant(1.f));
  }
  EXPECT_EQ(a.op().device(), "/cpu:0");
  EXPECT_EQ(b.op().device(), "/gpu:1");
  EXPECT_EQ(c.op().device(), "");
  EXPECT_EQ(d.op().input(0).op().device(), "/gpu:0");
  // The function left Identity alone, so the string scope around applies.
  EXPECT_EQ(d.op().device(), "/cpu:0");
  EXPECT_EQ(constant(1.f).op().device(), "");
}

TEST_F(ScopeTest, ControlDependenciesAddEdgesAndNoneClearsThem) {
  Operation init = no_op("init");
  Output x = constant(1.f, "x");
  Output y;
  Output z;
  Output w;
  {
    control_dependencies after({init});
    y = identity(x);
    {
      control_dependencies clear(nullptr);
      z = identity(x);
    }
    // Already a data input: no extra edge.
    control_dependencies on_x(std::vector<Output>{x});
    w = identity(x);
  }
  ASSERT_EQ(y.node()->control_inputs().size(), 1u);
  EXPECT_EQ(y.node()->control_inputs()[0], init.node());
  EXPECT_TRUE(z.node()->control_inputs().empty());
  ASSERT_EQ(w.node()->control_inputs().size(), 1u);
  EXPECT_EQ(w.node()->control_inputs()[0], init.node());
  EXPECT_EQ(init.node()->control_outputs().size(), 2u);
}

TEST_F(ScopeTest, ColocationRecordsTheGroupAndOverridesDeviceScopes) {
  Output v;
  {
    device_scope ps("/job:ps/task:0");
    v = constant(1.f, "v");
  }
  Output r;
  {
    device_scope gpu("/gpu:0");
    colocate_with with_v(v);
    r = identity(v, "v/read");
  }
  EXPECT_EQ(r.op().device(), "/job:ps/task:0");
  const auto& groups =
      r.node()->attrs().find("_class")->second.get<std::vector<std::string>>();
  EXPECT_EQ(groups, std::vector<std::string>{"loc:@v"});
  // Out of the colocation scope the device stack is back.
  device_scope gpu("/gpu:0");
  EXPECT_EQ(identity(v).op().device(), "/gpu:0");
}

TEST_F(ScopeTest, EmptyHandlesInControlAndColocationScopes) {
  try {
    control_dependencies bad({Operation()});
    FAIL() << "expected an error";
  } catch (const errors::InvalidArgumentError& e) {
    EXPECT_STREQ(e.what(), "Control input must be Operation or Tensor: None");
  }
  try {
    colocate_with bad{Operation()};
    FAIL() << "expected an error";
  } catch (const errors::InvalidArgumentError& e) {
    EXPECT_STREQ(e.what(),
                 "Trying to reset colocation (op is None) but "
                 "ignore_existing is not True");
  }
  // colocate_with(None, ignore_existing=True) drops the outer colocation
  // and keeps the device scopes.
  Output v = constant(1.f, "v");
  colocate_with with_v(v);
  device_scope gpu("/gpu:0");
  {
    colocate_with reset(Operation(), /*ignore_existing=*/true);
    Output free = constant(2.f, "free");
    EXPECT_EQ(free.node()->attrs().count("_class"), 0u);
    EXPECT_EQ(free.op().device(), "/gpu:0");
  }
  EXPECT_EQ(constant(3.f).node()->attrs().count("_class"), 1u);
}

TEST_F(ScopeTest, NamesEndingInASlashAreTakenWhole) {
  // A scope name ending in '/' is checked like any other.
  try {
    name_scope bad("a b/");
    FAIL() << "expected an error";
  } catch (const errors::InvalidArgumentError& e) {
    EXPECT_STREQ(e.what(), "'a b/' is not a valid scope name");
  }
  // An op name ending in '/' is the exact name without it, as TensorFlow
  // reads name="foo/": no scope prefix, no suffix.
  name_scope outer("outer");
  Output foo = constant(1.f, "foo/");
  EXPECT_EQ(foo.name(), "foo:0");
  EXPECT_THROW(constant(1.f, "foo/"), errors::InvalidArgumentError);
}

TEST_F(ScopeTest, CollectionsFilterByScopeFromTheStart) {
  Output a = constant(1.f, "a");
  Output b;
  {
    name_scope tower("tower_0");
    b = constant(2.f, "b");
  }
  add_to_collection("mine", a);
  add_to_collection("mine", b);
  add_to_collection("mine", a.op());
  EXPECT_EQ(get_collection<Output>("mine").size(), 2u);
  EXPECT_EQ(get_collection<Operation>("mine").size(), 1u);
  auto in_tower = get_collection<Output>("mine", "tower_0");
  ASSERT_EQ(in_tower.size(), 1u);
  EXPECT_EQ(in_tower[0], b);
  // re.match: "ower" does not match from the start.
  EXPECT_TRUE(get_collection<Output>("mine", "ower").empty());
  EXPECT_EQ(get_collection<Output>("mine", "tow.*_0/b").size(), 1u);
  EXPECT_TRUE(get_collection<Output>("absent").empty());
  get_collection_ref("mine").clear();
  EXPECT_TRUE(get_collection<Output>("mine").empty());
  EXPECT_STREQ(GraphKeys::GLOBAL_VARIABLES, "variables");
  EXPECT_STREQ(GraphKeys::TRAINABLE_VARIABLES, "trainable_variables");
}

TEST_F(ScopeTest, AnInvalidScopePatternIsInvalidArgumentNamingIt) {
  add_to_collection("mine", constant(1.f, "a"));
  // TensorFlow 2.21: tf.get_collection("k", "[") raises re.error
  // ("unterminated character set at position 0"), the C++ mapping of which
  // is InvalidArgumentError; it no longer takes "[" as a literal prefix.
  for (const std::string bad : {"[", "a(", "*a"}) {
    try {
      get_collection<Output>("mine", bad);
      ADD_FAILURE() << "no error for '" << bad << "'";
    } catch (const errors::InvalidArgumentError& e) {
      EXPECT_TRUE(std::string(e.what()).starts_with(
          "get_collection scope '" + bad +
          "' is not a valid regular expression: "))
          << e.what();
    }
  }
  // As in TensorFlow, a key with no collection is [] before the pattern is
  // compiled.
  EXPECT_TRUE(get_collection<Output>("absent", "[").empty());
  EXPECT_EQ(get_collection<Output>("mine", "\\w").size(), 1u);
}

TEST_F(ScopeTest, FinalizedGraphRefusesNewOps) {
  g_.Finalize();
  try {
    constant(1.f);
    FAIL() << "expected an error";
  } catch (const errors::FailedPreconditionError& e) {
    EXPECT_STREQ(e.what(), "Graph is finalized and cannot be modified.");
  }
}

TEST_F(ScopeTest, TensorsPrintAsTensorFlowPrintsThem) {
  Output x = placeholder(float32, {None, 784}, "x");
  Output s = placeholder(int32);
  Output v = constant({1, 2, 3}, {3});
  std::ostringstream os;
  os << x << "\n" << s << "\n" << v;
  EXPECT_EQ(os.str(),
            "Tensor(\"x:0\", shape=(?, 784), dtype=float32)\n"
            "Tensor(\"Placeholder:0\", shape=<unknown>, dtype=int32)\n"
            "Tensor(\"Const:0\", shape=(3,), dtype=int32)");
}

TEST_F(ScopeTest, GetTensorByNameFindsOutputsAndExplainsMisses) {
  Output a = constant(1.f, "a");
  EXPECT_EQ(g_.GetTensorByName("a:0").value(), a);
  EXPECT_EQ(g_.GetTensorByName("a").value(), a);
  EXPECT_EQ(g_.GetTensorByName("b:0").status().message(),
            "The name 'b:0' refers to a Tensor which does not exist. The "
            "operation, 'b', does not exist in the graph.");
  EXPECT_EQ(g_.GetTensorByName("a:1").status().code(), error::NOT_FOUND);
  EXPECT_EQ(g_.GetTensorByName("a:x").status().code(), error::INVALID_ARGUMENT);
  EXPECT_EQ(g_.GetOperationByName("a:0").status().message(),
            "The name 'a:0' appears to refer to a Tensor, not a Operation.");
}

}  // namespace
}  // namespace minitf

namespace minitf {
namespace {

TEST(GraphLifetimeTest, HandlesOnAGoneGraphAreErrorsNotCrashes) {
  reset_default_graph();
  Output a = constant(1.f, "a");
  Operation op = a.op();
  reset_default_graph();
  Output b = constant(2.f, "b");
  try {
    add(a, b);
    FAIL() << "expected an error";
  } catch (const errors::InvalidArgumentError& e) {
    EXPECT_STREQ(e.what(),
                 "A tensor belongs to a graph that no longer exists (it was "
                 "replaced by tf::reset_default_graph() or went out of "
                 "scope); build it again in the current graph.");
  }
  EXPECT_THROW(op.graph(), errors::InvalidArgumentError);
  Output from_scoped;
  {
    Graph g;
    graph_scope use(g);
    from_scoped = constant(3.f);
  }
  EXPECT_THROW(identity(from_scoped), errors::InvalidArgumentError);
  EXPECT_THROW(control_dependencies({op}), errors::InvalidArgumentError);
}

}  // namespace
}  // namespace minitf
