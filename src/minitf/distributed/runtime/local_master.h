// LocalMaster: the master of a server in the client's own process, called
// without gRPC.
//
// Seed 003's workers start a server and open their session on that
// server's own target, so every RunStep would go from the process to itself
// through gRPC over loopback: serialized, sent, received and parsed, on the
// way there and back. TensorFlow's GrpcSession looks the target up first in
// a table of the masters of the process's servers and, when it finds one,
// calls that master directly (unless RPCOptions.use_rpc_for_inprocess_master
// asks for RPC; minitf has no such option). minitf does the same:
// GrpcServer::Start registers its master under its target, Stop unregisters
// it, and GrpcSession calls through the table when the target is there.
// Only the client's call changes here; the master, in turn, runs its own
// task's part of each step on that task's worker directly
// (master_session.h). A local call has no deadline of the client's own: a
// step is bounded by the deadlines its master sets on the parts
// (RunOptions.timeout_in_ms, operation_timeout_in_ms).
//
// A target matches only as written: "grpc://localhost:2222" is the server's
// own (GrpcServer::target()), and "grpc://127.0.0.1:2222" goes through gRPC.
//
//   auto registration = LocalMaster::Register("grpc://localhost:2222", &m);
//   if (LocalMaster local = LocalMaster::Lookup("grpc://localhost:2222")) {
//     TF_RETURN_IF_ERROR(local->RunStep(request, &response));
//   }
#pragma once

#include <memory>
#include <string>

namespace minitf {

class Master;

/// One call's hold on a registered master: while it lives, the master's
/// server cannot finish stopping. Empty when the target has no master in
/// this process.
/// Thread safety: Lookup and Register may be called from any thread.
class LocalMaster {
 public:
  struct Entry;

  /// Unregisters its target when destroyed, after every LocalMaster still
  /// holding the master has been let go (as a gRPC server's shutdown waits
  /// for the calls it is serving).
  class Registration {
   public:
    Registration(std::string target, std::shared_ptr<Entry> entry);
    ~Registration();
    Registration(const Registration&) = delete;
    Registration& operator=(const Registration&) = delete;

   private:
    const std::string target_;
    std::shared_ptr<Entry> entry_;
  };

  /// Registers `master` under `target` ("grpc://localhost:2222"), replacing
  /// an entry of a server stopped before; `master` must outlive the
  /// returned registration.
  static std::unique_ptr<Registration> Register(const std::string& target,
                                                Master* master);
  /// The master registered under exactly `target`, held until the result
  /// is destroyed; empty when there is none.
  static LocalMaster Lookup(const std::string& target);

  LocalMaster(LocalMaster&& other) noexcept;
  LocalMaster& operator=(LocalMaster&&) = delete;
  LocalMaster(const LocalMaster&) = delete;
  ~LocalMaster();

  explicit operator bool() const { return master_ != nullptr; }
  Master* operator->() const { return master_; }
  Master& operator*() const { return *master_; }

 private:
  LocalMaster(std::shared_ptr<Entry> entry, Master* master);

  std::shared_ptr<Entry> entry_;
  Master* master_ = nullptr;
};

}  // namespace minitf
