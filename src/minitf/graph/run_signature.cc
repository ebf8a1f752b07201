#include "minitf/graph/run_signature.h"

#include <set>

#include "minitf/tensor/errors.h"

namespace minitf {

StatusOr<RunSignature> ResolveRunSignature(
    const Graph& graph,
    const std::vector<std::pair<std::string, Tensor>>& feeds,
    const std::vector<std::string>& fetch_names,
    const std::vector<std::string>& target_names) {
  RunSignature sig;
  std::set<Output> seen;
  for (const auto& [name, value] : feeds) {
    TF_ASSIGN_OR_RETURN(Output t, graph.GetTensorByName(name));
    if (!seen.insert(t).second) {
      return errors::InvalidArgument("The tensor '", t.name(),
                                     "' is fed more than once.");
    }
    sig.feeds.push_back(t);
  }
  for (const std::string& name : fetch_names) {
    TF_ASSIGN_OR_RETURN(Output t, graph.GetTensorByName(name));
    sig.fetches.push_back(t);
  }
  for (const std::string& name : target_names) {
    TF_ASSIGN_OR_RETURN(Operation op, graph.GetOperationByName(name));
    sig.targets.push_back(op.node());
  }
  return sig;
}

// '\n' cannot occur in a node name, so distinct signatures give distinct
// keys.
std::string RunSignatureKey(
    const std::vector<std::pair<std::string, Tensor>>& feeds,
    const std::vector<std::string>& fetch_names,
    const std::vector<std::string>& target_names) {
  std::string key;
  for (const auto& feed : feeds) key.append(feed.first).push_back('\n');
  key.push_back('>');
  for (const std::string& name : fetch_names) key.append(name).push_back('\n');
  key.push_back('>');
  for (const std::string& name : target_names) key.append(name).push_back('\n');
  return key;
}

}  // namespace minitf
