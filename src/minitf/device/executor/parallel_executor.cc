#include "minitf/device/executor/parallel_executor.h"

#include <optional>
#include <string_view>
#include <utility>

#include "minitf/device/executor/async_op_kernel.h"
#include "minitf/device/executor/notification.h"
#include "minitf/device/partition/sendrecv_ops.h"
#include "minitf/tensor/kernels/intra_op.h"

namespace minitf {

StatusOr<std::unique_ptr<OpKernel>> CreateKernelOnDevice(const Node& node,
                                                         Device* device) {
  const bool borrowed =
      KernelRegistry::Global()->IsAliased(node, device->device_type());
  ScopedDefaultAllocator on_device(
      borrowed && !device->allocator()->HostAccessible()
          ? cpu_allocator()
          : device->kernel_allocator());
  TF_ASSIGN_OR_RETURN(
      std::unique_ptr<OpKernel> kernel,
      KernelRegistry::Global()->CreateKernel(node, device->device_type()));
  if (!borrowed) return kernel;
  return device->AdoptCpuKernel(node, std::move(kernel));
}

// --- ExecutorBarrier ---------------------------------------------------------

ExecutorBarrier::ExecutorBarrier(int num_executors, Rendezvous* rendezvous,
                                 StatusCallback done)
    : rendezvous_(rendezvous),
      done_(std::move(done)),
      pending_(num_executors) {}

// --8<-- [start:barrier_abort]
void ExecutorBarrier::Abort(const Status& status) {
  MINITF_CHECK(!status.ok());
  Status first;
  {
    std::lock_guard<std::mutex> lock(mu_);
    if (status_.ok()) status_ = status;
    first = status_;
  }
  aborted_.store(true, std::memory_order_release);
  // Outside the lock: the abort runs the callbacks of waiting _Recvs, whose
  // executors may report here.
  if (rendezvous_ != nullptr) rendezvous_->StartAbort(first);
}
// --8<-- [end:barrier_abort]

void ExecutorBarrier::ExecutorDone(const Status& status) {
  if (!status.ok()) Abort(status);
  bool last;
  Status result;
  {
    std::lock_guard<std::mutex> lock(mu_);
    last = --pending_ == 0;
    result = status_;
  }
  if (last) {
    // Nothing of the barrier is touched after `done`: the waiter may free it.
    StatusCallback done = std::move(done_);
    done(result);
  }
}

// --- Compiled graph ----------------------------------------------------------

struct ParallelExecutor::Item {
  const Node* node = nullptr;
  OpKernel* kernel = nullptr;
  AsyncOpKernel* async = nullptr;  // `kernel` when it is asynchronous
  int32_t input_begin = 0;
  int32_t num_inputs = 0;
  int32_t output_slot = 0;
  int32_t num_outputs = 0;
  int32_t successors_begin = 0;
  int32_t num_successors = 0;
  int32_t num_predecessors = 0;
  bool allows_uninitialized_input = false;
  bool may_output_uninitialized = false;
  bool cheap = false;          // worth no hand-off to another thread
  bool preamble = false;       // runs before the rest (see Create)
  std::string timeline_label;  // "name = Op(a, b:1, ^c)", for traces
};

namespace {

// "name = Op(a, b:1, ^c)": the node as TensorFlow's step stats label it.
std::string TimelineLabel(const Node& n) {
  std::string label = n.name() + " = " + n.type_string() + "(";
  bool first = true;
  auto add = [&](const std::string& input) {
    label += (first ? "" : ", ") + input;
    first = false;
  };
  for (const Output& in : n.inputs()) {
    add(in.index() == 0 ? in.node()->name() : in.name());
  }
  for (const Node* c : n.control_inputs()) add("^" + c->name());
  return label + ")";
}

// Ops that take less time than handing them to another thread would: those
// without inputs (constants, variables, _Recv) and the plumbing ops.
bool IsCheap(const Node& n) {
  const std::string& op = n.type_string();
  return n.num_inputs() == 0 || op == kSendOp || op == "Identity" ||
         op == "NoOp";
}

}  // namespace

ParallelExecutor::ParallelExecutor(const Graph* graph, Device* device)
    : graph_(graph),
      device_(device),
      intra_op_pool_(device->intra_op_thread_pool()) {}

ParallelExecutor::~ParallelExecutor() = default;

StatusOr<std::unique_ptr<ParallelExecutor>> ParallelExecutor::Create(
    const Graph* graph, Device* device, const KernelProvider& kernel_for) {
  std::unique_ptr<ParallelExecutor> exec(new ParallelExecutor(graph, device));
  const int n = graph->num_nodes();
  exec->items_.resize(n);
  int32_t next_slot = 0;
  for (int id = 0; id < n; ++id) {
    exec->items_[id].output_slot = next_slot;
    next_slot += graph->node(id)->num_outputs();
  }
  exec->num_values_ = next_slot;
  exec->readers_.assign(next_slot, 0);

  // The preamble: sources that run at once and cheaply (constants,
  // variables). They run first, before anything else, so no other node
  // counts them as predecessors, and their values stay until the step ends:
  // the edges from a constant read by a thousand nodes cost nothing.
  for (int id = 0; id < n; ++id) {
    const Node& node = *graph->node(id);
    Item& item = exec->items_[id];
    item.node = &node;
    TF_ASSIGN_OR_RETURN(item.kernel, kernel_for(node));
    item.async = dynamic_cast<AsyncOpKernel*>(item.kernel);
    item.cheap = IsCheap(node);
    item.preamble = item.cheap && item.async == nullptr &&
                    node.num_inputs() == 0 && node.control_inputs().empty();
    if (item.preamble) exec->preamble_.push_back(id);
  }
  // A graph lists a node's inputs before it, so the edges point forward
  // and there is no cycle to look for.
  std::vector<std::vector<int32_t>> successors(n);
  for (int id = 0; id < n; ++id) {
    const Node& node = *graph->node(id);
    Item& item = exec->items_[id];
    item.input_begin = static_cast<int32_t>(exec->input_slots_.size());
    item.num_inputs = node.num_inputs();
    item.num_outputs = node.num_outputs();
    item.num_predecessors = 0;
    for (const Output& in : node.inputs()) {
      const int32_t slot =
          exec->items_[in.node()->id()].output_slot + in.index();
      exec->input_slots_.push_back(slot);
      if (exec->items_[in.node()->id()].preamble) continue;
      ++exec->readers_[slot];
      successors[in.node()->id()].push_back(id);
      ++item.num_predecessors;
    }
    for (const Node* c : node.control_inputs()) {
      if (exec->items_[c->id()].preamble) continue;
      successors[c->id()].push_back(id);
      ++item.num_predecessors;
    }
    item.allows_uninitialized_input = node.op_def().allows_uninitialized_input;
    item.may_output_uninitialized = node.op_def().may_output_uninitialized;
    item.timeline_label = TimelineLabel(node);
    exec->predecessors_.push_back(item.num_predecessors);
    if (item.num_predecessors == 0 && !item.preamble) {
      exec->roots_.push_back(id);
    }
  }
  for (int id = 0; id < n; ++id) {
    Item& item = exec->items_[id];
    item.successors_begin = static_cast<int32_t>(exec->successors_.size());
    item.num_successors = static_cast<int32_t>(successors[id].size());
    exec->successors_.insert(exec->successors_.end(), successors[id].begin(),
                             successors[id].end());
  }
  return exec;
}

// --- One step ----------------------------------------------------------------

/// The values and counts of one step on one executor. Freed by Finish.
struct ParallelExecutor::RunState {
  RunState(const ParallelExecutor& e, const Args& a, StatusCallback d)
      : args(a),
        done(std::move(d)),
        extension(a.rendezvous, e.device_, a.operation_timeout_in_ms),
        values(e.num_values_),
        inputs(e.input_slots_.size()),
        pending(new std::atomic<int32_t>[e.items_.size()]),
        readers_left(new std::atomic<int32_t>[e.num_values_]) {
    for (size_t i = 0; i < inputs.size(); ++i) {
      inputs[i] = &values[e.input_slots_[i]];
    }
    for (size_t i = 0; i < e.items_.size(); ++i) {
      pending[i].store(e.predecessors_[i], std::memory_order_relaxed);
    }
    for (int32_t i = 0; i < e.num_values_; ++i) {
      readers_left[i].store(e.readers_[i], std::memory_order_relaxed);
    }
  }

