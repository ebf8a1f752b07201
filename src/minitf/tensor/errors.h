// Typed errors: what the user-facing API throws.
//
// The core returns Status; the API a learner calls (tf::eager::matmul here,
// tf::Session::run in chapter 2) throws one exception class per error code,
// named as TensorFlow's Python classes (tf.errors.InvalidArgumentError ...).
// Each carries the code and TensorFlow's message text, and all derive from
// OpError, so one catch clause can take them all.
//
//   try {
//     tf::eager::matmul(a, a);
//   } catch (const tf::errors::InvalidArgumentError& e) {
//     std::cerr << e.code() << ": " << e.message() << "\n";   // 3: Matrix
//     size-...
//   }
#pragma once

#include <stdexcept>
#include <string>

#include "minitf/tensor/status.h"

namespace minitf::errors {

/// Base of every typed error, as tf.errors.OpError. what() is the message.
class OpError : public std::runtime_error {
 public:
  OpError(error::Code code, const std::string& message)
      : std::runtime_error(message), code_(code) {}
  error::Code code() const { return code_; }
  std::string message() const { return what(); }
  /// The Status this error was made from.
  Status status() const { return Status(code_, message()); }

 private:
  error::Code code_;
};

#define MINITF_DEFINE_OP_ERROR(Name, CODE)    \
  class Name : public OpError {               \
   public:                                    \
    explicit Name(const std::string& message) \
        : OpError(error::CODE, message) {}    \
  };
MINITF_DEFINE_OP_ERROR(CancelledError, CANCELLED)
MINITF_DEFINE_OP_ERROR(UnknownError, UNKNOWN)
MINITF_DEFINE_OP_ERROR(InvalidArgumentError, INVALID_ARGUMENT)
MINITF_DEFINE_OP_ERROR(DeadlineExceededError, DEADLINE_EXCEEDED)
MINITF_DEFINE_OP_ERROR(NotFoundError, NOT_FOUND)
MINITF_DEFINE_OP_ERROR(AlreadyExistsError, ALREADY_EXISTS)
MINITF_DEFINE_OP_ERROR(PermissionDeniedError, PERMISSION_DENIED)
MINITF_DEFINE_OP_ERROR(ResourceExhaustedError, RESOURCE_EXHAUSTED)
MINITF_DEFINE_OP_ERROR(FailedPreconditionError, FAILED_PRECONDITION)
MINITF_DEFINE_OP_ERROR(AbortedError, ABORTED)
MINITF_DEFINE_OP_ERROR(OutOfRangeError, OUT_OF_RANGE)
MINITF_DEFINE_OP_ERROR(UnimplementedError, UNIMPLEMENTED)
MINITF_DEFINE_OP_ERROR(InternalError, INTERNAL)
MINITF_DEFINE_OP_ERROR(UnavailableError, UNAVAILABLE)
MINITF_DEFINE_OP_ERROR(DataLossError, DATA_LOSS)
MINITF_DEFINE_OP_ERROR(UnauthenticatedError, UNAUTHENTICATED)
#undef MINITF_DEFINE_OP_ERROR

/// Throws the typed error for a failed status; does nothing for OK.
void ThrowIfError(const Status& status);

/// The value of `result`, or its error thrown as a typed exception.
template <typename T>
T ValueOrThrow(StatusOr<T> result) {
  ThrowIfError(result.status());
  return std::move(result).value();
}

}  // namespace minitf::errors
