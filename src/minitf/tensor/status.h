// Status and StatusOr: how minitf's core reports errors.
//
// Every core function that can fail returns a Status (or a StatusOr<T> that
// holds either a value or a Status) instead of throwing. A Status carries one
// of TensorFlow's error codes, which are gRPC's codes with the same numbers, so
// an error can cross a process boundary in chapter 7 unchanged. The user-facing
// API (eager.h, and the graph API of later chapters) turns a failed Status into
// a typed exception (errors.h), as TensorFlow's Python layer does.
//
//   StatusOr<Tensor> r = kernels::MatMul(a, b);
//   if (!r.ok()) return r.status();        // or: TF_ASSIGN_OR_RETURN(Tensor c,
//   ...) Tensor c = std::move(r).value(); Status s =
//   errors::InvalidArgument("shape ", shape, " is not a matrix"); s.code(); //
//   error::INVALID_ARGUMENT, which is 3
#pragma once

#include <memory>
#include <ostream>
#include <sstream>
#include <string>
#include <string_view>
#include <utility>
#include <variant>

namespace minitf {

namespace error {
/// TensorFlow's error codes (tensorflow/core/protobuf/error_codes.proto),
/// numbered as gRPC numbers its status codes.
enum Code : int {
  OK = 0,
  CANCELLED = 1,
  UNKNOWN = 2,
  INVALID_ARGUMENT = 3,
  DEADLINE_EXCEEDED = 4,
  NOT_FOUND = 5,
  ALREADY_EXISTS = 6,
  PERMISSION_DENIED = 7,
  RESOURCE_EXHAUSTED = 8,
  FAILED_PRECONDITION = 9,
  ABORTED = 10,
  OUT_OF_RANGE = 11,
  UNIMPLEMENTED = 12,
  INTERNAL = 13,
  UNAVAILABLE = 14,
  DATA_LOSS = 15,
  UNAUTHENTICATED = 16,
};
}  // namespace error

/// The name TensorFlow prints for a code: "Invalid argument", "Not found", ...
std::string_view CodeName(error::Code code);

/// The outcome of an operation: OK, or an error code with a message.
///
/// Invariants: ok() == (code() == error::OK); an OK status has an empty
/// message. Copying an OK status is as cheap as copying a pointer.
class [[nodiscard]] Status {
 public:
  /// The OK status.
  Status() = default;
  /// REQUIRES: code != error::OK.
  Status(error::Code code, std::string message);

  static Status OK() { return Status(); }

  bool ok() const { return state_ == nullptr; }
  error::Code code() const { return ok() ? error::OK : state_->code; }
  /// The message alone, as TensorFlow's Status::error_message().
  const std::string& message() const;
  /// "Invalid argument: <message>", or "OK".
  std::string ToString() const;

  bool operator==(const Status& other) const {
    return code() == other.code() && message() == other.message();
  }

 private:
  struct State {
    error::Code code;
    std::string message;
  };
  // Shared and immutable: a Status is passed around a lot and rarely fails.
  std::shared_ptr<const State> state_;
};

std::ostream& operator<<(std::ostream& os, const Status& status);

// --8<-- [start:status_or]
/// Either a value of type T or an error Status.
///
/// Invariant: holds a value exactly when ok(). Reading value() of a failed
/// StatusOr is our bug and aborts (see CHECK in the .cc): check ok() first.
template <typename T>
class [[nodiscard]] StatusOr {
 public:
  StatusOr(const T& value) : v_(value) {}        // NOLINT: implicit by design
  StatusOr(T&& value) : v_(std::move(value)) {}  // NOLINT
  StatusOr(Status status) : v_(std::move(status)) {  // NOLINT
    if (std::get<Status>(v_).ok()) {
      v_ = Status(error::INTERNAL,
                  "StatusOr constructed from an OK Status without a value");
    }
  }

  bool ok() const { return std::holds_alternative<T>(v_); }
  Status status() const { return ok() ? Status::OK() : std::get<Status>(v_); }

  const T& value() const& { return std::get<T>(CheckOk()); }
  T& value() & { return std::get<T>(CheckOk()); }
  T&& value() && { return std::get<T>(std::move(CheckOk())); }
  const T& operator*() const& { return value(); }
  T& operator*() & { return value(); }
  const T* operator->() const { return &value(); }
  T* operator->() { return &value(); }

