// rpc_trace: a log of the RPCs of a cluster's steps, for the chapter's
// sequence diagram.
//
// A step of a session on a cluster is a handful of calls between processes:
// the client's RunStep to its master, the master's RunGraph to every task,
// the RecvTensor calls with which a task fetches the tensors another task
// sends it, and the master's CleanupGraph to every task at the end. When
// the environment variable MINITF_RPC_TRACE names a file, every process of
// the cluster appends one line per such call to it, with the step's id and
// when the call started and ended. The processes of one machine share its
// clock, so the lines of several processes sort into one timeline.
//
// Each call is recorded where its two ends are known: RunStep by the master
// (from its arrival to its answer); RunGraph and CleanupGraph by the
// master's worker cache, which hands out every task's worker wrapped in a
// TracingWorker (from the call to its answer, as the master saw them);
// RecvTensor by the task that serves it (from the request's arrival to the
// value's answer, the time the caller waited for a producer included).
// Tracing is off unless asked for; off, each call site costs one test of a
// flag.
//
//   MINITF_RPC_TRACE=/tmp/rpcs.tsv scripts/cluster.sh seed_distributed ...
//   TF_ASSIGN_OR_RETURN(std::vector<RpcRecord> calls,
//                       ReadRpcTrace("/tmp/rpcs.tsv"));
//   for (const RpcRecord& r : calls) std::cout << r.method << "\n";
#pragma once

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "minitf/distributed/runtime/worker_interface.h"
#include "minitf/tensor/status.h"

namespace minitf {

// --8<-- [start:record]
/// One call, as one line of the trace: tab-separated fields in this order.
struct RpcRecord {
  std::string method;  ///< "RunStep", "RunGraph", "RecvTensor", "CleanupGraph"
  std::string caller;  ///< a task, "/job:ps/replica:0/task:0", or "client"
  std::string callee;  ///< a task
  int64_t step_id = 0;
  int64_t start_us = 0;  ///< microseconds since the epoch, system clock
  int64_t end_us = 0;
  std::string detail;  ///< RecvTensor: the tensor's name ("W/read:0")
};
// --8<-- [end:record]

/// Whether calls are being recorded: MINITF_RPC_TRACE was set when this was
/// first asked, or SetRpcTraceFile named a file since.
bool RpcTraceEnabled();

/// Records into `path` from now on, appending; "" stops recording. For tests
/// and programs that trace without the environment variable.
void SetRpcTraceFile(const std::string& path);

/// The clock of the records: microseconds since the epoch.
int64_t RpcTraceNowMicros();

/// Appends `record` as one line, with one write, so that the lines of
/// several processes appending to one file do not mix. A caller or callee
/// given as a device name is written as its task. Does nothing when
/// tracing is off, or when the file cannot be opened (tracing is an aid:
/// it never fails a step).
void RecordRpc(RpcRecord record);

/// Records one call from its construction to its destruction, when tracing
/// is on.
class RpcTraceScope {
 public:
  RpcTraceScope(const char* method, const std::string& caller,
                const std::string& callee, int64_t step_id,
                const std::string& detail = "");
  ~RpcTraceScope();
  RpcTraceScope(const RpcTraceScope&) = delete;
  RpcTraceScope& operator=(const RpcTraceScope&) = delete;

 private:
  bool enabled_;
  RpcRecord record_;
};

/// A worker as its caller sees it, recording its RunGraph and CleanupGraph
/// calls, from the call to the answer, when tracing is on; every call
/// passes to the wrapped worker unchanged.
class TracingWorker final : public ForwardingWorker {
 public:
  /// `worker` (not owned), the worker of task `callee`, as task `caller`
  /// calls it; it must outlive this.
  TracingWorker(std::string caller, std::string callee, WorkerInterface* worker)
      : ForwardingWorker(worker),
        caller_(std::move(caller)),
        callee_(std::move(callee)) {}

  void RunGraphAsync(CallOptions* opts, const proto::RunGraphRequest* request,
                     proto::RunGraphResponse* response,
                     StatusCallback done) override {
    ForwardingWorker::RunGraphAsync(
        opts, request, response,
        Traced("RunGraph", request->step_id(), std::move(done)));
  }
  void CleanupGraphAsync(CallOptions* opts,
                         const proto::CleanupGraphRequest* request,
                         proto::CleanupGraphResponse* response,
                         StatusCallback done) override {
    ForwardingWorker::CleanupGraphAsync(
        opts, request, response,
        Traced("CleanupGraph", request->step_id(), std::move(done)));
  }

 private:
  // `done`, recording the call `method` to the worker's task for `step_id`
  // from now until it answers; `done` itself when tracing is off.
  StatusCallback Traced(const char* method, int64_t step_id,
                        StatusCallback done) const;

  const std::string caller_;
  const std::string callee_;
};

/// The records of a trace file, in the order they were written. Errors:
/// NotFound for a file that cannot be read; InvalidArgument "Malformed RPC
/// trace line 3: <line>" for a line that is not seven fields with numbers
/// where numbers belong.
StatusOr<std::vector<RpcRecord>> ReadRpcTrace(const std::string& path);

}  // namespace minitf
