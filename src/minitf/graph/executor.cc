#include "minitf/graph/executor.h"

#include <algorithm>
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

// --8<-- [start:nodes_to_run]
namespace {
// Whether a node's kernel may be skipped when nothing reads its outputs.
bool HasNoEffect(const Node& n) {
  const OpDef& def = n.op_def();
  // An op without outputs runs for what it does, as TensorFlow's rule has it.
  if (def.is_stateful || n.IsPlaceholder() || def.outputs.empty()) {
    return false;
  }
  for (const ArgDef& arg : def.inputs) {
    if (arg.is_ref) return false;
  }
  for (const ArgDef& arg : def.outputs) {
    if (arg.is_ref) return false;
  }
  return true;
}
}  // namespace

std::vector<bool> NodesToRun(const Graph& graph,
                             const std::vector<Output>& feeds,
                             const std::vector<Output>& fetches,
                             const std::vector<const Node*>& targets) {
  enum Reach : uint8_t { kNone, kOrderOnly, kRun };
  std::vector<uint8_t> reach(graph.num_nodes(), kNone);
  auto is_fed = [&feeds](const Output& t) {
    return std::find(feeds.begin(), feeds.end(), t) != feeds.end();
  };
  std::vector<const Node*> work;
  // Raises a node's mark; a node raised from kOrderOnly to kRun is walked
  // again, now asking its inputs for their values.
  auto raise = [&](const Node* n, Reach how) {
    if (how == kOrderOnly && !HasNoEffect(*n)) how = kRun;
    if (reach[n->id()] < how) {
      reach[n->id()] = how;
      work.push_back(n);
    }
  };
  for (const Output& t : fetches) {
    if (!is_fed(t)) raise(t.node(), kRun);
  }
  for (const Node* n : targets) raise(n, kRun);
  while (!work.empty()) {
    const Node* n = work.back();
    work.pop_back();
    const Reach inputs = reach[n->id()] == kRun ? kRun : kOrderOnly;
    for (const Output& in : n->inputs()) {
      if (!is_fed(in)) raise(in.node(), inputs);
    }
    for (const Node* c : n->control_inputs()) raise(c, kOrderOnly);
  }
  std::vector<bool> run(graph.num_nodes());
  for (int id = 0; id < graph.num_nodes(); ++id) run[id] = reach[id] == kRun;
  return run;
}
// --8<-- [end:nodes_to_run]

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

namespace {

// The nodes a run needs, numbered 0..n-1 in creation order, and where each
// tensor it reads lives among the plan's value slots.
struct PlanIndex {
  std::vector<int> local_of;       // node id -> its number, or -1
  std::vector<const Node*> nodes;  // number -> node
  std::map<std::pair<int, int>, int> feed_index;  // (node id, output) -> feed
  std::vector<int32_t> first_slot;  // number -> slot of its output 0

