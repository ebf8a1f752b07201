#include "minitf/distributed/runtime/master_session.h"

#include <grpcpp/grpcpp.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <functional>
#include <map>
#include <random>

#include "minitf/device/graph_partition.h"
#include "minitf/device/placer.h"
#include "minitf/device/rendezvous.h"
#include "minitf/device/subgraph.h"
#include "minitf/distributed/runtime/named_answers.h"
#include "minitf/distributed/runtime/proto_convert.h"
#include "minitf/distributed/runtime/rpc_trace.h"
#include "minitf/distributed/runtime/worker.h"
#include "minitf/graph/deadline.h"
#include "minitf/graph/feed_value.h"
#include "minitf/graph/graph_def.h"
#include "minitf/graph/local_session.h"
#include "minitf/graph/proto_convert.h"

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

namespace {

// One call in flight: what gRPC fills, and how it ended.
template <typename Request, typename Response>
struct Call {
  grpc::ClientContext context;
  Request request;
  Response response;
  Status status;
};

}  // namespace

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

}  // namespace

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
    const std::string& master_task, WorkerCache* workers) {
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
  session->tasks_ = workers->ListWorkers();
  TF_RETURN_IF_ERROR(
      ImportGraphDef(request.graph_def(), &session->graph_,
                     ImportGraphDefOptions{.drop_newer_default_attrs = true}));
  // A worker session on every task, all asked at once. Every task answered
  // GetStatus a moment ago; one that stops answering now is given up on at
  // the session's operation timeout, as Master::GatherDevices gives up on
  // GetStatus (minitf's own words).
  const int64_t timeout_ms = request.config().operation_timeout_in_ms();
  const auto deadline =
      DeadlineAfter(std::chrono::system_clock::now(), timeout_ms);
  using CreateCall = Call<proto::CreateWorkerSessionRequest,
                          proto::CreateWorkerSessionResponse>;
  std::vector<std::unique_ptr<CreateCall>> calls;
  std::vector<tensorflow::WorkerService::Stub*> stubs;
  for (const std::string& task : session->tasks_) {
    TF_ASSIGN_OR_RETURN(tensorflow::WorkerService::Stub * stub,
                        workers->GetStub(task));
    stubs.push_back(stub);
    CreateCall* call = calls.emplace_back(std::make_unique<CreateCall>()).get();
    if (timeout_ms > 0) call->context.set_deadline(deadline);
    call->request.set_session_handle(session->handle_);
    *call->request.mutable_server_def()->mutable_default_session_config() =
        request.config();
  }
  CallGroup group(static_cast<int>(calls.size()));
  for (size_t i = 0; i < calls.size(); ++i) {
    CreateCall* call = calls[i].get();
    stubs[i]->async()->CreateWorkerSession(&call->context, &call->request,
                                           &call->response,
                                           [call, &group](grpc::Status s) {
                                             call->status = FromGrpcStatus(s);
                                             group.Done();
                                           });
  }
  group.WaitAll();
  for (size_t i = 0; i < calls.size(); ++i) {
    const Status& s = calls[i]->status;
    if (s.code() == error::DEADLINE_EXCEEDED && timeout_ms > 0) {
      return errors::DeadlineExceeded(
          "CreateWorkerSession timed out after ", timeout_ms,
          " ms waiting for response from worker: ", session->tasks_[i]);
    }
    TF_RETURN_IF_ERROR(s);
  }
  return session;
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
    const std::vector<std::pair<std::string, Tensor>>& feeds,
    const std::vector<std::string>& fetch_names,
    const std::vector<std::string>& target_names, const Limit& limit) {
  auto plan = std::make_shared<Plan>();
  std::vector<std::pair<std::string, proto::RegisterGraphRequest>> parts;
  {
    std::lock_guard<std::mutex> lock(mu_);
    // Runs that waited for another's registration, which Close ended, end
    // here rather than plan again.
    if (closed_) return ClosedUnderStep();
    TF_ASSIGN_OR_RETURN(
        RunSignature sig,
        ResolveRunSignature(graph_, feeds, fetch_names, target_names));
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
    for (auto& [task, graph] : partitions) {
      proto::RegisterGraphRequest& request =
          parts.emplace_back(task, proto::RegisterGraphRequest{}).second;
      request.set_session_handle(handle_);
      request.set_create_worker_session_called(true);
      TF_RETURN_IF_ERROR(ToGraphDef(*graph, request.mutable_graph_def()));
      request.mutable_config_proto()->set_operation_timeout_in_ms(
          config_.operation_timeout_in_ms);
    }
  }
  // Each task's part is registered with its task, the graph's lock let go:
  // a task that does not answer must not keep Close, or the session's other
  // runs, waiting for the lock.
  TF_ASSIGN_OR_RETURN(std::vector<std::string> handles,
                      RegisterParts(parts, limit));
  for (size_t i = 0; i < parts.size(); ++i) {
    plan->parts.push_back({parts[i].first, handles[i]});
  }
  return std::shared_ptr<const Plan>(std::move(plan));
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
    const std::vector<std::pair<std::string, proto::RegisterGraphRequest>>&
        parts,
    const Limit& limit) {
  using RegisterCall =
      Call<proto::RegisterGraphRequest, proto::RegisterGraphResponse>;
  std::vector<std::unique_ptr<RegisterCall>> calls;
  std::vector<tensorflow::WorkerService::Stub*> stubs;
  for (const auto& [task, request] : parts) {
    TF_ASSIGN_OR_RETURN(tensorflow::WorkerService::Stub * stub,
                        workers_->GetStub(task));
    stubs.push_back(stub);
    calls.push_back(std::make_unique<RegisterCall>());
    if (limit.limited()) calls.back()->context.set_deadline(limit.deadline);
  }
  // Close cancels the calls while they are in in_flight_.
  {
    std::lock_guard<std::mutex> lock(mu_);
    if (closed_) return ClosedUnderStep();
    for (const auto& call : calls) in_flight_.insert(&call->context);
  }
  CallGroup group(static_cast<int>(calls.size()));
  for (size_t i = 0; i < calls.size(); ++i) {
    RegisterCall* call = calls[i].get();
    stubs[i]->async()->RegisterGraph(&call->context, &parts[i].second,
                                     &call->response,
                                     [call, &group](grpc::Status s) {
                                       call->status = FromGrpcStatus(s);
                                       group.Done();
                                     });
  }
  group.WaitAll();
  bool closed;
  {
    std::lock_guard<std::mutex> lock(mu_);
    for (const auto& call : calls) in_flight_.erase(&call->context);
    closed = closed_;
  }
  std::vector<std::string> handles;
  Status failed;
  for (size_t i = 0; i < calls.size(); ++i) {
    const Status& s = calls[i]->status;
    if (s.ok()) {
      handles.push_back(calls[i]->response.graph_handle());
    } else if (!failed.ok()) {
      continue;  // the first error is the one to report
    } else if (closed) {
      failed = ClosedUnderStep();
    } else if (s.code() == error::DEADLINE_EXCEEDED && limit.limited()) {
      failed = errors::DeadlineExceeded(
          "RegisterGraph timed out after ", limit.ms,
          " ms waiting for response from worker: ", parts[i].first);
    } else {
      failed = s;
    }
  }
  if (failed.ok()) return handles;
  // The parts that were registered belong to no plan now: they go again,
  // without waiting for the answers.
  for (size_t i = 0; i < calls.size(); ++i) {
    if (calls[i]->status.ok()) {
      DeregisterUnawaited(parts[i].first, calls[i]->response.graph_handle());
    }
  }
  return failed;
}

