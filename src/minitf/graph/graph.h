// Graph: operations wired by the tensors that flow between them.
//
// In TensorFlow 1.x a program first describes a computation and only later
// runs it. The description is a Graph: a set of Nodes (operations: "MatMul"
// named "MatMul_1", with attrs and a requested device) whose inputs are the
// outputs of other nodes, plus control edges that only order execution. An
// Output names one produced tensor, `MatMul_1:0`, and carries its dtype and
// the shape inferred when the node was added; it is what tf::matmul returns
// and what a Session fetches. The graph also keeps the state TensorFlow keeps
// per graph while it is being written: the stacks behind name_scope,
// device_scope, control_dependencies and colocate_with (scope.h), and the
// named collections (tf.add_to_collection).
//
//   tf::Graph g;
//   tf::graph_scope use(g);                 // with g.as_default():
//   auto a = tf::constant({1.f, 2.f}, {2}, "a");
//   auto b = a * a;                          // Node "mul", Output "mul:0"
//   std::cout << b;   // Tensor("mul:0", shape=(2,), dtype=float32)
#pragma once

#include <any>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <ostream>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "minitf/graph/attr_value.h"
#include "minitf/graph/op_def.h"
#include "minitf/graph/registration.h"
#include "minitf/tensor/dtype.h"
#include "minitf/tensor/tensor_shape.h"

namespace minitf {

class Graph;
class Node;
class Operation;
class FeedKey;

/// A feed_dict: tensors (or their names) and the values to use for them,
/// {{x, {1.f, 2.f}}}. FeedKey is defined with the Session (session.h).
using FeedDict = std::vector<std::pair<FeedKey, Tensor>>;

/// One tensor a node produces: output `index` of `node`. A cheap handle;
/// valid while its graph lives. This is TensorFlow Python's tf.Tensor.
class Output {
 public:
  Output() = default;
  Output(Node* node, int index);

  Node* node() const { return node_; }
  int index() const { return index_; }
  /// "MatMul:0".
  std::string name() const;
  DType dtype() const;
  /// As inferred when the node was built; may be partial.
  const TensorShape& shape() const;
  Operation op() const;
  /// The graph the tensor lives in. Throws InvalidArgumentError when that
  /// graph no longer exists (reset_default_graph, or a Graph that went out
  /// of scope), rather than reading freed memory.
  Graph* graph() const;
  bool valid() const { return node_ != nullptr; }

  /// tf.Tensor.eval(feed_dict): runs the thread's default session (an
  /// InteractiveSession or a session_scope, session.h) to compute this
  /// tensor. Throws when there is none, or when its graph is not this one.
  Tensor eval() const;
  Tensor eval(const FeedDict& feeds) const;

  bool operator==(const Output& o) const = default;
  auto operator<=>(const Output& o) const = default;

 private:
  Node* node_ = nullptr;
  int index_ = 0;
  uint64_t graph_id_ = 0;  // Which graph, to notice when it is gone.
};

/// A handle on a node, as TensorFlow Python's tf.Operation.
class Operation {
 public:
  Operation() = default;
  explicit Operation(Node* node);

  Node* node() const { return node_; }
  const std::string& name() const;
  const std::string& type() const;
  /// The device requested when it was built ("" when none).
  const std::string& device() const;
  int num_outputs() const;
  Output output(int i) const { return Output(node_, i); }
  int num_inputs() const;
  Output input(int i) const;
  /// As Output::graph(): throws when the graph no longer exists.
  Graph* graph() const;
  bool valid() const { return node_ != nullptr; }

  /// tf.Operation.run(feed_dict): runs this op in the thread's default
  /// session. Throws as Output::eval does.
  void run() const;
  void run(const FeedDict& feeds) const;

  bool operator==(const Operation& o) const = default;

 private:
  Node* node_ = nullptr;
  uint64_t graph_id_ = 0;
};

/// One operation in a graph.
///
/// Invariants: the inputs and control inputs of a node were added to the
/// graph before it, so a graph built through the API has no cycles (one read
/// from a GraphDef is checked, graph_def.h); output_types and output_shapes
/// have one entry per output; the name is unique in the graph.
class Node {
 public:
  int id() const { return id_; }
  const std::string& name() const { return name_; }
  const std::string& type_string() const { return op_def_->name; }
  const OpDef& op_def() const { return *op_def_; }
  const AttrMap& attrs() const { return attrs_; }
  Graph* graph() const { return graph_; }

