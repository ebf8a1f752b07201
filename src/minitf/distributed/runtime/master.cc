#include "minitf/distributed/runtime/master.h"

#include <grpcpp/grpcpp.h>

#include <condition_variable>
#include <cstdio>
#include <iostream>

#include "minitf/distributed/runtime/proto_convert.h"
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

// --8<-- [start:gather]
StatusOr<std::vector<DeviceAttributes>> Master::GatherDevices(
    int64_t timeout_ms) {
  struct Ask {
    std::string task;
    grpc::ClientContext context;
    proto::GetStatusRequest request;
    proto::GetStatusResponse response;
    bool done = false;
    Status status;
  };
  const std::vector<std::string> tasks = workers_->ListWorkers();
  std::vector<std::unique_ptr<Ask>> asks;
  std::mutex mu;
  std::condition_variable cv;
  int pending = static_cast<int>(tasks.size());
  const auto start = std::chrono::system_clock::now();
  for (const std::string& task : tasks) {
    auto ask = std::make_unique<Ask>();
    ask->task = task;
    // A task that has not started yet is waited for, not failed at once.
    ask->context.set_wait_for_ready(true);
    if (timeout_ms > 0) {
      ask->context.set_deadline(DeadlineAfter(start, timeout_ms));
    }
    TF_ASSIGN_OR_RETURN(tensorflow::WorkerService::Stub * stub,
                        workers_->GetStub(task));
    Ask* a = ask.get();
    asks.push_back(std::move(ask));
    stub->async()->GetStatus(&a->context, &a->request, &a->response,
                             [a, &mu, &cv, &pending](grpc::Status s) {
                               std::lock_guard<std::mutex> lock(mu);
                               a->status = FromGrpcStatus(s);
                               a->done = true;
                               --pending;
                               cv.notify_all();
                             });
  }
  {
    std::unique_lock<std::mutex> lock(mu);
    while (!cv.wait_for(lock, options_.still_waiting_interval,
                        [&] { return pending == 0; })) {
      for (const auto& a : asks) {
        if (!a->done) {
          log() << "CreateSession still waiting for response from worker: "
                << a->task << "\n";
        }
      }
    }
  }
  std::vector<DeviceAttributes> devices;
  for (const auto& a : asks) {
    if (a->status.code() == error::DEADLINE_EXCEEDED) {
      return errors::DeadlineExceeded(
          "CreateSession timed out after ", timeout_ms,
          " ms waiting for response from worker: ", a->task);
    }
    if (!a->status.ok()) {
      return errors::Unavailable("CreateSession could not reach worker ",
                                 a->task, ": ", a->status.message());
    }
    for (const proto::DeviceAttributes& d : a->response.device_attributes()) {
      TF_ASSIGN_OR_RETURN(DeviceAttributes attributes,
                          DeviceAttributesFromProto(d));
      devices.push_back(std::move(attributes));
    }
  }
  return devices;
}
// --8<-- [end:gather]

Status Master::CreateSession(const proto::CreateSessionRequest& request,
                             proto::CreateSessionResponse* response) {
  TF_ASSIGN_OR_RETURN(
      std::vector<DeviceAttributes> devices,
      GatherDevices(request.config().operation_timeout_in_ms()));
  // Random, as TensorFlow's: a restarted master never hands out a handle
  // that a worker still knows from before.
  char handle[17];
  std::snprintf(handle, sizeof(handle), "%016llx",
                static_cast<unsigned long long>(NewIncarnation()));
  TF_ASSIGN_OR_RETURN(
      std::unique_ptr<MasterSession> session,
      MasterSession::Create(handle, request, devices, task_, workers_));
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
                       proto::RunStepResponse* response) {
  TF_ASSIGN_OR_RETURN(std::shared_ptr<MasterSession> session,
                      FindSession(request.session_handle()));
  return session->Run(request, response);
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
    TF_ASSIGN_OR_RETURN(tensorflow::WorkerService::Stub * stub,
                        workers_->GetStub(task));
    grpc::ClientContext context;
    context.set_deadline(std::chrono::system_clock::now() +
                         std::chrono::seconds(5));
    proto::GetStatusRequest ask;
    proto::GetStatusResponse status;
    if (!stub->GetStatus(&context, ask, &status).ok()) continue;
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
    TF_ASSIGN_OR_RETURN(tensorflow::WorkerService::Stub * stub,
                        workers_->GetStub(task));
    grpc::ClientContext context;
    proto::CleanupAllRequest cleanup;
    proto::CleanupAllResponse cleaned;
    for (const std::string& c : request.container()) cleanup.add_container(c);
    TF_RETURN_IF_ERROR(
        FromGrpcStatus(stub->CleanupAll(&context, cleanup, &cleaned)));
  }
  return Status::OK();
}

}  // namespace minitf
