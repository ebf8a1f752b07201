// Master: what a task does for the clients of its cluster.
//
// Every task runs a master beside its worker, so a client may make its
// session on any task. CreateSession asks every task of the cluster for its
// devices (GetStatus), waiting for tasks that have not started yet as
// TensorFlow does, and logging, every 10 seconds,
//
//   CreateSession still waiting for response from worker:
//   /job:worker/replica:0/task:1
//
// for each task that has not answered. Unlike TensorFlow, it gives up with
// DeadlineExceeded once the session's operation_timeout_in_ms has passed,
// when one is set: TensorFlow's users asked for a bound on that wait for
// years. A session whose ConfigProto has device_filters asks, waits for and
// places on only the tasks the filters name, as TensorFlow's does: a worker
// that lists "/job:ps" and its own task does not wait for the other
// workers, which may have finished and gone. The sessions themselves are
// MasterSessions (master_session.h).
//
// This class holds the logic; the gRPC service (master_service.h) only
// translates calls. Every method is one RPC of master_service.proto.
//
//   Master master("/job:worker/replica:0/task:0", &devices, &worker_cache, {});
//   proto::CreateSessionResponse created;
//   TF_RETURN_IF_ERROR(master.CreateSession(request, &created));
#pragma once

#include <chrono>
#include <map>
#include <memory>
#include <mutex>
#include <ostream>
#include <string>

#include "minitf/device/devices/device_mgr.h"
#include "minitf/device/placement/device_spec.h"
#include "minitf/distributed/runtime/master_session.h"
#include "minitf/distributed/runtime/proto/master.pb.h"
#include "minitf/distributed/runtime/worker_cache.h"

namespace minitf {

/// How a master waits for tasks; minitf's own knobs.
struct MasterOptions {
  /// How often the "still waiting" line is logged (TensorFlow: 10 s).
  std::chrono::milliseconds still_waiting_interval{10000};
  /// Where the line goes; nullptr means standard error.
  std::ostream* log_stream = nullptr;
};

/// The master of one task.
/// Thread safety: every method may be called from any thread, at once.
class Master {
 public:
  /// `local_devices` (the task's) and `workers` must outlive the master.
  Master(std::string task, const DeviceMgr* local_devices, WorkerCache* workers,
         MasterOptions options);
  ~Master();

  /// A new session on the request's graph over every device of the
  /// cluster. Errors: DeadlineExceeded "CreateSession timed out after <n>
  /// ms waiting for response from worker: <task>" (minitf's own, when
  /// operation_timeout_in_ms is set); Unavailable naming the task for one
  /// that failed to answer; MasterSession::Create's.
  Status CreateSession(const proto::CreateSessionRequest& request,
                       proto::CreateSessionResponse* response);
  Status ExtendSession(const proto::ExtendSessionRequest& request,
                       proto::ExtendSessionResponse* response);
  /// A cancellation of `caller` (when given) ends the step, as the
  /// session's Close does: the client went away.
  Status RunStep(const proto::RunStepRequest& request,
                 proto::RunStepResponse* response,
                 CallOptions* caller = nullptr);
  Status CloseSession(const proto::CloseSessionRequest& request);
  /// The cluster's devices: this task's as local_device, those of the other
  /// tasks that answer within 5 s as remote_device.
  Status ListDevices(const proto::ListDevicesRequest& request,
                     proto::ListDevicesResponse* response);
  /// Closes every session of this master and frees the variables of the
  /// named containers (all, when none is named) on every task.
  Status Reset(const proto::ResetRequest& request);

 private:
  // The devices of `tasks` that pass `filters` (all of them, when there is
  // none), asking each task with GetStatus and waiting as the file comment
  // says; `timeout_ms` 0 waits for ever.
  StatusOr<std::vector<DeviceAttributes>> GatherDevices(
      const std::vector<std::string>& tasks,
      const std::vector<DeviceSpec>& filters, int64_t timeout_ms);
  StatusOr<std::shared_ptr<MasterSession>> FindSession(
      const std::string& handle);
  std::ostream& log() const;

  const std::string task_;
  const DeviceMgr* const local_devices_;
  WorkerCache* const workers_;
  const MasterOptions options_;
  std::mutex mu_;
  std::map<std::string, std::shared_ptr<MasterSession>> sessions_;  // guarded
  int64_t next_session_ = 0;                                        // guarded
};

}  // namespace minitf
