#include "minitf/train/gradients/gradients.h"

#include <algorithm>
#include <deque>
#include <map>
#include <set>

#include "minitf/graph/ops/array_ops.h"
#include "minitf/graph/ops/build.h"
#include "minitf/graph/ops/math_ops.h"
#include "minitf/graph/scope.h"

namespace minitf {

GradientRegistry* GradientRegistry::Global() {
  static auto* registry = new GradientRegistry;
  return registry;
}

void GradientRegistry::Register(const std::string& op_type, GradFn fn,
                                int priority) {
  MINITF_CHECK(!not_differentiable_.contains(op_type));
  MINITF_CHECK(fns_[op_type].Add(priority, std::move(fn)).ok());
}

Status GradientRegistry::Unregister(const std::string& op_type, int priority) {
  auto it = fns_.find(op_type);
  if (it == fns_.end() || !it->second.Remove(priority)) {
    return errors::NotFound("No gradient for '", op_type, "' with priority ",
                            priority, " is registered");
  }
  if (it->second.empty()) fns_.erase(it);
  return Status::OK();
}

void GradientRegistry::RegisterNotDifferentiable(const std::string& op_type) {
  MINITF_CHECK(!fns_.contains(op_type));
  not_differentiable_[op_type] = true;
}

const GradFn* GradientRegistry::Lookup(const std::string& op_type) const {
  auto it = fns_.find(op_type);
  return it == fns_.end() ? nullptr : it->second.Best();
}

bool GradientRegistry::IsNotDifferentiable(const std::string& op_type) const {
  return not_differentiable_.contains(op_type);
}

std::vector<std::string> GradientRegistry::OpTypes() const {
  std::vector<std::string> types;
  for (const auto& [type, fn] : fns_) types.push_back(type);
  return types;
}

namespace {

bool IsDifferentiableType(DType t) { return t == DT_FLOAT || t == DT_DOUBLE; }

// The gradients reaching one tensor, summed: None, the one, or an AddN
// colocated with the first of them (TensorFlow's _MultiDeviceAddN on one
// device).
Output Aggregate(const std::vector<Output>& grads) {
  std::vector<Output> valid;
  for (const Output& g : grads) {
    if (g.valid()) valid.push_back(g);
  }
  if (valid.empty()) return Output();
  if (valid.size() == 1) return valid[0];
  colocate_with with_first(valid[0].op(), /*ignore_existing=*/true);
  return add_n(valid);
}

// --8<-- [start:tuple]
// control_flow_ops.tuple: every gradient of one op waits for all of them.
// A NoOp "tuple/group_deps" waits for their ops; each gradient passes
// through an Identity "tuple/control_dependency[_N]", colocated with it,
// that waits for the NoOp. What reads a gradient then sees all of its op's
// gradients computed, the "gate" of TensorFlow's gate_gradients.
std::vector<Output> Tuple(const std::vector<Output>& tensors) {
  ops::OpScope scope("", "tuple", {});
  std::vector<Operation> gating;
  for (const Output& t : tensors) {
    if (t.valid() &&
        std::find(gating.begin(), gating.end(), t.op()) == gating.end()) {
      gating.push_back(t.op());
    }
  }
  std::sort(gating.begin(), gating.end(),
            [](const Operation& a, const Operation& b) {
              return a.node()->id() < b.node()->id();
            });
  const Operation gate = group(gating);
  std::vector<Output> out;
  for (const Output& t : tensors) {
    if (!t.valid()) {
      out.emplace_back();
      continue;
    }
    ops::OpScope dep("", "control_dependency", {t});
    colocate_with with_t(t.op());
    control_dependencies after({gate});
    out.push_back(identity(t, dep.op_name() + "/"));
  }
  return out;
}
// --8<-- [end:tuple]

void CheckSameGraph(const std::vector<Output>& tensors, Graph** graph) {
  for (const Output& t : tensors) {
    if (!t.valid()) {
      throw errors::InvalidArgumentError(
          "tf.gradients: an argument is not a tensor (an empty Output)");
    }
    Graph* g = t.graph();  // Throws when the graph is gone.
    if (*graph == nullptr) *graph = g;
    if (g != *graph) {
      throw errors::InvalidArgumentError(
          StrCat("Tensor ", t.name(),
                 " must be from the same graph as the other tensors passed "
                 "to tf.gradients."));
    }
  }
}

// The gradients that reached each tensor so far.
using GradMap = std::map<Output, std::vector<Output>>;

// Step 1: the ops reachable forward from xs and backward from ys.
std::set<Node*> OpsBetween(const std::vector<Output>& xs,
                           const std::vector<Output>& ys) {
  std::set<Node*> from_xs;
  std::deque<Node*> queue;
  for (const Output& x : xs) queue.push_back(x.node());
  while (!queue.empty()) {
    Node* n = queue.front();
    queue.pop_front();
    if (!from_xs.insert(n).second) continue;
    for (Node* c : n->consumers()) queue.push_back(c);
  }
  std::set<Node*> between;
  for (const Output& y : ys) queue.push_back(y.node());
  while (!queue.empty()) {
    Node* n = queue.front();
    queue.pop_front();
    if (!from_xs.contains(n) || !between.insert(n).second) continue;
    for (const Output& in : n->inputs()) queue.push_back(in.node());
  }
  return between;
}

// Step 2: per op, how many data edges inside `between` leave it, each one a
// consumer that still owes it a gradient.
std::map<Node*, int> PendingCounts(const std::set<Node*>& between) {
  std::map<Node*, int> pending;
  for (Node* n : between) {
    for (const Output& in : n->inputs()) {
      if (between.contains(in.node())) ++pending[in.node()];
    }
  }
  return pending;
}

// Step 3's seed: each y's gradient is its grad_ys entry, or ones shaped
// like y, as array_ops.ones(array_ops.shape(y), name="grad_ys_<i>").
GradMap SeedGradients(const std::vector<Output>& ys,
                      const std::vector<Output>& grad_ys) {
  GradMap grads;
  for (size_t i = 0; i < ys.size(); ++i) {
    const Output& y = ys[i];
    Output g = i < grad_ys.size() ? grad_ys[i] : Output();
    if (!g.valid()) {
      Output dims = shape(y);
      ops::OpScope ones("", StrCat("grad_ys_", i), {dims});
      Output one = internal::ScalarConst(1.0, y.dtype(), "Const");
      g = ops::AddOp(NodeBuilder("Fill", ones.op_name())
                         .ExactName()
                         .Input(dims)
                         .Input(one),
                     {dims, one});
    }
    grads[y].push_back(g);
  }
  return grads;
}

// --8<-- [start:backprop_op]
// Step 3, for one ready op: sums the gradients that reached each of its
// outputs and calls its gradient function on them. Returns a gradient per
// input, all empty when none reached it or it is not differentiable.
std::vector<Output> BackpropOp(Node* n, bool gate_gradients, GradMap* grads) {
  const GradientRegistry& registry = *GradientRegistry::Global();
  std::vector<Output> out_grads(n->num_outputs());
  bool any = false;
  for (int i = 0; i < n->num_outputs(); ++i) {
    auto it = grads->find(Output(n, i));
    if (it == grads->end()) continue;
    out_grads[i] = Aggregate(it->second);
    it->second = {out_grads[i]};
    any = any || out_grads[i].valid();
  }
  if (!any || n->num_inputs() == 0 ||
      registry.IsNotDifferentiable(n->type_string())) {
    return std::vector<Output>(n->num_inputs());
  }
  const GradFn* fn = registry.Lookup(n->type_string());
  if (fn == nullptr) {
    throw errors::LookupError(StrCat("No gradient defined for operation '",
                                     n->name(),
                                     "' (op type: ", n->type_string(), ")"));
  }
  // A float output no gradient reached gets zeros ("zeros_like"), so that
  // gradient functions see a tensor for each one.
  for (int i = 0; i < n->num_outputs(); ++i) {
    if (!out_grads[i].valid() && IsDifferentiableType(n->output_type(i))) {
      out_grads[i] = zeros_like(Output(n, i));
    }
  }
  name_scope op_scope(StrCat(n->name(), "_grad"));
  std::vector<Output> in_grads = (*fn)(Operation(n), out_grads);
  MINITF_CHECK(static_cast<int>(in_grads.size()) == n->num_inputs());
  const auto valid = std::count_if(in_grads.begin(), in_grads.end(),
                                   [](const Output& g) { return g.valid(); });
  if (gate_gradients && valid > 1) {
    device_scope no_device(nullptr);
    colocate_with no_colocation(Operation(), /*ignore_existing=*/true);
    in_grads = Tuple(in_grads);
  }
  return in_grads;
}
// --8<-- [end:backprop_op]

}  // namespace

// --8<-- [start:gradients]
// The algorithm, as TensorFlow's gradients_impl.py:
//   1. between = ops reachable forward from xs AND backward from ys;
//   2. pending[op] = how many consumers in `between` still owe it a gradient;
//   3. seed each y with grad_ys (ones by default) and visit ops in reverse
//      topological order: an op is ready when all its consumers have given
//      their gradients; sum them per output and call its gradient function;
//   4. each x's gradient is the sum of what reached it.
std::vector<Output> gradients(const std::vector<Output>& ys,
                              const std::vector<Output>& xs,
                              const std::vector<Output>& grad_ys,
                              const std::string& name, bool gate_gradients) {
  Graph* graph = nullptr;
  CheckSameGraph(ys, &graph);
  CheckSameGraph(xs, &graph);
  if (!grad_ys.empty() && grad_ys.size() != ys.size()) {
    throw errors::InvalidArgumentError(
        StrCat("Passed ", grad_ys.size(), " grad_ys for ", ys.size(), " ys"));
  }
  if (graph == nullptr) return {};
  graph_scope use(*graph);
  name_scope scope(name);

  // 1. The ops between xs and ys.
  const std::set<Node*> between = OpsBetween(xs, ys);
  // 2. Pending counts: one per data edge inside `between`.
  std::map<Node*, int> pending = PendingCounts(between);
  // 3. Seed the ys and walk backwards: an op's gradients go to its inputs,
  //    and an input whose last consumer has given its gradient is ready.
  GradMap grads = SeedGradients(ys, grad_ys);
  std::deque<Node*> ready;
  for (Node* n : between) {
    if (pending[n] == 0) ready.push_back(n);
  }
  while (!ready.empty()) {
    Node* n = ready.front();
    ready.pop_front();
    const std::vector<Output> in_grads = BackpropOp(n, gate_gradients, &grads);
    for (int i = 0; i < n->num_inputs(); ++i) {
      const Output& in = n->input(i);
      if (!between.contains(in.node())) continue;
      if (in_grads[i].valid() && IsDifferentiableType(in.dtype())) {
        grads[in].push_back(in_grads[i]);
      }
      if (--pending[in.node()] == 0) ready.push_back(in.node());
    }
  }
  // 4. Sum what reached each x.
  std::vector<Output> result;
  for (const Output& x : xs) {
    auto it = grads.find(x);
    result.push_back(it == grads.end() ? Output() : Aggregate(it->second));
  }
  return result;
}
// --8<-- [end:gradients]

MINITF_NOT_DIFFERENTIABLE("StopGradient");

}  // namespace minitf
