#include "minitf/distributed/runtime/master.h"

#include <cstdio>
#include <iostream>

#include "minitf/distributed/runtime/proto_convert.h"
#include "minitf/distributed/runtime/worker_interface.h"
#include "minitf/graph/deadline.h"

namespace minitf {

Master::Master(std::string task, const DeviceMgr* local_devices,
               WorkerCache* workers, MasterOptions options)
    : task_(std::move(task)),
      local_devices_(local_devices),
      workers_(workers),
      options_(options) {}

Master::~Master() {
  std::lock_guard<std::mutex> lock(mu_);
  for (auto& [handle, session] : sessions_) session->Close().ok();
}

std::ostream& Master::log() const {
  return options_.log_stream != nullptr ? *options_.log_stream : std::cerr;
}

namespace {

// ConfigProto.device_filters, parsed. TensorFlow stops the process on a
// filter it cannot parse; here the session is refused, naming the filter.
StatusOr<std::vector<DeviceSpec>> ParseDeviceFilters(
    const proto::ConfigProto& config) {
  std::vector<DeviceSpec> filters;
  for (const std::string& filter : config.device_filters()) {
    StatusOr<DeviceSpec> spec = DeviceSpec::Parse(filter);
    if (!spec.ok()) {
      return errors::InvalidArgument("Cannot parse device filter: ", filter);
    }
    filters.push_back(*std::move(spec));
  }
  return filters;
}

// Whether a filter names `task` ("/job:worker/replica:0/task:1"): its job,
// replica and task, where it sets them, are the task's. "/job:worker"
// names every worker; a filter for one device names that device's task.
bool NamesTask(const DeviceSpec& filter, const DeviceSpec& task) {
  DeviceSpec tasks_of_filter = filter;
  tasks_of_filter.device_type.reset();
  tasks_of_filter.device_index.reset();
  return tasks_of_filter.Matches(task);
}

// The tasks a session with `filters` uses: those a filter names, or all.
std::vector<std::string> FilterTasks(const std::vector<std::string>& tasks,
                                     const std::vector<DeviceSpec>& filters) {
  if (filters.empty()) return tasks;
  std::vector<std::string> kept;
  for (const std::string& task : tasks) {
    const DeviceSpec spec = DeviceSpec::Parse(task).value();
    for (const DeviceSpec& filter : filters) {
      if (NamesTask(filter, spec)) {
        kept.push_back(task);
        break;
      }
    }
  }
  return kept;
}

bool PassesFilters(const std::vector<DeviceSpec>& filters,
                   const DeviceAttributes& device) {
  if (filters.empty()) return true;
  const StatusOr<DeviceSpec> name = DeviceSpec::Parse(device.name);
  if (!name.ok()) return false;
  for (const DeviceSpec& filter : filters) {
    if (filter.Matches(*name)) return true;
  }
  return false;
}

}  // namespace

// --8<-- [start:gather]
StatusOr<std::vector<DeviceAttributes>> Master::GatherDevices(
    const std::vector<std::string>& tasks,
    const std::vector<DeviceSpec>& filters, int64_t timeout_ms) {
  using Request = proto::GetStatusRequest;
  using Response = proto::GetStatusResponse;
  std::vector<std::unique_ptr<WorkerCall<Request, Response>>> asks;
  const auto start = std::chrono::system_clock::now();
  for (const std::string& task : tasks) {
    auto& ask =
        asks.emplace_back(std::make_unique<WorkerCall<Request, Response>>());
    ask->task = task;
    TF_ASSIGN_OR_RETURN(ask->worker, workers_->GetWorker(task));
    // A task that has not started yet is waited for, not failed at once.
    ask->opts.set_wait_for_ready(true);
    if (timeout_ms > 0)
      ask->opts.set_deadline(DeadlineAfter(start, timeout_ms));
  }
  FanOutOptions wait;
  wait.still_waiting_interval = options_.still_waiting_interval;
  wait.still_waiting = [&](size_t i) {
    log() << "CreateSession still waiting for response from worker: "
          << tasks[i] << "\n";
  };
  const std::vector<Status> statuses =
      CallAll(asks, &WorkerInterface::GetStatusAsync, wait);
  std::vector<DeviceAttributes> devices;
  for (size_t i = 0; i < asks.size(); ++i) {
    if (statuses[i].code() == error::DEADLINE_EXCEEDED) {
      return errors::DeadlineExceeded(
          "CreateSession timed out after ", timeout_ms,
          " ms waiting for response from worker: ", tasks[i]);
    }
    if (!statuses[i].ok()) {
      return errors::Unavailable("CreateSession could not reach worker ",
                                 tasks[i], ": ", statuses[i].message());
    }
    for (const proto::DeviceAttributes& d :
         asks[i]->response.device_attributes()) {
      TF_ASSIGN_OR_RETURN(DeviceAttributes attributes,
                          DeviceAttributesFromProto(d));
      if (PassesFilters(filters, attributes)) {
        devices.push_back(std::move(attributes));
      }
    }
  }
  return devices;
}
// --8<-- [end:gather]

Status Master::CreateSession(const proto::CreateSessionRequest& request,
                             proto::CreateSessionResponse* response) {
  TF_ASSIGN_OR_RETURN(const std::vector<DeviceSpec> filters,
                      ParseDeviceFilters(request.config()));
  const std::vector<std::string> tasks =
      FilterTasks(workers_->ListWorkers(), filters);
  TF_ASSIGN_OR_RETURN(
      std::vector<DeviceAttributes> devices,
      GatherDevices(tasks, filters,
                    request.config().operation_timeout_in_ms()));
  // Random, as TensorFlow's: a restarted master never hands out a handle
  // that a worker still knows from before.
  char handle[17];
  std::snprintf(handle, sizeof(handle), "%016llx",
                static_cast<unsigned long long>(NewIncarnation()));
  TF_ASSIGN_OR_RETURN(
      std::unique_ptr<MasterSession> session,
      MasterSession::Create(handle, request, devices, tasks, task_, workers_));
  std::lock_guard<std::mutex> lock(mu_);
  sessions_.emplace(handle, std::move(session));
  response->set_session_handle(handle);
  response->set_graph_version(0);
  return Status::OK();
}

StatusOr<std::shared_ptr<MasterSession>> Master::FindSession(
    const std::string& handle) {
  std::lock_guard<std::mutex> lock(mu_);
  auto it = sessions_.find(handle);
  if (it == sessions_.end()) {
    return errors::Aborted("Session ", handle, " is not found.");
  }
  return it->second;
}

Status Master::ExtendSession(const proto::ExtendSessionRequest& request,
                             proto::ExtendSessionResponse* response) {
  TF_ASSIGN_OR_RETURN(std::shared_ptr<MasterSession> session,
                      FindSession(request.session_handle()));
  return session->Extend(request, response);
}

Status Master::RunStep(const proto::RunStepRequest& request,
                       proto::RunStepResponse* response, CallOptions* caller) {
  TF_ASSIGN_OR_RETURN(std::shared_ptr<MasterSession> session,
                      FindSession(request.session_handle()));
  return session->Run(request, response, caller);
}

Status Master::CloseSession(const proto::CloseSessionRequest& request) {
  std::shared_ptr<MasterSession> session;
  {
    std::lock_guard<std::mutex> lock(mu_);
    auto it = sessions_.find(request.session_handle());
    if (it == sessions_.end()) {
      return errors::Aborted("Session ", request.session_handle(),
                             " is not found.");
    }
    session = std::move(it->second);
    sessions_.erase(it);
  }
  return session->Close();
}

Status Master::ListDevices(const proto::ListDevicesRequest& /*request*/,
                           proto::ListDevicesResponse* response) {
  for (const Device* d : local_devices_->ListDevices()) {
    *response->add_local_device() = DeviceAttributesToProto(d->attributes());
  }
  // The other tasks that answer now; one that is down is left out rather
  // than waited for.
  for (const std::string& task : workers_->ListWorkers()) {
    if (task == task_) continue;
    TF_ASSIGN_OR_RETURN(WorkerInterface * worker, workers_->GetWorker(task));
    CallOptions opts;
    opts.set_deadline(std::chrono::system_clock::now() +
                      std::chrono::seconds(5));
    proto::GetStatusRequest ask;
    proto::GetStatusResponse status;
    Status answered = CallAndWait([&](StatusCallback done) {
      worker->GetStatusAsync(&opts, &ask, &status, std::move(done));
    });
    if (!answered.ok()) continue;
    for (const proto::DeviceAttributes& d : status.device_attributes()) {
      *response->add_remote_device() = d;
    }
  }
  return Status::OK();
}

Status Master::Reset(const proto::ResetRequest& request) {
  std::map<std::string, std::shared_ptr<MasterSession>> sessions;
  {
    std::lock_guard<std::mutex> lock(mu_);
    sessions.swap(sessions_);
  }
  for (auto& [handle, session] : sessions) session->Close().ok();
  for (const std::string& task : workers_->ListWorkers()) {
    TF_ASSIGN_OR_RETURN(WorkerInterface * worker, workers_->GetWorker(task));
    CallOptions opts;
    proto::CleanupAllRequest cleanup;
    proto::CleanupAllResponse cleaned;
    for (const std::string& c : request.container()) cleanup.add_container(c);
    TF_RETURN_IF_ERROR(CallAndWait([&](StatusCallback done) {
      worker->CleanupAllAsync(&opts, &cleanup, &cleaned, std::move(done));
    }));
  }
  return Status::OK();
}

}  // namespace minitf
