// DirectSession: the session of a process with devices.
//
// Chapter 2's LocalSession runs every node on the CPU, one after another.
// From this chapter on, `tf::Session sess;` gets a DirectSession instead:
// it registers a factory for the target "" with a higher priority than
// LocalSession's, through the factory registry of chapter 2, so programs do
// not change. When it is created it asks the device factories for the
// devices the ConfigProto allows (and prints the "Device mapping" when
// log_device_placement is set). For each run signature (feeds, fetches,
// targets) it then does, once, what TensorFlow's DirectSession does:
//   1. place: every node of the graph gets a device (the placer, with its
//      log_device_placement lines), in the session's own copy of the graph,
//      so the user's graph is untouched;
//   2. rewrite: prune to what the signature needs, and turn feeds and
//      fetches into _Recv/_Send nodes on the client device (subgraph.h);
//   3. partition: one graph per device, cut edges replaced by _Send/_Recv
//      pairs (graph_partition.h);
//   4. build one ParallelExecutor per partition, each kernel made for its
//      device's type.
// A run then sends the fed values into a fresh rendezvous, starts every
// partition's executor at once on the inter-op pool, waits for all of them,
// and receives the fetched values from the rendezvous. Each device's kernels
// make their tensors in that device's memory (Device::kernel_allocator) and
// keep their variables in its ResourceMgr, so a variable lives on the device
// it was placed on. Fetched values reach the client as copies in the client
// device's memory, which outlives the session (tracking_allocator.h). Results
// are the same as chapter 2's session gives: only where the work happens
// changes.
//
//   tf::SessionOptions options;
//   options.config.device_count["CPU"] = 2;
//   auto session = tf::DirectSession::Create(options, graph).value();
//   std::vector<tf::Tensor> out;
//   TF_RETURN_IF_ERROR(session->Run({{"x:0", x}}, {"y:0"}, {}, &out));
#pragma once

#include <atomic>
#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

// Eigen's thread pool, from Eigen's unsupported modules (libeigen3-dev).
#include <unsupported/Eigen/CXX11/ThreadPool>

#include "minitf/device/devices/device_mgr.h"
#include "minitf/device/devices/device_set.h"
#include "minitf/device/partition/intra_process_rendezvous.h"
#include "minitf/graph/config.h"
#include "minitf/graph/graph.h"
#include "minitf/graph/kernel.h"
#include "minitf/graph/resource_mgr.h"
#include "minitf/graph/run_signature.h"
#include "minitf/graph/session.h"

namespace minitf {

class StepStatsCollector;

/// Invariants: the devices, their ResourceMgrs and the thread pool live as
/// long as the session; placed_ holds a copy of the first
/// placed_->num_nodes() nodes of the graph, the first num_placed_ of them
/// with an assigned device, and a node's device never changes once placed
/// (a variable stays where its value is); a cached plan refers only to
/// kernels the session keeps until it is destroyed.
///
/// Algorithm of Run: build the signature key; find its plan under the
/// lock, or place, rewrite, partition and compile one (file comment); check
/// the fed values; send them into a new rendezvous; start one executor per
/// partition (on the inter-op pool, but one or two in the calling thread),
/// joined by an ExecutorBarrier that aborts the step at its first error;
/// wait; receive the fetches.
///
/// Thread safety: Run may be called from many threads at once (plans and
/// kernels are built under a mutex, then only read; each run has its own
/// rendezvous and values). Building the graph while a run is being planned
/// is not allowed, as in TensorFlow.
class DirectSession : public SessionInterface {
 public:
  /// A session on `graph` with the devices `options` ask for. Errors: those
  /// of the device factories (DeviceMgr::Create), and InvalidArgument for a
  /// negative inter_op_parallelism_threads.
  static StatusOr<std::unique_ptr<DirectSession>> Create(
      const SessionOptions& options, std::shared_ptr<Graph> graph);
  ~DirectSession() override;

  using SessionInterface::Run;
  Status Run(const std::vector<std::pair<std::string, Tensor>>& feeds,
             const std::vector<std::string>& fetch_names,
             const std::vector<std::string>& target_names,
             std::vector<Tensor>* outputs) override;
  /// Run, tracing each node when run_options.trace_level is above NO_TRACE
  /// (into run_metadata->step_stats, one DeviceStepStats per device), and
  /// returning the partition graphs when asked. timeout_in_ms > 0 aborts
  /// the step with DeadlineExceeded ("Timed out waiting for notification")
  /// when it takes longer.
  Status Run(const RunOptions& run_options,
             const std::vector<std::pair<std::string, Tensor>>& feeds,
             const std::vector<std::string>& fetch_names,
             const std::vector<std::string>& target_names,
             std::vector<Tensor>* outputs, RunMetadata* run_metadata) override;
  Status Close() override;