  int num_inputs() const { return static_cast<int>(inputs_.size()); }
  const Output& input(int i) const { return inputs_[i]; }
  const std::vector<Output>& inputs() const { return inputs_; }
  const std::vector<Node*>& control_inputs() const { return control_inputs_; }

  int num_outputs() const { return static_cast<int>(output_types_.size()); }
  DType output_type(int i) const { return output_types_[i]; }
  const TensorShape& output_shape(int i) const { return output_shapes_[i]; }
  const std::vector<DType>& output_types() const { return output_types_; }
  DType input_type(int i) const { return inputs_[i].dtype(); }

  /// The nodes that read an output of this node, and the nodes that wait on
  /// it through a control edge, in the order they were added.
  const std::vector<Node*>& consumers() const { return consumers_; }
  const std::vector<Node*>& control_outputs() const { return control_outputs_; }

  /// The device string requested for this node, opaque to this layer.
  const std::string& requested_device() const { return requested_device_; }
  void set_requested_device(std::string device) {
    requested_device_ = std::move(device);
  }
  /// Where a placer (a later chapter) decided it runs; "" until then.
  const std::string& assigned_device() const { return assigned_device_; }
  void set_assigned_device(std::string device) {
    assigned_device_ = std::move(device);
  }

  /// Replaces or adds an attr after construction (colocation, device
  /// annotations). REQUIRES: not an attr that shape inference depended on.
  void SetAttr(const std::string& name, AttrValue value) {
    attrs_[name] = std::move(value);
  }

  bool IsConstant() const { return type_string() == "Const"; }
  bool IsPlaceholder() const { return type_string() == "Placeholder"; }

 private:
  friend class Graph;
  Node() = default;

  int id_ = -1;
  std::string name_;
  const OpDef* op_def_ = nullptr;
  AttrMap attrs_;
  Graph* graph_ = nullptr;
  std::vector<Output> inputs_;
  std::vector<Node*> control_inputs_;
  std::vector<DType> output_types_;
  std::vector<TensorShape> output_shapes_;
  std::vector<Node*> consumers_;
  std::vector<Node*> control_outputs_;
  std::string requested_device_;
  std::string assigned_device_;
};

/// What the builder hands the graph: a node fully checked, named and typed.
struct NodeSpec {
  std::string name;
  const OpDef* op_def = nullptr;
  AttrMap attrs;
  std::vector<Output> inputs;
  std::vector<Node*> control_inputs;
  std::vector<DType> output_types;
  std::vector<TensorShape> output_shapes;
  std::string requested_device;
};

/// A spec for a copy of `n` in another graph: its name, op, attrs, output
/// types and shapes and requested device; the edges are left to the caller,
/// who must point them at nodes of the other graph.
NodeSpec NodeSpecOf(const Node& n);

/// A device function, TensorFlow's `with tf.device(fn)`: given a node being
/// built, returns the device it should request. A plain string scope is a
/// device function too (see scope.h).
using DeviceFunction = std::function<std::string(const Node&)>;

/// How the device of an enclosing string scope combines with the device a
/// node already has. This layer treats devices as opaque strings: the node's
/// own (inner) request wins whole, else the scope's applies. Chapter 4, which
/// parses device specs, registers a field-by-field merge here at priority 0
/// (`/job:worker` around `/gpu:0` gives `/job:worker/device:GPU:0`).
/// An error (a malformed spec) is InvalidArgument naming the spec;
/// device_scope checks its string this way when it is entered.
using DeviceMergeFn = std::function<StatusOr<std::string>(
    std::string_view node_device, std::string_view scope_device)>;
/// Makes `fn` the merge while no merge of a higher priority is registered
/// (registration.h); AlreadyExists when `priority` is taken. Thread safety:
/// during static initialisation or while no graph is being built.
Status RegisterDeviceMergeFunction(DeviceMergeFn fn, int priority = 0);
/// Removes the merge registered at `priority`; NotFound when there is none.
Status UnregisterDeviceMergeFunction(int priority);
/// The merge of the highest priority, or this layer's opaque one.
const DeviceMergeFn& GetDeviceMergeFunction();

namespace internal {
/// RegisterDeviceMergeFunction from a static initialiser; aborts on error.
void RegisterDeviceMergeFunctionOrDie(DeviceMergeFn fn, int priority);
}  // namespace internal

/// MINITF_REGISTER_DEVICE_MERGE_FUNCTION(MyMerge, 1): from a static
/// initialiser, MyMerge in place of the merge registered at a lower priority.
#define MINITF_REGISTER_DEVICE_MERGE_FUNCTION(fn, priority)   \
  static const ::minitf::internal::StaticRegistration<        \
      &::minitf::internal::RegisterDeviceMergeFunctionOrDie>  \
  MINITF_REGISTRATION_NAME(minitf_device_merge_registration_) \
      [[maybe_unused]] (fn, priority)

/// One entry of a collection: any value, with the name that
/// get_collection's scope filter matches.
struct CollectionItem {
  std::string name;
  std::any value;
};

/// The standard collection names, as tf.GraphKeys.
struct GraphKeys {
  static constexpr const char* GLOBAL_VARIABLES = "variables";
  static constexpr const char* LOCAL_VARIABLES = "local_variables";
  static constexpr const char* MODEL_VARIABLES = "model_variables";
  static constexpr const char* TRAINABLE_VARIABLES = "trainable_variables";
  static constexpr const char* SUMMARIES = "summaries";
  static constexpr const char* QUEUE_RUNNERS = "queue_runners";
  static constexpr const char* TRAIN_OP = "train_op";
  static constexpr const char* UPDATE_OPS = "update_ops";
  static constexpr const char* LOSSES = "losses";
  static constexpr const char* REGULARIZATION_LOSSES = "regularization_losses";
  static constexpr const char* GLOBAL_STEP = "global_step";
  static constexpr const char* INIT_OP = "init_op";
  static constexpr const char* LOCAL_INIT_OP = "local_init_op";
  static constexpr const char* SAVERS = "savers";
};

/// A dataflow graph. Thread safety: building a graph is single-threaded, as
/// in TensorFlow; a finished graph may be read (run) from many threads.
class Graph {
 public:
  Graph();
  Graph(const Graph&) = delete;
  /// A number no other graph of this process has had. Handles (Output,
  /// Operation) keep it, so they can tell when their graph is gone.
  uint64_t id() const { return id_; }
  /// True while the graph numbered `id` exists.
  static bool IsAlive(uint64_t id);
  Graph& operator=(const Graph&) = delete;
  ~Graph();

