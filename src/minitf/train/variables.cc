#include "minitf/train/variables.h"

#include <algorithm>

#include "minitf/graph/node_builder.h"
#include "minitf/graph/ops/array_ops.h"
#include "minitf/graph/ops/build.h"
#include "minitf/graph/scope.h"
#include "minitf/tensor/errors.h"
#include "minitf/train/ops/state_ops.h"

namespace minitf {

Variable::Variable(const Tensor& initial_value, const std::string& name,
                   bool trainable)
    : Variable(name, trainable, &initial_value, Output(), nullptr,
               {GraphKeys::GLOBAL_VARIABLES}) {}

Variable::Variable(Output initial_value, const std::string& name,
                   bool trainable)
    : Variable(name, trainable, nullptr, initial_value, nullptr,
               {GraphKeys::GLOBAL_VARIABLES}) {}

Variable::Variable(const std::function<Output()>& initial_value,
                   const std::string& name, bool trainable,
                   const std::vector<std::string>& collections)
    : Variable(name, trainable, nullptr, Output(), initial_value, collections) {
}

// --8<-- [start:variable_init]
// TensorFlow's RefVariable._init_from_args: everything inside
// `with ops.name_scope(name, "Variable", [initial_value]) as name:`.
Variable::Variable(const std::string& name, bool trainable,
                   const Tensor* tensor, Output output,
                   const std::function<Output()>& make_initial_value,
                   const std::vector<std::string>& collections)
    : trainable_(trainable) {
  ops::OpScope scope(
      name, "Variable",
      output.valid() ? std::vector<Output>{output} : std::vector<Output>{});
  Graph* g = get_default_graph();
  const int first_new = g->num_nodes();
  if (make_initial_value) {
    // device(None) keeps the device scopes around off the initial value's
    // ops: they go wherever the variable goes (below).
    device_scope no_device(nullptr);
    name_scope init("Initializer");
    initial_value_ = make_initial_value();
  } else {
    initial_value_ =
        tensor != nullptr ? constant(*tensor, "initial_value") : output;
  }
  const TensorShape& shape = initial_value_.shape();
  if (!shape.IsFullyDefined()) {
    throw errors::InvalidArgumentError(
        "initial_value must have a shape specified: " + initial_value_.name());
  }
  // The scope's own name, "weight", names the variable op.
  variable_ = ops::AddOp(NodeBuilder("VariableV2", scope.op_name())
                             .ExactName()
                             .Attr("shape", shape)
                             .Attr("dtype", initial_value_.dtype()),
                         {});
  if (make_initial_value) {
    // The initial value's ops were built before the variable, so
    // colocate_with could not name it: TensorFlow builds them and the
    // variable op under an attr scope that gives each the variable's group,
    // and so does this, by name, once they exist.
    const std::vector<std::string> group = {"loc:@" + scope.op_name()};
    for (int id = first_new; id < g->num_nodes(); ++id) {
      g->node(id)->SetAttr("_class", AttrValue(group));
    }
  }
  // "weight/Assign", colocated with the variable by assign().
  initializer_ = minitf::assign(variable_, initial_value_).op();
  {
    colocate_with with_var(variable_.op());
    snapshot_ = identity(variable_, "read");
  }
  for (const std::string& key : collections) {
    g->AddToCollection(key, {this->name(), *this});
  }
  if (trainable &&
      std::find(collections.begin(), collections.end(),
                GraphKeys::TRAINABLE_VARIABLES) == collections.end()) {
    g->AddToCollection(GraphKeys::TRAINABLE_VARIABLES, {this->name(), *this});
  }
}
// --8<-- [end:variable_init]

Variable Variable::FromNodes(Output variable, Operation initializer,
                             Output snapshot, Output initial_value,
                             bool trainable) {
  Variable v;
  v.variable_ = variable;
  v.initializer_ = initializer;
  v.snapshot_ = snapshot;
  v.initial_value_ = initial_value;
  v.trainable_ = trainable;
  return v;
}

Output Variable::assign(Output value, bool use_locking,
                        const std::string& name) const {
  return minitf::assign(variable_, value, /*validate_shape=*/true, use_locking,
                        name);
}
Output Variable::assign(const Tensor& value, bool use_locking,
                        const std::string& name) const {
  return assign(constant(value), use_locking, name);
}
Output Variable::assign_add(Output delta, bool use_locking,
                            const std::string& name) const {
  return minitf::assign_add(variable_, delta, use_locking, name);
}
Output Variable::assign_add(const Tensor& delta, bool use_locking,
                            const std::string& name) const {
  return assign_add(constant(delta), use_locking, name);
}
Output Variable::assign_sub(Output delta, bool use_locking,
                            const std::string& name) const {
  return minitf::assign_sub(variable_, delta, use_locking, name);
}
Output Variable::assign_sub(const Tensor& delta, bool use_locking,
                            const std::string& name) const {
  return assign_sub(constant(delta), use_locking, name);
}

std::ostream& operator<<(std::ostream& os, const Variable& v) {
  return os << "<tf.Variable '" << v.name()
            << "' shape=" << PythonShapeString(v.shape())
            << " dtype=" << DataTypePythonName(v.dtype()) << "_ref>";
}

std::vector<Variable> global_variables(const std::string& scope) {
  return get_collection<Variable>(GraphKeys::GLOBAL_VARIABLES, scope);
}

std::vector<Variable> trainable_variables(const std::string& scope) {
  return get_collection<Variable>(GraphKeys::TRAINABLE_VARIABLES, scope);
}

Operation variables_initializer(const std::vector<Variable>& var_list,
                                const std::string& name) {
  if (var_list.empty()) return no_op(name);
  std::vector<Operation> initializers;
  for (const Variable& v : var_list) initializers.push_back(v.initializer());
  return group(initializers, name);
}

Operation global_variables_initializer() {
  return variables_initializer(global_variables(), "init");
}

Operation initialize_all_variables() { return global_variables_initializer(); }

Output is_variable_initialized(const Variable& variable,
                               const std::string& name) {
  return is_variable_initialized(variable.ref(), name);
}

}  // namespace minitf