void MasterSession::DeregisterUnawaited(const std::string& task,
                                        const std::string& graph_handle) {
  StatusOr<tensorflow::WorkerService::Stub*> stub = workers_->GetStub(task);
  if (!stub.ok()) return;
  using DeregisterCall =
      Call<proto::DeregisterGraphRequest, proto::DeregisterGraphResponse>;
  auto call = std::make_shared<DeregisterCall>();
  call->context.set_deadline(TidyDeadline());
  call->request.set_session_handle(handle_);
  call->request.set_create_worker_session_called(true);
  call->request.set_graph_handle(graph_handle);
  cleanups_->Add();  // Close waits for the answer
  (*stub)->async()->DeregisterGraph(
      &call->context, &call->request, &call->response,
      [call, pending = cleanups_](grpc::Status) mutable {
        call.reset();     // the context goes before Close may go on
        pending->Done();  // the session may be gone after this
      });
}
// --8<-- [end:register]

// --8<-- [start:run]
Status MasterSession::Run(const proto::RunStepRequest& request,
                          proto::RunStepResponse* response) {
  const int64_t step_id = NewStepId();
  // A Close while the step runs cancels its calls, and ends the local part:
  // a step that waits in a task (a take_grad, a dequeue) ends with the
  // session. Close then waits until the step is over (running_), its plan's
  // creation included.
  struct Running {
    MasterSession* session = nullptr;  // null until the step is counted
    int64_t step_id = 0;
    ~Running() {
      if (session == nullptr) return;
      std::lock_guard<std::mutex> lock(session->mu_);
      session->local_steps_.erase(step_id);
      if (--session->running_ == 0) session->idle_.notify_all();
    }
  } running;
  {
    std::lock_guard<std::mutex> lock(mu_);
    if (closed_) return errors::FailedPrecondition("Session has been closed.");
    ++running_;
    running.session = this;
    running.step_id = step_id;
  }
  // The step's calls, for the chapter's sequence diagram (rpc_trace.h).
  RpcTraceScope trace_step("RunStep", "client", client_device_->name(),
                           step_id);
  std::vector<std::pair<std::string, Tensor>> feeds;
  for (const proto::NamedTensorProto& feed : request.feed()) {
    TF_ASSIGN_OR_RETURN(Tensor value, TensorFromProto(feed.tensor()));
    feeds.emplace_back(feed.name(), std::move(value));
  }
  const std::vector<std::string> fetches(request.fetch().begin(),
                                         request.fetch().end());
  const std::vector<std::string> targets(request.target().begin(),
                                         request.target().end());
  // The step's RunOptions timeout bounds the whole run, from here: its
  // RunGraph calls, and the registration of its parts that the first run of
  // a signature makes, which the session's operation timeout bounds too.
  const auto start = std::chrono::system_clock::now();
  const Limit run_limit{
      request.options().timeout_in_ms(),
      DeadlineAfter(start, request.options().timeout_in_ms())};
  Limit register_limit = run_limit;
  const int64_t op_ms = config_.operation_timeout_in_ms;
  if (op_ms > 0 && (!run_limit.limited() || op_ms < run_limit.ms)) {
    register_limit = {op_ms, DeadlineAfter(start, op_ms)};
  }
  TF_ASSIGN_OR_RETURN(
      std::shared_ptr<const Plan> plan,
      plans_->GetOrCreate(
          RunSignatureKey(feeds, fetches, targets), register_limit,
          [&] { return CreatePlan(feeds, fetches, targets, register_limit); }));

  // One RunGraph per task, all at once, sharing the step id.
  using RunGraphCall = Call<proto::RunGraphRequest, proto::RunGraphResponse>;
  std::vector<std::unique_ptr<RunGraphCall>> calls;
  CallGroup group(static_cast<int>(plan->parts.size()));
  for (const Plan::Part& part : plan->parts) {
    auto call = std::make_unique<RunGraphCall>();
    call->request.set_graph_handle(part.graph_handle);
    call->request.set_step_id(step_id);
    call->request.set_session_handle(handle_);
    call->request.set_create_worker_session_called(true);
    if (part.task == plan->client_task) {
      for (size_t i = 0; i < feeds.size(); ++i) {
        TF_ASSIGN_OR_RETURN(Tensor value,
                            ConvertFedValue(plan->feeds[i], feeds[i].second));
        proto::NamedTensorProto* send = call->request.add_send();
        send->set_name(plan->feed_keys[i]);
        TF_RETURN_IF_ERROR(TensorToProto(value, send->mutable_tensor()));
      }
      for (const std::string& key : plan->fetch_keys) {
        const auto& asked = call->request.recv_key();
        if (std::find(asked.begin(), asked.end(), key) == asked.end()) {
          call->request.add_recv_key(key);
        }
      }
    }
    if (run_limit.limited()) call->context.set_deadline(run_limit.deadline);
    calls.push_back(std::move(call));
  }
  // The part on the master's own task runs on its worker directly, on this
  // thread, as TensorFlow's master calls its local worker; the others are
  // RunGraph calls over gRPC, all sent first.
  Worker* local_worker = nullptr;
  size_t local_part = calls.size();  // none
  std::vector<tensorflow::WorkerService::Stub*> stubs(calls.size(), nullptr);
  for (size_t i = 0; i < calls.size(); ++i) {
    if (Worker* w = LocalWorker(plan->parts[i].task); w != nullptr) {
      local_worker = w;
      local_part = i;
      continue;
    }
    TF_ASSIGN_OR_RETURN(stubs[i], workers_->GetStub(plan->parts[i].task));
  }
  // Close cancels the remote calls through in_flight_. `in_flight` is
  // declared after `calls`, so it is destroyed first, and each context
  // leaves in_flight_ before it is destroyed.
  struct InFlight {
    MasterSession* session;
    std::vector<grpc::ClientContext*> contexts;
    ~InFlight() {
      std::lock_guard<std::mutex> lock(session->mu_);
      for (grpc::ClientContext* c : contexts) session->in_flight_.erase(c);
    }
  } in_flight{this, {}};
  {
    std::lock_guard<std::mutex> lock(mu_);
    if (closed_) return ClosedUnderStep();
    for (size_t i = 0; i < calls.size(); ++i) {
      if (i == local_part) continue;
      in_flight.contexts.push_back(&calls[i]->context);
      in_flight_.insert(&calls[i]->context);
    }
    if (local_part < calls.size()) local_steps_.insert(step_id);
  }
  // At the first error the step is over: CleanupGraph on every task ends
  // what still waits there for a value that will never come. When every
  // part has answered, the same calls end the step.
  std::atomic<bool> cleaned_up{false};
  auto end_step = [&] {
    if (!cleaned_up.exchange(true)) CleanupStep(*plan, step_id);
  };
  for (size_t i = 0; i < calls.size(); ++i) {
    if (i == local_part) continue;
    RunGraphCall* call = calls[i].get();
    const int64_t start_us = RpcTraceEnabled() ? RpcTraceNowMicros() : 0;
    stubs[i]->async()->RunGraph(
        &call->context, &call->request, &call->response,
        [call, &group, &plan, &end_step, i, step_id, start_us](grpc::Status s) {
          if (RpcTraceEnabled()) {
            RecordRpc({"RunGraph", plan->client_task, plan->parts[i].task,
                       step_id, start_us, RpcTraceNowMicros(), ""});
          }
          call->status = FromGrpcStatus(s);
          if (!call->status.ok()) end_step();
          group.Done();
        });
  }
  if (local_part < calls.size()) {
    RunGraphCall* call = calls[local_part].get();
    const int64_t start_us = RpcTraceEnabled() ? RpcTraceNowMicros() : 0;
    // What is left of the run's timeout (at least 1 ms: 0 means none).
    int64_t left_ms = 0;
    if (run_limit.limited()) {
      left_ms = std::max<int64_t>(
          1, std::chrono::duration_cast<std::chrono::milliseconds>(
                 run_limit.deadline - std::chrono::system_clock::now())
                 .count());
    }
    call->status =
        local_worker->RunGraph(call->request, &call->response, left_ms);
    if (RpcTraceEnabled()) {
      RecordRpc({"RunGraph", plan->client_task, plan->parts[local_part].task,
                 step_id, start_us, RpcTraceNowMicros(), ""});
    }
    if (!call->status.ok()) end_step();
    group.Done();
  }
  group.WaitAll();
  end_step();
  std::vector<Status> statuses;
  for (const auto& call : calls) statuses.push_back(call->status);
  Status step_status = StepError(statuses);
  if (!step_status.ok()) {
    // Closed under the step: its parts' errors only follow from that.
    std::lock_guard<std::mutex> lock(mu_);
    if (closed_) return ClosedUnderStep();
  }
  TF_RETURN_IF_ERROR(step_status);

  // The fetched values, from the client task's answer, matched by key (a
  // worker answers in an order of its own), in the order asked.
  for (size_t i = 0; i < plan->parts.size(); ++i) {
    if (plan->parts[i].task != plan->client_task) continue;
    const proto::RunGraphRequest& asked = calls[i]->request;
    const std::vector<std::string> keys(asked.recv_key().begin(),
                                        asked.recv_key().end());
    TF_ASSIGN_OR_RETURN(
        std::vector<const proto::TensorProto*> values,
        MatchByName(calls[i]->response.recv(), keys, kFetchKeys));
    for (size_t j = 0; j < fetches.size(); ++j) {
      const size_t k =
          std::find(keys.begin(), keys.end(), plan->fetch_keys[j]) -
          keys.begin();
      proto::NamedTensorProto* out = response->add_tensor();
      out->set_name(fetches[j]);
      *out->mutable_tensor() = *values[k];
    }
  }
  return Status::OK();
}
// --8<-- [end:run]

