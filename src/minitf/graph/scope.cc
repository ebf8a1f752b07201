#include "minitf/graph/scope.h"

#include <sstream>

#include "minitf/graph/node_builder.h"
#include "minitf/tensor/errors.h"

namespace minitf {
namespace {

// Per thread: the graph used when no graph_scope is open, and the stack of
// graphs made default by graph_scope.
struct DefaultGraphState {
  std::shared_ptr<Graph> own;
  std::vector<Graph*> stack;
};

DefaultGraphState& State() {
  thread_local DefaultGraphState state;
  return state;
}

}  // namespace

Graph* get_default_graph() {
  DefaultGraphState& s = State();
  if (!s.stack.empty()) return s.stack.back();
  if (!s.own) s.own = std::make_shared<Graph>();
  return s.own.get();
}

std::shared_ptr<Graph> shared_graph(Graph* graph) {
  const DefaultGraphState& s = State();
  if (s.own != nullptr && s.own.get() == graph) return s.own;
  return std::shared_ptr<Graph>(graph, [](Graph*) {});
}

void reset_default_graph() {
  DefaultGraphState& s = State();
  if (!s.stack.empty()) {
    throw errors::FailedPreconditionError(
        "Do not use tf.reset_default_graph() to clear nested graphs. If you "
        "need a cleared graph, exit the nesting and create a new graph.");
  }
  s.own = std::make_shared<Graph>();
}

void set_random_seed(int64_t seed) { get_default_graph()->set_seed(seed); }

graph_scope::graph_scope(Graph& graph) { State().stack.push_back(&graph); }
graph_scope::~graph_scope() { State().stack.pop_back(); }

// --8<-- [start:name_scope]
name_scope::name_scope(const std::string& name) : graph_(get_default_graph()) {
  previous_ = graph_->name_scope();
  // Inside a scope a name may start with '_' or '-'; at the top it must be
  // a valid op name, since it becomes the first part of op names.
  if (!name.empty() &&
      !(previous_.empty() ? IsValidOpName(name) : IsValidScopeName(name))) {
    throw errors::InvalidArgumentError("'" + name +
                                       "' is not a valid scope name");
  }
  if (name.empty()) {
    scope_ = "";  // Back to the top level.
  } else if (name.back() == '/') {
    scope_ = name;  // A complete scope, re-entered exactly.
  } else {
    scope_ = graph_->UniqueName(name) + "/";
  }
  graph_->set_name_scope(scope_);
}
// --8<-- [end:name_scope]

name_scope::~name_scope() { graph_->set_name_scope(previous_); }

device_scope::device_scope(const std::string& spec)
    : graph_(get_default_graph()) {
  // Validate now, so a malformed spec fails on the line that wrote it.
  errors::ThrowIfError(GetDeviceMergeFunction()(spec, "").status());
  graph_->device_stack().push_back(
      {[spec](const Node& node) {
         StatusOr<std::string> merged =
             GetDeviceMergeFunction()(node.requested_device(), spec);
         return merged.ok() ? merged.value() : node.requested_device();
       },
       spec});
}

device_scope::device_scope(DeviceFunction fn) : graph_(get_default_graph()) {
  graph_->device_stack().push_back({std::move(fn), ""});
}

device_scope::device_scope(std::nullptr_t) : graph_(get_default_graph()) {
  graph_->device_stack().push_back({nullptr, ""});
}

device_scope::~device_scope() { graph_->device_stack().pop_back(); }

control_dependencies::control_dependencies(const std::vector<Operation>& ops)
    : graph_(get_default_graph()) {
  Graph::ControlFrame frame;
  for (const Operation& op : ops) {
    if (!op.valid()) {
      throw errors::InvalidArgumentError(
          "Control input must be Operation or Tensor: None");
    }
    if (op.graph() != graph_) {
      throw errors::InvalidArgumentError(
          "Control input '" + op.name() +
          "' must be from the same graph as the default graph.");
    }
    frame.nodes.push_back(op.node());
  }
  frame.first_id = graph_->num_nodes();
  graph_->control_stack().push_back(std::move(frame));
}

control_dependencies::control_dependencies(const std::vector<Output>& tensors)
    : control_dependencies([&] {
        std::vector<Operation> ops;
        for (const Output& t : tensors) ops.push_back(t.op());
        return ops;
      }()) {}

control_dependencies::control_dependencies(std::nullptr_t)
    : graph_(get_default_graph()) {
  graph_->control_stack().push_back({{}, true, graph_->num_nodes()});
}

control_dependencies::~control_dependencies() {
  graph_->control_stack().pop_back();
}

colocate_with::colocate_with(Operation op, bool ignore_existing)
    : graph_(get_default_graph()), ignore_existing_(ignore_existing) {
  // An empty op is tf.colocate_with(None, ignore_existing=True): it only
  // drops the colocation scopes around it.
  if (!op.valid() && !ignore_existing) {
    throw errors::InvalidArgumentError(
        "Trying to reset colocation (op is None) but ignore_existing is not "
        "True");
  }
  if (op.valid() && op.graph() != graph_) {
    throw errors::InvalidArgumentError("Cannot colocate with '" + op.name() +
                                       "': it is not in the default graph.");
  }
  if (ignore_existing_) {
    saved_colocation_ = std::move(graph_->colocation_stack());
    graph_->colocation_stack().clear();
  }
  if (op.valid()) {
    pushed_ = true;
    // Colocation is stronger than device scopes: hide them while inside.
    saved_devices_ = std::move(graph_->device_stack());
    graph_->device_stack().clear();
    graph_->colocation_stack().push_back(op.node());
  }
}

colocate_with::~colocate_with() {
  if (pushed_) {
    graph_->colocation_stack().pop_back();
    graph_->device_stack() = std::move(saved_devices_);
  }
  if (ignore_existing_) {
    graph_->colocation_stack() = std::move(saved_colocation_);
  }
}

std::vector<CollectionItem>& get_collection_ref(std::string_view key) {
  return get_default_graph()->GetCollectionRef(key);
}

Graph* GraphForInputs(const std::vector<Output>& inputs) {
  Graph* graph = nullptr;
  const Output* first = nullptr;
  for (const Output& in : inputs) {
    if (!in.valid()) {
      throw errors::InvalidArgumentError("An input is an empty Output");
    }
    if (graph == nullptr) {
      graph = in.graph();
      first = &in;
    } else if (in.graph() != graph) {
      std::ostringstream msg;
      msg << in << " must be from the same graph as " << *first << ".";
      throw errors::InvalidArgumentError(msg.str());
    }
  }
  return graph != nullptr ? graph : get_default_graph();
}

}  // namespace minitf
