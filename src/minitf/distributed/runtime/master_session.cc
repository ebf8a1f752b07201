#include "minitf/distributed/runtime/master_session.h"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <functional>
#include <map>
#include <random>

#include "minitf/device/partition/graph_partition.h"
#include "minitf/device/partition/rendezvous.h"
#include "minitf/device/placement/placer.h"
#include "minitf/device/session/optimized_graph.h"
#include "minitf/device/session/subgraph.h"
#include "minitf/distributed/runtime/named_answers.h"
#include "minitf/distributed/runtime/proto_convert.h"
#include "minitf/distributed/runtime/rpc_trace.h"
#include "minitf/graph/deadline.h"
#include "minitf/graph/feed_value.h"
#include "minitf/graph/graph_def.h"
#include "minitf/graph/proto_convert.h"
#include "minitf/graph/run_signature.h"

namespace minitf {

/// One run signature, registered with the tasks. Immutable once built.
struct MasterSession::Plan {
  struct Part {
    std::string task;
    std::string graph_handle;
  };
  std::vector<Output> feeds;            // of graph_, in the order given
  std::vector<std::string> feed_keys;   // rendezvous keys on the client device
  std::vector<std::string> fetch_keys;  // by fetch asked for
  std::vector<Part> parts;
  std::string client_task;
};

/// What one RunStep asks for: its feeds, fetches and targets, and the limits
/// of its waits.
struct MasterSession::Step {
  std::vector<std::pair<std::string, Tensor>> feeds;
  std::vector<std::string> fetches;
  std::vector<std::string> targets;
  // The RunOptions timeout, from the run's start: its RunGraph calls, and
  // the registration of its parts that the first run of a signature makes,
  // which the session's operation timeout bounds too (register).
  Limit run;
  Limit register_parts;
  // RunOptions.output_partition_graphs: the answer carries the graph each
  // device ran.
  bool partition_graphs = false;
};

// Counts calls down; WaitAll returns when all are done. Add counts one more.
class MasterSession::CallGroup {
 public:
  explicit CallGroup(int n) : pending_(n) {}
  void Add() {
    std::lock_guard<std::mutex> lock(mu_);
    ++pending_;
  }
  void Done() {
    std::lock_guard<std::mutex> lock(mu_);
    if (--pending_ == 0) cv_.notify_all();
  }
  void WaitAll() {
    std::unique_lock<std::mutex> lock(mu_);
    cv_.wait(lock, [this] { return pending_ == 0; });
  }

 private:
  std::mutex mu_;
  std::condition_variable cv_;
  int pending_;
};

// The session's plans, by run signature. The first run of a signature makes
// its plan, registering its parts with the tasks, which may take long (a
// task that does not answer); meanwhile runs of other signatures go on, and
// runs of the same one wait for it, each no longer than its own limit.
// (Layer 2's PlanCache holds one lock while a plan is made, which suits a
// DirectSession, whose plans are made without waiting for anyone.)
class MasterSession::PlanTable {
 public:
  using Creator = std::function<StatusOr<std::shared_ptr<const Plan>>()>;

  StatusOr<std::shared_ptr<const Plan>> GetOrCreate(const std::string& key,
                                                    const Limit& limit,
                                                    const Creator& create) {
    std::unique_lock<std::mutex> lock(mu_);
    // An entry with no plan is being made by another run: wait for it to
    // be made, or to fail (its entry then goes, and this run tries).
    auto settled = [&] {
      auto it = plans_.find(key);
      return it == plans_.end() || it->second != nullptr;
    };
    if (limit.limited()) {
      if (!cv_.wait_until(lock, limit.deadline, settled)) {
        return errors::DeadlineExceeded(
            "Timed out after ", limit.ms,
            " ms waiting for another run to register the same fetches, "
            "feeds and targets");
      }
    } else {
      cv_.wait(lock, settled);
    }
    if (auto it = plans_.find(key); it != plans_.end()) return it->second;
    plans_.emplace(key, nullptr);
    lock.unlock();
    StatusOr<std::shared_ptr<const Plan>> made = create();
    lock.lock();
    if (made.ok()) {
      plans_[key] = *made;
    } else {
      plans_.erase(key);  // a later run tries again
    }
    cv_.notify_all();
    return made;
  }

