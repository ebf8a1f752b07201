// Scopes: the `with` blocks of TensorFlow 1.x, as RAII guards.
//
// Python writes `with tf.name_scope("tower_0"):` and every op created inside
// gets the prefix `tower_0/`. In C++ the block is a C++ scope and the `with`
// is a guard object whose constructor pushes onto the graph's stack and whose
// destructor pops. Each guard acts on the graph that is the default when it
// is constructed:
//
//   tf::Graph g;
//   tf::graph_scope use(g);                        // with g.as_default():
//   { tf::name_scope tower("tower_0");             // with tf.name_scope(...):
//     tf::device_scope on("/gpu:0");                //   with tf.device(...):
//     auto c = tf::matmul(a, b); }                  // "tower_0/MatMul", /gpu:0
//   { tf::control_dependencies after({init});       // runs after init
//     auto d = tf::identity(c); }
//
// Guards must be destroyed in the reverse order of construction (C++ scoping
// does this); they are neither copyable nor movable.
#pragma once

#include <any>
#include <cstddef>
#include <memory>
#include <string>
#include <vector>

#include "minitf/graph/graph.h"
#include "minitf/tensor/errors.h"

namespace minitf {

/// The thread's default graph: the innermost graph_scope's graph, else the
/// thread's own graph, created on first use.
Graph* get_default_graph();
/// `graph` as a shared_ptr: sharing ownership when it is the thread's own
/// default graph, so that reset_default_graph() cannot free it under a
/// session that uses it; not owning otherwise (a graph the caller made and
/// keeps alive, as with a graph_scope).
std::shared_ptr<Graph> shared_graph(Graph* graph);
/// Replaces the thread's own graph with a new, empty one. Graphs still held
/// elsewhere (a Session, a std::shared_ptr) stay alive. Throws
/// FailedPreconditionError inside a graph_scope, as TensorFlow refuses it.
void reset_default_graph();
/// tf.set_random_seed: the default graph's seed for random ops.
void set_random_seed(int64_t seed);

/// `with graph.as_default():`.
class graph_scope {
 public:
  explicit graph_scope(Graph& graph);
  ~graph_scope();
  graph_scope(const graph_scope&) = delete;
  graph_scope& operator=(const graph_scope&) = delete;
};

/// `with tf.name_scope(name) as scope:`. A name is made unique among the
/// graph's names (re-entering "tower_0" gives "tower_0_1/"); a name ending
/// in '/' is taken as a complete scope, as it is; "" returns to the top.
/// Throws InvalidArgumentError for an invalid name
/// ("'a b' is not a valid scope name").
class name_scope {
 public:
  explicit name_scope(const std::string& name);
  ~name_scope();
  name_scope(const name_scope&) = delete;
  name_scope& operator=(const name_scope&) = delete;
  /// The scope entered, with its trailing '/': "tower_0/".
  const std::string& name() const { return scope_; }

 private:
  Graph* graph_;
  std::string previous_;
  std::string scope_;
};

/// `with tf.device(spec):`, with a string, a device function, or nullptr
/// (tf.device(None): ops inside request no device from outer scopes).
/// Throws InvalidArgumentError when the device merge function installed by
/// a later chapter rejects the string.
class device_scope {
 public:
  explicit device_scope(const std::string& spec);
  explicit device_scope(const char* spec) : device_scope(std::string(spec)) {}
  explicit device_scope(DeviceFunction fn);
  explicit device_scope(std::nullptr_t);
  ~device_scope();
  device_scope(const device_scope&) = delete;
  device_scope& operator=(const device_scope&) = delete;

 private:
  Graph* graph_;
};

/// `with tf.control_dependencies([a, b]):`: ops created inside run only after
/// a and b. nullptr (control_dependencies(None)) clears the outer ones; an
/// empty Operation or Output in the list is InvalidArgumentError.
class control_dependencies {
 public:
  explicit control_dependencies(const std::vector<Operation>& ops);
  explicit control_dependencies(const std::vector<Output>& tensors);
  explicit control_dependencies(std::nullptr_t);
  ~control_dependencies();
  control_dependencies(const control_dependencies&) = delete;
  control_dependencies& operator=(const control_dependencies&) = delete;

 private:
  Graph* graph_;
};

/// `with tf.colocate_with(op):`: ops created inside join op's colocation
/// group (attr `_class: ["loc:@op"]`) and take its device; the device scopes
/// around are ignored inside, as in TensorFlow. `ignore_existing` also drops
/// the colocation scopes around this one; an empty op with ignore_existing
/// (colocate_with(None, ignore_existing=True)) does only that, and without
/// it is InvalidArgumentError.
class colocate_with {
 public:
  explicit colocate_with(Operation op, bool ignore_existing = false);
  explicit colocate_with(Output tensor, bool ignore_existing = false)
      : colocate_with(tensor.op(), ignore_existing) {}
  ~colocate_with();
  colocate_with(const colocate_with&) = delete;
  colocate_with& operator=(const colocate_with&) = delete;

 private:
  Graph* graph_;
  std::vector<Graph::DeviceEntry> saved_devices_;
  std::vector<Node*> saved_colocation_;
  bool ignore_existing_;
  bool pushed_ = false;  // False for an empty op: nothing to pop.
};

/// tf.add_to_collection(key, value) on the default graph. T must have a
/// name() (Output, Operation, and the Variable of chapter 3 do).
template <typename T>
void add_to_collection(std::string_view key, const T& value) {
  get_default_graph()->AddToCollection(key, {std::string(value.name()), value});
}
/// The items of type T in collection `key` whose names match `scope`
/// (a regular expression matched from the start, as re.match). Throws
/// InvalidArgumentError naming `scope` when it is not a valid regular
/// expression, where TensorFlow raises re.error.
template <typename T>
std::vector<T> get_collection(std::string_view key,
                              std::string_view scope = "") {
  std::vector<T> out;
  for (const CollectionItem& item :
       errors::ValueOrThrow(get_default_graph()->GetCollection(key, scope))) {
    if (const T* v = std::any_cast<T>(&item.value)) out.push_back(*v);
  }
  return out;
}
/// The collection itself, to edit in place.
std::vector<CollectionItem>& get_collection_ref(std::string_view key);

/// The graph an op with these inputs goes into: theirs (all must share one,
/// else InvalidArgumentError as TensorFlow words it), or the default graph
/// when there are none.
Graph* GraphForInputs(const std::vector<Output>& inputs);

}  // namespace minitf