  // The feed that supplies `t`, or -1.
  int fed(const Output& t) const {
    auto it = feed_index.find({t.node()->id(), t.index()});
    return it == feed_index.end() ? -1 : it->second;
  }
  int32_t slot_of(const Output& t) const {
    const int f = fed(t);
    return f >= 0 ? f : first_slot[local_of[t.node()->id()]] + t.index();
  }
};

// Step 1: the needed nodes, numbered; an unfed placeholder among them fails
// the plan before any kernel runs.
StatusOr<PlanIndex> NumberNeededNodes(const Graph& graph,
                                      const std::vector<Output>& feeds,
                                      const std::vector<Output>& fetches,
                                      const std::vector<const Node*>& targets) {
  const std::vector<bool> needed = NodesToRun(graph, feeds, fetches, targets);
  PlanIndex index;
  index.local_of.assign(graph.num_nodes(), -1);
  for (int id = 0; id < graph.num_nodes(); ++id) {
    if (!needed[id]) continue;
    const Node* n = graph.node(id);
    if (n->IsPlaceholder()) return UnfedPlaceholderError(*n);
    index.local_of[id] = static_cast<int>(index.nodes.size());
    index.nodes.push_back(n);
  }
  for (int i = 0; i < static_cast<int>(feeds.size()); ++i) {
    index.feed_index.emplace(
        std::make_pair(feeds[i].node()->id(), feeds[i].index()), i);
  }
  return index;
}

// Step 2: an order in which every node follows its control inputs and the
// producers of its unfed inputs.
StatusOr<std::vector<int>> OrderNodes(const PlanIndex& index) {
  const std::vector<const Node*>& nodes = index.nodes;
  std::vector<std::vector<int>> preds(nodes.size());
  for (size_t i = 0; i < nodes.size(); ++i) {
    for (const Output& in : nodes[i]->inputs()) {
      if (index.fed(in) < 0)
        preds[i].push_back(index.local_of[in.node()->id()]);
    }
    // A control input that does not run (NodesToRun) orders through its
    // own inputs, and theirs, up to the nodes that run.
    std::vector<const Node*> through(nodes[i]->control_inputs().begin(),
                                     nodes[i]->control_inputs().end());
    std::vector<bool> seen;
    while (!through.empty()) {
      const Node* c = through.back();
      through.pop_back();
      if (index.local_of[c->id()] >= 0) {
        preds[i].push_back(index.local_of[c->id()]);
        continue;
      }
      if (seen.empty()) seen.assign(index.local_of.size(), false);
      if (seen[c->id()]) continue;
      seen[c->id()] = true;
      for (const Output& in : c->inputs()) {
        if (index.fed(in) < 0) through.push_back(in.node());
      }
      for (const Node* cc : c->control_inputs()) through.push_back(cc);
    }
  }
  return TopologicalSort(preds, [&](int i) { return nodes[i]->name(); });
}

// Step 3: slots, fed values first, then each node's outputs, consecutively.
void AssignSlots(const std::vector<int>& order,
                 const std::vector<Output>& feeds, PlanIndex* index,
                 ExecutionPlan* plan) {
  int32_t next_slot = static_cast<int32_t>(feeds.size());
  index->first_slot.resize(index->nodes.size());
  for (int local : order) {
    index->first_slot[local] = next_slot;
    next_slot += index->nodes[local]->num_outputs();
  }
  plan->num_values = next_slot;
  for (int i = 0; i < static_cast<int>(feeds.size()); ++i) {
    plan->feeds.push_back({feeds[i], i});
  }
}

// Step 4: one step per node, in `order`, recording for each slot the last
// step that reads it and the step that writes it.
Status AddSteps(const std::vector<int>& order, const PlanIndex& index,
                const KernelProvider& kernel_for, ExecutionPlan* plan,
                std::vector<int32_t>* last_reader,
                std::vector<int32_t>* producer) {
  last_reader->assign(plan->num_values, -1);
  producer->assign(plan->num_values, -1);
  for (int local : order) {
    const Node* n = index.nodes[local];
    PlanStep step;
    TF_ASSIGN_OR_RETURN(step.kernel, kernel_for(*n));
    step.node = n;
    step.inputs_begin = static_cast<int32_t>(plan->input_slots.size());
    step.num_inputs = n->num_inputs();
    step.output_slot = index.first_slot[local];
    step.num_outputs = n->num_outputs();
    const auto k = static_cast<int32_t>(plan->steps.size());
    for (const Output& in : n->inputs()) {
      const int32_t s = index.slot_of(in);
      plan->input_slots.push_back(s);
      (*last_reader)[s] = k;
    }
    for (int o = 0; o < step.num_outputs; ++o)
      (*producer)[step.output_slot + o] = k;
    plan->steps.push_back(step);
  }
  return Status::OK();
}

// Step 5: the fetches' slots, and the step that rereads a fetched reference.
// Returns which slots are fetched.
std::vector<bool> AddFetches(const std::vector<Output>& fetches,
                             const PlanIndex& index,
                             const std::vector<int32_t>& producer,
                             ExecutionPlan* plan) {
  std::vector<bool> fetched(plan->num_values, false);
  for (const Output& t : fetches) {
    plan->fetch_slots.push_back(index.slot_of(t));
    plan->fetches.push_back(t);
    fetched[plan->fetch_slots.back()] = true;
    plan->fetch_reread_steps.push_back(index.fed(t) < 0 && HasRefType(t)
                                           ? producer[plan->fetch_slots.back()]
                                           : -1);
  }
  return fetched;
}

// Step 6: a value dies after its last reader, or at once if no one reads
// it, so a run holds only the values still ahead of it, not the whole
// graph's. A fetched value is never released.
void ScheduleReleases(const std::vector<bool>& fetched,
                      const std::vector<int32_t>& last_reader,
                      const std::vector<int32_t>& producer,
                      ExecutionPlan* plan) {
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
}

}  // namespace

StatusOr<std::unique_ptr<ExecutionPlan>> BuildPlan(
    const Graph& graph, const std::vector<Output>& feeds,
    const std::vector<Output>& fetches, const std::vector<const Node*>& targets,
    const KernelProvider& kernel_for) {
  TF_ASSIGN_OR_RETURN(PlanIndex index,
                      NumberNeededNodes(graph, feeds, fetches, targets));
  TF_ASSIGN_OR_RETURN(std::vector<int> order, OrderNodes(index));
  auto plan = std::make_unique<ExecutionPlan>();
  AssignSlots(order, feeds, &index, plan.get());
  std::vector<int32_t> last_reader, producer;
  TF_RETURN_IF_ERROR(
      AddSteps(order, index, kernel_for, plan.get(), &last_reader, &producer));
  const std::vector<bool> fetched =
      AddFetches(fetches, index, producer, plan.get());
  ScheduleReleases(fetched, last_reader, producer, plan.get());
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
