#include "minitf/graph/graph_def.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <stdexcept>
#include <variant>

#include "memory_probe.h"
#include "minitf/graph/node_builder.h"
#include "minitf/graph/ops/array_ops.h"
#include "minitf/graph/ops/math_ops.h"
#include "minitf/graph/proto_convert.h"
#include "minitf/graph/scope.h"
#include "minitf/graph/shape_inference.h"
#include "minitf/tensor/allocator.h"

namespace minitf {
namespace {

// An op with two outputs and one with a list input, to exercise "a:1" and
// list arguments before the ops that have them exist in this layer.
MINITF_REGISTER_OP("GraphDefTestSplit")
    .Input("x: T")
    .Output("y: T")
    .Output("z: T")
    .Attr("T: type")
    .SetShapeFn([](InferenceContext* c) {
      c->set_output(0, c->input(0));
      c->set_output(1, c->input(0));
      return Status::OK();
    });
MINITF_REGISTER_OP("GraphDefTestSum")
    .Input("values: N * T")
    .Output("sum: T")
    .Attr("N: int >= 1")
    .Attr("T: type")
    .SetShapeFn(shape_fns::UnchangedShape);

// An op with one attr of every kind AttrValue holds, none defaulted.
MINITF_REGISTER_OP("GraphDefTestAllKinds")
    .Attr("a_string: string")
    .Attr("a_int: int")
    .Attr("a_float: float")
    .Attr("a_bool: bool")
    .Attr("a_type: type")
    .Attr("a_shape: shape")
    .Attr("a_tensor: tensor")
    .Attr("a_list_string: list(string)")
    .Attr("a_list_int: list(int)")
    .Attr("a_list_float: list(float)")
    .Attr("a_list_type: list(type)")
    .Attr("a_list_shape: list(shape)");

// The seed program 001: constants a (2x3) and b (3x2), c = matmul(a, b).
void BuildSeed(Graph& g) {
  graph_scope use(g);
  Output a = constant({1.f, 2.f, 3.f, 4.f, 5.f, 6.f}, {2, 3}, "a");
  Output b = constant({1.f, 2.f, 3.f, 4.f, 5.f, 6.f}, {3, 2}, "b");
  matmul(a, b, false, false, "c");
}

std::string Bytes(const GraphDef& gd) { return SerializeGraphDef(gd).value(); }

GraphDef Def(const Graph& g) { return ToGraphDef(g).value(); }

// Imports into a fresh graph and expects the same GraphDef back.
void ExpectRoundTrip(const Graph& g) {
  const GraphDef gd = Def(g);
  const GraphDef parsed = ParseGraphDef(Bytes(gd)).value();
  Graph copy;
  ASSERT_TRUE(ImportGraphDef(parsed, &copy).ok());
  EXPECT_EQ(Bytes(Def(copy)), Bytes(gd));
}

TEST(GraphDefTest, SeedGraphIsWrittenAsTensorFlowWritesIt) {
  Graph g;
  BuildSeed(g);
  const GraphDef gd = Def(g);
  EXPECT_EQ(gd.versions().producer(), kGraphDefVersion);
  ASSERT_EQ(gd.node_size(), 3);
  const NodeDef& a = gd.node(0);
  EXPECT_EQ(a.name(), "a");
  EXPECT_EQ(a.op(), "Const");
  EXPECT_EQ(a.attr().at("dtype").type(), proto::DT_FLOAT);
  const proto::TensorProto& value = a.attr().at("value").tensor();
  EXPECT_EQ(value.dtype(), proto::DT_FLOAT);
  ASSERT_EQ(value.tensor_shape().dim_size(), 2);
  EXPECT_EQ(value.tensor_shape().dim(0).size(), 2);
  EXPECT_EQ(value.tensor_shape().dim(1).size(), 3);
  // Raw little-endian floats: 1.0f is 00 00 80 3f.
  ASSERT_EQ(value.tensor_content().size(), 24u);
  EXPECT_EQ(value.tensor_content().substr(0, 4),
            std::string("\0\0\x80\x3f", 4));
  EXPECT_EQ(value.float_val_size(), 0);
  const NodeDef& c = gd.node(2);
  EXPECT_EQ(c.op(), "MatMul");
  ASSERT_EQ(c.input_size(), 2);
  EXPECT_EQ(c.input(0), "a");
  EXPECT_EQ(c.input(1), "b");
  EXPECT_EQ(c.device(), "");
  EXPECT_EQ(c.attr().at("T").type(), proto::DT_FLOAT);
  EXPECT_FALSE(c.attr().at("transpose_a").b());
  EXPECT_EQ(c.attr().at("transpose_a").value_case(), proto::AttrValue::kB);
}

TEST(GraphDefTest, SeedGraphRoundTripsAndShapesAreInferredAgain) {
  Graph g;
  BuildSeed(g);
  ExpectRoundTrip(g);
  Graph copy;
  ASSERT_TRUE(ImportGraphDef(Def(g), &copy).ok());
  Output c = copy.GetTensorByName("c:0").value();
  EXPECT_EQ(c.shape(), TensorShape({2, 2}));
  const Tensor& a =
      copy.FindNode("a")->attrs().find("value")->second.get<Tensor>();
  EXPECT_EQ(a.ToVector<float>(),
            (std::vector<float>{1.f, 2.f, 3.f, 4.f, 5.f, 6.f}));
}

TEST(GraphDefTest, SameGraphGivesSameBytes) {
  Graph g1, g2;
  BuildSeed(g1);
  BuildSeed(g2);
  EXPECT_EQ(Bytes(Def(g1)), Bytes(Def(g2)));
}

TEST(GraphDefTest, PlaceholderShapesRoundTrip) {
  Graph g;
  {
    graph_scope use(g);
    placeholder(float32, {None, 784}, "x");
    placeholder(int32, TensorShape::UnknownRank(), "any");
    placeholder(float64, TensorShape(), "scalar");
    placeholder(bool_, {None}, "flags");
  }
  const GraphDef gd = Def(g);
  const auto& x = gd.node(0).attr().at("shape").shape();
  ASSERT_EQ(x.dim_size(), 2);
  EXPECT_EQ(x.dim(0).size(), -1);
  EXPECT_EQ(x.dim(1).size(), 784);
  EXPECT_FALSE(x.unknown_rank());
  const auto& any = gd.node(1).attr().at("shape").shape();
  EXPECT_TRUE(any.unknown_rank());
  EXPECT_EQ(any.dim_size(), 0);
  const auto& scalar = gd.node(2).attr().at("shape");
  EXPECT_EQ(scalar.value_case(), proto::AttrValue::kShape);
  EXPECT_EQ(scalar.shape().dim_size(), 0);
  EXPECT_FALSE(scalar.shape().unknown_rank());
  ExpectRoundTrip(g);
  Graph copy;
  ASSERT_TRUE(ImportGraphDef(gd, &copy).ok());
  EXPECT_EQ(copy.FindNode("x")->output_shape(0), TensorShape({None, 784}));
  EXPECT_TRUE(copy.FindNode("any")->output_shape(0).unknown_rank());
  EXPECT_EQ(copy.FindNode("scalar")->output_shape(0), TensorShape());
}

TEST(GraphDefTest, EmptyTensorsRoundTripWithoutContent) {
  Graph g;
  {
    graph_scope use(g);
    constant(Tensor(DT_FLOAT, TensorShape({0, 3})), "empty");
  }
  const GraphDef gd = Def(g);
  const auto& value = gd.node(0).attr().at("value").tensor();
  EXPECT_TRUE(value.tensor_content().empty());
  EXPECT_EQ(value.tensor_shape().dim(0).size(), 0);
  ExpectRoundTrip(g);
}

TEST(GraphDefTest, ControlInputsOutputIndicesAndListInputs) {
  Graph g;
  {
    graph_scope use(g);
    Output x = constant({1.f, 2.f}, {2}, "x");
    Operation init = no_op("init");
    Node* split =
        NodeBuilder("GraphDefTestSplit", "split").Input(x).Finalize(&g).value();
    control_dependencies after({init});
    NodeBuilder("GraphDefTestSum", "sum")
        .Input(std::vector<Output>{Output(split, 1), Output(split, 0), x})
        .Finalize(&g)
        .value();
  }
  const GraphDef gd = Def(g);
  const NodeDef& sum = gd.node(3);
  ASSERT_EQ(sum.input_size(), 4);
  EXPECT_EQ(sum.input(0), "split:1");
  EXPECT_EQ(sum.input(1), "split");
  EXPECT_EQ(sum.input(2), "x");
  EXPECT_EQ(sum.input(3), "^init");
  EXPECT_EQ(sum.attr().at("N").i(), 3);
  ExpectRoundTrip(g);
}

TEST(GraphDefTest, ControlInputsAreWrittenSortedByNameAsTensorFlowWritesThem) {
  Graph g;
  {
    graph_scope use(g);
    Operation zeta = no_op("zeta");
    Operation alpha = no_op("alpha");
    Operation mid = no_op("mid");
    control_dependencies after({zeta, alpha, mid});
    constant({1.f}, {1}, "c");
  }
  const GraphDef gd = Def(g);
  const NodeDef& c = gd.node(3);
  ASSERT_EQ(c.name(), "c");
  ASSERT_EQ(c.input_size(), 3);
  EXPECT_EQ(c.input(0), "^alpha");
  EXPECT_EQ(c.input(1), "^mid");
  EXPECT_EQ(c.input(2), "^zeta");
  ExpectRoundTrip(g);
}

TEST(GraphDefTest, DevicesAndColocationClassesRoundTripUnderAPrefix) {
  Graph g;
  {
    graph_scope use(g);
    device_scope on("/job:ps/task:0/device:CPU:0");
    Output w = constant({1.f}, {1}, "w");
    colocate_with near(w);
    identity(w, "read");
  }
  const GraphDef gd = Def(g);
  EXPECT_EQ(gd.node(0).device(), "/job:ps/task:0/device:CPU:0");
  const auto& cls = gd.node(1).attr().at("_class").list();
  ASSERT_EQ(cls.s_size(), 1);
  EXPECT_EQ(cls.s(0), "loc:@w");
  ExpectRoundTrip(g);

  Graph copy;
  ASSERT_TRUE(ImportGraphDef(gd, &copy, "import").ok());
  Node* read = copy.FindNode("import/read");
  ASSERT_NE(read, nullptr);
  EXPECT_EQ(read->requested_device(), "/job:ps/task:0/device:CPU:0");
  EXPECT_EQ(read->attrs().find("_class")->second.DebugString(),
            "[\"loc:@import/w\"]");
  EXPECT_EQ(read->input(0).node(), copy.FindNode("import/w"));
}

TEST(GraphDefTest, NodesOutOfOrderAreImportedInputsFirst) {
  Graph g;
  BuildSeed(g);
  GraphDef gd = Def(g);
  GraphDef reversed;
  for (int i = gd.node_size() - 1; i >= 0; --i) {
    *reversed.add_node() = gd.node(i);
  }
  Graph copy;
  ASSERT_TRUE(ImportGraphDef(reversed, &copy).ok());
  ASSERT_EQ(copy.num_nodes(), 3);
  // b comes before a in the reversed list, and stays before it.
  EXPECT_EQ(copy.node(0)->name(), "b");
  EXPECT_EQ(copy.node(1)->name(), "a");
  EXPECT_EQ(copy.node(2)->name(), "c");
}

// A graph from TensorFlow 2 carries attrs its ops gained since TensorFlow
// 1.x: MatMul's grad_a and grad_b, false by default. A runtime that imports
// graphs from other programs (chapter 7's master) may drop such an attr at
// its zero value; anything else is refused, as always.
TEST(GraphDefTest, NewerProducersDefaultAttrsMayBeDropped) {
  Graph g;
  BuildSeed(g);
  GraphDef gd = Def(g);
  NodeDef* matmul = nullptr;
  for (NodeDef& n : *gd.mutable_node()) {
    if (n.op() == "MatMul") matmul = &n;
  }
  ASSERT_NE(matmul, nullptr);
  (*matmul->mutable_attr())["grad_a"].set_b(false);
  Graph strict;
  Status refused = ImportGraphDef(gd, &strict);
  EXPECT_EQ(refused.code(), error::INVALID_ARGUMENT);
  EXPECT_NE(refused.message().find("mentions attr 'grad_a'"), std::string::npos)
      << refused;
  Graph lenient;
  ASSERT_TRUE(
      ImportGraphDef(gd, &lenient,
                     ImportGraphDefOptions{.drop_newer_default_attrs = true})
          .ok());
  EXPECT_EQ(lenient.FindNode(matmul->name())->attrs().count("grad_a"), 0u);
  (*matmul->mutable_attr())["grad_a"].set_b(true);
  Graph not_default;
  EXPECT_EQ(
      ImportGraphDef(gd, &not_default,
                     ImportGraphDefOptions{.drop_newer_default_attrs = true})
          .code(),
      error::INVALID_ARGUMENT);
}

// What TensorFlow 1.x writes for tf.constant(0.5, shape=[2, 3], name="h"):
// the compact form for one repeated value, float_val with a single entry.
TEST(GraphDefTest, TensorFlowStyleTypedValuesAreRead) {
  GraphDef gd;
  NodeDef* h = gd.add_node();
  h->set_name("h");
  h->set_op("Const");
  (*h->mutable_attr())["dtype"].set_type(proto::DT_FLOAT);
  proto::TensorProto* t = (*h->mutable_attr())["value"].mutable_tensor();
  t->set_dtype(proto::DT_FLOAT);
  t->mutable_tensor_shape()->add_dim()->set_size(2);
  t->mutable_tensor_shape()->add_dim()->set_size(3);
  t->add_float_val(0.5f);
  NodeDef* k = gd.add_node();
  k->set_name("k");
  k->set_op("Const");
  (*k->mutable_attr())["dtype"].set_type(proto::DT_INT32);
  proto::TensorProto* kt = (*k->mutable_attr())["value"].mutable_tensor();
  kt->set_dtype(proto::DT_INT32);
  kt->mutable_tensor_shape()->add_dim()->set_size(4);
  kt->add_int_val(7);
  kt->add_int_val(8);
  gd.mutable_versions()->set_producer(134);

  Graph g;
  ASSERT_TRUE(ImportGraphDef(ParseGraphDef(Bytes(gd)).value(), &g).ok());
  const Tensor& hv =
      g.FindNode("h")->attrs().find("value")->second.get<Tensor>();
  EXPECT_EQ(hv.shape(), TensorShape({2, 3}));
  EXPECT_EQ(hv.ToVector<float>(), std::vector<float>(6, 0.5f));
  const Tensor& kv =
      g.FindNode("k")->attrs().find("value")->second.get<Tensor>();
  EXPECT_EQ(kv.ToVector<int32_t>(), (std::vector<int32_t>{7, 8, 8, 8}));
}

// A GraphDef encoded by hand from TensorFlow's field numbers: node
// {name: "x" op: "Placeholder" attr {key: "dtype" value {type: DT_FLOAT}}}
// versions {producer: 26}. Checks every tag byte, in both directions.
TEST(GraphDefTest, HandEncodedTensorFlowBytesDecode) {
  const std::string bytes(
      "\x0a\x1d"             // GraphDef.node (1), 29 bytes
      "\x0a\x01x"            //   NodeDef.name (1)
      "\x12\x0bPlaceholder"  //   NodeDef.op (2)
      "\x2a\x0b"             //   NodeDef.attr (5), a map entry
      "\x0a\x05"
      "dtype"              //     key (1)
      "\x12\x02\x30\x01"   //     value (2): AttrValue.type (6) = 1
      "\x22\x02\x08\x1a",  // GraphDef.versions (4): producer 26
      35);
  const GraphDef gd = ParseGraphDef(bytes).value();
  ASSERT_EQ(gd.node_size(), 1);
  EXPECT_EQ(gd.node(0).name(), "x");
  EXPECT_EQ(gd.node(0).op(), "Placeholder");
  EXPECT_EQ(gd.node(0).attr().at("dtype").type(), proto::DT_FLOAT);
  EXPECT_EQ(gd.versions().producer(), 26);
  EXPECT_EQ(Bytes(gd), bytes);
  Graph g;
  ASSERT_TRUE(ImportGraphDef(gd, &g).ok());
  EXPECT_EQ(g.FindNode("x")->output_type(0), DT_FLOAT);
  EXPECT_TRUE(g.FindNode("x")->output_shape(0).unknown_rank());
}

// The proof that the bytes are what the .proto says: protoc, knowing only
// the project's graph.proto, decodes them to the same text.
TEST(GraphDefTest, ProtocDecodesMinitfBytesWithTheProjectsProto) {
  const std::string protoc = MINITF_PROTOC;
  if (protoc.empty() || !std::filesystem::exists(protoc)) {
    GTEST_SKIP() << "protoc not found (install protobuf-compiler)";
  }
  Graph g;
  BuildSeed(g);
  const GraphDef gd = Def(g);
  const std::string dir = ::testing::TempDir();
  const std::string in = dir + "/protoc_seed.pb";
  const std::string out = dir + "/protoc_seed.txt";
  ASSERT_TRUE(WriteGraphDef(gd, in).ok());
  const std::string src = MINITF_SOURCE_DIR;
  const std::string command =
      protoc + " --decode=minitf.proto.GraphDef -I " + src + " " + src +
      "/minitf/graph/proto/graph.proto < " + in + " > " + out;
  ASSERT_EQ(std::system(command.c_str()), 0) << command;
  std::ifstream file(out);
  std::stringstream text;
  text << file.rdbuf();
  EXPECT_NE(text.str().find("name: \"c\"\n  op: \"MatMul\"\n  input: \"a\"\n"
                            "  input: \"b\"\n"),
            std::string::npos)
      << text.str();
  EXPECT_EQ(text.str(), GraphDefToText(gd));
}

TEST(GraphDefTest, FilesRoundTripInBinaryAndText) {
  Graph g;
  BuildSeed(g);
  const std::string dir = ::testing::TempDir() + "/graph_def_files";
  const std::string text_path =
      train::write_graph(g, dir, "graph.pbtxt", /*as_text=*/true);
  EXPECT_EQ(text_path, dir + "/graph.pbtxt");
  const std::string binary_path =
      train::write_graph(g, dir, "graph.pb", /*as_text=*/false);
  std::ifstream text_file(text_path);
  std::stringstream text;
  text << text_file.rdbuf();
  EXPECT_NE(text.str().find("op: \"MatMul\""), std::string::npos);
  for (const std::string& path : {text_path, binary_path}) {
    auto gd = ReadGraphDef(path);
    ASSERT_TRUE(gd.ok()) << gd.status();
    EXPECT_EQ(Bytes(*gd), Bytes(Def(g))) << path;
  }
  auto missing = ReadGraphDef(dir + "/nothing.pb");
  EXPECT_EQ(missing.status().code(), error::NOT_FOUND);
}

TEST(GraphDefTest, ImportGraphDefUsesAUniqueNameScope) {
  Graph source;
  BuildSeed(source);
  const GraphDef gd = as_graph_def(source);
  Graph g;
  graph_scope use(g);
  import_graph_def(gd);
  import_graph_def(gd);
  EXPECT_NE(g.FindNode("import/c"), nullptr);
  EXPECT_NE(g.FindNode("import_1/c"), nullptr);
  {
    name_scope outer("tower_0");
    import_graph_def(gd, "model");
  }
  EXPECT_NE(g.FindNode("tower_0/model/a"), nullptr);
  import_graph_def(gd, "");
  EXPECT_NE(g.FindNode("c"), nullptr);
  EXPECT_THROW(import_graph_def(gd, ""), errors::InvalidArgumentError);
}

// --- Errors: typed, naming the node, never a crash --------------------------

GraphDef SeedDef() {
  Graph g;
  BuildSeed(g);
  return Def(g);
}

Status ImportInto(const GraphDef& gd, Graph* g) {
  const int before = g->num_nodes();
  Status s = ImportGraphDef(gd, g);
  // All or nothing.
  if (!s.ok()) {
    EXPECT_EQ(g->num_nodes(), before) << s;
  }
  return s;
}

TEST(GraphDefErrorTest, UnknownOp) {
  GraphDef gd = SeedDef();
  gd.mutable_node(2)->set_op("Foo");
  Graph g;
  Status s = ImportInto(gd, &g);
  EXPECT_EQ(s.code(), error::NOT_FOUND);
  EXPECT_EQ(s.message(),
            "Node 'c': Op type not registered 'Foo' in binary running on "
            "this machine.");
}

TEST(GraphDefErrorTest, DanglingInput) {
  GraphDef gd = SeedDef();
  gd.mutable_node(2)->set_input(1, "x");
  Graph g;
  Status s = ImportInto(gd, &g);
  EXPECT_EQ(s.code(), error::INVALID_ARGUMENT);
  EXPECT_EQ(s.message(), "Node 'c': Unknown input node 'x'");
}

TEST(GraphDefErrorTest, InputOfTheWrongType) {
  Graph src;
  {
    graph_scope use(src);
    constant({1, 2, 3, 4}, {2, 2}, "a");
    constant({1.f, 2.f, 3.f, 4.f}, {2, 2}, "b");
    constant({1.f, 2.f, 3.f, 4.f}, {2, 2}, "b2");
    matmul(src.GetTensorByName("b").value(), src.GetTensorByName("b2").value(),
           false, false, "c");
  }
  GraphDef gd = Def(src);
  gd.mutable_node(3)->set_input(0, "a");
  Graph g;
  Status s = ImportInto(gd, &g);
  EXPECT_EQ(s.code(), error::INVALID_ARGUMENT);
  EXPECT_EQ(s.message(),
            "Input 0 of node c was passed int32 from a:0 incompatible with "
            "expected float.");
}

TEST(GraphDefErrorTest, Cycle) {
  GraphDef gd;
  for (const auto& [name, input] : {std::pair{"a", "b"}, std::pair{"b", "a"}}) {
    NodeDef* n = gd.add_node();
    n->set_name(name);
    n->set_op("Identity");
    n->add_input(input);
    (*n->mutable_attr())["T"].set_type(proto::DT_FLOAT);
  }
  Graph g;
  Status s = ImportInto(gd, &g);
  EXPECT_EQ(s.code(), error::INVALID_ARGUMENT);
  EXPECT_EQ(s.message(),
            "Graph is invalid, contains a cycle with 2 nodes, including: a, b");
}

TEST(GraphDefErrorTest, DuplicateNames) {
  GraphDef gd = SeedDef();
  gd.mutable_node(1)->set_name("a");
  Graph g;
  Status s = ImportInto(gd, &g);
  EXPECT_EQ(s.code(), error::INVALID_ARGUMENT);
  EXPECT_EQ(s.message(), "Node 'a' is not unique");

  Graph has_a;
  BuildSeed(has_a);
  s = ImportInto(SeedDef(), &has_a);
  EXPECT_EQ(s.message(), "Node name 'a' already exists in the Graph");
}

TEST(GraphDefErrorTest, MalformedInputStrings) {
  for (const std::string input :
       {"", "^", "a:", "a:x", "^a:1", "a:-1", ":0", "a b", "a:1234567890"}) {
    GraphDef gd = SeedDef();
    gd.mutable_node(2)->set_input(0, input);
    Graph g;
    Status s = ImportInto(gd, &g);
    EXPECT_EQ(s.code(), error::INVALID_ARGUMENT) << input;
    EXPECT_EQ(s.message(), "Node 'c': Malformed input '" + input +
                               "': expected 'node', 'node:index' or '^node'");
  }
}

TEST(GraphDefErrorTest, ControlInputBeforeDataInputAndBadOutputIndex) {
  GraphDef gd = SeedDef();
  gd.mutable_node(2)->set_input(0, "^b");
  gd.mutable_node(2)->add_input("a");
  Graph g;
  Status s = ImportInto(gd, &g);
  EXPECT_EQ(s.message(),
            "Node 'c': Control dependencies must come after regular "
            "dependencies: input 'b' follows '^b'");
  gd = SeedDef();
  gd.mutable_node(2)->set_input(1, "b:3");
  s = ImportInto(gd, &g);
  EXPECT_EQ(s.message(),
            "Node 'c': Connecting to invalid output 3 of source node b which "
            "has 1 outputs.");
  gd = SeedDef();
  gd.mutable_node(2)->add_input("b");
  s = ImportInto(gd, &g);
  EXPECT_EQ(s.message(),
            "Node 'c' (op 'MatMul') has 3 inputs, but the op expects 2");
}

TEST(GraphDefErrorTest, BadAttrsAndTensors) {
  GraphDef gd = SeedDef();
  auto* value = (*gd.mutable_node(0)->mutable_attr())["value"].mutable_tensor();
  value->set_tensor_content("\x01\x02\x03");
  Graph g;
  Status s = ImportInto(gd, &g);
  EXPECT_EQ(s.code(), error::INVALID_ARGUMENT);
  EXPECT_EQ(s.message(),
            "Node 'a': attr 'value': TensorProto of type float and shape "
            "[2,3] needs 24 bytes of tensor_content, but has 3");

  gd = SeedDef();
  (*gd.mutable_node(2)->mutable_attr())["T"].set_type(proto::DT_STRING);
  s = ImportInto(gd, &g);
  EXPECT_EQ(s.code(), error::UNIMPLEMENTED);
  EXPECT_NE(s.message().find("Node 'c': attr 'T': dtype DT_STRING is not "
                             "supported"),
            std::string::npos)
      << s;

  gd = SeedDef();
  (*gd.mutable_node(2)->mutable_attr())["transpose_a"].Clear();
  s = ImportInto(gd, &g);
  EXPECT_EQ(s.message(),
            "AttrValue missing value with expected type 'bool' for attr "
            "'transpose_a'; NodeDef: {{node c}}; Op<name=MatMul>");
}

TEST(GraphDefErrorTest, TruncatedAndGarbageBytes) {
  const std::string bytes = Bytes(SeedDef());
  auto truncated = ParseGraphDef(bytes.substr(0, bytes.size() - 1));
  EXPECT_EQ(truncated.status().code(), error::DATA_LOSS);
  EXPECT_TRUE(
      truncated.status().message().starts_with("Failed to parse GraphDef: "));
  auto garbage = ParseGraphDef(std::string("\xff\xff\xff\xff\x0f", 5));
  EXPECT_EQ(garbage.status().code(), error::DATA_LOSS);
  auto text = ParseTextGraphDef("node { name: \"a\" op: }");
  EXPECT_EQ(text.status().code(), error::INVALID_ARGUMENT);
  EXPECT_TRUE(
      text.status().message().starts_with("Failed to parse GraphDef text: 1:"))
      << text.status();

  // Every prefix of the bytes either fails to parse or imports (a cut at a
  // field boundary is a smaller valid message) or fails to import: always a
  // Status, never a crash.
  int failures = 0;
  for (size_t n = 0; n < bytes.size(); ++n) {
    auto gd = ParseGraphDef(bytes.substr(0, n));
    if (!gd.ok()) {
      ++failures;
      continue;
    }
    Graph g;
    if (!ImportInto(*gd, &g).ok()) ++failures;
  }
  EXPECT_GT(failures, static_cast<int>(bytes.size()) / 2);
}

TEST(GraphDefErrorTest, FinalizedGraphAndTooNewGraphs) {
  Graph g;
  g.Finalize();
  EXPECT_EQ(ImportGraphDef(SeedDef(), &g).code(), error::FAILED_PRECONDITION);
  GraphDef gd = SeedDef();
  gd.mutable_versions()->set_min_consumer(kGraphDefVersion + 1);
  Graph g2;
  EXPECT_EQ(ImportInto(gd, &g2).code(), error::INVALID_ARGUMENT);
}

// --- Attr kinds: every wrong kind is InvalidArgument, never a crash ---------

// One value of each kind AttrValue holds, and the attr of GraphDefTestAllKinds
// that declares it.
struct KindCase {
  std::string kind;
  std::string attr;
  AttrValue value;
};

std::vector<KindCase> AllKinds() {
  return {
      {"string", "a_string", AttrValue("x")},
      {"int", "a_int", AttrValue(int64_t{3})},
      {"float", "a_float", AttrValue(0.5f)},
      {"bool", "a_bool", AttrValue(true)},
      {"type", "a_type", AttrValue(DT_FLOAT)},
      {"shape", "a_shape", AttrValue(TensorShape({2, 3}))},
      {"tensor", "a_tensor", AttrValue(Tensor({1.f, 2.f}))},
      {"list(string)", "a_list_string",
       AttrValue(std::vector<std::string>{"x"})},
      {"list(int)", "a_list_int", AttrValue(std::vector<int64_t>{1, 2})},
      {"list(float)", "a_list_float", AttrValue(std::vector<float>{0.5f})},
      {"list(type)", "a_list_type", AttrValue(std::vector<DType>{DT_INT32})},
      {"list(shape)", "a_list_shape",
       AttrValue(std::vector<TensorShape>{TensorShape({1})})},
  };
}

TEST(GraphDefAttrKindTest, TheTableCoversEveryKind) {
  // Every alternative of the variant but "no value".
  EXPECT_EQ(AllKinds().size(), std::variant_size_v<AttrValue::Value> - 1);
  for (const KindCase& k : AllKinds()) EXPECT_EQ(k.value.KindName(), k.kind);
}

// A GraphDef of one GraphDefTestAllKinds node "n" with every attr right.
GraphDef AllKindsDef() {
  GraphDef gd;
  NodeDef* n = gd.add_node();
  n->set_name("n");
  n->set_op("GraphDefTestAllKinds");
  for (const KindCase& k : AllKinds()) {
    EXPECT_TRUE(AttrValueToProto(k.value, &(*n->mutable_attr())[k.attr]).ok());
  }
  return gd;
}

std::string KindError(const std::string& given, const std::string& expected,
                      const std::string& attr, const std::string& node,
                      const std::string& op) {
  return "AttrValue had value with type '" + given + "' when '" + expected +
         "' expected for attr '" + attr + "'; NodeDef: {{node " + node +
         "}}; Op<name=" + op + ">";
}

TEST(GraphDefAttrKindTest, EveryWrongKindOnImportIsInvalidArgument) {
  Graph right;
  ASSERT_TRUE(ImportGraphDef(AllKindsDef(), &right).ok());
  for (const KindCase& expected : AllKinds()) {
    for (const KindCase& given : AllKinds()) {
      if (given.kind == expected.kind) continue;
      GraphDef gd = AllKindsDef();
      ASSERT_TRUE(AttrValueToProto(
                      given.value,
                      &(*gd.mutable_node(0)->mutable_attr())[expected.attr])
                      .ok());
      Graph g;
      Status s = ImportInto(gd, &g);
      EXPECT_EQ(s.code(), error::INVALID_ARGUMENT);
      EXPECT_EQ(s.message(), KindError(given.kind, expected.kind, expected.attr,
                                       "n", "GraphDefTestAllKinds"));
    }
  }
}

TEST(GraphDefAttrKindTest, KindsOnlyABinaryGraphDefCanHaveAreWrongKindsToo) {
  // list(bool), list(tensor) and function placeholders have no AttrValue in
  // minitf: their kind is checked on the bytes, before conversion.
  proto::AttrValue list_bool, list_tensor, placeholder, empty_list;
  list_bool.mutable_list()->add_b(true);
  list_tensor.mutable_list()->add_tensor();
  placeholder.set_placeholder("f");
  empty_list.mutable_list();
  for (const auto& [value, kind] : {std::pair{list_bool, "list(bool)"},
                                    std::pair{list_tensor, "list(tensor)"},
                                    std::pair{placeholder, "placeholder"}}) {
    GraphDef gd = AllKindsDef();
    (*gd.mutable_node(0)->mutable_attr())["a_type"] = value;
    Graph g;
    EXPECT_EQ(ImportInto(gd, &g).message(),
              KindError(kind, "type", "a_type", "n", "GraphDefTestAllKinds"));
  }
  // An empty list is any list, and no value for anything else.
  GraphDef gd = AllKindsDef();
  (*gd.mutable_node(0)->mutable_attr())["a_list_shape"] = empty_list;
  Graph g;
  EXPECT_TRUE(ImportInto(gd, &g).ok());
  gd = AllKindsDef();
  (*gd.mutable_node(0)->mutable_attr())["a_bool"] = empty_list;
  Graph g2;
  EXPECT_EQ(ImportInto(gd, &g2).message(),
            "AttrValue missing value with expected type 'bool' for attr "
            "'a_bool'; NodeDef: {{node n}}; Op<name=GraphDefTestAllKinds>");
}

// The case a new user met: T of a MatMul written as a bool. TensorFlow 2.21's
// import_graph_def says "AttrValue had value with type 'bool' when 'type'
// expected\n\t for attr 'T'\n\t; NodeDef: {{node import/c}}; Op<name=MatMul;
// signature=...>".
TEST(GraphDefAttrKindTest, ABoolWhereMatMulDeclaresATypeNamesNodeAndAttr) {
  GraphDef gd = SeedDef();
  (*gd.mutable_node(2)->mutable_attr())["T"].set_b(true);
  Graph g;
  graph_scope use(g);
  try {
    import_graph_def(gd);
    ADD_FAILURE() << "imported";
  } catch (const errors::InvalidArgumentError& e) {
    EXPECT_EQ(std::string(e.what()),
              KindError("bool", "type", "T", "import/c", "MatMul"));
  }
  EXPECT_EQ(g.num_nodes(), 0);
  // The length of a list input as a string: the kind, not "missing attr".
  GraphDef sum;
  for (const char* name : {"x", "y"}) {
    NodeDef* n = sum.add_node();
    n->set_name(name);
    n->set_op("Placeholder");
    (*n->mutable_attr())["dtype"].set_type(proto::DT_FLOAT);
  }
  NodeDef* add = sum.add_node();
  add->set_name("sum");
  add->set_op("GraphDefTestSum");
  add->add_input("x");
  add->add_input("y");
  (*add->mutable_attr())["N"].set_s("2");
  (*add->mutable_attr())["T"].set_type(proto::DT_FLOAT);
  Graph g2;
  EXPECT_EQ(ImportInto(sum, &g2).message(),
            KindError("string", "int", "N", "sum", "GraphDefTestSum"));
}

TEST(GraphDefAttrKindTest, EveryWrongKindThroughNodeBuilderIsInvalidArgument) {
  for (const KindCase& expected : AllKinds()) {
    for (const KindCase& given : AllKinds()) {
      if (given.kind == expected.kind) continue;
      NodeBuilder builder("GraphDefTestAllKinds", "n");
      for (const KindCase& k : AllKinds()) {
        builder.Attr(k.attr, k.attr == expected.attr ? given.value : k.value);
      }
      Graph g;
      StatusOr<Node*> n = builder.Finalize(&g);
      EXPECT_EQ(n.status().code(), error::INVALID_ARGUMENT);
      EXPECT_EQ(n.status().message(),
                KindError(given.kind, expected.kind, expected.attr, "n",
                          "GraphDefTestAllKinds"));
      EXPECT_EQ(g.num_nodes(), 0);
    }
  }
  // The type attr of an input, given as a bool, is refused before it is read
  // as a type for the input's dtype.
  Graph g;
  graph_scope use(g);
  Output a = constant({1.f}, {1}, "a");
  StatusOr<Node*> n =
      NodeBuilder("Identity", "i").Input(a).Attr("T", true).Finalize(&g);
  EXPECT_EQ(n.status().message(),
            KindError("bool", "type", "T", "i", "Identity"));
  n = NodeBuilder("Identity", "i").Input(a).Attr("T", AttrValue()).Finalize(&g);
  EXPECT_EQ(n.status().message(),
            "AttrValue missing value with expected type 'type' for attr 'T'; "
            "NodeDef: {{node i}}; Op<name=Identity>");
}

// --- All or nothing ---------------------------------------------------------

// What a failed import must leave as it was: the nodes in order, each one's
// readers and control waiters, and the names the graph would give next.
struct GraphState {
  std::vector<std::string> nodes;
  std::vector<size_t> consumers;
  std::vector<size_t> control_outputs;
  std::vector<std::string> next_names;
  bool operator==(const GraphState&) const = default;
};

GraphState StateOf(Graph& g) {
  GraphState state;
  for (const Node* n : g.nodes()) {
    state.nodes.push_back(n->name());
    state.consumers.push_back(n->consumers().size());
    state.control_outputs.push_back(n->control_outputs().size());
  }
  for (const char* name : {"x", "a", "b", "c", "import", "import/a", "A"}) {
    state.next_names.push_back(g.UniqueName(name, /*mark_as_used=*/false));
  }
  return state;
}

// A graph with nodes and names of its own: x, x_1 read by y, scope "s".
void BuildHost(Graph& g) {
  graph_scope use(g);
  Output x = constant(1.f, "x");
  Output x1 = constant(2.f, "x");
  add(x, x1, "y");
  name_scope s("s");
}

// The seed graph with one node more: d = c + c, a fourth node to fail at.
GraphDef FourNodeDef() {
  Graph g;
  BuildSeed(g);
  {
    graph_scope use(g);
    Output c = g.GetTensorByName("c").value();
    add(c, c, "d");
  }
  return Def(g);
}

TEST(GraphDefAtomicTest, ADeviceFunctionThrowingOnTheNthNodeLeavesNoNode) {
  const GraphDef gd = FourNodeDef();
  for (int fail_at = 1; fail_at <= gd.node_size(); ++fail_at) {
    for (const std::string prefix : {"", "import"}) {
      Graph g;
      BuildHost(g);
      const GraphState before = StateOf(g);
      graph_scope use(g);
      int calls = 0;
      device_scope chooser([&](const Node& node) -> std::string {
        if (++calls == fail_at) {
          throw std::runtime_error("no device for " + node.name());
        }
        return "/cpu:0";
      });
      EXPECT_THROW((void)ImportGraphDef(gd, &g, prefix), std::runtime_error);
      EXPECT_EQ(calls, fail_at);
      EXPECT_TRUE(StateOf(g) == before) << "failed at node " << fail_at;
    }
  }
}

TEST(GraphDefAtomicTest,
     AFailingNodeUnderControlAndColocationScopesLeavesNoEdge) {
  GraphDef gd = FourNodeDef();
  (*gd.mutable_node(3)->mutable_attr())["T"].set_b(true);  // d fails last.
  Graph g;
  BuildHost(g);
  const GraphState before = StateOf(g);
  graph_scope use(g);
  {
    // Each imported node waits on x, so x's control outputs would keep the
    // nodes added before d failed.
    control_dependencies after({g.GetTensorByName("x").value()});
    EXPECT_EQ(ImportGraphDef(gd, &g, "").code(), error::INVALID_ARGUMENT);
  }
  EXPECT_TRUE(StateOf(g) == before);
  {
    colocate_with near(g.GetTensorByName("y").value());
    EXPECT_EQ(ImportGraphDef(gd, &g, "import").code(), error::INVALID_ARGUMENT);
  }
  EXPECT_TRUE(StateOf(g) == before);
  // The same GraphDef, repaired, imports under the same scopes: the names
  // are those a first import gives, no "_1" left by the failed tries.
  gd = FourNodeDef();
  {
    control_dependencies after({g.GetTensorByName("x").value()});
    ASSERT_TRUE(ImportGraphDef(gd, &g, "").ok());
  }
  // As in TensorFlow, only the nodes that read nothing made inside the block
  // wait on x: d reads c, which already waits through a and b.
  EXPECT_EQ(g.FindNode("a")->control_inputs(),
            std::vector<Node*>{g.FindNode("x")});
  EXPECT_TRUE(g.FindNode("d")->control_inputs().empty());
  EXPECT_EQ(g.UniqueName("c", false), "c_1");
}

TEST(GraphDefAtomicTest, AFailedImportGraphDefKeepsItsScopeNameAsTensorFlow) {
  // TensorFlow 2.21: after a failed tf.import_graph_def the graph has no new
  // op, and tf.name_scope("import") then gives "import_1/".
  GraphDef bad = SeedDef();
  (*bad.mutable_node(2)->mutable_attr())["T"].set_b(true);
  Graph g;
  BuildHost(g);
  graph_scope use(g);
  const int before = g.num_nodes();
  EXPECT_THROW(import_graph_def(bad), errors::InvalidArgumentError);
  EXPECT_EQ(g.num_nodes(), before);
  import_graph_def(SeedDef());
  EXPECT_NE(g.FindNode("import_1/c"), nullptr);
  EXPECT_EQ(g.FindNode("import/c"), nullptr);
}

TEST(GraphDefAtomicTest, ANodeFailingAfterOthersWereAddedLeavesNone) {
  // Each node of the four fails in turn, by a wrong kind of attr: nodes
  // before it were already in the graph when it failed.
  for (int fail_at = 0; fail_at < 4; ++fail_at) {
    GraphDef gd = FourNodeDef();
    auto& attrs = *gd.mutable_node(fail_at)->mutable_attr();
    attrs[gd.node(fail_at).op() == "Const" ? "dtype" : "T"].set_f(1.f);
    Graph g;
    BuildHost(g);
    const GraphState before = StateOf(g);
    EXPECT_EQ(ImportGraphDef(gd, &g, "").code(), error::INVALID_ARGUMENT);
    EXPECT_TRUE(StateOf(g) == before) << "failed at node " << fail_at;
  }
}

// --- Lengths read from the bytes --------------------------------------------

TEST(GraphDefErrorTest, TensorContentIsCheckedBeforeTheTensorIsAllocated) {
  // Three bytes of tensor_content claiming 2^28 floats (1 GiB) and 2^29
  // (2 GiB, the largest a TensorProto may be).
  for (const int64_t n : {int64_t{1} << 28, int64_t{1} << 29}) {
    GraphDef gd = SeedDef();
    auto* value =
        (*gd.mutable_node(0)->mutable_attr())["value"].mutable_tensor();
    value->mutable_tensor_shape()->Clear();
    value->mutable_tensor_shape()->add_dim()->set_size(n);
    value->set_tensor_content("\x01\x02\x03");
    testing::LargestRequest allocator;
    Status s;
    {
      ScopedDefaultAllocator use(&allocator);
      Graph g;
      s = ImportInto(ParseGraphDef(Bytes(gd)).value(), &g);
    }
    EXPECT_EQ(s.code(), error::INVALID_ARGUMENT);
    EXPECT_EQ(s.message(),
              "Node 'a': attr 'value': TensorProto of type float "
              "and shape [" +
                  std::to_string(n) + "] needs " + std::to_string(4 * n) +
                  " bytes of tensor_content, but has 3");
    EXPECT_LT(allocator.largest(), size_t{1} << 20);
  }
}

}  // namespace
}  // namespace minitf