 private:
  std::mutex mu_;
  std::condition_variable cv_;  // an entry was made or failed
  std::map<std::string, std::shared_ptr<const Plan>> plans_;
};

namespace {

// The step's error to report: the first that is the cause, not one that
// only says the step was aborted because of it (TensorFlow's rule too).
Status StepError(const std::vector<Status>& statuses) {
  Status derived;
  for (const Status& s : statuses) {
    if (s.ok()) continue;
    const bool cleanup =
        s.code() == error::ABORTED && s.message().rfind("Cleanup ", 0) == 0;
    if (!cleanup && s.code() != error::CANCELLED) return s;
    if (derived.ok()) derived = s;
  }
  return derived;
}

// A step's error when the session was closed while it ran: its parts failed
// as they were cancelled or cleaned up; this says why, in TensorFlow's
// words.
Status ClosedUnderStep() {
  return errors::Cancelled(
      "Step was cancelled by an explicit call to `Session::Close()`.");
}

// TensorFlow's step ids are random, so that steps of sessions on different
// masters never share an id on a worker: 56 bits.
int64_t NewStepId() {
  static std::mutex mu;
  static std::mt19937_64 rng(std::random_device{}());
  std::lock_guard<std::mutex> lock(mu);
  return static_cast<int64_t>(rng() & ((uint64_t{1} << 56) - 1));
}

template <typename Request, typename Response>
using CallList = std::vector<std::unique_ptr<WorkerCall<Request, Response>>>;

// One call per task of `tasks`, to the task's worker; GetWorker's errors.
template <typename Request, typename Response>
StatusOr<CallList<Request, Response>> CallsTo(
    WorkerCache* workers, const std::vector<std::string>& tasks) {
  CallList<Request, Response> calls;
  for (const std::string& task : tasks) {
    TF_ASSIGN_OR_RETURN(WorkerInterface * worker, workers->GetWorker(task));
    auto& call =
        calls.emplace_back(std::make_unique<WorkerCall<Request, Response>>());
    call->task = task;
    call->worker = worker;
  }
  return calls;
}

}  // namespace

// Counts a step in running_ from Begin to its destruction, so that Close
// waits until the step is over.
class MasterSession::Counted {
 public:
  explicit Counted(MasterSession* session) : session_(session) {}
  ~Counted() {
    if (!counted_) return;
    std::lock_guard<std::mutex> lock(session_->mu_);
    if (--session_->running_ == 0) session_->idle_.notify_all();
  }
  // FailedPrecondition once the session is closed.
  Status Begin() {
    std::lock_guard<std::mutex> lock(session_->mu_);
    if (session_->closed_) {
      return errors::FailedPrecondition("Session has been closed.");
    }
    ++session_->running_;
    counted_ = true;
    return Status::OK();
  }

 private:
  MasterSession* const session_;
  bool counted_ = false;
};

// Holds calls in in_flight_, where Close cancels them, from Add to its
// destruction. Declared after the calls it holds, so that each leaves
// in_flight_ before it is destroyed.
class MasterSession::Cancellable {
 public:
  explicit Cancellable(MasterSession* session) : session_(session) {}
  ~Cancellable() {
    std::lock_guard<std::mutex> lock(session_->mu_);
    for (CallOptions* opts : held_) session_->in_flight_.erase(opts);
  }
  // Cancelled (ClosedUnderStep) when the session is closed already.
  template <typename Calls>
  Status Add(const Calls& calls) {
    std::lock_guard<std::mutex> lock(session_->mu_);
    if (session_->closed_) return ClosedUnderStep();
    for (const auto& call : calls) {
      held_.push_back(&call->opts);
      session_->in_flight_.insert(&call->opts);
    }
    return Status::OK();
  }