  /// Adds a checked node (see NodeBuilder, which is how nodes are made).
  /// FailedPrecondition when the graph is finalized; InvalidArgument when
  /// the name is taken or an input lives in another graph.
  StatusOr<Node*> AddNode(NodeSpec spec);

  int num_nodes() const { return static_cast<int>(nodes_.size()); }
  Node* node(int id) const { return nodes_[id].get(); }
  /// In the order added: inputs always come before their consumers.
  std::vector<Node*> nodes() const;
  /// nullptr when absent.
  Node* FindNode(std::string_view name) const;
  /// Looks up "name:0" or "name" (output 0), as Graph.get_tensor_by_name.
  /// NotFound with TensorFlow's text when the op or output does not exist.
  StatusOr<Output> GetTensorByName(std::string_view name) const;
  /// As Graph.get_operation_by_name: NotFound when absent, InvalidArgument
  /// for a tensor's name ("a:0").
  StatusOr<Operation> GetOperationByName(std::string_view name) const;

  // --- Names -------------------------------------------------------------
  /// TensorFlow's Graph.unique_name: `name` if unused, else `name_1`,
  /// `name_2` ... (scopes and op names share one table). `mark_as_used`
  /// false only asks.
  std::string UniqueName(std::string_view name, bool mark_as_used = true);
  /// The current name scope with a trailing '/', or "".
  const std::string& name_scope() const { return name_scope_; }
  void set_name_scope(std::string scope) { name_scope_ = std::move(scope); }

  // --- Stacks used while building (scope.h manipulates them) --------------
  struct DeviceEntry {
    DeviceFunction fn;  ///< nullptr: tf.device(None), which resets.
    std::string spec;   ///< For a string scope: the string.
  };
  std::vector<DeviceEntry>& device_stack() { return device_stack_; }
  struct ControlFrame {
    std::vector<Node*> nodes;
    bool clear = false;  ///< control_dependencies(None): ignore outer frames.
    /// The id the first node made inside the frame gets: a node of a higher
    /// or equal id was made inside it and already waits for `nodes`.
    int first_id = 0;
  };
  std::vector<ControlFrame>& control_stack() { return control_stack_; }
  std::vector<Node*>& colocation_stack() { return colocation_stack_; }

