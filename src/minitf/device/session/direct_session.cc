#include "minitf/device/session/direct_session.h"

#include <chrono>
#include <condition_variable>
#include <cstdio>
#include <deque>
#include <optional>
#include <thread>

#include "minitf/device/executor/parallel_executor.h"
#include "minitf/device/partition/graph_partition.h"
#include "minitf/device/placement/placer.h"
#include "minitf/device/session/optimized_graph.h"
#include "minitf/device/session/step_stats_collector.h"
#include "minitf/device/session/subgraph.h"
#include "minitf/graph/deadline.h"
#include "minitf/graph/executor.h"
#include "minitf/graph/feed_value.h"
#include "minitf/graph/graph_def.h"
#include "minitf/graph/kernel.h"
#include "minitf/graph/run_metadata.h"
#include "minitf/graph/run_signature.h"

namespace minitf {

/// One run signature, compiled. Immutable once built.
struct DirectSession::Plan {
  /// One device's share: its graph and the executor that runs it.
  struct Part {
    Device* device = nullptr;
    ResourceMgr* resource_manager = nullptr;
    std::unique_ptr<Graph> graph;
    std::vector<std::unique_ptr<OpKernel>> kernels;  // of the made nodes
    std::unique_ptr<ParallelExecutor> executor;
  };
  std::vector<Output> feeds;  // of the user's graph, in the order given
  std::vector<Rendezvous::ParsedKey> feed_keys;
  std::vector<Output> fetches;  // without repeats
  std::vector<Rendezvous::ParsedKey> fetch_keys;
  std::vector<int> fetch_index;  // by fetch asked for: its place in fetches
  // By fetch: the kernel that reads it again when the step is over (a
  // reference on the client device, executor.h's RereadRef), or null.
  std::vector<OpKernel*> fetch_reread;
  std::vector<std::unique_ptr<OpKernel>> reread_kernels;  // those made here
  std::vector<Part> parts;
  int inline_part = 0;  // the part the calling thread starts
};

namespace {

// How one step runs closures: on the session's pool, or, when the session
// has a single inter-op thread, on the calling thread, which drains a queue
// while it waits. Also where the step's end is announced.
class StepRunner {
 public:
  explicit StepRunner(Eigen::ThreadPool* pool) : pool_(pool) {}

  void Schedule(std::function<void()> fn) {
    if (pool_ != nullptr) return pool_->Schedule(std::move(fn));
    std::lock_guard<std::mutex> lock(mu_);
    queue_.push_back(std::move(fn));
    cv_.notify_all();
  }

  void Done(const Status& status) {
    std::lock_guard<std::mutex> lock(mu_);
    status_ = status;
    done_ = true;
    cv_.notify_all();
  }

  // Runs queued closures until Done; false when `deadline` passes first.
  bool Wait(std::optional<std::chrono::steady_clock::time_point> deadline) {
    std::unique_lock<std::mutex> lock(mu_);
    while (true) {
      if (!queue_.empty()) {
        std::function<void()> fn = std::move(queue_.front());
        queue_.pop_front();
        lock.unlock();
        fn();
        lock.lock();
        continue;
      }
      if (done_) return true;
      if (!deadline) {
        cv_.wait(lock);
      } else if (cv_.wait_until(lock, *deadline) == std::cv_status::timeout &&
                 queue_.empty() && !done_) {
        return false;
      }
    }
  }

  Status status() {
    std::lock_guard<std::mutex> lock(mu_);
    return status_;
  }

