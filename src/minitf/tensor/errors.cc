#include "minitf/tensor/errors.h"

namespace minitf::errors {

void ThrowIfError(const Status& status) {
  const std::string& m = status.message();
  switch (status.code()) {
    case error::OK:
      return;
    case error::CANCELLED:
      throw CancelledError(m);
    case error::UNKNOWN:
      throw UnknownError(m);
    case error::INVALID_ARGUMENT:
      throw InvalidArgumentError(m);
    case error::DEADLINE_EXCEEDED:
      throw DeadlineExceededError(m);
    case error::NOT_FOUND:
      throw NotFoundError(m);
    case error::ALREADY_EXISTS:
      throw AlreadyExistsError(m);
    case error::PERMISSION_DENIED:
      throw PermissionDeniedError(m);
    case error::RESOURCE_EXHAUSTED:
      throw ResourceExhaustedError(m);
    case error::FAILED_PRECONDITION:
      throw FailedPreconditionError(m);
    case error::ABORTED:
      throw AbortedError(m);
    case error::OUT_OF_RANGE:
      throw OutOfRangeError(m);
    case error::UNIMPLEMENTED:
      throw UnimplementedError(m);
    case error::INTERNAL:
      throw InternalError(m);
    case error::UNAVAILABLE:
      throw UnavailableError(m);
    case error::DATA_LOSS:
      throw DataLossError(m);
    case error::UNAUTHENTICATED:
      throw UnauthenticatedError(m);
  }
  throw UnknownError(m);
}

}  // namespace minitf::errors
