// What the tests of layer 7 share.
#pragma once

#include <grpcpp/generic/generic_stub.h>
#include <grpcpp/grpcpp.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <condition_variable>
#include <exception>
#include <mutex>
#include <random>
#include <sstream>
#include <string>

#include "minitf/distributed/runtime/cluster_spec.h"
#include "minitf/distributed/runtime/server.h"
#include "minitf/tensor/errors.h"
#include "minitf/tensor/tensor.h"

namespace minitf::testing {

/// A tensor as it prints ("[1. 2.]"), for comparing with TensorFlow's.
inline std::string Str(const Tensor& t) {
  std::ostringstream s;
  s << t;
  return s.str();
}

/// The message of the `Error` that `f` throws; "another error: ..." for
/// another exception, "no error" when it throws none.
template <typename Error, typename F>
std::string ErrorText(F f) {
  try {
    f();
  } catch (const Error& e) {
    return e.what();
  } catch (const std::exception& e) {
    return std::string("another error: ") + e.what();
  }
  return "no error";
}

/// The message of the InvalidArgumentError that `f` throws.
template <typename F>
std::string InvalidArgumentText(F f) {
  return ErrorText<errors::InvalidArgumentError>(f);
}

/// One unary call of `method` with raw bytes, through gRPC's generic stub,
/// waited for; what a program that does not use minitf's messages sends.
/// `context` carries the caller's deadline.
inline grpc::Status GenericUnaryCall(grpc::GenericStub& stub,
                                     grpc::ClientContext* context,
                                     const std::string& method,
                                     const grpc::ByteBuffer& request,
                                     grpc::ByteBuffer* reply) {
  std::mutex mu;
  std::condition_variable cv;
  bool done = false;
  grpc::Status status;
  stub.UnaryCall(context, method, grpc::StubOptions(), &request, reply,
                 [&](grpc::Status s) {
                   std::lock_guard<std::mutex> lock(mu);
                   status = s;
                   done = true;
                   cv.notify_all();
                 });
  std::unique_lock<std::mutex> lock(mu);
  cv.wait(lock, [&] { return done; });
  return status;
}

/// A loopback port free now, for a cluster whose tasks must know each
/// other's addresses before they start. It is drawn at random below the
/// system's range of ephemeral ports (ip_local_port_range, 32768 and up by
/// default), where the system never hands out a port by itself: a server
/// that listens on port 0, or the local end of a connection, cannot take it
/// before the task starts, and tests that run at once seldom draw the same
/// one. 0 when none could be had.
inline int FreePort() {
  static std::mt19937 random{std::random_device{}()};
  static std::mutex mu;
  std::lock_guard<std::mutex> lock(mu);
  for (int attempt = 0; attempt < 100; ++attempt) {
    const int port = std::uniform_int_distribution<int>(20000, 32000)(random);
    const int fd = socket(AF_INET, SOCK_STREAM, 0);
    if (fd < 0) return 0;
    sockaddr_in addr{};
    addr.sin_family = AF_INET;
    addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    addr.sin_port = htons(static_cast<uint16_t>(port));
    const bool free =
        bind(fd, reinterpret_cast<sockaddr*>(&addr), sizeof(addr)) == 0;
    close(fd);
    if (free) return port;
  }
  return 0;
}

/// "localhost:<a free port>".
inline std::string FreeAddress() {
  return "localhost:" + std::to_string(FreePort());
}

/// A cluster of one ps task and one worker task at free loopback
/// addresses, both started in this process; their log lines are kept.
struct PsAndWorker {
  train::ClusterSpec cluster{
      {{"ps", {FreeAddress()}}, {"worker", {FreeAddress()}}}};
  std::ostringstream log;
  train::Server ps{cluster, "ps", 0, {}, {.log_stream = &log}};
  train::Server worker{cluster, "worker", 0, {}, {.log_stream = &log}};
};

}  // namespace minitf::testing