Worker* MasterSession::LocalWorker(const std::string& task) const {
  return task == workers_->local_task() ? workers_->local_worker() : nullptr;
}

namespace {

// What CleanupGraph does on `worker`: ends the step there, failing what still
// waits in it.
void EndStepOn(Worker* worker, int64_t step_id) {
  proto::CleanupGraphRequest request;
  request.set_step_id(step_id);
  worker->CleanupGraph(request).ok();
}

}  // namespace

// --8<-- [start:cleanup]
// CleanupGraph to every task of the step, without waiting for the answers:
// the step's result does not depend on them, and TensorFlow's master does
// not wait either. Each call counts in cleanups_ until its answer, so that
// Close can wait for them. The master's own task's worker is called
// directly, on whatever thread ends the step: a RunGraph callback of gRPC's
// when another task failed first. That is safe because nothing the cleanup
// runs (the rendezvous's waiters, the queues' cancellations, executor
// continuations) takes mu_, and because the local part's RunGraph still
// holds the step's rendezvous then, so its destructor, which waits for
// gRPC callbacks, never runs on one.
void MasterSession::CleanupStep(const Plan& plan, int64_t step_id) {
  struct CleanupCall {
    grpc::ClientContext context;
    proto::CleanupGraphRequest request;
    proto::CleanupGraphResponse response;
  };
  for (const Plan::Part& part : plan.parts) {
    // The master's own task's worker ends the step at once, called
    // directly.
    if (Worker* local = LocalWorker(part.task); local != nullptr) {
      const int64_t start_us = RpcTraceEnabled() ? RpcTraceNowMicros() : 0;
      EndStepOn(local, step_id);
      if (RpcTraceEnabled()) {
        RecordRpc({"CleanupGraph", plan.client_task, part.task, step_id,
                   start_us, RpcTraceNowMicros(), ""});
      }
      continue;
    }
    StatusOr<tensorflow::WorkerService::Stub*> stub =
        workers_->GetStub(part.task);
    if (!stub.ok()) continue;  // a task that is gone has no step to end
    auto call = std::make_shared<CleanupCall>();
    call->context.set_deadline(TidyDeadline());
    call->request.set_step_id(step_id);
    cleanups_->Add();
    const int64_t start_us = RpcTraceEnabled() ? RpcTraceNowMicros() : 0;
    (*stub)->async()->CleanupGraph(
        &call->context, &call->request, &call->response,
        [call, pending = cleanups_, caller = plan.client_task,
         callee = part.task, step_id, start_us](grpc::Status) mutable {
          if (RpcTraceEnabled()) {
            RecordRpc({"CleanupGraph", caller, callee, step_id, start_us,
                       RpcTraceNowMicros(), ""});
          }
          call.reset();     // the context goes before Close may go on
          pending->Done();  // the session may be gone after this
        });
  }
}
// --8<-- [end:cleanup]