 private:
  const std::variant<Status, T>& CheckOk() const;
  std::variant<Status, T>& CheckOk() {
    std::as_const(*this).CheckOk();
    return v_;
  }
  std::variant<Status, T> v_;
};
// --8<-- [end:status_or]

namespace internal {
[[noreturn]] void DieBadStatusOrAccess(const Status& status);
}  // namespace internal

template <typename T>
const std::variant<Status, T>& StatusOr<T>::CheckOk() const {
  if (!ok()) internal::DieBadStatusOrAccess(std::get<Status>(v_));
  return v_;
}

/// Concatenates anything printable with operator<<: StrCat("x", 3, shape).
template <typename... Args>
std::string StrCat(const Args&... args) {
  std::ostringstream os;
  (os << ... << args);
  return os.str();
}

/// Factories for each error code, as TensorFlow's errors:: namespace:
/// errors::InvalidArgument("Expected ", n, " elements").
namespace errors {
#define MINITF_DECLARE_ERROR(Name, CODE)         \
  template <typename... Args>                    \
  Status Name(const Args&... args) {             \
    return Status(error::CODE, StrCat(args...)); \
  }                                              \
  inline bool Is##Name(const Status& s) { return s.code() == error::CODE; }
MINITF_DECLARE_ERROR(Cancelled, CANCELLED)
MINITF_DECLARE_ERROR(Unknown, UNKNOWN)
MINITF_DECLARE_ERROR(InvalidArgument, INVALID_ARGUMENT)
MINITF_DECLARE_ERROR(DeadlineExceeded, DEADLINE_EXCEEDED)
MINITF_DECLARE_ERROR(NotFound, NOT_FOUND)
MINITF_DECLARE_ERROR(AlreadyExists, ALREADY_EXISTS)
MINITF_DECLARE_ERROR(PermissionDenied, PERMISSION_DENIED)
MINITF_DECLARE_ERROR(ResourceExhausted, RESOURCE_EXHAUSTED)
MINITF_DECLARE_ERROR(FailedPrecondition, FAILED_PRECONDITION)
MINITF_DECLARE_ERROR(Aborted, ABORTED)
MINITF_DECLARE_ERROR(OutOfRange, OUT_OF_RANGE)
MINITF_DECLARE_ERROR(Unimplemented, UNIMPLEMENTED)
MINITF_DECLARE_ERROR(Internal, INTERNAL)
MINITF_DECLARE_ERROR(Unavailable, UNAVAILABLE)
MINITF_DECLARE_ERROR(DataLoss, DATA_LOSS)
MINITF_DECLARE_ERROR(Unauthenticated, UNAUTHENTICATED)
#undef MINITF_DECLARE_ERROR
}  // namespace errors

}  // namespace minitf

/// Returns from the enclosing function if `expr` (a Status) is an error.
#define TF_RETURN_IF_ERROR(expr)                     \
  do {                                               \
    ::minitf::Status _minitf_status = (expr);        \
    if (!_minitf_status.ok()) return _minitf_status; \
  } while (0)

#define MINITF_CONCAT_INNER(a, b) a##b
#define MINITF_CONCAT(a, b) MINITF_CONCAT_INNER(a, b)
/// `TF_ASSIGN_OR_RETURN(Tensor t, MakeTensor());` declares t from a StatusOr,
/// or returns its error from the enclosing function.
#define TF_ASSIGN_OR_RETURN(lhs, expr)                                     \
  MINITF_ASSIGN_OR_RETURN_IMPL(MINITF_CONCAT(_minitf_statusor_, __LINE__), \
                               lhs, expr)
#define MINITF_ASSIGN_OR_RETURN_IMPL(tmp, lhs, expr) \
  auto tmp = (expr);                                 \
  if (!tmp.ok()) return tmp.status();                \
  lhs = std::move(tmp).value()

/// Aborts with a message when `cond` is false. Only for minitf's own bugs:
/// anything a user can cause is a Status instead.
#define MINITF_CHECK(cond)                                           \
  do {                                                               \
    if (!(cond))                                                     \
      ::minitf::internal::DieCheckFailed(__FILE__, __LINE__, #cond); \
  } while (0)

namespace minitf::internal {
[[noreturn]] void DieCheckFailed(const char* file, int line,
                                 const char* condition);
}  // namespace minitf::internal
