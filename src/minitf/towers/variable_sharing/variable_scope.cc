#include "minitf/towers/variable_sharing/variable_scope.h"

#include <memory>
#include <utility>

#include "minitf/tensor/errors.h"

namespace minitf {
namespace {

// What TensorFlow keeps per graph for get_variable: the variables it made,
// by full name, and the current variable scope. TensorFlow keeps them in
// graph collections (keys "__variable_store" and "__varscope"); so does
// minitf, in one collection, so the store lives and dies with its graph
// and layer 2 needs no hook for it.
struct VariableStore {
  std::map<std::string, Variable, std::less<>> variables;
  VariableScope current;
};

constexpr const char* kVariableStoreKey = "__variable_store";

VariableStore& StoreOf(Graph* graph) {
  std::vector<CollectionItem>& items =
      graph->GetCollectionRef(kVariableStoreKey);
  if (items.empty()) {
    items.push_back({"", std::make_shared<VariableStore>()});
  }
  return *std::any_cast<std::shared_ptr<VariableStore>&>(items.front().value);
}

// TensorFlow's `reuse or outer.reuse`: False leaves the outer scope's.
Reuse Inherit(Reuse requested, Reuse outer) {
  return requested == Reuse::kFalse ? outer : requested;
}

}  // namespace

VariableScope::VariableScope() : VariableScope("", "", Reuse::kFalse) {}

VariableScope::VariableScope(std::string name, std::string original_name_scope,
                             Reuse reuse)
    : state_(std::make_shared<State>(
          State{std::move(name), std::move(original_name_scope), reuse})) {}

VariableScope get_variable_scope() {
  return StoreOf(get_default_graph()).current;
}

variable_scope::variable_scope(const std::string& name, bool reuse)
    : variable_scope(name, reuse ? Reuse::kTrue : Reuse::kFalse) {}

variable_scope::variable_scope(const VariableScope& scope, bool reuse)
    : variable_scope(scope, reuse ? Reuse::kTrue : Reuse::kFalse) {}

// --8<-- [start:enter_by_name]
variable_scope::variable_scope(const std::string& name, Reuse reuse)
    : graph_(get_default_graph()), previous_(StoreOf(graph_).current) {
  const std::string& outer = previous_.name();
  Enter(outer.empty() ? name : outer + "/" + name, name,
        Inherit(reuse, previous_.reuse()), nullptr);
}
// --8<-- [end:enter_by_name]

// --8<-- [start:enter_by_object]
variable_scope::variable_scope(const VariableScope& scope, Reuse reuse)
    : graph_(get_default_graph()), previous_(StoreOf(graph_).current) {
  // The variables' names come back whole; the ops get a name scope of the
  // scope's last part, inside whatever name scope is open here.
  const std::string& full = scope.name();
  const std::string last = full.substr(full.rfind('/') + 1);
  Enter(full, last, Inherit(reuse, scope.reuse()),
        &scope.original_name_scope());
}
// --8<-- [end:enter_by_object]

void variable_scope::Enter(std::string full_name, const std::string& scope_name,
                           Reuse reuse, const std::string* original) {
  // The name scope first: it checks the name, and a bad one must leave the
  // current variable scope as it was.
  if (!scope_name.empty()) name_scope_.emplace(scope_name);
  const std::string opened = name_scope_ ? name_scope_->name() : "";
  scope_ = VariableScope(std::move(full_name),
                         original != nullptr ? *original : opened, reuse);
  StoreOf(graph_).current = scope_;
}

variable_scope::~variable_scope() { StoreOf(graph_).current = previous_; }

// --8<-- [start:get_variable]
// TensorFlow's _VariableStore._get_single_variable.
Variable get_variable(const std::string& name, const TensorShape& shape,
                      const Initializer& initializer, bool trainable,
                      const std::vector<std::string>& collections,
                      DType dtype) {
  VariableStore& store = StoreOf(get_default_graph());
  const std::string& scope = store.current.name();
  const std::string full_name = scope.empty() ? name : scope + "/" + name;
  const Reuse reuse = store.current.reuse();

  if (auto found = store.variables.find(full_name);
      found != store.variables.end()) {
    const Variable& v = found->second;
    if (reuse == Reuse::kFalse) {
      throw errors::InvalidArgumentError(
          "Variable " + full_name +
          " already exists, disallowed. Did you mean to set reuse=True or "
          "reuse=tf.AUTO_REUSE in VarScope?");
    }
    if (!shape.IsCompatibleWith(v.shape())) {
      throw errors::InvalidArgumentError(
          "Trying to share variable " + full_name + ", but specified shape " +
          PythonShapeString(shape) + " and found shape " +
          PythonShapeString(v.shape()) + ".");
    }
    if (dtype != v.dtype()) {
      // TensorFlow names the found dtype by its reference type.
      throw errors::InvalidArgumentError(
          "Trying to share variable " + full_name + ", but specified dtype " +
          std::string(DataTypePythonName(dtype)) + " and found dtype " +
          std::string(DataTypePythonName(v.dtype())) + "_ref.");
    }
    return v;
  }
  if (reuse == Reuse::kTrue) {
    throw errors::InvalidArgumentError(
        "Variable " + full_name +
        " does not exist, or was not created with tf.get_variable(). Did "
        "you mean to set reuse=tf.AUTO_REUSE in VarScope?");
  }
  if (shape.unknown_rank() && initializer == nullptr) {
    throw errors::InvalidArgumentError(
        "Variable " + full_name +
        " did not get an initializer, so its `shape` argument must be "
        "specified.");
  }
  if (!shape.IsFullyDefined()) {
    throw errors::InvalidArgumentError(
        "The initializer passed is not valid. It should be a callable with "
        "no arguments and the shape should not be provided or an instance "
        "of `tf.keras.initializers.*' and `shape` should be fully defined.");
  }
  Initializer init = initializer;
  if (init == nullptr) {
    init = DataTypeIsFloating(dtype) ? glorot_uniform_initializer()
                                     : zeros_initializer();
  }
  // A variable's name follows the variable scopes only: it is built at the
  // top of the name scopes, whichever is open.
  name_scope top("");
  Variable v([&] { return init(shape.dim_sizes(), dtype); }, full_name,
             trainable, collections);
  store.variables.emplace(full_name, v);
  return v;
}
// --8<-- [end:get_variable]

}  // namespace minitf
