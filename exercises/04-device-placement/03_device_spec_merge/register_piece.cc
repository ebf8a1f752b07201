// Exercise 4.3's piece of the engine: your ScopedDevice, as the merge that
// every tf::device_scope applies to the nodes built inside it.
//
// device_scope asks the graph's merge function for the device of a node
// built in it: merge(node's own request, the scope's spec), the node's
// fields winning. That is ScopedDevice of the two scopes, the scope's
// outside the node's. The build links this file only into the seed program
// built on your code (seed_device_placement_with_03_device_spec_merge, made
// by `python3 tools/learn.py run 4.3`). The exercise's tests do not link it.
#include <string>
#include <string_view>

#include "device_spec_merge.h"
#include "minitf/graph/graph.h"

namespace minitf::exercises {
namespace {

StatusOr<std::string> MergeWithScopedDevice(std::string_view node_device,
                                            std::string_view scope_device) {
  return ScopedDevice({std::string(scope_device), std::string(node_device)});
}

MINITF_REGISTER_DEVICE_MERGE_FUNCTION(MergeWithScopedDevice, 1);

}  // namespace
}  // namespace minitf::exercises
