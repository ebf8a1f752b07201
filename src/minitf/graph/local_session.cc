#include "minitf/graph/local_session.h"

#include "minitf/tensor/allocator.h"

namespace minitf {

LocalSession::LocalSession(SessionOptions options, std::shared_ptr<Graph> graph)
    : options_(std::move(options)), graph_(std::move(graph)) {}

LocalSession::~LocalSession() = default;

StatusOr<std::unique_ptr<LocalSession>> LocalSession::Create(
    const SessionOptions& options, std::shared_ptr<Graph> graph) {
  return std::make_unique<LocalSession>(options, std::move(graph));
}

int LocalSession::num_cached_plans() const { return plans_.size(); }

StatusOr<OpKernel*> LocalSession::KernelFor(const Node& node) {
  if (static_cast<int>(kernels_.size()) <= node.id()) {
    kernels_.resize(graph_->num_nodes());
  }
  std::unique_ptr<OpKernel>& kernel = kernels_[node.id()];
  if (kernel == nullptr) {
    StatusOr<std::unique_ptr<OpKernel>> made =
        KernelRegistry::Global()->CreateKernel(node, DEVICE_CPU);
    if (!made.ok()) return made.status();
    kernel = std::move(made).value();
  }
  return kernel.get();
}

StatusOr<std::shared_ptr<const ExecutionPlan>> LocalSession::CreatePlan(
    const std::vector<std::pair<std::string, Tensor>>& feeds,
    const std::vector<std::string>& fetch_names,
    const std::vector<std::string>& target_names) {
  TF_ASSIGN_OR_RETURN(
      RunSignature sig,
      ResolveRunSignature(*graph_, feeds, fetch_names, target_names));
  TF_ASSIGN_OR_RETURN(
      std::unique_ptr<ExecutionPlan> plan,
      BuildPlan(*graph_, sig.feeds, sig.fetches, sig.targets,
                [this](const Node& node) { return KernelFor(node); }));
  return std::shared_ptr<const ExecutionPlan>(std::move(plan));
}

Status LocalSession::Run(
    const std::vector<std::pair<std::string, Tensor>>& feeds,
    const std::vector<std::string>& fetch_names,
    const std::vector<std::string>& target_names,
    std::vector<Tensor>* outputs) {
  if (closed_) return errors::FailedPrecondition("Session has been closed.");
  const std::string key = RunSignatureKey(feeds, fetch_names, target_names);
  TF_ASSIGN_OR_RETURN(std::shared_ptr<const ExecutionPlan> plan,
                      plans_.GetOrCreate(key, [&] {
                        return CreatePlan(feeds, fetch_names, target_names);
                      }));

  std::vector<Tensor> feed_values;
  feed_values.reserve(feeds.size());
  for (size_t i = 0; i < feeds.size(); ++i) {
    TF_ASSIGN_OR_RETURN(
        Tensor value, ConvertFedValue(plan->feeds[i].tensor, feeds[i].second));
    feed_values.push_back(std::move(value));
  }
  RunEnv env;
  env.allocator = cpu_allocator();
  env.resource_manager = &resource_mgr_;
  env.step_id = next_step_id_.fetch_add(1);
  return RunPlan(*plan, feed_values, env, outputs);
}

Status LocalSession::Close() {
  // Kernels and plans stay until destruction: a run still in flight on
  // another thread may be using them.
  closed_ = true;
  resource_mgr_.Clear();
  return Status::OK();
}

MINITF_REGISTER_SESSION_FACTORY(kLocalSessionFactory, 0,
                                InProcessSessionFactory<LocalSession>);

}  // namespace minitf
