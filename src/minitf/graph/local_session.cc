#include "minitf/graph/local_session.h"

#include "minitf/graph/graph_rewrite.h"
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

StatusOr<OpKernel*> LocalSession::KernelFor(
    const Node& node, std::vector<std::unique_ptr<OpKernel>>* owned) {
  const Node* original = graph_->FindNode(node.name());
  if (original == nullptr || original->type_string() != node.type_string() ||
      original->attrs() != node.attrs()) {
    TF_ASSIGN_OR_RETURN(
        std::unique_ptr<OpKernel> kernel,
        KernelRegistry::Global()->CreateKernel(node, DEVICE_CPU));
    owned->push_back(std::move(kernel));
    return owned->back().get();
  }
  if (static_cast<int>(kernels_.size()) <= original->id()) {
    kernels_.resize(graph_->num_nodes());
  }
  std::unique_ptr<OpKernel>& kernel = kernels_[original->id()];
  if (kernel == nullptr) {
    StatusOr<std::unique_ptr<OpKernel>> made =
        KernelRegistry::Global()->CreateKernel(*original, DEVICE_CPU);
    if (!made.ok()) return made.status();
    kernel = std::move(made).value();
  }
  return kernel.get();
}

StatusOr<std::shared_ptr<const LocalSession::Plan>> LocalSession::CreatePlan(
    const std::vector<std::pair<std::string, Tensor>>& feeds,
    const std::vector<std::string>& fetch_names,
    const std::vector<std::string>& target_names) {
  TF_ASSIGN_OR_RETURN(
      RunSignature sig,
      ResolveRunSignature(*graph_, feeds, fetch_names, target_names));
  // The optimized graph: a rewritten copy of what the run needs, or the
  // user's graph itself when no rewrite applies.
  GraphRewriteOptions rewrite{.config = &options_.config};
  TF_ASSIGN_OR_RETURN(RewrittenRun rewritten,
                      RewriteForRun(*graph_, sig.feeds, sig.fetches,
                                    sig.targets, std::move(rewrite)));
  auto plan = std::make_shared<Plan>();
  plan->graph = std::move(rewritten.graph);
  const bool own = plan->graph != nullptr;
  TF_ASSIGN_OR_RETURN(
      plan->steps,
      BuildPlan(own ? *plan->graph : *graph_, own ? rewritten.feeds : sig.feeds,
                own ? rewritten.fetches : sig.fetches,
                own ? rewritten.targets : sig.targets,
                [this, &plan](const Node& node) {
                  return KernelFor(node, &plan->owned_kernels);
                }));
  return std::shared_ptr<const Plan>(std::move(plan));
}

Status LocalSession::Run(
    const std::vector<std::pair<std::string, Tensor>>& feeds,
    const std::vector<std::string>& fetch_names,
    const std::vector<std::string>& target_names,
    std::vector<Tensor>* outputs) {
  if (closed_) return errors::FailedPrecondition("Session has been closed.");
  const std::string key = RunSignatureKey(feeds, fetch_names, target_names);
  TF_ASSIGN_OR_RETURN(std::shared_ptr<const Plan> plan,
                      plans_.GetOrCreate(key, [&] {
                        return CreatePlan(feeds, fetch_names, target_names);
                      }));

  std::vector<Tensor> feed_values;
  feed_values.reserve(feeds.size());
  for (size_t i = 0; i < feeds.size(); ++i) {
    TF_ASSIGN_OR_RETURN(
        Tensor value,
        ConvertFedValue(plan->steps->feeds[i].tensor, feeds[i].second));
    feed_values.push_back(std::move(value));
  }
  RunEnv env;
  env.allocator = cpu_allocator();
  env.resource_manager = &resource_mgr_;
  env.step_id = next_step_id_.fetch_add(1);
  return RunPlan(*plan->steps, feed_values, env, outputs);
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
