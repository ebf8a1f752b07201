// Variable scopes: how TensorFlow 1.x shares one set of variables among
// several copies of a model.
//
// A multi-GPU program builds its model once per GPU (a "tower"), and every
// tower must compute with the same weights. tf::Variable cannot do that: each
// call makes a new variable. tf::get_variable looks the variable up by its
// full name in a per-graph store instead, and the variable scope around it
// says whether it may create one (reuse false), must find one (reuse true)
// or either (AUTO_REUSE). A variable scope also opens a name scope of the
// same name, but the two name different things: a variable's name follows
// the variable scopes only, an op's name the name scopes.
//
//   for (int i = 0; i < 2; ++i) {
//     tf::variable_scope model("model", /*reuse=*/i > 0);   // model/w
//     auto w = tf::get_variable("w", {784, 10});             // one variable
//     auto y = tf::matmul(x[i], w);           // "model/MatMul", "model_1/..."
//   }
#pragma once

#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "minitf/graph/graph.h"
#include "minitf/graph/scope.h"
#include "minitf/tensor/dtype.h"
#include "minitf/tensor/tensor_shape.h"
#include "minitf/towers/variable_sharing/init_ops.h"
#include "minitf/train/variables.h"

namespace minitf {

/// The `reuse` of a variable scope. False creates, True finds, AUTO_REUSE
/// does whichever is needed. As in TensorFlow, False means "as the scope
/// around": once a scope reuses, every scope inside it does.
enum class Reuse { kFalse, kTrue, kAutoReuse };
/// tf.AUTO_REUSE.
inline constexpr Reuse AUTO_REUSE = Reuse::kAutoReuse;

/// A variable scope as an object: what `with tf.variable_scope(...) as
/// scope:` binds. A cheap handle; copies share the scope, so
/// reuse_variables() on any of them is seen by get_variable while the scope
/// is the current one.
///
/// Invariants: name() is the scope's full name without a trailing '/'
/// ("tower/layer1"; "" for the top); original_name_scope() is the name scope
/// opened when the scope was first entered ("tower/layer1/", "" for the
/// top).
class VariableScope {
 public:
  /// The top-level scope: name "", reuse false.
  VariableScope();
  VariableScope(std::string name, std::string original_name_scope, Reuse reuse);

  const std::string& name() const { return state_->name; }
  const std::string& original_name_scope() const {
    return state_->original_name_scope;
  }
  Reuse reuse() const { return state_->reuse; }
  /// scope.reuse_variables(): from here on, get_variable in this scope
  /// finds variables instead of creating them.
  void reuse_variables() { state_->reuse = Reuse::kTrue; }

 private:
  struct State {
    std::string name;
    std::string original_name_scope;
    Reuse reuse = Reuse::kFalse;
  };
  std::shared_ptr<State> state_;
};

/// tf.get_variable_scope(): the default graph's current variable scope.
VariableScope get_variable_scope();

/// `with tf.variable_scope(name_or_scope, reuse=reuse) as scope:`.
///
/// With a name, the new scope is "<current>/<name>", its reuse is `reuse`,
/// or the current scope's when `reuse` is false, and it opens
/// name_scope(name), made unique: entering "tower" twice gives name scopes
/// "tower/" and "tower_1/", one variable scope "tower". With a
/// VariableScope, that scope is entered again, wherever the code is: the
/// variable scope gets its name (not nested in the current one) and its
/// reuse unless `reuse` says more, and a name scope of its last component
/// is opened inside the current name scope. An empty name opens no name
/// scope.
///
/// Acts on the graph that is the default when it is constructed; guards
/// must be destroyed in the reverse order of construction. Throws
/// InvalidArgumentError for a name that is not a valid scope name.
class variable_scope {
 public:
  explicit variable_scope(const std::string& name, bool reuse = false);
  variable_scope(const std::string& name, Reuse reuse);
  explicit variable_scope(const VariableScope& scope, bool reuse = false);
  variable_scope(const VariableScope& scope, Reuse reuse);
  ~variable_scope();
  variable_scope(const variable_scope&) = delete;
  variable_scope& operator=(const variable_scope&) = delete;

  /// What `as scope` binds, to re-enter it later or pass it around.
  const VariableScope& scope() const { return scope_; }
  const std::string& name() const { return scope_.name(); }
  const std::string& original_name_scope() const {
    return scope_.original_name_scope();
  }
  Reuse reuse() const { return scope_.reuse(); }
  /// scope.reuse_variables().
  void reuse_variables() { scope_.reuse_variables(); }

 private:
  // `scope_name` is the name scope to open ("" for none); `original` the
  // scope's original_name_scope when it is entered again by object, nullptr
  // when it is entered by name (then it is the name scope opened).
  void Enter(std::string full_name, const std::string& scope_name, Reuse reuse,
             const std::string* original);

  Graph* graph_;
  VariableScope previous_;
  VariableScope scope_;
  std::optional<name_scope> name_scope_;
};

/// tf.get_variable(name, shape, initializer=..., trainable=...,
/// collections=..., dtype=...): the variable "<scope>/<name>" of the
/// default graph's current variable scope, found or created as its reuse
/// says. A new variable is built at the top of the name scopes, whatever
/// name scope is open, by Variable's callable form: its initial value is
/// `initializer` (by default glorot_uniform_initializer() for floating
/// dtypes and zeros_initializer() for the others) under
/// "<scope>/<name>/Initializer/". It joins `collections` and, when
/// trainable, TRAINABLE_VARIABLES.
///
/// Throws InvalidArgumentError, where TensorFlow raises ValueError, in its
/// words: "Variable tower_0/w already exists, disallowed. Did you mean to
/// set reuse=True or reuse=tf.AUTO_REUSE in VarScope?" (TensorFlow goes on
/// with the Python lines that created it, which C++ does not have);
/// "Variable w does not exist, or was not created with tf.get_variable().
/// Did you mean to set reuse=tf.AUTO_REUSE in VarScope?"; "Trying to share
/// variable w, but specified shape (3,) and found shape (2,)." (and the same
/// for dtypes); "Variable w did not get an initializer, so its `shape`
/// argument must be specified." when a new variable has no shape.
///
/// Variables are kept per graph: the same name in another graph is another
/// variable.
Variable get_variable(
    const std::string& name,
    const TensorShape& shape = TensorShape::UnknownRank(),
    const Initializer& initializer = nullptr, bool trainable = true,
    const std::vector<std::string>& collections = {GraphKeys::GLOBAL_VARIABLES},
    DType dtype = DT_FLOAT);

}  // namespace minitf
