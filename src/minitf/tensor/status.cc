#include "minitf/tensor/status.h"

#include <cstdio>
#include <cstdlib>

namespace minitf {

std::string_view CodeName(error::Code code) {
  switch (code) {
    case error::OK:
      return "OK";
    case error::CANCELLED:
      return "Cancelled";
    case error::UNKNOWN:
      return "Unknown";
    case error::INVALID_ARGUMENT:
      return "Invalid argument";
    case error::DEADLINE_EXCEEDED:
      return "Deadline exceeded";
    case error::NOT_FOUND:
      return "Not found";
    case error::ALREADY_EXISTS:
      return "Already exists";
    case error::PERMISSION_DENIED:
      return "Permission denied";
    case error::RESOURCE_EXHAUSTED:
      return "Resource exhausted";
    case error::FAILED_PRECONDITION:
      return "Failed precondition";
    case error::ABORTED:
      return "Aborted";
    case error::OUT_OF_RANGE:
      return "Out of range";
    case error::UNIMPLEMENTED:
      return "Unimplemented";
    case error::INTERNAL:
      return "Internal";
    case error::UNAVAILABLE:
      return "Unavailable";
    case error::DATA_LOSS:
      return "Data loss";
    case error::UNAUTHENTICATED:
      return "Unauthenticated";
  }
  return "Unknown code";
}

Status::Status(error::Code code, std::string message) {
  MINITF_CHECK(code != error::OK);
  state_ = std::make_shared<const State>(State{code, std::move(message)});
}

const std::string& Status::message() const {
  static const std::string* const kEmpty = new std::string;
  return ok() ? *kEmpty : state_->message;
}

std::string Status::ToString() const {
  if (ok()) return "OK";
  return StrCat(CodeName(code()), ": ", message());
}

std::ostream& operator<<(std::ostream& os, const Status& status) {
  return os << status.ToString();
}

namespace internal {

void DieBadStatusOrAccess(const Status& status) {
  std::fprintf(stderr, "minitf: value() of a failed StatusOr: %s\n",
               status.ToString().c_str());
  std::abort();
}

void DieCheckFailed(const char* file, int line, const char* condition) {
  std::fprintf(stderr, "minitf: %s:%d: check failed: %s\n", file, line,
               condition);
  std::abort();
}

}  // namespace internal
}  // namespace minitf
