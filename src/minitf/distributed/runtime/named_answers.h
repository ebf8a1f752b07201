// Named answers: matching what a master or a worker answers to what was
// asked, by name, never by position.
//
// A RunStep asks a master for tensors by name, and a RunGraph asks a worker
// for rendezvous keys by name; each answer is a list of NamedTensorProto.
// Nothing in the protocol fixes the answer's order: TensorFlow's master, for
// one, answers in its own order (sorted by name), and its client matches the
// answers by name. So a reader of an answer here does the same: it looks each
// value up by the name it was asked under, and an answer that names a tensor
// not asked for, names one twice or leaves one out is refused with an
// Internal error that says which (in TensorFlow's words where it has them).
//
// Asking twice for one tensor is allowed, as in TensorFlow (`run({c, c})`):
// UniqueNames asks for it once and says where each answer goes back.
//
//   UniqueNames asked = UniqueNames::Of({"c:0", "a:0", "c:0"});  // c, a
//   TF_ASSIGN_OR_RETURN(auto values, MatchByName(response.tensor(),
//                                                asked.names, kFetches));
//   // values[asked.slot[i]] answers the caller's i-th name.
#pragma once

#include <google/protobuf/repeated_ptr_field.h>

#include <string>
#include <string_view>
#include <vector>

#include "minitf/distributed/runtime/proto/named_tensor.pb.h"
#include "minitf/tensor/status.h"

namespace minitf {

/// A list of names with its repeats taken out.
/// Invariants: `names` holds no name twice; slot.size() is the length of the
/// list it was made of, and names[slot[i]] is that list's i-th name.
struct UniqueNames {
  std::vector<std::string> names;
  std::vector<int> slot;

  /// `all` in first-seen order, each name once.
  static UniqueNames Of(const std::vector<std::string>& all);
};

/// What was asked for, which decides the errors' words: a master's RunStep
/// answers fetches (the client's words), a worker's RunGraph answers
/// rendezvous keys (the master's words).
enum class Asked { kFetches, kFetchKeys };
inline constexpr Asked kFetches = Asked::kFetches;
inline constexpr Asked kFetchKeys = Asked::kFetchKeys;

/// The values of `answer` in the order of `asked`, matched by name.
/// REQUIRES: `asked` holds no name twice. The pointers point into `answer`,
/// which must outlive them.
/// Internal when the answer names a tensor that was not asked for
/// ("Received response for unrequested fetch: x:0", as TensorFlow's client
/// says; "Unexpected fetch key: ..." for a worker's answer, as its master
/// says), names one twice, or has no value for one that was.
StatusOr<std::vector<const proto::TensorProto*>> MatchByName(
    const google::protobuf::RepeatedPtrField<proto::NamedTensorProto>& answer,
    const std::vector<std::string>& asked, Asked what);

}  // namespace minitf
