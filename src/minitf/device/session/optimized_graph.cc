#include "minitf/device/session/optimized_graph.h"

#include "minitf/graph/graph_rewrite.h"
#include "minitf/graph/kernel.h"

namespace minitf {

StatusOr<std::unique_ptr<Graph>> OptimizedGraph(
    std::unique_ptr<Graph> client, const DeviceSet& devices,
    const ConfigProto& config, const std::vector<const Node*>& targets) {
  GraphRewriteOptions rewrite{.config = &config};
  for (const Node* n : targets) rewrite.preserve.insert(n->name());
  rewrite.has_kernel = [&devices](const Node& n, std::string_view op) {
    Device* d = devices.FindDeviceByName(n.assigned_device());
    return d != nullptr &&
           KernelRegistry::Global()->HasKernel(op, d->device_type());
  };
  TF_ASSIGN_OR_RETURN(std::unique_ptr<Graph> optimized,
                      GraphRewriteRegistry::Global()->Run(*client, rewrite));
  return optimized != nullptr ? std::move(optimized) : std::move(client);
}

}  // namespace minitf