  const Args args;
  StatusCallback done;
  RendezvousStepExtension extension;
  std::vector<Tensor> values;         // by value slot
  std::vector<const Tensor*> inputs;  // by node input, into `values`
  std::unique_ptr<std::atomic<int32_t>[]> pending;       // by node
  std::unique_ptr<std::atomic<int32_t>[]> readers_left;  // by value slot
  std::atomic<int32_t> outstanding{0};  // nodes ready or running
  std::mutex mu;
  Status status;  // this executor's first error; guarded by mu
};

namespace {

// One call of an asynchronous kernel: its context must outlive the call.
struct AsyncCall {
  explicit AsyncCall(const OpKernelContext::Params& p)
      : params(p), ctx(params) {}
  OpKernelContext::Params params;
  OpKernelContext ctx;
  NodeExecStats stats;
};

// An asynchronous kernel that finishes before ComputeAsync returns (a _Recv
// whose value is already there) is finished by the thread that called it,
// which goes on with its successors, instead of handing them to the pool.
// The callback recognises that case by this thread's marker.
struct InlineCompletion {
  const AsyncCall* call;
  bool done = false;
  Status status;
};
thread_local InlineCompletion* inline_completion = nullptr;

// How a node names an input in an error: as the user's graph does, so that
// a value read through a _Recv reads as the tensor it carries ("weight"
// for "weight:0", whose _Recv the partitioner made).
std::string UserInputName(const Output& in) {
  if (in.node()->type_string() == kRecvOp) {
    StatusOr<std::string> carried =
        GetAttr<std::string>(in.node()->attrs(), "tensor_name");
    if (carried.ok()) {
      std::string_view name = carried.value();
      if (name.size() > 2 && name.substr(name.size() - 2) == ":0") {
        name.remove_suffix(2);
      }
      return std::string(name);
    }
  }
  return in.index() == 0 ? in.node()->name() : in.name();
}

}  // namespace

Status ParallelExecutor::CheckInputs(const RunState& s,
                                     const Item& item) const {
  if (item.allows_uninitialized_input) return Status::OK();
  for (int32_t i = 0; i < item.num_inputs; ++i) {
    if (!s.inputs[item.input_begin + i]->IsInitialized()) {
      return UninitializedValueError(UserInputName(item.node->input(i)));
    }
  }
  return Status::OK();
}

Status ParallelExecutor::AfterCompute(RunState* s, const Item& item,
                                      Status status) const {
  if (!status.ok()) {
    return AttachNodeName(device_->NameDeviceInOom(status), *item.node);
  }
  for (int32_t o = 0; o < item.num_outputs; ++o) {
    if (!item.may_output_uninitialized &&
        !s->values[item.output_slot + o].IsInitialized()) {
      return AttachNodeName(
          errors::Internal("The kernel of '", item.node->type_string(),
                           "' did not set its output ", o),
          *item.node);
    }
  }
  return Status::OK();
}

namespace {

// Closes a node's record: its end times and the outputs it made.
void FinishStats(const std::vector<Tensor>& values, int32_t output_slot,
                 int32_t num_outputs, NodeExecStats* stats) {
  stats->op_end_rel_micros = NowMicros() - stats->all_start_micros;
  for (int32_t o = 0; o < num_outputs; ++o) {
    const Tensor& t = values[output_slot + o];
    if (!t.IsInitialized()) continue;
    NodeOutput out;
    out.slot = o;
    out.tensor_description.dtype = t.dtype();
    out.tensor_description.shape = t.shape();
    AllocationDescription& a = out.tensor_description.allocation_description;
    a.requested_bytes = static_cast<int64_t>(t.TotalBytes());
    a.allocated_bytes = a.requested_bytes;
    a.allocator_name = t.allocator() ? t.allocator()->Name() : "";
    stats->output.push_back(std::move(out));
  }
  stats->all_end_rel_micros = NowMicros() - stats->all_start_micros;
}

// Moves the net change of ready-or-running nodes into `outstanding`: a node
// finished, `num_ready` became ready. True when none is left.
bool Retire(std::atomic<int32_t>* outstanding, size_t num_ready) {
  if (num_ready == 0) {
    return outstanding->fetch_sub(1, std::memory_order_acq_rel) == 1;
  }
  if (num_ready > 1) {
    outstanding->fetch_add(static_cast<int32_t>(num_ready) - 1,
                           std::memory_order_relaxed);
  }
  return false;
}

}  // namespace

// --8<-- [start:node_done]
bool ParallelExecutor::NodeDone(RunState* s, int32_t id, const Status& status,
                                std::vector<int32_t>* ready) const {
  const Item& item = items_[id];
  if (!status.ok()) {
    {
      std::lock_guard<std::mutex> lock(s->mu);
      if (s->status.ok()) s->status = status;
    }
    // At once, not when this executor ends: another device may be waiting
    // in a _Recv that only the abort releases.
    s->args.barrier->Abort(status);
    return Retire(&s->outstanding, 0);
  }
  // Free what no one will read again: the inputs this node read last, and
  // outputs that nothing reads.
  for (int32_t k = item.input_begin; k < item.input_begin + item.num_inputs;
       ++k) {
    const int32_t slot = input_slots_[k];
    const int32_t readers = readers_[slot];
    if (readers == 0) continue;  // a preamble value, kept to the end
    if (readers == 1 ||
        s->readers_left[slot].fetch_sub(1, std::memory_order_acq_rel) == 1) {
      s->values[slot] = Tensor();
    }
  }
  for (int32_t o = 0; o < item.num_outputs; ++o) {
    if (readers_[item.output_slot + o] == 0) {
      s->values[item.output_slot + o] = Tensor();
    }
  }
  // The acquire-release decrement orders this node's writes before its
  // successors' reads, whichever thread runs them. A count of one needs no
  // decrement (nor does a value with one reader, above): no other thread
  // touches it.
  for (int32_t k = item.successors_begin;
       k < item.successors_begin + item.num_successors; ++k) {
    const int32_t succ = successors_[k];
    if (predecessors_[succ] == 1 ||
        s->pending[succ].fetch_sub(1, std::memory_order_acq_rel) == 1) {
      ready->push_back(succ);
    }
  }
  return Retire(&s->outstanding, ready->size());
}
// --8<-- [end:node_done]

// --8<-- [start:schedule_ready]
void ParallelExecutor::ScheduleReady(RunState* s,
                                     const std::vector<int32_t>& ready,
                                     std::vector<int32_t>* queue,
                                     bool queue_busy) const {
  if (queue == nullptr) {
    for (const int32_t id : ready) {
      s->args.runner([this, s, id] { Process(s, {id}); });
    }
    return;
  }
  // Cheap nodes run here. Of the others, this thread keeps one if it has
  // nothing else to do, and hands the rest to the pool: a chain stays on
  // one thread, and independent work spreads.
  int32_t keep = -1;
  for (const int32_t id : ready) {
    if (items_[id].cheap) {
      queue->push_back(id);
      queue_busy = true;
      continue;
    }
    if (keep >= 0) s->args.runner([this, s, keep] { Process(s, {keep}); });
    keep = id;
  }
  if (keep < 0) return;
  if (queue_busy) {
    s->args.runner([this, s, keep] { Process(s, {keep}); });
  } else {
    queue->push_back(keep);
  }
}
// --8<-- [end:schedule_ready]

Status ParallelExecutor::RunNode(RunState* s, int32_t id, bool* later) const {
  const Item& item = items_[id];
  *later = false;
  const OpKernelContext::Params params = KernelParams(s, item);
  std::optional<NodeExecStats> stats;  // only in a traced step
  if (s->args.stats != nullptr) {
    stats.emplace();
    stats->node_name = item.node->name();
    stats->timeline_label = item.timeline_label;
    stats->thread_id = CurrentThreadNumber();
    stats->all_start_micros = NowMicros();
    stats->scheduled_micros = stats->all_start_micros;
  }
  Status status = CheckInputs(*s, item);
  if (status.ok() && item.async != nullptr) {
    if (ComputeAsync(s, id, params, &stats, &status)) {
      *later = true;  // its successors come with the callback
      return Status::OK();
    }
  } else if (status.ok()) {
    if (stats) {
      stats->op_start_rel_micros = NowMicros() - stats->all_start_micros;
    }
    status = Compute(item, params);
  }
  status = AfterCompute(s, item, status);
  if (stats) {
    FinishStats(s->values, item.output_slot, item.num_outputs, &*stats);
    s->args.stats->Save(device_->name(), std::move(*stats));
  }
  return status;
}

OpKernelContext::Params ParallelExecutor::KernelParams(RunState* s,
                                                       const Item& item) const {
  OpKernelContext::Params params;
  params.inputs = s->inputs.data() + item.input_begin;
  params.num_inputs = item.num_inputs;
  params.outputs = s->values.data() + item.output_slot;
  params.num_outputs = item.num_outputs;
  params.allocator = device_->allocator();
  params.resource_manager = s->args.resource_manager;
  params.step_id = s->args.step_id;
  params.step_extension = &s->extension;
  params.op_device_context = device_->device_context();
  return params;
}

Status ParallelExecutor::Compute(const Item& item,
                                 const OpKernelContext::Params& params) const {
  OpKernelContext ctx(params);
  // Whatever the kernel makes, through layer 1's functions too, comes from
  // its device's memory (allocator.h), and the work it splits runs on its
  // device's intra-op threads (kernels/intra_op.h).
  ScopedDefaultAllocator on_device(device_->kernel_allocator());
  kernels::ScopedIntraOpPool on_device_threads(intra_op_pool_);
  return item.kernel->Compute(&ctx);
}

bool ParallelExecutor::ComputeAsync(RunState* s, int32_t id,
                                    const OpKernelContext::Params& params,
                                    std::optional<NodeExecStats>* stats,
                                    Status* status) const {
  auto* call = new AsyncCall(params);
  if (*stats) {
    call->stats = std::move(**stats);
    call->stats.op_start_rel_micros =
        NowMicros() - call->stats.all_start_micros;
  }
  InlineCompletion here{call, false, Status::OK()};
  InlineCompletion* outer = inline_completion;
  inline_completion = &here;
  // What the kernel makes before it returns is the device's; its callback
  // may run later on another thread, outside this scope.
  ScopedDefaultAllocator on_device(device_->kernel_allocator());
  items_[id].async->ComputeAsync(
      &call->ctx, [this, s, id, call](const Status& result) {
        if (inline_completion != nullptr && inline_completion->call == call) {
          inline_completion->done = true;
          inline_completion->status = result;
          return;
        }
        // Finished later, maybe on another thread: hand every successor to
        // the runner rather than take over the thread that finished it.
        const Item& done_item = items_[id];
        Status st = AfterCompute(s, done_item, result);
        if (s->args.stats != nullptr) {
          FinishStats(s->values, done_item.output_slot, done_item.num_outputs,
                      &call->stats);
          s->args.stats->Save(device_->name(), std::move(call->stats));
        }
        delete call;
        std::vector<int32_t> successors;
        if (NodeDone(s, id, st, &successors)) return Finish(s);
        ScheduleReady(s, successors, nullptr, false);
      });
  inline_completion = outer;
  if (!here.done) return true;
  *status = here.status;
  if (*stats) **stats = std::move(call->stats);
  delete call;
  return false;
}

// --8<-- [start:process]
void ParallelExecutor::Process(RunState* s, std::vector<int32_t> queue) const {
  std::vector<int32_t> ready;
  for (size_t head = 0; head < queue.size(); ++head) {
    const int32_t id = queue[head];
    ready.clear();
    if (s->args.barrier->aborted()) {
      // The step has failed: start nothing new, and let the count run down.
      if (Retire(&s->outstanding, 0)) return Finish(s);
      continue;
    }
    bool later;
    const Status status = RunNode(s, id, &later);
    if (later) continue;
    if (NodeDone(s, id, status, &ready)) return Finish(s);
    ScheduleReady(s, ready, &queue, head + 1 < queue.size());
  }
}
// --8<-- [end:process]

void ParallelExecutor::Finish(RunState* s) const {
  StatusCallback done = std::move(s->done);
  Status status;
  {
    std::lock_guard<std::mutex> lock(s->mu);
    status = s->status;
  }
  delete s;
  done(status);
}

void ParallelExecutor::RunAsync(const Args& args, StatusCallback done) const {
  MINITF_CHECK(args.barrier != nullptr && args.runner != nullptr);
  auto* s = new RunState(*this, args, std::move(done));
  // The preamble first, in this thread; then the nodes it leaves ready.
  for (const int32_t id : preamble_) {
    if (args.barrier->aborted()) return Finish(s);
    bool later;
    const Status status = RunNode(s, id, &later);
    if (!status.ok()) {
      s->status = status;  // no other thread has s yet
      args.barrier->Abort(status);
      return Finish(s);
    }
  }
  if (roots_.empty()) return Finish(s);
  s->outstanding.store(static_cast<int32_t>(roots_.size()),
                       std::memory_order_relaxed);
  std::vector<int32_t> queue;
  ScheduleReady(s, roots_, &queue, false);
  if (!queue.empty()) Process(s, std::move(queue));
}

Status ParallelExecutor::Run(Args args) const {
  Notification finished;
  Status result;
  ExecutorBarrier barrier(1, args.rendezvous, [&](const Status& s) {
    result = s;
    finished.Notify();
  });
  args.barrier = &barrier;
  RunAsync(args, [&barrier](const Status& s) { barrier.ExecutorDone(s); });
  finished.WaitForNotification();
  return result;
}

}  // namespace minitf
