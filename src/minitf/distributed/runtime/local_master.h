// LocalMaster: the master of a server in the client's own process, called
// without gRPC.
//
// Seed 003's workers start a server and open their session on that
// server's own target, so every RunStep would go from the process to itself
// through gRPC over loopback: serialized, sent, received and parsed, on the
// way there and back. TensorFlow's GrpcSession looks the target up first in
// a table of the masters of the process's servers and, when it finds one,
// calls that master directly through a LocalMaster, its MasterInterface
// (master_interface.h) without RPC (unless
// RPCOptions.use_rpc_for_inprocess_master asks for RPC; minitf has no such
// option). minitf does the same: GrpcServer::Start registers its master
// under its target, Stop unregisters it, and GrpcSession::Create asks the
// table for a LocalMaster before it opens a channel. Only the client's call
// changes here; the master, in turn, runs its own task's part of each step
// on that task's worker directly (master_session.h). A local call has no
// deadline of the client's own: a step is bounded by the deadlines its
// master sets on the parts (RunOptions.timeout_in_ms,
// operation_timeout_in_ms).
//
// Each call finds the master under the target as it starts and holds it
// while it runs, so that a server's Stop waits for the local calls in
// progress as a gRPC server's shutdown waits for the calls it serves. A
// call after the server stopped is Unavailable, as gRPC answers for a
// server that is not there.
//
// A target matches only as written: "grpc://localhost:2222" is the server's
// own (GrpcServer::target()), and "grpc://127.0.0.1:2222" goes through gRPC.
//
//   auto registration = LocalMaster::Register("grpc://localhost:2222", &m);
//   if (auto local = LocalMaster::Lookup("grpc://localhost:2222")) {
//     CallOptions opts;
//     TF_RETURN_IF_ERROR(local->RunStep(&opts, &request, &response));
//   }
#pragma once

#include <functional>
#include <memory>
#include <string>

#include "minitf/distributed/runtime/master_interface.h"

namespace minitf {

class Master;

/// The master of a server of this process, by its target.
/// Thread safety: every method may be called from any thread.
class LocalMaster final : public MasterInterface {
 public:
  struct Entry;

  /// Unregisters its target when destroyed, after every local call still
  /// holding the master has returned (as a gRPC server's shutdown waits for
  /// the calls it is serving).
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
  /// The master registered under exactly `target` now; null when there is
  /// none.
  static std::unique_ptr<LocalMaster> Lookup(const std::string& target);

  // MasterInterface: the master's method of the same name, on the calling
  // thread. The options' deadline is not read (the file comment says
  // why); a cancellation of RunStep's options ends the step.
  Status CreateSession(CallOptions* opts,
                       const proto::CreateSessionRequest* request,
                       proto::CreateSessionResponse* response) override;
  Status ExtendSession(CallOptions* opts,
                       const proto::ExtendSessionRequest* request,
                       proto::ExtendSessionResponse* response) override;
  Status RunStep(CallOptions* opts, const proto::RunStepRequest* request,
                 proto::RunStepResponse* response) override;
  Status CloseSession(CallOptions* opts,
                      const proto::CloseSessionRequest* request,
                      proto::CloseSessionResponse* response) override;

 private:
  explicit LocalMaster(std::string target) : target_(std::move(target)) {}
  // Runs `call` on the master registered under the target, holding it
  // while the call runs. Unavailable when the target's server has stopped.
  Status Call(const std::function<Status(Master&)>& call) const;

  const std::string target_;
};

}  // namespace minitf
