#include "minitf/graph/executor.h"

#include <functional>
#include <map>
#include <queue>
#include <utility>

#include "minitf/graph/shape_inference.h"

namespace minitf {

// --8<-- [start:prune]
std::vector<bool> PruneForFetches(const Graph& graph,
                                  const std::vector<Output>& feeds,
                                  const std::vector<Output>& fetches,
                                  const std::vector<const Node*>& targets) {
  std::vector<bool> needed(graph.num_nodes(), false);
  auto is_fed = [&feeds](const Output& t) {
    for (const Output& f : feeds) {
      if (f == t) return true;
    }
    return false;
  };
  std::vector<const Node*> work;
  auto need = [&](const Node* n) {
    if (!needed[n->id()]) {
      needed[n->id()] = true;
      work.push_back(n);
    }
  };
  for (const Output& t : fetches) {
    if (!is_fed(t)) need(t.node());  // A fed fetch is answered by its feed.
  }
  for (const Node* n : targets) need(n);
  while (!work.empty()) {
    const Node* n = work.back();
    work.pop_back();
    for (const Output& in : n->inputs()) {
      if (!is_fed(in)) need(in.node());  // A feed cuts the data edge...
    }
    for (const Node* c : n->control_inputs()) need(c);  // ...never an order.
  }
  return needed;
}
// --8<-- [end:prune]

StatusOr<std::vector<int>> TopologicalSort(
    const std::vector<std::vector<int>>& preds,
    const std::function<std::string(int)>& name_of) {
  const int n = static_cast<int>(preds.size());
  std::vector<int> pending(n, 0);
  std::vector<std::vector<int>> succs(n);
  for (int i = 0; i < n; ++i) {
    for (int p : preds[i]) {
      ++pending[i];
      succs[p].push_back(i);
    }
  }
  // A min-heap of ready nodes: the smallest index runs first, so the order
  // follows creation order wherever the edges leave a choice.
  std::priority_queue<int, std::vector<int>, std::greater<int>> ready;
  for (int i = 0; i < n; ++i) {
    if (pending[i] == 0) ready.push(i);
  }
  std::vector<int> order;
  order.reserve(n);
  while (!ready.empty()) {
    const int i = ready.top();
    ready.pop();
    order.push_back(i);
    for (int s : succs[i]) {
      if (--pending[s] == 0) ready.push(s);
    }
  }
  if (static_cast<int>(order.size()) < n) {
    // Nodes still pending are on a cycle or downstream of one.
    std::string names;
    int listed = 0;
    for (int i = 0; i < n && listed < 3; ++i) {
      if (pending[i] == 0) continue;
      names += (listed++ > 0 ? ", " : "") + name_of(i);
    }
    return errors::InvalidArgument("Graph is invalid, contains a cycle with ",
                                   n - static_cast<int>(order.size()),
                                   " nodes, including: ", names);
  }
  return order;
}

bool HasRefType(const Output& t) {
  int first = 0;
  for (const ArgDef& arg : t.node()->op_def().outputs) {
    int count = 1;
    if (!arg.number_attr.empty()) {
      auto n = t.node()->attrs().find(arg.number_attr);
      count = n == t.node()->attrs().end() || !n->second.holds<int64_t>()
                  ? 0
                  : static_cast<int>(n->second.get<int64_t>());
    }
    if (t.index() < first + count) return arg.is_ref;
    first += count;
  }
  return false;
}

Status AttachNodeName(const Status& status, const Node& node) {
  if (status.ok()) return status;
  return Status(status.code(),
                status.message() + "\n\t [[{{node " + node.name() + "}}]]");
}

Status UninitializedValueError(std::string_view input_name) {
  return errors::FailedPrecondition("Attempting to use uninitialized value ",
                                    input_name);
}

// TensorFlow names an input "weight" for output 0 and "split:1" otherwise.
Status UninitializedValueError(const Output& t) {
  return UninitializedValueError(t.index() == 0 ? t.node()->name() : t.name());
}

// The placeholder kernel's own complaint, given when planning finds an unfed
// placeholder so that no kernel has run before the run fails.
Status UnfedPlaceholderError(const Node& node) {
  const DType dtype = GetAttr<DType>(node.attrs(), "dtype").value();
  const TensorShape shape = GetAttr<TensorShape>(node.attrs(), "shape").value();
  return AttachNodeName(
      errors::InvalidArgument(
          "You must feed a value for placeholder tensor '", node.name(),
          "' with dtype ", DataTypeString(dtype),
          shape.unknown_rank() ? std::string()
                               : " and shape " + ShapeErrorString(shape)),
      node);
}

StatusOr<std::unique_ptr<ExecutionPlan>> BuildPlan(
    const Graph& graph, const std::vector<Output>& feeds,
    const std::vector<Output>& fetches, const std::vector<const Node*>& targets,
    const KernelProvider& kernel_for) {
  const std::vector<bool> needed =
      PruneForFetches(graph, feeds, fetches, targets);

  // Number the needed nodes 0..n-1 in creation order.
  std::vector<int> local_of(graph.num_nodes(), -1);
  std::vector<const Node*> nodes;
  for (int id = 0; id < graph.num_nodes(); ++id) {
    if (!needed[id]) continue;
    const Node* n = graph.node(id);
    if (n->IsPlaceholder()) return UnfedPlaceholderError(*n);
    local_of[id] = static_cast<int>(nodes.size());
    nodes.push_back(n);
  }

  std::map<std::pair<int, int>, int> feed_index;
  for (int i = 0; i < static_cast<int>(feeds.size()); ++i) {
    feed_index.emplace(std::make_pair(feeds[i].node()->id(), feeds[i].index()),
                       i);
  }
  auto fed = [&](const Output& t) -> int {
    auto it = feed_index.find({t.node()->id(), t.index()});
    return it == feed_index.end() ? -1 : it->second;
  };

  std::vector<std::vector<int>> preds(nodes.size());
  for (size_t i = 0; i < nodes.size(); ++i) {
    for (const Output& in : nodes[i]->inputs()) {
      if (fed(in) < 0) preds[i].push_back(local_of[in.node()->id()]);
    }
    for (const Node* c : nodes[i]->control_inputs()) {
      preds[i].push_back(local_of[c->id()]);
    }
  }
  TF_ASSIGN_OR_RETURN(
      std::vector<int> order,
      TopologicalSort(preds, [&](int i) { return nodes[i]->name(); }));

  // Slots: fed values first, then each node's outputs, consecutively.
  auto plan = std::make_unique<ExecutionPlan>();
  int32_t next_slot = static_cast<int32_t>(feeds.size());
  std::vector<int32_t> first_slot(nodes.size());
  for (int local : order) {
    first_slot[local] = next_slot;
    next_slot += nodes[local]->num_outputs();
  }
  plan->num_values = next_slot;
  auto slot_of = [&](const Output& t) -> int32_t {
    const int f = fed(t);
    return f >= 0 ? f : first_slot[local_of[t.node()->id()]] + t.index();
  };
  for (int i = 0; i < static_cast<int>(feeds.size()); ++i) {
    plan->feeds.push_back({feeds[i], i});
  }

  // Steps, recording the last step that reads each slot.
  std::vector<int32_t> last_reader(plan->num_values, -1);
  std::vector<int32_t> producer(plan->num_values, -1);
  for (int local : order) {
    const Node* n = nodes[local];
    PlanStep step;
    TF_ASSIGN_OR_RETURN(step.kernel, kernel_for(*n));
    step.node = n;
    step.inputs_begin = static_cast<int32_t>(plan->input_slots.size());
    step.num_inputs = n->num_inputs();
    step.output_slot = first_slot[local];
    step.num_outputs = n->num_outputs();
    const auto k = static_cast<int32_t>(plan->steps.size());
    for (const Output& in : n->inputs()) {
      const int32_t s = slot_of(in);
      plan->input_slots.push_back(s);
      last_reader[s] = k;
    }
    for (int o = 0; o < step.num_outputs; ++o)
      producer[step.output_slot + o] = k;
    plan->steps.push_back(step);
  }

  std::vector<bool> fetched(plan->num_values, false);
  for (const Output& t : fetches) {
    plan->fetch_slots.push_back(slot_of(t));
    plan->fetches.push_back(t);
    fetched[plan->fetch_slots.back()] = true;
    plan->fetch_reread_steps.push_back(
        fed(t) < 0 && HasRefType(t) ? producer[plan->fetch_slots.back()] : -1);
  }

  // A value dies after its last reader, or at once if no one reads it, so a
  // run holds only the values still ahead of it, not the whole graph's.
  std::vector<std::vector<int32_t>> release_after(plan->steps.size());
  for (int32_t s = 0; s < plan->num_values; ++s) {
    if (fetched[s]) continue;
    const int32_t when = last_reader[s] >= 0 ? last_reader[s] : producer[s];
    if (when >= 0) release_after[when].push_back(s);
  }
  for (size_t k = 0; k < plan->steps.size(); ++k) {
    plan->steps[k].release_begin = static_cast<int32_t>(plan->releases.size());
    plan->releases.insert(plan->releases.end(), release_after[k].begin(),
                          release_after[k].end());
    plan->steps[k].release_end = static_cast<int32_t>(plan->releases.size());
  }
  return plan;
}

namespace {

// A fetched reference shows what it refers to as the run leaves it:
// TensorFlow's fetch of a variable shares its buffer, which the run's
// updates write in place, where minitf's may write a copy (chapter 3).
Status RereadFetchedRefs(const ExecutionPlan& plan,
                         OpKernelContext::Params params,
                         std::vector<Tensor>* fetched) {
  for (size_t f = 0; f < plan.fetch_reread_steps.size(); ++f) {
    if (plan.fetch_reread_steps[f] < 0) continue;
    const PlanStep& step = plan.steps[plan.fetch_reread_steps[f]];
    std::vector<Tensor> outputs(step.num_outputs);
    params.inputs = nullptr;
    params.num_inputs = 0;
    params.outputs = outputs.data();
    params.num_outputs = step.num_outputs;
    OpKernelContext ctx(params);
    Status s = step.kernel->RereadRef(&ctx);
    if (!s.ok()) return AttachNodeName(s, *step.node);
    Tensor& now = outputs[plan.fetches[f].index()];
    if (now.IsInitialized()) (*fetched)[f] = std::move(now);
  }
  return Status::OK();
}

}  // namespace

// --8<-- [start:run_plan]
Status RunPlan(const ExecutionPlan& plan,
               const std::vector<Tensor>& feed_values, const RunEnv& env,
               std::vector<Tensor>* fetched) {
  // This run's values, and each step input as a pointer into them. Two
  // allocations per run, none per step.
  std::vector<Tensor> values(plan.num_values);
  for (size_t i = 0; i < plan.feeds.size(); ++i) {
    values[plan.feeds[i].slot] = feed_values[i];
  }
  std::vector<const Tensor*> inputs(plan.input_slots.size());
  for (size_t i = 0; i < inputs.size(); ++i) {
    inputs[i] = &values[plan.input_slots[i]];
  }

  OpKernelContext::Params params;
  params.allocator = env.allocator;
  params.resource_manager = env.resource_manager;
  params.step_id = env.step_id;
  params.step_extension = env.step_extension;
  Tensor* const value = values.data();
  const int32_t* const releases = plan.releases.data();
  for (const PlanStep& step : plan.steps) {
    params.inputs = inputs.data() + step.inputs_begin;
    params.num_inputs = step.num_inputs;
    params.outputs = value + step.output_slot;
    params.num_outputs = step.num_outputs;
    const OpDef& def = step.node->op_def();
    // Only a variable leaves an output unset, when it holds no value yet;
    // its readers stop here, before a kernel sees an empty tensor.
    if (!def.allows_uninitialized_input) {
      for (int32_t i = 0; i < step.num_inputs; ++i) {
        if (!params.inputs[i]->IsInitialized()) {
          return AttachNodeName(UninitializedValueError(step.node->input(i)),
                                *step.node);
        }
      }
    }
    OpKernelContext ctx(params);
    Status s = step.kernel->Compute(&ctx);
    if (!s.ok()) return AttachNodeName(s, *step.node);
    for (int32_t o = 0; o < step.num_outputs; ++o) {
      if (!def.may_output_uninitialized &&
          !value[step.output_slot + o].IsInitialized()) {
        return AttachNodeName(
            errors::Internal("The kernel of '", step.node->type_string(),
                             "' did not set its output ", o),
            *step.node);
      }
    }
    for (int32_t r = step.release_begin; r < step.release_end; ++r) {
      value[releases[r]] = Tensor();
    }
  }

  for (size_t f = 0; f < plan.fetch_slots.size(); ++f) {
    if (!values[plan.fetch_slots[f]].IsInitialized()) {
      return AttachNodeName(UninitializedValueError(plan.fetches[f]),
                            *plan.fetches[f].node());
    }
  }
  fetched->clear();
  fetched->reserve(plan.fetch_slots.size());
  for (int32_t s : plan.fetch_slots) fetched->push_back(values[s]);
  return RereadFetchedRefs(plan, params, fetched);
}
// --8<-- [end:run_plan]

}  // namespace minitf