Status MasterSession::Close() {
  std::vector<int64_t> local_steps;
  {
    std::lock_guard<std::mutex> lock(mu_);
    if (closed_) return Status::OK();
    closed_ = true;
    // Each cancelled RunGraph fails its step, and the step's CleanupGraph
    // ends what still waits in the other tasks.
    for (grpc::ClientContext* context : in_flight_) context->TryCancel();
    local_steps =
        std::vector<int64_t>(local_steps_.begin(), local_steps_.end());
  }
  // The parts running on this task's own worker end as a cleanup ends them.
  for (int64_t step_id : local_steps) {
    EndStepOn(workers_->local_worker(), step_id);
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
  using DeleteCall = Call<proto::DeleteWorkerSessionRequest,
                          proto::DeleteWorkerSessionResponse>;
  std::vector<std::unique_ptr<DeleteCall>> deletes;
  CallGroup group(0);
  for (const std::string& task : tasks_) {
    StatusOr<tensorflow::WorkerService::Stub*> stub = workers_->GetStub(task);
    if (!stub.ok()) continue;
    DeleteCall* call =
        deletes.emplace_back(std::make_unique<DeleteCall>()).get();
    call->context.set_deadline(TidyDeadline());
    call->request.set_session_handle(handle_);
    group.Add();
    (*stub)->async()->DeleteWorkerSession(
        &call->context, &call->request, &call->response,
        [&group](grpc::Status) { group.Done(); });
  }
  group.WaitAll();
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