  const SessionOptions& options() const { return options_; }
  const DeviceMgr& device_mgr() const { return *device_mgr_; }
  /// The ResourceMgr of `device` (where its variables live), or nullptr for
  /// a device not of this session.
  ResourceMgr* resource_manager(const Device* device) const;
  /// Every value Send/Recv has passed since the session was created, by
  /// (sending, receiving) device: feeds and fetches count as the client
  /// device's transfers to and from itself.
  TransferTable GetTransferStats() const;
  /// How many distinct run signatures have been planned; for tests.
  int num_cached_plans() const;

 private:
  struct Plan;

  DirectSession(SessionOptions options, std::shared_ptr<Graph> graph,
                std::unique_ptr<DeviceMgr> device_mgr, int inter_op_threads);

  // Copies the nodes added to the graph since the last call and places them
  // with the placer (placer.h), logging as the options ask. REQUIRES: called
  // by plans_ (under its lock).
  Status PlaceNewNodes();
  // Resolves the names and builds the plan of one signature. REQUIRES: called
  // by plans_ (under its lock).
  StatusOr<std::shared_ptr<const Plan>> CreatePlan(
      const std::vector<std::pair<std::string, Tensor>>& feeds,
      const std::vector<std::string>& fetch_names,
      const std::vector<std::string>& target_names);
  // The kernel of a partition node on `device`: the session's kernel of the
  // user's node of that name (made once per device and kept, so a stateful
  // kernel keeps its state across signatures), or a new one, owned by
  // `owned`, for a node the rewrite or the cut made. REQUIRES: called by plans_
  // (under its lock).
  StatusOr<OpKernel*> KernelFor(const Node& node, Device* device,
                                std::vector<std::unique_ptr<OpKernel>>* owned);
  // Sets `*value`, the fetch of a reference on the client device, to what
  // the reference refers to now, at the end of step `step_id`, by the
  // kernel of its node (OpKernel::RereadRef).
  Status RereadRef(OpKernel& kernel, const Output& fetch, int64_t step_id,
                   Tensor* value);

  // Run's steps 3 to 5 (see Run in the .cc). Runs every partition of `plan`
  // for step `step_id`, each by its executor, joined by a barrier, until all
  // are done or run_options' timeout aborts them; records the trace in
  // `stats` when not null. Returns the step's first error, or OK.
  Status RunPartitions(const Plan& plan, const RunOptions& run_options,
                       int64_t step_id, IntraProcessRendezvous* rendezvous,
                       StepStatsCollector* stats);
  // Receives each fetch of `plan` (without repeats) into `fetched`, sized
  // to match, from the rendezvous the client's _Sends left it in; an
  // uninitialized fetch fails (FailedPrecondition), a reference on the
  // client device is read again (RereadRef).
  Status ReceiveFetches(const Plan& plan, int64_t step_id,
                        IntraProcessRendezvous* rendezvous,
                        std::vector<Tensor>* fetched);
  // Adds the step's transfers to the session's table (GetTransferStats).
  void RecordTransfers(const IntraProcessRendezvous& rendezvous);
  // The trace from `stats` (when not null) and, when asked, each
  // partition's graph, into `run_metadata`.
  static Status FillRunMetadata(const Plan& plan, const RunOptions& run_options,
                                StepStatsCollector* stats,
                                RunMetadata* run_metadata);

  const SessionOptions options_;
  const std::shared_ptr<Graph> graph_;
  const std::unique_ptr<DeviceMgr> device_mgr_;
  DeviceSet device_set_;
  Device* client_device_ = nullptr;
  std::map<const Device*, std::unique_ptr<ResourceMgr>> resource_mgrs_;
  const int inter_op_threads_;
  std::unique_ptr<Eigen::ThreadPool> inter_op_pool_;  // null: caller thread
  std::atomic<int64_t> next_step_id_{1};
  std::atomic<bool> closed_{false};

  // Guarded by the lock of plans_, under which plans are built.
  std::unique_ptr<Graph> placed_;  // the session's copy of graph_
  int num_placed_ = 0;             // its first nodes, which have devices
  // Kernels of the user's nodes, by device and node id.
  std::map<const Device*, std::vector<std::unique_ptr<OpKernel>>> kernels_;
  PlanCache<Plan> plans_;

  mutable std::mutex transfers_mu_;
  DeviceTransferTable transfers_;  // guarded by transfers_mu_
};

/// The name DirectSession's factory is registered under, and its priority,
/// above chapter 2's LocalSession (0) for the same target "".
inline constexpr const char* kDirectSessionFactory = "DIRECT_SESSION";
inline constexpr int kDirectSessionPriority = 10;

}  // namespace minitf
