// A run's signature: the feeds, fetches and targets of one Session::Run,
// resolved from their names, the key that tells signatures apart, and the
// cache of what a session compiles for each.
//
// A session compiles a plan the first time it sees a signature (which nodes
// run, in which order, with which kernels) and reuses it for every later run
// with the same feeds, fetches and targets. Chapter 2's LocalSession, chapter
// 4's DirectSession and chapter 7's master and gRPC sessions all resolve and
// key their runs the same way, so the three pieces live here, apart from
// any one session.
//
//   std::string key = RunSignatureKey(feeds, fetch_names, target_names);
//   TF_ASSIGN_OR_RETURN(auto plan, plans_.GetOrCreate(key, [&] {
//     TF_ASSIGN_OR_RETURN(RunSignature sig, ResolveRunSignature(
//         graph, feeds, fetch_names, target_names));
//     return BuildMyPlan(sig);
//   }));
#pragma once

#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include "minitf/graph/graph.h"
#include "minitf/tensor/status.h"
#include "minitf/tensor/tensor.h"

namespace minitf {

/// The tensors and ops of a run, resolved from their names in a graph.
struct RunSignature {
  std::vector<Output> feeds;  ///< In the order given; no repeats.
  std::vector<Output> fetches;
  std::vector<const Node*> targets;
};

/// Looks the names of a run up in `graph`. Errors: NotFound for an unknown
/// name (Graph::GetTensorByName's), InvalidArgument for a target that names
/// a tensor or a tensor fed twice ("The tensor 'x:0' is fed more than
/// once."). Sessions with devices resolve names the same way.
StatusOr<RunSignature> ResolveRunSignature(
    const Graph& graph,
    const std::vector<std::pair<std::string, Tensor>>& feeds,
    const std::vector<std::string>& fetch_names,
    const std::vector<std::string>& target_names);

/// The cache key of a run signature: distinct signatures, distinct keys.
std::string RunSignatureKey(
    const std::vector<std::pair<std::string, Tensor>>& feeds,
    const std::vector<std::string>& fetch_names,
    const std::vector<std::string>& target_names);

/// A session's compiled run signatures, each built once. The lock that
/// guards the table is held while a plan is built, so a session may keep
/// what its plans share (kernels) under the same lock.
/// Thread safety: every method may be called from any thread.
template <typename Plan>
class PlanCache {
 public:
  using Creator = std::function<StatusOr<std::shared_ptr<const Plan>>()>;

  /// The plan cached under `key`, or the one `create` builds (under the
  /// lock) and that is then cached; an error from `create` caches nothing.
  StatusOr<std::shared_ptr<const Plan>> GetOrCreate(const std::string& key,
                                                    const Creator& create) {
    std::lock_guard<std::mutex> lock(mu_);
    auto it = plans_.find(key);
    if (it != plans_.end()) return it->second;
    TF_ASSIGN_OR_RETURN(std::shared_ptr<const Plan> plan, create());
    plans_.emplace(key, plan);
    return plan;
  }
  int size() const {
    std::lock_guard<std::mutex> lock(mu_);
    return static_cast<int>(plans_.size());
  }

 private:
  mutable std::mutex mu_;
  std::unordered_map<std::string, std::shared_ptr<const Plan>> plans_;
};

}  // namespace minitf
