#include "minitf/distributed/runtime/named_answers.h"

#include <unordered_map>

namespace minitf {

UniqueNames UniqueNames::Of(const std::vector<std::string>& all) {
  UniqueNames unique;
  unique.slot.reserve(all.size());
  std::unordered_map<std::string_view, int> index;
  for (const std::string& name : all) {
    auto [it, added] =
        index.emplace(name, static_cast<int>(unique.names.size()));
    if (added) unique.names.push_back(name);
    unique.slot.push_back(it->second);
  }
  return unique;
}

// --8<-- [start:match_by_name]
StatusOr<std::vector<const proto::TensorProto*>> MatchByName(
    const google::protobuf::RepeatedPtrField<proto::NamedTensorProto>& answer,
    const std::vector<std::string>& asked, Asked what) {
  const bool keys = what == Asked::kFetchKeys;
  const char* noun = keys ? "fetch key" : "fetch";
  std::unordered_map<std::string_view, int> index;
  for (size_t i = 0; i < asked.size(); ++i) {
    index.emplace(asked[i], static_cast<int>(i));
  }
  std::vector<const proto::TensorProto*> values(asked.size(), nullptr);
  for (const proto::NamedTensorProto& got : answer) {
    auto it = index.find(got.name());
    if (it == index.end()) {
      return keys
                 ? errors::Internal("Unexpected fetch key: ", got.name())
                 : errors::Internal("Received response for unrequested fetch: ",
                                    got.name());
    }
    if (values[it->second] != nullptr) {
      return errors::Internal("Received more than one response for ", noun,
                              ": ", got.name());
    }
    values[it->second] = &got.tensor();
  }
  for (size_t i = 0; i < asked.size(); ++i) {
    if (values[i] == nullptr) {
      return errors::Internal("Received no response for ", noun, ": ",
                              asked[i]);
    }
  }
  return values;
}
// --8<-- [end:match_by_name]

}  // namespace minitf
