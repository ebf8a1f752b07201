#include "minitf/graph/graph.h"

#include <algorithm>
#include <cctype>
#include <mutex>
#include <regex>
#include <sstream>
#include <unordered_set>

#include "minitf/graph/replaceable_function.h"
#include "minitf/tensor/errors.h"

namespace minitf {

// --- Output and Operation

namespace {

// The ids of the graphs that exist. A handle checks here before it follows
// its node pointer, so a handle on a destroyed graph is an error, not a
// crash. A set under a lock: graphs are few and made rarely.
struct LiveGraphs {
  std::mutex mu;
  std::unordered_set<uint64_t> ids;
  uint64_t next_id = 1;
};
LiveGraphs& Live() {
  static LiveGraphs* live = new LiveGraphs;
  return *live;
}

uint64_t RegisterGraph() {
  LiveGraphs& live = Live();
  std::lock_guard<std::mutex> lock(live.mu);
  const uint64_t id = live.next_id++;
  live.ids.insert(id);
  return id;
}

[[noreturn]] void ThrowGraphGone(const char* what) {
  throw errors::InvalidArgumentError(
      std::string(what) +
      " belongs to a graph that no longer exists (it was replaced by "
      "tf::reset_default_graph() or went out of scope); build it again in "
      "the current graph.");
}

}  // namespace

bool Graph::IsAlive(uint64_t id) {
  LiveGraphs& live = Live();
  std::lock_guard<std::mutex> lock(live.mu);
  return live.ids.count(id) != 0;
}

Output::Output(Node* node, int index)
    : node_(node),
      index_(index),
      graph_id_(node != nullptr ? node->graph()->id() : 0) {}

Operation::Operation(Node* node)
    : node_(node), graph_id_(node != nullptr ? node->graph()->id() : 0) {}

// -----------------------------------------------------

std::string Output::name() const {
  return node_->name() + ":" + std::to_string(index_);
}
DType Output::dtype() const { return node_->output_type(index_); }
const TensorShape& Output::shape() const { return node_->output_shape(index_); }
Operation Output::op() const { return Operation(node_); }
Graph* Output::graph() const {
  if (node_ != nullptr && !Graph::IsAlive(graph_id_))
    ThrowGraphGone("A tensor");
  return node_->graph();
}

const std::string& Operation::name() const { return node_->name(); }
const std::string& Operation::type() const { return node_->type_string(); }
const std::string& Operation::device() const {
  return node_->requested_device();
}
int Operation::num_outputs() const { return node_->num_outputs(); }
int Operation::num_inputs() const { return node_->num_inputs(); }
Output Operation::input(int i) const { return node_->input(i); }
Graph* Operation::graph() const {
  if (node_ != nullptr && !Graph::IsAlive(graph_id_)) {
    ThrowGraphGone("An operation");
  }
  return node_->graph();
}

std::string PythonShapeString(const TensorShape& shape) {
  if (shape.unknown_rank()) return "<unknown>";
  std::string out = "(";
  for (int i = 0; i < shape.dims(); ++i) {
    if (i > 0) out += ", ";
    const int64_t d = shape.dim_size(i);
    out += d < 0 ? "?" : std::to_string(d);
  }
  if (shape.dims() == 1) out += ",";
  return out + ")";
}

std::ostream& operator<<(std::ostream& os, const Output& output) {
  if (!output.valid()) return os << "Tensor(<invalid>)";
  return os << "Tensor(\"" << output.name()
            << "\", shape=" << PythonShapeString(output.shape())
            << ", dtype=" << DataTypePythonName(output.dtype()) << ")";
}

std::ostream& operator<<(std::ostream& os, const Operation& op) {
  if (!op.valid()) return os << "Operation(<invalid>)";
  const Node& n = *op.node();
  os << "name: \"" << n.name() << "\" op: \"" << n.type_string() << "\"";
  for (const Output& in : n.inputs()) {
    os << " input: \"" << in.node()->name();
    if (in.index() != 0) os << ":" << in.index();
    os << "\"";
  }
  for (const Node* c : n.control_inputs()) {
    os << " input: \"^" << c->name() << "\"";
  }
  if (!n.requested_device().empty()) {
    os << " device: \"" << n.requested_device() << "\"";
  }
  for (const auto& [key, value] : n.attrs()) {
    os << " attr { key: \"" << key << "\" value: " << value.DebugString()
       << " }";
  }
  return os;
}

// --- Device merging
// -------------------------------------------------------------

namespace {
// This layer's merge, for when none is registered: devices are opaque.
const DeviceMergeFn& OpaqueMerge() {
  static const auto* fn = new DeviceMergeFn(
      [](std::string_view node_device,
         std::string_view scope_device) -> StatusOr<std::string> {
        return std::string(node_device.empty() ? scope_device : node_device);
      });
  return *fn;
}

ReplaceableFunction<DeviceMergeFn>& MergeFunctions() {
  static auto* fns =
      new ReplaceableFunction<DeviceMergeFn>("device merge function");
  return *fns;
}
}  // namespace

Status RegisterDeviceMergeFunction(DeviceMergeFn fn, int priority) {
  return MergeFunctions().Register(std::move(fn), priority);
}

Status UnregisterDeviceMergeFunction(int priority) {
  return MergeFunctions().Unregister(priority);
}

const DeviceMergeFn& GetDeviceMergeFunction() {
  const DeviceMergeFn* best = MergeFunctions().Best();
  return best != nullptr ? *best : OpaqueMerge();
}

namespace internal {
void RegisterDeviceMergeFunctionOrDie(DeviceMergeFn fn, int priority) {
  MergeFunctions().RegisterOrDie(std::move(fn), priority);
}
}  // namespace internal

// --- Graph
// ------------------------------------------------------------------------

Graph::Graph() : id_(RegisterGraph()) {}

Graph::~Graph() {
  LiveGraphs& live = Live();
  std::lock_guard<std::mutex> lock(live.mu);
  live.ids.erase(id_);
}

StatusOr<Node*> Graph::AddNode(NodeSpec spec) {
  if (finalized_) {
    return errors::FailedPrecondition(
        "Graph is finalized and cannot be modified.");
  }
  if (by_name_.count(spec.name) != 0) {
    return errors::InvalidArgument("Duplicate node name in graph: '", spec.name,
                                   "'");
  }
  for (const Output& in : spec.inputs) {
    if (in.graph() != this) {
      return errors::InvalidArgument("Input ", in.name(), " of node '",
                                     spec.name,
                                     "' must be from the same graph");
    }
  }
  for (const Node* c : spec.control_inputs) {
    if (c->graph() != this) {
      return errors::InvalidArgument("Control input '", c->name(),
                                     "' of node '", spec.name,
                                     "' must be from the same graph");
    }
  }
  auto node = std::unique_ptr<Node>(new Node);
  node->id_ = static_cast<int>(nodes_.size());
  node->name_ = std::move(spec.name);
  node->op_def_ = spec.op_def;
  node->attrs_ = std::move(spec.attrs);
  node->graph_ = this;
  node->inputs_ = std::move(spec.inputs);
  node->control_inputs_ = std::move(spec.control_inputs);
  node->output_types_ = std::move(spec.output_types);
  node->output_shapes_ = std::move(spec.output_shapes);
  node->requested_device_ = std::move(spec.requested_device);
  Node* n = node.get();
  for (const Output& in : n->inputs_) {
    // n is new, so it can already be among the consumers only through an
    // earlier input of its own, which put it last: a check in constant time,
    // where a search would make a tensor with many readers quadratic.
    auto& consumers = in.node()->consumers_;
    if (consumers.empty() || consumers.back() != n) consumers.push_back(n);
  }
  for (Node* c : n->control_inputs_) c->control_outputs_.push_back(n);
  by_name_.emplace(n->name_, n);
  // An imported or explicitly named node reserves its name, so a later
  // default name steps around it.
  std::string key = n->name_;
  std::transform(key.begin(), key.end(), key.begin(),
                 [](unsigned char c) { return std::tolower(c); });
  if (auto it = names_in_use_.find(key);
      it == names_in_use_.end() || it->second == 0) {
    SetNameCount(key, 1);
  }
  nodes_.push_back(std::move(node));
  return n;
}

std::vector<Node*> Graph::nodes() const {
  std::vector<Node*> out;
  out.reserve(nodes_.size());
  for (const auto& n : nodes_) out.push_back(n.get());
  return out;
}

Node* Graph::FindNode(std::string_view name) const {
  auto it = by_name_.find(name);
  return it == by_name_.end() ? nullptr : it->second;
}

StatusOr<Output> Graph::GetTensorByName(std::string_view name) const {
  std::string_view op_name = name;
  int index = 0;
  if (const size_t colon = name.rfind(':'); colon != std::string_view::npos) {
    op_name = name.substr(0, colon);
    const std::string_view digits = name.substr(colon + 1);
    if (digits.empty() ||
        !std::all_of(digits.begin(), digits.end(),
                     [](char c) {
                       return std::isdigit(static_cast<unsigned char>(c));
                     }) ||
        digits.size() > 9) {
      return errors::InvalidArgument(
          "The name '", name,
          "' looks like a Tensor name, but is not a valid "
          "one. Tensor names must be of the form "
          "\"<op_name>:<output_index>\".");
    }
    index = std::stoi(std::string(digits));
  }
  Node* n = FindNode(op_name);
  if (n == nullptr) {
    return errors::NotFound("The name '", name,
                            "' refers to a Tensor which does not exist. The "
                            "operation, '",
                            op_name, "', does not exist in the graph.");
  }
  if (index >= n->num_outputs()) {
    return errors::NotFound("The name '", name,
                            "' refers to a Tensor which does not exist. The "
                            "operation, '",
                            op_name, "', exists but only has ",
                            n->num_outputs(), " outputs.");
  }
  return Output(n, index);
}

StatusOr<Operation> Graph::GetOperationByName(std::string_view name) const {
  Node* n = FindNode(name);
  if (n == nullptr && name.find(':') != std::string_view::npos) {
    return errors::InvalidArgument(
        "The name '", name, "' appears to refer to a Tensor, not a Operation.");
  }
  if (n == nullptr) {
    return errors::NotFound("The name '", name,
                            "' refers to an Operation not in the graph.");
  }
  return Operation(n);
}

// --8<-- [start:unique_name]
std::string Graph::UniqueName(std::string_view name, bool mark_as_used) {
  std::string full = name_scope_ + std::string(name);
  // Names differing only in case would collide as file names in a
  // checkpoint, so TensorFlow counts them case-insensitively.
  auto lower = [](std::string s) {
    std::transform(s.begin(), s.end(), s.begin(),
                   [](unsigned char c) { return std::tolower(c); });
    return s;
  };
  std::string key = lower(full);
  int i = names_in_use_.count(key) ? names_in_use_[key] : 0;
  if (mark_as_used) SetNameCount(key, i + 1);
  if (i > 0) {
    const std::string base = full;
    // "a_1" may itself have been taken by an explicit name: step past it.
    while (names_in_use_.count(key) != 0) {
      full = base + "_" + std::to_string(i);
      key = lower(full);
      ++i;
    }
    if (mark_as_used) SetNameCount(key, 1);
  }
  return full;
}
// --8<-- [end:unique_name]

void Graph::SetNameCount(const std::string& key, int count) {
  auto it = names_in_use_.find(key);
  if (open_savepoints_ > 0) {
    name_journal_.emplace_back(key, it == names_in_use_.end()
                                        ? std::nullopt
                                        : std::optional<int>(it->second));
  }
  if (it == names_in_use_.end()) {
    names_in_use_.emplace(key, count);
  } else {
    it->second = count;
  }
}

// --8<-- [start:rollback]
void Graph::RollBack(int num_nodes, size_t journal_size) {
  // Newest first, so that each node removed is the newest reader of its
  // inputs and the newest waiter on its control inputs: the last entry of
  // their consumer and control-output lists (AddNode appends in order).
  while (static_cast<int>(nodes_.size()) > num_nodes) {
    Node* n = nodes_.back().get();
    for (const Output& in : n->inputs_) {
      auto& consumers = in.node()->consumers_;
      if (!consumers.empty() && consumers.back() == n) consumers.pop_back();
    }
    for (Node* c : n->control_inputs_) {
      auto& outs = c->control_outputs_;
      if (!outs.empty() && outs.back() == n) outs.pop_back();
    }
    by_name_.erase(n->name_);
    nodes_.pop_back();
  }
  // The names, newest change first, each back to its count before.
  while (name_journal_.size() > journal_size) {
    auto& [key, before] = name_journal_.back();
    if (before) {
      names_in_use_[key] = *before;
    } else {
      names_in_use_.erase(key);
    }
    name_journal_.pop_back();
  }
}
// --8<-- [end:rollback]

GraphSavepoint::GraphSavepoint(Graph* graph)
    : graph_(graph),
      num_nodes_(graph->num_nodes()),
      journal_size_(graph->name_journal_.size()) {
  ++graph_->open_savepoints_;
}

GraphSavepoint::~GraphSavepoint() {
  if (!committed_) graph_->RollBack(num_nodes_, journal_size_);
  // The journal is needed only while some savepoint may still roll back.
  if (--graph_->open_savepoints_ == 0) graph_->name_journal_.clear();
}

void Graph::AddToCollection(std::string_view key, CollectionItem item) {
  auto it = collections_.find(key);
  if (it == collections_.end()) {
    it = collections_.emplace(std::string(key), std::vector<CollectionItem>())
             .first;
  }
  it->second.push_back(std::move(item));
}

StatusOr<std::vector<CollectionItem>> Graph::GetCollection(
    std::string_view key, std::string_view scope) const {
  auto it = collections_.find(key);
  if (it == collections_.end()) return std::vector<CollectionItem>();
  if (scope.empty()) return it->second;
  // TensorFlow compiles the scope with re.compile, which raises re.error
  // for a bad pattern; the C++ form of that is InvalidArgument. Like
  // TensorFlow, a key with no collection returns [] before the pattern is
  // looked at.
  std::regex pattern;
  try {
    pattern = std::regex(std::string(scope));
  } catch (const std::regex_error& e) {
    return errors::InvalidArgument(
        "get_collection scope '", scope,
        "' is not a valid regular expression: ", e.what());
  }
  std::vector<CollectionItem> out;
  for (const CollectionItem& item : it->second) {
    // re.match: the pattern must match a prefix of the name.
    if (std::regex_search(item.name, pattern,
                          std::regex_constants::match_continuous)) {
      out.push_back(item);
    }
  }
  return out;
}

std::vector<CollectionItem>& Graph::GetCollectionRef(std::string_view key) {
  auto it = collections_.find(key);
  if (it == collections_.end()) {
    it = collections_.emplace(std::string(key), std::vector<CollectionItem>())
             .first;
  }
  return it->second;
}

std::vector<std::string> Graph::GetAllCollectionKeys() const {
  std::vector<std::string> keys;
  for (const auto& [key, items] : collections_) keys.push_back(key);
  return keys;
}

NodeSpec NodeSpecOf(const Node& n) {
  NodeSpec spec;
  spec.name = n.name();
  spec.op_def = &n.op_def();
  spec.attrs = n.attrs();
  spec.output_types = n.output_types();
  spec.output_shapes.reserve(n.num_outputs());
  for (int i = 0; i < n.num_outputs(); ++i) {
    spec.output_shapes.push_back(n.output_shape(i));
  }
  spec.requested_device = n.requested_device();
  return spec;
}

}  // namespace minitf