 private:
  Eigen::ThreadPool* const pool_;
  std::mutex mu_;
  std::condition_variable cv_;
  std::deque<std::function<void()>> queue_;  // guarded by mu_
  bool done_ = false;                        // guarded by mu_
  Status status_;                            // guarded by mu_
};

Rendezvous::ParsedKey ClientKey(const Device& client, const Output& t) {
  return Rendezvous::ParseKey(
             Rendezvous::CreateKey(client.name(),
                                   client.attributes().incarnation,
                                   client.name(), t.name(), FrameAndIter{}))
      .value();
}

// The partitions the calling thread starts itself: `first` (the client
// device's, unless it has to watch the clock for a timeout: a kernel it ran
// would keep it from doing so) and, with a pool, `second`, the last other
// one, rather than sleep until the step is over: a partition handed to the
// pool waits for a pool thread to wake, which on a machine busy with other
// work takes milliseconds, and meanwhile the thread that did wake runs both
// towers of chapter 6 one after the other. -1: none.
struct CallerParts {
  int first = -1;
  int second = -1;
};

CallerParts PartsTheCallerStarts(int inline_part, int num_parts, bool timed,
                                 bool has_pool) {
  CallerParts parts;
  parts.first = timed && has_pool ? -1 : inline_part;
  if (parts.first >= 0 && has_pool && num_parts > 1) {
    parts.second =
        parts.first == num_parts - 1 ? parts.first - 1 : num_parts - 1;
  }
  return parts;
}

}  // namespace

// --- Construction ------------------------------------------------------------

StatusOr<std::unique_ptr<DirectSession>> DirectSession::Create(
    const SessionOptions& options, std::shared_ptr<Graph> graph) {
  const int requested = options.config.inter_op_parallelism_threads;
  if (requested < 0) {
    return errors::InvalidArgument(
        "inter_op_parallelism_threads must not be negative, got ", requested);
  }
  const int threads =
      requested > 0
          ? requested
          : std::max(1, static_cast<int>(std::thread::hardware_concurrency()));
  TF_ASSIGN_OR_RETURN(std::unique_ptr<DeviceMgr> device_mgr,
                      DeviceMgr::Create(options));
  if (options.config.log_device_placement) {
    // TensorFlow prints the mapping on standard output, as here.
    const std::string mapping = device_mgr->DeviceMappingString();
    if (mapping.empty()) {
      std::fputs("Device mapping: no known devices.\n", stdout);
    } else {
      std::fputs(("Device mapping:\n" + mapping).c_str(), stdout);
    }
    std::fflush(stdout);
  }
  return std::unique_ptr<DirectSession>(new DirectSession(
      options, std::move(graph), std::move(device_mgr), threads));
}

DirectSession::DirectSession(SessionOptions options,
                             std::shared_ptr<Graph> graph,
                             std::unique_ptr<DeviceMgr> device_mgr,
                             int inter_op_threads)
    : options_(std::move(options)),
      graph_(std::move(graph)),
      device_mgr_(std::move(device_mgr)),
      inter_op_threads_(inter_op_threads),
      placed_(std::make_unique<Graph>()) {
  for (Device* d : device_mgr_->ListDevices()) {
    device_set_.AddDevice(d);
    resource_mgrs_.emplace(d, std::make_unique<ResourceMgr>());
  }
  // The first device is the CPU (DeviceFactory::AddDevices makes it first):
  // the client device, where feeds arrive and fetches leave.
  client_device_ = device_mgr_->ListDevices().front();
  device_set_.set_client_device(client_device_);
  if (inter_op_threads_ > 1) {
    inter_op_pool_ = std::make_unique<Eigen::ThreadPool>(inter_op_threads_);
  }
}

DirectSession::~DirectSession() = default;

ResourceMgr* DirectSession::resource_manager(const Device* device) const {
  auto it = resource_mgrs_.find(device);
  return it == resource_mgrs_.end() ? nullptr : it->second.get();
}

TransferTable DirectSession::GetTransferStats() const {
  std::lock_guard<std::mutex> lock(transfers_mu_);
  return ByDeviceName(transfers_);
}

int DirectSession::num_cached_plans() const { return plans_.size(); }

// --- Planning ----------------------------------------------------------------

// --8<-- [start:place]
Status DirectSession::PlaceNewNodes() {
  TF_RETURN_IF_ERROR(CopyNewNodes(*graph_, placed_.get()));
  if (num_placed_ == placed_->num_nodes()) return Status::OK();
  // The whole graph, as TensorFlow places it, so that a node's device does
  // not depend on the run that first needs it. Nodes placed before keep
  // their devices: a variable stays where its value is.
  PlacerOptions options;
  options.allow_soft_placement = options_.config.allow_soft_placement;
  options.log_device_placement = options_.config.log_device_placement;
  Status placed = Place(placed_.get(), device_set_, options);
  if (!placed.ok()) {
    // Undo the partial placement of the new nodes, so that a later run
    // places them afresh.
    for (int id = num_placed_; id < placed_->num_nodes(); ++id) {
      placed_->node(id)->set_assigned_device(
          graph_->node(id)->assigned_device());
    }
    return placed;
  }
  num_placed_ = placed_->num_nodes();
  return Status::OK();
}
// --8<-- [end:place]

StatusOr<OpKernel*> DirectSession::KernelFor(
    const Node& node, Device* device,
    std::vector<std::unique_ptr<OpKernel>>* owned) {
  auto create = [device](const Node& n) {
    return CreateKernelOnDevice(n, device);
  };
  // The user's node of that name, if this is a copy of it (a node the
  // rewrite or the cut made may happen to share a name, never its op and
  // attrs).
  const Node* original = graph_->FindNode(node.name());
  if (original != nullptr && original->type_string() == node.type_string() &&
      original->attrs() == node.attrs()) {
    std::vector<std::unique_ptr<OpKernel>>& table = kernels_[device];
    if (static_cast<int>(table.size()) <= original->id()) {
      table.resize(graph_->num_nodes());
    }
    std::unique_ptr<OpKernel>& kernel = table[original->id()];
    if (kernel == nullptr) {
      TF_ASSIGN_OR_RETURN(kernel, create(*original));
    }
    return kernel.get();
  }
  TF_ASSIGN_OR_RETURN(std::unique_ptr<OpKernel> kernel, create(node));
  owned->push_back(std::move(kernel));
  return owned->back().get();
}

// --8<-- [start:create_plan]
StatusOr<std::shared_ptr<const DirectSession::Plan>> DirectSession::CreatePlan(
    const std::vector<std::pair<std::string, Tensor>>& feeds,
    const std::vector<std::string>& fetch_names,
    const std::vector<std::string>& target_names) {
  TF_ASSIGN_OR_RETURN(
      RunSignature sig,
      ResolveRunSignature(*graph_, feeds, fetch_names, target_names));
  TF_RETURN_IF_ERROR(PlaceNewNodes());
  auto plan = std::make_shared<Plan>();

  // The same tensors in the placed copy, where nodes have the same ids.
  auto placed = [this](const Output& t) {
    return Output(placed_->node(t.node()->id()), t.index());
  };
  std::vector<Output> feeds_placed, fetches_placed;
  std::vector<const Node*> targets_placed;
  for (const Output& t : sig.feeds) {
    plan->feeds.push_back(t);
    plan->feed_keys.push_back(ClientKey(*client_device_, t));
    feeds_placed.push_back(placed(t));
  }
  for (const Output& t : sig.fetches) {
    auto it = std::find(plan->fetches.begin(), plan->fetches.end(), t);
    plan->fetch_index.push_back(static_cast<int>(it - plan->fetches.begin()));
    if (it != plan->fetches.end()) continue;
    plan->fetches.push_back(t);
    plan->fetch_keys.push_back(ClientKey(*client_device_, t));
    fetches_placed.push_back(placed(t));
    // A reference fetched where it lives is read again at the step's end,
    // as TensorFlow's fetch shares the buffer; one on another device is a
    // copy, made when it is sent, in TensorFlow too.
    OpKernel* reread = nullptr;
    const bool fed =
        std::find(sig.feeds.begin(), sig.feeds.end(), t) != sig.feeds.end();
    if (!fed && HasRefType(t) &&
        placed(t).node()->assigned_device() == client_device_->name()) {
      TF_ASSIGN_OR_RETURN(
          reread, KernelFor(*t.node(), client_device_, &plan->reread_kernels));
    }
    plan->fetch_reread.push_back(reread);
  }
  for (const Node* n : sig.targets)
    targets_placed.push_back(placed_->node(n->id()));

  TF_ASSIGN_OR_RETURN(
      std::unique_ptr<Graph> client,
      BuildClientGraph(*placed_, feeds_placed, fetches_placed, targets_placed,
                       client_device_->attributes()));
  TF_ASSIGN_OR_RETURN(client, OptimizedGraph(std::move(client), device_set_,
                                             options_.config, targets_placed));
  PartitionOptions popts;
  popts.incarnation = [this](const std::string& name) -> uint64_t {
    Device* d = device_set_.FindDeviceByName(name);
    return d == nullptr ? 0 : d->attributes().incarnation;
  };
  TF_ASSIGN_OR_RETURN(auto partitions, Partition(*client, popts));

  for (auto& [name, graph] : partitions) {
    Device* device = device_set_.FindDeviceByName(name);
    if (device == nullptr) {
      return errors::Internal("No device named ", name, " in this session");
    }
    Plan::Part part;
    part.device = device;
    part.resource_manager = resource_mgrs_.at(device).get();
    part.graph = std::move(graph);
    std::vector<std::unique_ptr<OpKernel>>* owned = &part.kernels;
    TF_ASSIGN_OR_RETURN(
        part.executor,
        ParallelExecutor::Create(part.graph.get(), device,
                                 [&](const Node& n) -> StatusOr<OpKernel*> {
                                   return KernelFor(n, device, owned);
                                 }));
    if (device == client_device_) {
      plan->inline_part = static_cast<int>(plan->parts.size());
    }
    plan->parts.push_back(std::move(part));
  }
  return std::shared_ptr<const Plan>(std::move(plan));
}
// --8<-- [end:create_plan]

// --- Running -----------------------------------------------------------------

Status DirectSession::Run(
    const std::vector<std::pair<std::string, Tensor>>& feeds,
    const std::vector<std::string>& fetch_names,
    const std::vector<std::string>& target_names,
    std::vector<Tensor>* outputs) {
  return Run(RunOptions(), feeds, fetch_names, target_names, outputs, nullptr);
}

// --8<-- [start:run]
Status DirectSession::Run(
    const RunOptions& run_options,
    const std::vector<std::pair<std::string, Tensor>>& feeds,
    const std::vector<std::string>& fetch_names,
    const std::vector<std::string>& target_names, std::vector<Tensor>* outputs,
    RunMetadata* run_metadata) {
  if (closed_) return errors::FailedPrecondition("Session has been closed.");
  // 1. The plan of the run's signature, made by its first run.
  const std::string key = RunSignatureKey(feeds, fetch_names, target_names);
  TF_ASSIGN_OR_RETURN(std::shared_ptr<const Plan> plan,
                      plans_.GetOrCreate(key, [&] {
                        return CreatePlan(feeds, fetch_names, target_names);
                      }));
  // 2. The step's rendezvous, holding the fed values for the _Recvs of the
  //    client device.
  IntraProcessRendezvous rendezvous;
  for (size_t i = 0; i < feeds.size(); ++i) {
    TF_ASSIGN_OR_RETURN(Tensor value,
                        ConvertFedValue(plan->feeds[i], feeds[i].second));
    TF_RETURN_IF_ERROR(rendezvous.Send(plan->feed_keys[i], {client_device_},
                                       value, /*is_dead=*/false));
  }
  // 3. One executor per partition, joined by a barrier.
  const bool trace =
      run_options.trace_level > RunOptions::NO_TRACE && run_metadata != nullptr;
  StepStatsCollector collector;
  const int64_t step_id = next_step_id_.fetch_add(1);
  Status status = RunPartitions(*plan, run_options, step_id, &rendezvous,
                                trace ? &collector : nullptr);
  // 4. The fetched values, which the client's _Sends left in the rendezvous.
  std::vector<Tensor> fetched(plan->fetches.size());
  if (status.ok()) {
    status = ReceiveFetches(*plan, step_id, &rendezvous, &fetched);
  }
  RecordTransfers(rendezvous);
  TF_RETURN_IF_ERROR(status);
  outputs->clear();
  outputs->reserve(plan->fetch_index.size());
  for (int j : plan->fetch_index) outputs->push_back(fetched[j]);
  // 5. What the run was asked to report: its trace, its partition graphs.
  if (run_metadata == nullptr) return Status::OK();
  return FillRunMetadata(*plan, run_options, trace ? &collector : nullptr,
                         run_metadata);
}
// --8<-- [end:run]

// --8<-- [start:run_partitions]
Status DirectSession::RunPartitions(const Plan& plan,
                                    const RunOptions& run_options,
                                    int64_t step_id,
                                    IntraProcessRendezvous* rendezvous,
                                    StepStatsCollector* stats) {
  StepRunner runner(inter_op_pool_.get());
  ExecutorBarrier barrier(static_cast<int>(plan.parts.size()), rendezvous,
                          [&runner](const Status& s) { runner.Done(s); });
  std::vector<ParallelExecutor::Args> args(plan.parts.size());
  for (size_t i = 0; i < plan.parts.size(); ++i) {
    args[i].step_id = step_id;
    args[i].rendezvous = rendezvous;
    args[i].resource_manager = plan.parts[i].resource_manager;
    args[i].barrier = &barrier;
    args[i].stats = stats;
    args[i].operation_timeout_in_ms = options_.config.operation_timeout_in_ms;
    args[i].runner = [&runner](std::function<void()> fn) {
      runner.Schedule(std::move(fn));
    };
  }
  auto start = [&](size_t i) {
    plan.parts[i].executor->RunAsync(
        args[i], [&barrier](const Status& s) { barrier.ExecutorDone(s); });
  };
  const bool timed = run_options.timeout_in_ms > 0;
  const CallerParts caller = PartsTheCallerStarts(
      plan.inline_part, static_cast<int>(plan.parts.size()), timed,
      inter_op_pool_ != nullptr);
  if (plan.parts.empty()) {
    runner.Done(Status::OK());
  } else {
    for (size_t i = 0; i < plan.parts.size(); ++i) {
      if (static_cast<int>(i) != caller.first &&
          static_cast<int>(i) != caller.second) {
        runner.Schedule([&start, i] { start(i); });
      }
    }
    if (caller.first >= 0) start(caller.first);
    if (caller.second >= 0) start(caller.second);
  }
  // The step ends when every executor is done, or when the timeout aborts
  // it: then the executors start no more nodes and the ones running finish.
  std::optional<std::chrono::steady_clock::time_point> deadline;
  if (timed) {
    deadline = DeadlineAfter(std::chrono::steady_clock::now(),
                             run_options.timeout_in_ms);
  }
  if (!runner.Wait(deadline)) {
    barrier.Abort(
        errors::DeadlineExceeded("Timed out waiting for notification"));
    runner.Wait(std::nullopt);
  }
  return runner.status();
}
// --8<-- [end:run_partitions]

// --8<-- [start:receive_fetches]
Status DirectSession::ReceiveFetches(const Plan& plan, int64_t step_id,
                                     IntraProcessRendezvous* rendezvous,
                                     std::vector<Tensor>* fetched) {
  for (size_t j = 0; j < plan.fetches.size(); ++j) {
    bool is_dead = false;
    TF_RETURN_IF_ERROR(rendezvous->Recv(plan.fetch_keys[j], {client_device_},
                                        &(*fetched)[j], &is_dead));
    if (!(*fetched)[j].IsInitialized()) {
      return AttachNodeName(UninitializedValueError(plan.fetches[j]),
                            *plan.fetches[j].node());
    }
    if (plan.fetch_reread[j] != nullptr) {
      TF_RETURN_IF_ERROR(RereadRef(*plan.fetch_reread[j], plan.fetches[j],
                                   step_id, &(*fetched)[j]));
    }
  }
  return Status::OK();
}
// --8<-- [end:receive_fetches]

void DirectSession::RecordTransfers(const IntraProcessRendezvous& rendezvous) {
  std::lock_guard<std::mutex> lock(transfers_mu_);
  for (const auto& [pair, record] : rendezvous.GetTransferStats()) {
    transfers_[pair] += record;
  }
}

Status DirectSession::FillRunMetadata(const Plan& plan,
                                      const RunOptions& run_options,
                                      StepStatsCollector* stats,
                                      RunMetadata* run_metadata) {
  // What this run reports, and nothing of an earlier run's: TensorFlow's
  // session.run replaces the whole RunMetadata it is given.
  *run_metadata = RunMetadata();
  if (stats != nullptr) stats->Finalize(&run_metadata->step_stats);
  if (run_options.output_partition_graphs) {
    for (const Plan::Part& part : plan.parts) {
      TF_ASSIGN_OR_RETURN(GraphDef def, ToGraphDef(*part.graph));
      run_metadata->partition_graphs.push_back(std::move(def));
    }
  }
  return Status::OK();
}

Status DirectSession::RereadRef(OpKernel& kernel, const Output& fetch,
                                int64_t step_id, Tensor* value) {
  std::vector<Tensor> outputs(fetch.node()->num_outputs());
  OpKernelContext::Params params;
  params.outputs = outputs.data();
  params.num_outputs = static_cast<int>(outputs.size());
  params.allocator = client_device_->allocator();
  params.resource_manager = resource_mgrs_.at(client_device_).get();
  params.step_id = step_id;
  OpKernelContext ctx(params);
  TF_RETURN_IF_ERROR(AttachNodeName(kernel.RereadRef(&ctx), *fetch.node()));
  if (outputs[fetch.index()].IsInitialized()) {
    *value = std::move(outputs[fetch.index()]);
  }
  return Status::OK();
}

Status DirectSession::Close() {
  // Kernels, plans and devices stay until destruction: a run still in
  // flight on another thread may be using them.
  closed_ = true;
  for (auto& [device, rm] : resource_mgrs_) rm->Clear();
  return Status::OK();
}

MINITF_REGISTER_SESSION_FACTORY(kDirectSessionFactory, kDirectSessionPriority,
                                InProcessSessionFactory<DirectSession>);

}  // namespace minitf
