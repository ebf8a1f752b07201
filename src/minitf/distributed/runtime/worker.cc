#include "minitf/distributed/runtime/worker.h"

#include <chrono>
#include <memory>
#include <set>
#include <string_view>
#include <utility>
#include <vector>

#include "minitf/device/executor/notification.h"
#include "minitf/device/executor/parallel_executor.h"
#include "minitf/device/partition/graph_partition.h"
#include "minitf/distributed/runtime/proto_convert.h"
#include "minitf/distributed/runtime/rpc_trace.h"
#include "minitf/graph/deadline.h"
#include "minitf/graph/executor.h"
#include "minitf/graph/graph_def.h"
#include "minitf/graph/proto_convert.h"

namespace minitf {

namespace {

// Whether the value a _Send left under `key` may be sent on. A variable
// sent before it was initialized holds no value: chapter 3's error, the
// tensor named as TensorFlow names an input ("v", "split:1"), which a
// worker that waits for the chief to initialize the variables recognises.
Status CheckSentValue(const Rendezvous::ParsedKey& key, const Tensor& value) {
  if (value.IsInitialized()) return Status::OK();
  std::string_view tensor = key.edge_name;
  if (tensor.ends_with(":0")) tensor.remove_suffix(2);
  return UninitializedValueError(tensor);
}

}  // namespace

/// One registered graph: this task's part of a client graph, cut by device.
/// Immutable once built.
struct Worker::Item {
  struct Part {
    Device* device = nullptr;
    std::unique_ptr<Graph> graph;
    std::vector<std::unique_ptr<OpKernel>> kernels;
    std::unique_ptr<ParallelExecutor> executor;
  };
  std::string session;
  std::unique_ptr<Graph> graph;  // the task's part, as registered
  std::vector<Part> parts;
  int64_t operation_timeout_in_ms = 0;
};

Worker::Worker(std::string task, const DeviceMgr* devices, WorkerCache* workers,
               int inter_op_threads)
    : task_(std::move(task)),
      devices_(devices),
      workers_(workers),
      pool_(std::make_unique<Eigen::ThreadPool>(std::max(1, inter_op_threads))),
      rendezvous_(task_, devices, workers) {
  for (Device* d : devices_->ListDevices()) {
    resource_mgrs_.emplace(d, std::make_unique<ResourceMgr>());
  }
}

Worker::~Worker() { rendezvous_.CleanupAll(); }

ResourceMgr* Worker::resource_manager(const Device* device) const {
  auto it = resource_mgrs_.find(device);
  return it == resource_mgrs_.end() ? nullptr : it->second.get();
}

Status Worker::CheckSession(const std::string& handle, bool created) const {
  if (!created) return Status::OK();
  std::lock_guard<std::mutex> lock(mu_);
  if (sessions_.count(handle) == 0) {
    return errors::Aborted("Session handle is not found: ", handle,
                           ". Possibly this worker just restarted.");
  }
  return Status::OK();
}

Status Worker::CreateWorkerSession(
    const proto::CreateWorkerSessionRequest& request) {
  std::lock_guard<std::mutex> lock(mu_);
  sessions_.insert(request.session_handle());
  return Status::OK();
}

Status Worker::DeleteWorkerSession(
    const proto::DeleteWorkerSessionRequest& request) {
  std::lock_guard<std::mutex> lock(mu_);
  sessions_.erase(request.session_handle());
  for (auto it = graphs_.begin(); it != graphs_.end();) {
    it = it->second->session == request.session_handle() ? graphs_.erase(it)
                                                         : std::next(it);
  }
  return Status::OK();
}

// --8<-- [start:register]
Status Worker::RegisterGraph(const proto::RegisterGraphRequest& request,
                             proto::RegisterGraphResponse* response) {
  TF_RETURN_IF_ERROR(CheckSession(request.session_handle(),
                                  request.create_worker_session_called()));
  auto item = std::make_shared<Item>();
  item->session = request.session_handle();
  item->operation_timeout_in_ms =
      request.config_proto().operation_timeout_in_ms();
  item->graph = std::make_unique<Graph>();
  TF_RETURN_IF_ERROR(ImportGraphDef(request.graph_def(), item->graph.get(),
                                    {.allow_internal_names = true}));
  // The master placed every node; it must be on a device of this task.
  for (Node* n : item->graph->nodes()) {
    const std::string& device = n->requested_device();
    if (!devices_->LookupDevice(device).ok() || !TaskOfDevice(device).ok() ||
        *TaskOfDevice(device) != task_) {
      return errors::InvalidArgument("Node '", n->name(), "' is placed on '",
                                     device, "', which is not a device of ",
                                     task_);
    }
    n->set_assigned_device(device);
  }
  PartitionOptions options;
  options.incarnation = [this](const std::string& name) -> uint64_t {
    StatusOr<Device*> d = devices_->LookupDevice(name);
    return d.ok() ? (*d)->attributes().incarnation : 0;
  };
  TF_ASSIGN_OR_RETURN(auto partitions, Partition(*item->graph, options));
  for (auto& [name, graph] : partitions) {
    Item::Part part;
    TF_ASSIGN_OR_RETURN(part.device, devices_->LookupDevice(name));
    part.graph = std::move(graph);
    Device* device = part.device;
    std::vector<std::unique_ptr<OpKernel>>* kernels = &part.kernels;
    TF_ASSIGN_OR_RETURN(
        part.executor,
        ParallelExecutor::Create(
            part.graph.get(), device,
            [device, kernels](const Node& n) -> StatusOr<OpKernel*> {
              TF_ASSIGN_OR_RETURN(std::unique_ptr<OpKernel> kernel,
                                  CreateKernelOnDevice(n, device));
              kernels->push_back(std::move(kernel));
              return kernels->back().get();
            }));
    item->parts.push_back(std::move(part));
  }
  std::lock_guard<std::mutex> lock(mu_);
  const std::string handle = StrCat(task_, "/graph_", next_graph_++);
  graphs_.emplace(handle, std::move(item));
  response->set_graph_handle(handle);
  return Status::OK();
}
// --8<-- [end:register]

Status Worker::DeregisterGraph(const proto::DeregisterGraphRequest& request) {
  std::lock_guard<std::mutex> lock(mu_);
  if (graphs_.erase(request.graph_handle()) == 0) {
    return errors::NotFound("Graph handle is not found: ",
                            request.graph_handle());
  }
  return Status::OK();
}

namespace {

// A key asked for twice would wait forever for a second value: refused.
Status CheckRecvKeysUnique(const proto::RunGraphRequest& request) {
  std::set<std::string_view> asked;
  for (const std::string& key : request.recv_key()) {
    if (!asked.insert(key).second) {
      return errors::InvalidArgument("RunGraph asks for recv key ", key,
                                     " more than once");
    }
  }
  return Status::OK();
}

}  // namespace

// --8<-- [start:run_graph]
Status Worker::RunGraph(const proto::RunGraphRequest& request,
                        proto::RunGraphResponse* response, int64_t timeout_ms) {
  ++steps_running_;
  struct Ended {
    std::atomic<int>& running;
    ~Ended() { --running; }
  } ended{steps_running_};
  TF_RETURN_IF_ERROR(CheckRecvKeysUnique(request));
  TF_ASSIGN_OR_RETURN(std::shared_ptr<const Item> item,
                      FindGraph(request.graph_handle()));
  Device* host = devices_->ListDevices().front();
  std::shared_ptr<RpcRendezvous> rendezvous =
      rendezvous_.Find(request.step_id(), item->operation_timeout_in_ms);
  // What the master feeds: values for this task's client-side _Recvs.
  for (const proto::NamedTensorProto& sent : request.send()) {
    TF_ASSIGN_OR_RETURN(Rendezvous::ParsedKey key,
                        Rendezvous::ParseKey(sent.name()));
    TF_ASSIGN_OR_RETURN(Tensor value, TensorFromProto(sent.tensor()));
    TF_RETURN_IF_ERROR(rendezvous->Send(key, {host}, value, false));
  }
  TF_RETURN_IF_ERROR(
      RunExecutors(*item, request.step_id(), rendezvous.get(), timeout_ms));
  // What the master fetches: values this task's client-side _Sends sent.
  for (const std::string& name : request.recv_key()) {
    TF_ASSIGN_OR_RETURN(Rendezvous::ParsedKey key, Rendezvous::ParseKey(name));
    Tensor value;
    bool is_dead = false;
    TF_RETURN_IF_ERROR(rendezvous->Recv(key, {host}, &value, &is_dead));
    proto::NamedTensorProto* out = response->add_recv();
    out->set_name(name);
    TF_RETURN_IF_ERROR(CheckSentValue(key, value));
    TF_RETURN_IF_ERROR(TensorToProto(value, out->mutable_tensor()));
  }
  // The graph each of this task's devices ran, as TensorFlow's worker
  // returns them for RunOptions.output_partition_graphs.
  if (request.exec_opts().record_partition_graphs()) {
    for (const Item::Part& part : item->parts) {
      TF_RETURN_IF_ERROR(
          ToGraphDef(*part.graph, response->add_partition_graph()));
    }
  }
  return Status::OK();
}

StatusOr<std::shared_ptr<const Worker::Item>> Worker::FindGraph(
    const std::string& handle) const {
  std::lock_guard<std::mutex> lock(mu_);
  auto it = graphs_.find(handle);
  if (it == graphs_.end()) {
    return errors::Aborted("Graph handle is not found: ", handle,
                           ". Possibly, this worker just restarted.");
  }
  return it->second;
}

Status Worker::RunExecutors(const Item& item, int64_t step_id,
                            RpcRendezvous* rendezvous, int64_t timeout_ms) {
  Notification done;
  Status step_status;
  ExecutorBarrier barrier(static_cast<int>(item.parts.size()), rendezvous,
                          [&](const Status& s) {
                            step_status = s;
                            done.Notify();
                          });
  std::vector<ParallelExecutor::Args> args(item.parts.size());
  for (size_t i = 0; i < item.parts.size(); ++i) {
    args[i].step_id = step_id;
    args[i].rendezvous = rendezvous;
    args[i].resource_manager = resource_manager(item.parts[i].device);
    args[i].barrier = &barrier;
    args[i].operation_timeout_in_ms = item.operation_timeout_in_ms;
    args[i].runner = [this](std::function<void()> fn) {
      pool_->Schedule(std::move(fn));
    };
  }
  if (item.parts.empty()) done.Notify();
  for (size_t i = 0; i < item.parts.size(); ++i) {
    pool_->Schedule([&, i] {
      item.parts[i].executor->RunAsync(
          args[i], [&barrier](const Status& s) { barrier.ExecutorDone(s); });
    });
  }
  // A step whose peers never answer (a task died) ends at the session's
  // operation timeout, when it has one, or at the caller's deadline, when
  // that comes first.
  const int64_t op_timeout = item.operation_timeout_in_ms;
  const bool callers =
      timeout_ms > 0 && (op_timeout <= 0 || timeout_ms < op_timeout);
  const int64_t timeout = callers ? timeout_ms : op_timeout;
  if (timeout > 0 && !done.WaitForNotificationWithTimeout(
                         std::chrono::milliseconds(ClampTimeoutMs(timeout)))) {
    // What the step still waits for says which peer or resource held it.
    std::string waiting;
    for (const std::string& what : rendezvous->Waiting()) {
      waiting += (waiting.empty() ? "; still waiting for: " : ", ") + what;
    }
    barrier.Abort(callers
                      ? errors::DeadlineExceeded("Operation timed out.")
                      : errors::DeadlineExceeded(
                            "Step ", step_id, " on ", task_,
                            " did not finish within operation_timeout_in_ms (",
                            timeout, " ms)", waiting));
  }
  done.WaitForNotification();
  return step_status;
}
// --8<-- [end:run_graph]

Status Worker::CleanupGraph(const proto::CleanupGraphRequest& request) {
  rendezvous_.Cleanup(request.step_id());
  return Status::OK();
}

Status Worker::CleanupAll(const proto::CleanupAllRequest& request) {
  rendezvous_.CleanupAll();
  for (auto& [device, rm] : resource_mgrs_) {
    if (request.container().empty()) {
      rm->Clear();
      continue;
    }
    // A container this device never had is not an error for the cluster.
    for (const std::string& c : request.container()) rm->Cleanup(c).ok();
  }
  return Status::OK();
}

// --8<-- [start:get_status]
Status Worker::GetStatus(const proto::GetStatusRequest& /*request*/,
                         proto::GetStatusResponse* response) const {
  for (const Device* device : devices_->ListDevices()) {
    *response->add_device_attributes() =
        DeviceAttributesToProto(device->attributes());
  }
  return Status::OK();
}

void Worker::GetStatusAsync(CallOptions*,
                            const proto::GetStatusRequest* request,
                            proto::GetStatusResponse* response,
                            StatusCallback done) {
  done(GetStatus(*request, response));
}
// --8<-- [end:get_status]

void Worker::CreateWorkerSessionAsync(
    CallOptions*, const proto::CreateWorkerSessionRequest* request,
    proto::CreateWorkerSessionResponse*, StatusCallback done) {
  done(CreateWorkerSession(*request));
}

void Worker::DeleteWorkerSessionAsync(
    CallOptions*, const proto::DeleteWorkerSessionRequest* request,
    proto::DeleteWorkerSessionResponse*, StatusCallback done) {
  done(DeleteWorkerSession(*request));
}

void Worker::RegisterGraphAsync(CallOptions*,
                                const proto::RegisterGraphRequest* request,
                                proto::RegisterGraphResponse* response,
                                StatusCallback done) {
  done(RegisterGraph(*request, response));
}

void Worker::DeregisterGraphAsync(CallOptions*,
                                  const proto::DeregisterGraphRequest* request,
                                  proto::DeregisterGraphResponse*,
                                  StatusCallback done) {
  done(DeregisterGraph(*request));
}

void Worker::RunGraphAsync(CallOptions* opts,
                           const proto::RunGraphRequest* request,
                           proto::RunGraphResponse* response,
                           StatusCallback done) {
  const int64_t step_id = request->step_id();
  opts->SetCancelCallback([this, step_id] { rendezvous_.Cleanup(step_id); });
  Status status = RunGraph(*request, response, opts->MillisecondsLeft());
  opts->ClearCancelCallback();
  done(status);
}

void Worker::CleanupGraphAsync(CallOptions*,
                               const proto::CleanupGraphRequest* request,
                               proto::CleanupGraphResponse*,
                               StatusCallback done) {
  done(CleanupGraph(*request));
}

void Worker::CleanupAllAsync(CallOptions*,
                             const proto::CleanupAllRequest* request,
                             proto::CleanupAllResponse*, StatusCallback done) {
  done(CleanupAll(*request));
}

// --8<-- [start:recv_tensor]
void Worker::RecvTensorAsync(CallOptions* opts,
                             const proto::RecvTensorRequest* request,
                             TensorResponse* response, StatusCallback done) {
  StatusOr<Rendezvous::ParsedKey> key =
      Rendezvous::ParseKey(request->rendezvous_key());
  if (!key.ok()) return done(key.status());
  // Recorded from here until the value is handed to `done` (rpc_trace.h).
  auto trace = std::make_shared<RpcTraceScope>(
      "RecvTensor", std::string(key->dst_device), task_, request->step_id(),
      std::string(key->edge_name));
  StatusOr<Device*> src = devices_->LookupDevice(key->src_device);
  if (!src.ok() || *TaskOfDevice(key->src_device) != task_) {
    return done(errors::InvalidArgument(
        "Invalid rendezvous key (src): ", request->rendezvous_key(), " @ ",
        task_));
  }
  const uint64_t incarnation = (*src)->attributes().incarnation;
  if (key->src_incarnation != incarnation) {
    return done(errors::Aborted(
        "RecvTensor expects a different device incarnation: ",
        key->src_incarnation, " vs. ", incarnation, ". Your worker job (\"",
        task_,
        "\") was probably restarted. Check your worker job for the reason "
        "why it was restarted."));
  }
  std::shared_ptr<RpcRendezvous> rendezvous =
      rendezvous_.Find(request->step_id());
  opts->SetCancelCallback([rendezvous] {
    rendezvous->StartAbort(errors::Cancelled("RecvTensor cancelled"));
  });
  rendezvous->RecvLocalAsync(
      *key, [key = *key, opts, response, done = std::move(done),
             trace = std::move(trace)](const Status& s, const Rendezvous::Args&,
                                       const Rendezvous::Args&,
                                       const Tensor& value, bool dead) mutable {
        opts->ClearCancelCallback();
        Status status = s;
        if (status.ok() && !dead) status = CheckSentValue(key, value);
        if (status.ok()) {
          response->tensor = value;  // shares the buffer: no copy
          response->is_dead = dead;
        }
        trace.reset();
        done(status);
      });
}
// --8<-- [end:recv_tensor]

}  // namespace minitf