  // --- Collections ----------------------------------------------------------
  void AddToCollection(std::string_view key, CollectionItem item);
  /// Items of `key` whose name matches `scope` from its start (a regular
  /// expression, as re.match in TensorFlow, in std::regex's ECMAScript
  /// grammar); all items when scope is "", none when `key` has no
  /// collection. InvalidArgument naming the pattern when `scope` is not a
  /// valid regular expression (TensorFlow's re.error).
  StatusOr<std::vector<CollectionItem>> GetCollection(
      std::string_view key, std::string_view scope = "") const;
  /// The list itself, to modify in place (tf.get_collection_ref).
  std::vector<CollectionItem>& GetCollectionRef(std::string_view key);
  std::vector<std::string> GetAllCollectionKeys() const;

  // --- Finalization ---------------------------------------------------------
  /// After this, AddNode fails: "Graph is finalized and cannot be modified."
  void Finalize() { finalized_ = true; }
  bool finalized() const { return finalized_; }

  /// The graph-level random seed (tf.set_random_seed); 0 when unset.
  int64_t seed() const { return seed_; }
  void set_seed(int64_t seed) { seed_ = seed; }
  /// Numbers the stateful random ops built so far, for op-level seeds.
  int64_t NextOpSeed() { return ++last_op_seed_; }

 private:
  friend class GraphSavepoint;

  // Every write to names_in_use_ goes through here, so that while a
  // savepoint is open the old count can be written back.
  void SetNameCount(const std::string& key, int count);
  // Removes the nodes numbered `num_nodes` and up, newest first, and undoes
  // the name changes after entry `journal_size` of the journal.
  void RollBack(int num_nodes, size_t journal_size);

  std::vector<std::unique_ptr<Node>> nodes_;
  std::map<std::string, Node*, std::less<>> by_name_;
  std::map<std::string, int, std::less<>> names_in_use_;
  // One entry per write to names_in_use_ while a savepoint is open: the key
  // and its count before (nullopt: the key was absent).
  std::vector<std::pair<std::string, std::optional<int>>> name_journal_;
  int open_savepoints_ = 0;
  std::string name_scope_;
  std::vector<DeviceEntry> device_stack_;
  std::vector<ControlFrame> control_stack_;
  std::vector<Node*> colocation_stack_;
  std::map<std::string, std::vector<CollectionItem>, std::less<>> collections_;
  const uint64_t id_;
  bool finalized_ = false;
  int64_t seed_ = 0;
  int64_t last_op_seed_ = 0;
};

/// Makes a series of additions to a graph all-or-nothing: unless Commit() is
/// called, destroying the savepoint (on an early return or an exception
/// alike) removes every node added to the graph since it was made and
/// writes back the unique-name counters, so the graph has the nodes, names
/// and next default names it had before. This is how ImportGraphDef leaves
/// a graph unchanged when a node fails, as TensorFlow's importer undoes its
/// nodes. Savepoints nest; an inner one's commit is undone by an outer
/// rollback.
///
/// What is undone: nodes, their edges into older nodes (consumers and
/// control outputs), and names reserved with UniqueName or by AddNode. What
/// is not: collections, scopes, seeds, and attrs or devices set on older
/// nodes. REQUIRES: nothing keeps a handle on a node added after the
/// savepoint once it is rolled back; the graph outlives the savepoint.
///
///   GraphSavepoint savepoint(graph);
///   TF_RETURN_IF_ERROR(AddManyNodes(graph));   // any failure: none added
///   savepoint.Commit();
class GraphSavepoint {
 public:
  explicit GraphSavepoint(Graph* graph);
  ~GraphSavepoint();
  GraphSavepoint(const GraphSavepoint&) = delete;
  GraphSavepoint& operator=(const GraphSavepoint&) = delete;
  /// Keeps the changes.
  void Commit() { committed_ = true; }

 private:
  Graph* graph_;
  int num_nodes_;
  size_t journal_size_;
  bool committed_ = false;
};

/// TensorFlow's print form: Tensor("MatMul:0", shape=(2, 2), dtype=float32).
std::ostream& operator<<(std::ostream& os, const Output& output);
/// name: "MatMul" op: "MatMul" input: "a" input: "b" ... (one line).
std::ostream& operator<<(std::ostream& os, const Operation& op);
/// A shape as TensorFlow Python prints it: `(2, 2)`, `(?, 784)`, `(3,)`,
/// `()`, `<unknown>`.
std::string PythonShapeString(const TensorShape& shape);

}  // namespace minitf