 private:
  MasterSession* const session_;
  std::vector<CallOptions*> held_;
};

// The call lives until its answer, whichever thread answers it.
template <typename Request, typename Response>
void MasterSession::SendUnawaited(
    std::shared_ptr<WorkerCall<Request, Response>> call,
    WorkerMethod<Request, Response> method) {
  cleanups_->Add();  // Close waits for the answer
  WorkerCall<Request, Response>* c = call.get();
  (c->worker->*method)(
      &c->opts, &c->request, &c->response,
      [call = std::move(call), pending = cleanups_](const Status&) mutable {
        call.reset();     // the call goes before Close may go on
        pending->Done();  // the session may be gone after this
      });
}

MasterSession::MasterSession(std::string handle, ConfigProto config,
                             WorkerCache* workers)
    : handle_(std::move(handle)),
      config_(std::move(config)),
      workers_(workers),
      plans_(std::make_unique<PlanTable>()),
      cleanups_(std::make_shared<CallGroup>(0)) {}

MasterSession::~MasterSession() { Close().ok(); }

StatusOr<std::unique_ptr<MasterSession>> MasterSession::Create(
    std::string handle, const proto::CreateSessionRequest& request,
    const std::vector<DeviceAttributes>& devices,
    const std::vector<std::string>& tasks, const std::string& master_task,
    WorkerCache* workers) {
  std::unique_ptr<MasterSession> session(new MasterSession(
      std::move(handle), ConfigProtoFromProto(request.config()), workers));
  for (const DeviceAttributes& a : devices) {
    session->devices_.push_back(std::make_unique<RemoteDevice>(a));
    Device* d = session->devices_.back().get();
    session->device_set_.AddDevice(d);
    if (session->client_device_ == nullptr && a.device_type == "CPU" &&
        TaskOfDevice(a.name).ok() && *TaskOfDevice(a.name) == master_task) {
      session->client_device_ = d;
    }
  }
  if (session->client_device_ == nullptr) {
    return errors::InvalidArgument("The master's task ", master_task,
                                   " reported no CPU device");
  }
  session->device_set_.set_client_device(session->client_device_);
  session->tasks_ = tasks;
  TF_RETURN_IF_ERROR(
      ImportGraphDef(request.graph_def(), &session->graph_,
                     ImportGraphDefOptions{.drop_newer_default_attrs = true}));
  TF_RETURN_IF_ERROR(session->CreateWorkerSessions(request.config()));
  return session;
}

// Every task answered GetStatus a moment ago; one that stops answering now
// is given up on at the session's operation timeout, as Master::GatherDevices
// gives up on GetStatus (minitf's own words).
Status MasterSession::CreateWorkerSessions(
    const proto::ConfigProto& config_proto) {
  const int64_t timeout_ms = config_proto.operation_timeout_in_ms();
  const auto deadline =
      DeadlineAfter(std::chrono::system_clock::now(), timeout_ms);
  using Request = proto::CreateWorkerSessionRequest;
  using Response = proto::CreateWorkerSessionResponse;
  TF_ASSIGN_OR_RETURN(auto calls,
                      (CallsTo<Request, Response>(workers_, tasks_)));
  for (auto& call : calls) {
    if (timeout_ms > 0) call->opts.set_deadline(deadline);
    call->request.set_session_handle(handle_);
    *call->request.mutable_server_def()->mutable_default_session_config() =
        config_proto;
  }
  const std::vector<Status> statuses =
      CallAll(calls, &WorkerInterface::CreateWorkerSessionAsync);
  for (size_t i = 0; i < statuses.size(); ++i) {
    if (statuses[i].code() == error::DEADLINE_EXCEEDED && timeout_ms > 0) {
      return errors::DeadlineExceeded(
          "CreateWorkerSession timed out after ", timeout_ms,
          " ms waiting for response from worker: ", tasks_[i]);
    }
    TF_RETURN_IF_ERROR(statuses[i]);
  }
  return Status::OK();
}

Status MasterSession::Extend(const proto::ExtendSessionRequest& request,
                             proto::ExtendSessionResponse* response) {
  std::lock_guard<std::mutex> lock(mu_);
  if (closed_) return errors::FailedPrecondition("Session has been closed.");
  if (request.current_graph_version() != graph_version_) {
    return errors::Aborted("Current version is ", graph_version_,
                           " but caller expected ",
                           request.current_graph_version(), ".");
  }
  TF_RETURN_IF_ERROR(
      ImportGraphDef(request.graph_def(), &graph_,
                     ImportGraphDefOptions{.inputs_from_graph = true,
                                           .drop_newer_default_attrs = true}));
  response->set_new_graph_version(++graph_version_);
  return Status::OK();
}

Status MasterSession::PlaceNewNodes() {
  if (num_placed_ == graph_.num_nodes()) return Status::OK();
  PlacerOptions options;
  options.allow_soft_placement = config_.allow_soft_placement;
  options.log_device_placement = config_.log_device_placement;
  Status placed = Place(&graph_, device_set_, options);
  if (!placed.ok()) {
    // Undo the partial placement, so that a later run places afresh.
    for (int id = num_placed_; id < graph_.num_nodes(); ++id) {
      graph_.node(id)->set_assigned_device("");
    }
    return placed;
  }
  num_placed_ = graph_.num_nodes();
  return Status::OK();
}

// --8<-- [start:create_plan]
StatusOr<std::shared_ptr<const MasterSession::Plan>> MasterSession::CreatePlan(
    const Step& step) {
  auto plan = std::make_shared<Plan>();
  std::vector<std::pair<std::string, proto::RegisterGraphRequest>> parts;
  {
    std::lock_guard<std::mutex> lock(mu_);
    // Runs that waited for another's registration, which Close ended, end
    // here rather than plan again.
    if (closed_) return ClosedUnderStep();
    TF_ASSIGN_OR_RETURN(parts, CutParts(step, plan.get()));
  }
  // Each task's part is registered with its task, the graph's lock let go:
  // a task that does not answer must not keep Close, or the session's other
  // runs, waiting for the lock.
  std::vector<std::string> tasks;
  for (const auto& [task, request] : parts) tasks.push_back(task);
  TF_ASSIGN_OR_RETURN(std::vector<std::string> handles,
                      RegisterParts(std::move(parts), step.register_parts));
  for (size_t i = 0; i < tasks.size(); ++i) {
    plan->parts.push_back({tasks[i], handles[i]});
  }
  return std::shared_ptr<const Plan>(std::move(plan));
}

StatusOr<std::vector<std::pair<std::string, proto::RegisterGraphRequest>>>
MasterSession::CutParts(const Step& step, Plan* plan) {
  TF_ASSIGN_OR_RETURN(
      RunSignature sig,
      ResolveRunSignature(graph_, step.feeds, step.fetches, step.targets));
  TF_RETURN_IF_ERROR(PlaceNewNodes());
  auto client_key = [this](const Output& t) {
    return Rendezvous::CreateKey(
        client_device_->name(), client_device_->attributes().incarnation,
        client_device_->name(), t.name(), FrameAndIter{});
  };
  std::vector<Output> unique_fetches;
  for (const Output& t : sig.feeds) {
    plan->feeds.push_back(t);
    plan->feed_keys.push_back(client_key(t));
  }
  for (const Output& t : sig.fetches) {
    plan->fetch_keys.push_back(client_key(t));
    if (std::find(unique_fetches.begin(), unique_fetches.end(), t) ==
        unique_fetches.end()) {
      unique_fetches.push_back(t);
    }
  }
  TF_ASSIGN_OR_RETURN(
      std::unique_ptr<Graph> client,
      BuildClientGraph(graph_, sig.feeds, unique_fetches, sig.targets,
                       client_device_->attributes()));
  // Optimized before it is cut, as DirectSession's (chapter 4): a worker
  // registers _FusedMatMul where the client graph had MatMul -> BiasAdd.
  TF_ASSIGN_OR_RETURN(client, OptimizedGraph(std::move(client), device_set_,
                                             config_, sig.targets));
  PartitionOptions popts;
  popts.incarnation = [this](const std::string& name) -> uint64_t {
    Device* d = device_set_.FindDeviceByName(name);
    return d == nullptr ? 0 : d->attributes().incarnation;
  };
  popts.node_to_loc = [](const Node& n) {
    return TaskOfDevice(n.assigned_device()).value();
  };
  TF_ASSIGN_OR_RETURN(auto partitions, Partition(*client, popts));
  plan->client_task = TaskOfDevice(client_device_->name()).value();
  std::vector<std::pair<std::string, proto::RegisterGraphRequest>> parts;
  for (auto& [task, graph] : partitions) {
    proto::RegisterGraphRequest& request =
        parts.emplace_back(task, proto::RegisterGraphRequest{}).second;
    request.set_session_handle(handle_);
    request.set_create_worker_session_called(true);
    TF_RETURN_IF_ERROR(ToGraphDef(*graph, request.mutable_graph_def()));
    request.mutable_config_proto()->set_operation_timeout_in_ms(
        config_.operation_timeout_in_ms);
  }
  // The client task's part last: its worker may be this task's own, which
  // runs the part on the calling thread (worker_interface.h), and the other
  // parts must be sent by then.
  std::stable_partition(parts.begin(), parts.end(), [&](const auto& part) {
    return part.first != plan->client_task;
  });
  return parts;
}
// --8<-- [end:create_plan]

// --8<-- [start:register]
// RegisterGraph to every task at once. A task that does not answer (a
// stopped process, a host gone quiet) is given up on at `limit`, which Run
// sets: the smaller of the run's RunOptions timeout and the session's
// operation_timeout_in_ms, from the run's start. (TensorFlow's run gives
// up at the same timeouts, with gRPC's bare "Deadline Exceeded"; minitf's
// master names the call and the task.) Without either the master waits, as
// TensorFlow's does, until Close cancels the calls.
StatusOr<std::vector<std::string>> MasterSession::RegisterParts(
    std::vector<std::pair<std::string, proto::RegisterGraphRequest>> parts,
    const Limit& limit) {
  std::vector<std::string> tasks;
  for (const auto& [task, request] : parts) tasks.push_back(task);
  using Request = proto::RegisterGraphRequest;
  using Response = proto::RegisterGraphResponse;
  TF_ASSIGN_OR_RETURN(auto calls,
                      (CallsTo<Request, Response>(workers_, tasks)));
  for (size_t i = 0; i < calls.size(); ++i) {
    calls[i]->request = std::move(parts[i].second);
    if (limit.limited()) calls[i]->opts.set_deadline(limit.deadline);
  }
  std::vector<Status> statuses;
  bool closed;
  {
    Cancellable cancellable(this);  // Close cancels the calls
    TF_RETURN_IF_ERROR(cancellable.Add(calls));
    statuses = CallAll(calls, &WorkerInterface::RegisterGraphAsync);
    std::lock_guard<std::mutex> lock(mu_);
    closed = closed_;
  }
  std::vector<std::string> handles;
  Status failed;
  for (size_t i = 0; i < calls.size(); ++i) {
    const Status& s = statuses[i];
    if (s.ok()) {
      handles.push_back(calls[i]->response.graph_handle());
    } else if (!failed.ok()) {
      continue;  // the first error is the one to report
    } else if (closed) {
      failed = ClosedUnderStep();
    } else if (s.code() == error::DEADLINE_EXCEEDED && limit.limited()) {
      failed = errors::DeadlineExceeded(
          "RegisterGraph timed out after ", limit.ms,
          " ms waiting for response from worker: ", tasks[i]);
    } else {
      failed = s;
    }
  }
  if (failed.ok()) return handles;
  // The parts that were registered belong to no plan now: they go again,
  // without waiting for the answers.
  for (size_t i = 0; i < calls.size(); ++i) {
    if (statuses[i].ok()) {
      DeregisterUnawaited(tasks[i], calls[i]->response.graph_handle());
    }
  }
  return failed;
}

void MasterSession::DeregisterUnawaited(const std::string& task,
                                        const std::string& graph_handle) {
  StatusOr<WorkerInterface*> worker = workers_->GetWorker(task);
  if (!worker.ok()) return;
  auto call = std::make_shared<WorkerCall<proto::DeregisterGraphRequest,
                                          proto::DeregisterGraphResponse>>();
  call->task = task;
  call->worker = *worker;
  call->opts.set_deadline(TidyDeadline());
  call->request.set_session_handle(handle_);
  call->request.set_create_worker_session_called(true);
  call->request.set_graph_handle(graph_handle);
  SendUnawaited(std::move(call), &WorkerInterface::DeregisterGraphAsync);
}
// --8<-- [end:register]

// --8<-- [start:run]
// --8<-- [start:run_step]
Status MasterSession::Run(const proto::RunStepRequest& request,
                          proto::RunStepResponse* response,
                          CallOptions* caller) {
  // Close waits until the step is over (running_), its plan's creation
  // included, and cancels its calls while they run.
  Counted counted(this);
  TF_RETURN_IF_ERROR(counted.Begin());
  const int64_t step_id = NewStepId();
  // The step's calls, for the chapter's sequence diagram (rpc_trace.h).
  RpcTraceScope trace_step("RunStep", "client", client_device_->name(),
                           step_id);
  TF_ASSIGN_OR_RETURN(Step step, ReadStep(request));
  // 1. The plan of the run's signature: made, and registered with the
  //    tasks, by the first run of the signature.
  TF_ASSIGN_OR_RETURN(
      std::shared_ptr<const Plan> plan,
      plans_->GetOrCreate(
          RunSignatureKey(step.feeds, step.fetches, step.targets),
          step.register_parts, [&] { return CreatePlan(step); }));
  // 2. Every task runs its part, all at once, sharing the step id.
  TF_ASSIGN_OR_RETURN(RunGraphCalls calls, PrepareParts(*plan, step_id, step));
  TF_RETURN_IF_ERROR(RunParts(*plan, step_id, calls, caller));
  // 3. The fetched values, from the client task's answer.
  return CollectFetches(*plan, calls, step, response);
}
// --8<-- [end:run_step]

StatusOr<MasterSession::Step> MasterSession::ReadStep(
    const proto::RunStepRequest& request) const {
  Step step;
  for (const proto::NamedTensorProto& feed : request.feed()) {
    TF_ASSIGN_OR_RETURN(Tensor value, TensorFromProto(feed.tensor()));
    step.feeds.emplace_back(feed.name(), std::move(value));
  }
  step.fetches.assign(request.fetch().begin(), request.fetch().end());
  step.targets.assign(request.target().begin(), request.target().end());
  // The step's RunOptions timeout bounds the whole run, from here: its
  // RunGraph calls, and the registration of its parts that the first run of
  // a signature makes, which the session's operation timeout bounds too.
  const auto start = std::chrono::system_clock::now();
  const int64_t run_ms = request.options().timeout_in_ms();
  step.run = {run_ms, DeadlineAfter(start, run_ms)};
  step.register_parts = step.run;
  step.partition_graphs = request.options().output_partition_graphs();
  const int64_t op_ms = config_.operation_timeout_in_ms;
  if (op_ms > 0 && (!step.run.limited() || op_ms < step.run.ms)) {
    step.register_parts = {op_ms, DeadlineAfter(start, op_ms)};
  }
  return step;
}

// --8<-- [start:prepare_parts]
StatusOr<MasterSession::RunGraphCalls> MasterSession::PrepareParts(
    const Plan& plan, int64_t step_id, const Step& step) const {
  std::vector<std::string> tasks;
  for (const Plan::Part& part : plan.parts) tasks.push_back(part.task);
  using Request = proto::RunGraphRequest;
  using Response = proto::RunGraphResponse;
  TF_ASSIGN_OR_RETURN(RunGraphCalls calls,
                      (CallsTo<Request, Response>(workers_, tasks)));
  for (size_t p = 0; p < calls.size(); ++p) {
    proto::RunGraphRequest& request = calls[p]->request;
    request.set_graph_handle(plan.parts[p].graph_handle);
    request.set_step_id(step_id);
    request.set_session_handle(handle_);
    request.set_create_worker_session_called(true);
    if (step.run.limited()) calls[p]->opts.set_deadline(step.run.deadline);
    request.mutable_exec_opts()->set_record_partition_graphs(
        step.partition_graphs);
    if (plan.parts[p].task != plan.client_task) continue;
    for (size_t i = 0; i < step.feeds.size(); ++i) {
      TF_ASSIGN_OR_RETURN(Tensor value,
                          ConvertFedValue(plan.feeds[i], step.feeds[i].second));
      proto::NamedTensorProto* send = request.add_send();
      send->set_name(plan.feed_keys[i]);
      TF_RETURN_IF_ERROR(TensorToProto(value, send->mutable_tensor()));
    }
    for (const std::string& key : plan.fetch_keys) {
      const auto& asked = request.recv_key();
      if (std::find(asked.begin(), asked.end(), key) == asked.end()) {
        request.add_recv_key(key);
      }
    }
  }
  return calls;
}
// --8<-- [end:prepare_parts]

// --8<-- [start:run_parts]
Status MasterSession::RunParts(const Plan& plan, int64_t step_id,
                               RunGraphCalls& calls, CallOptions* caller) {
  // At the first error the step is over: CleanupGraph on every task ends
  // what still waits there for a value that will never come. When every
  // part has answered, the same calls end the step.
  std::atomic<bool> cleaned_up{false};
  auto end_step = [&] {
    if (!cleaned_up.exchange(true)) CleanupStep(plan, step_id);
  };
  FanOutOptions options;
  options.on_answer = [&](size_t, const Status& s) {
    if (!s.ok()) end_step();
  };
  std::vector<Status> statuses;
  {
    Cancellable cancellable(this);  // Close cancels the calls
    TF_RETURN_IF_ERROR(cancellable.Add(calls));
    // A client that goes away cancels them too.
    if (caller != nullptr) {
      caller->SetCancelCallback([&calls] {
        for (const auto& call : calls) call->opts.StartCancel();
      });
    }
    statuses = CallAll(calls, &WorkerInterface::RunGraphAsync, options);
    if (caller != nullptr) caller->ClearCancelCallback();
  }
  end_step();
  Status step_status = StepError(statuses);
  if (!step_status.ok()) {
    // Closed under the step: its parts' errors only follow from that.
    std::lock_guard<std::mutex> lock(mu_);
    if (closed_) return ClosedUnderStep();
  }
  return step_status;
}
// --8<-- [end:run_parts]

// --8<-- [start:collect]
// A worker answers in an order of its own: the values are matched by key.
// The devices' graphs, when the step asks for them, come from every task.
Status MasterSession::CollectFetches(const Plan& plan,
                                     const RunGraphCalls& calls,
                                     const Step& step,
                                     proto::RunStepResponse* response) const {
  for (size_t i = 0; step.partition_graphs && i < calls.size(); ++i) {
    for (const proto::GraphDef& graph : calls[i]->response.partition_graph()) {
      *response->mutable_metadata()->add_partition_graphs() = graph;
    }
  }
  for (size_t i = 0; i < plan.parts.size(); ++i) {
    if (plan.parts[i].task != plan.client_task) continue;
    const proto::RunGraphRequest& asked = calls[i]->request;
    const std::vector<std::string> keys(asked.recv_key().begin(),
                                        asked.recv_key().end());
    TF_ASSIGN_OR_RETURN(
        std::vector<const proto::TensorProto*> values,
        MatchByName(calls[i]->response.recv(), keys, kFetchKeys));
    for (size_t j = 0; j < step.fetches.size(); ++j) {
      const size_t k = std::find(keys.begin(), keys.end(), plan.fetch_keys[j]) -
                       keys.begin();
      proto::NamedTensorProto* out = response->add_tensor();
      out->set_name(step.fetches[j]);
      *out->mutable_tensor() = *values[k];
    }
  }
  return Status::OK();
}
// --8<-- [end:collect]
// --8<-- [end:run]

// --8<-- [start:cleanup]
// CleanupGraph to every task of the step, without waiting for the answers:
// the step's result does not depend on them, and TensorFlow's master does
// not wait either. Each call counts in cleanups_ until its answer, so that
// Close can wait for them. The master's own task's worker ends the step at
// once, on whatever thread ends the step: a RunGraph callback of gRPC's
// when another task failed first. That is safe because nothing the cleanup
// runs (the rendezvous's waiters, the queues' cancellations, executor
// continuations) takes mu_, and because the local part's RunGraph still
// holds the step's rendezvous then, so its destructor, which waits for
// gRPC callbacks, never runs on one.
void MasterSession::CleanupStep(const Plan& plan, int64_t step_id) {
  for (const Plan::Part& part : plan.parts) {
    StatusOr<WorkerInterface*> worker = workers_->GetWorker(part.task);
    if (!worker.ok()) continue;  // a task that is gone has no step to end
    auto call = std::make_shared<
        WorkerCall<proto::CleanupGraphRequest, proto::CleanupGraphResponse>>();
    call->task = part.task;
    call->worker = *worker;
    call->opts.set_deadline(TidyDeadline());
    call->request.set_step_id(step_id);
    SendUnawaited(std::move(call), &WorkerInterface::CleanupGraphAsync);
  }
}
// --8<-- [end:cleanup]

Status MasterSession::Close() {
  {
    std::lock_guard<std::mutex> lock(mu_);
    if (closed_) return Status::OK();
    closed_ = true;
    // Each cancelled RunGraph fails its step (on this task's own worker, it
    // ends the step as a cleanup does), and the step's CleanupGraph ends
    // what still waits in the other tasks.
    for (CallOptions* opts : in_flight_) opts->StartCancel();
  }
  // The steps end (each sends its cleanups as it does), then their cleanups
  // and deregistrations are answered, and only then do the worker sessions go,
  // as in TensorFlow's master.
  {
    std::unique_lock<std::mutex> lock(mu_);
    idle_.wait(lock, [this] { return running_ == 0; });
  }
  cleanups_->WaitAll();
  // To every task at once; a task that is gone, or does not answer by the
  // deadline, has nothing left to delete.
  using Request = proto::DeleteWorkerSessionRequest;
  using Response = proto::DeleteWorkerSessionResponse;
  CallList<Request, Response> deletes;
  for (const std::string& task : tasks_) {
    StatusOr<WorkerInterface*> worker = workers_->GetWorker(task);
    if (!worker.ok()) continue;
    auto& call =
        deletes.emplace_back(std::make_unique<WorkerCall<Request, Response>>());
    call->task = task;
    call->worker = *worker;
    call->opts.set_deadline(TidyDeadline());
    call->request.set_session_handle(handle_);
  }
  CallAll(deletes, &WorkerInterface::DeleteWorkerSessionAsync);
  return Status::OK();
}

std::chrono::system_clock::time_point MasterSession::TidyDeadline() const {
  int64_t ms = 10000;
  if (config_.operation_timeout_in_ms > 0) {
    ms = std::min(ms, config_.operation_timeout_in_ms);
  }
  return DeadlineAfter(std::chrono::system_clock::now(), ms);
}

}  // namespace minitf
