// LocalSession: the session of this chapter, running a graph in this process
// on the CPU, one kernel after another.
//
// It is what `tf::Session sess;` gets for the target "" (session.h picks it
// through the session factory registry). It owns what must outlive one run:
// a kernel per node, created the first time a plan needs it and reused ever
// after; the compiled plans, one per run signature (feeds, fetches, targets);
// and the ResourceMgr where chapter 3 keeps variables. A run looks up its
// plan, checks the fed values against it and hands both to the executor.
// Chapter 4 registers a DirectSession, which places nodes on devices, with a
// higher priority for the same target; this class stays as it is.
//
//   auto s = NewSession(SessionOptions{}, graph).value();   // a LocalSession
//   std::vector<Tensor> out;
//   TF_RETURN_IF_ERROR(s->Run({{"x:0", x}}, {"y:0"}, {}, &out));
#pragma once

#include <atomic>
#include <cstdint>
#include <memory>
#include <mutex>
#include <string>
#include <utility>
#include <vector>

#include "minitf/graph/config.h"
#include "minitf/graph/executor.h"
#include "minitf/graph/feed_value.h"
#include "minitf/graph/graph.h"
#include "minitf/graph/resource_mgr.h"
#include "minitf/graph/run_signature.h"
#include "minitf/graph/session.h"

namespace minitf {

/// Invariants: kernels_[id] is null or the kernel of node `id`, created once;
/// every cached plan refers only to kernels in kernels_, which live until the
/// session is destroyed, and to the kernels it owns (of the nodes a graph
/// rewrite made), so a plan in use stays valid even across Close().
///
/// Algorithm of Run: build the signature key from the names; find the plan
/// under the lock, or resolve the names, rewrite a pruned copy of the graph
/// when a rewrite pass applies (graph_rewrite.h), prune, sort, create the
/// missing kernels and cache the new plan; check each fed value and convert it
/// to its tensor's dtype (feed_value.h); execute the plan with this run's own
/// value storage.
///
/// Thread safety: Run may be called from many threads at once: the plan cache
/// and kernel table are guarded by a mutex, and each run keeps its values on
/// its own. Building the graph while a run is planning is not allowed, as in
/// TensorFlow.
class LocalSession : public SessionInterface {
 public:
  LocalSession(SessionOptions options, std::shared_ptr<Graph> graph);
  /// The same, as the session factory makes it; never fails.
  static StatusOr<std::unique_ptr<LocalSession>> Create(
      const SessionOptions& options, std::shared_ptr<Graph> graph);
  ~LocalSession() override;

  using SessionInterface::Run;
  Status Run(const std::vector<std::pair<std::string, Tensor>>& feeds,
             const std::vector<std::string>& fetch_names,
             const std::vector<std::string>& target_names,
             std::vector<Tensor>* outputs) override;
  Status Close() override;

  const SessionOptions& options() const { return options_; }
  ResourceMgr* resource_manager() { return &resource_mgr_; }
  /// How many distinct run signatures have been planned; for tests.
  int num_cached_plans() const;

 private:
  // A plan and what it runs: the graph the rewrite stage made for it
  // (graph_rewrite.h), or null for the user's graph, and the kernels of
  // that graph's nodes that are not the user's.
  struct Plan {
    std::unique_ptr<Graph> graph;
    std::vector<std::unique_ptr<OpKernel>> owned_kernels;
    std::unique_ptr<ExecutionPlan> steps;
  };
  // Resolves the names and builds the plan of one signature.
  // REQUIRES: called by plans_ (under its lock).
  StatusOr<std::shared_ptr<const Plan>> CreatePlan(
      const std::vector<std::pair<std::string, Tensor>>& feeds,
      const std::vector<std::string>& fetch_names,
      const std::vector<std::string>& target_names);
  // The kernel of `node`, created on first use: the user's node of that
  // name, op and attrs shares one kernel across plans; another node's (a
  // rewrite's) goes to `owned`. REQUIRES: called by plans_, whose lock
  // guards kernels_.
  StatusOr<OpKernel*> KernelFor(const Node& node,
                                std::vector<std::unique_ptr<OpKernel>>* owned);

  const SessionOptions options_;
  const std::shared_ptr<Graph> graph_;
  ResourceMgr resource_mgr_;
  std::atomic<int64_t> next_step_id_{1};
  std::atomic<bool> closed_{false};

  std::vector<std::unique_ptr<OpKernel>> kernels_;  // By node id.
  PlanCache<Plan> plans_;
};

/// The name LocalSession's factory is registered under.
inline constexpr const char* kLocalSessionFactory = "LOCAL_SESSION";

}  // namespace minitf
