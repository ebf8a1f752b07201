// CallWatch: ends a step whose caller has gone.
//
// A client that calls RunStep (or a master that calls RunGraph) and then
// goes away — it cancelled the call, its deadline passed, its process died
// and the connection dropped — leaves the server running a step for nobody.
// A step that waits for something that will never come (a dequeue from an
// empty queue, a value from a task that is gone) would then hold a thread
// and its tensors for ever. TensorFlow's services give every such call a
// cancel callback that gRPC runs when the caller goes, and the callback
// cancels the step.
//
// gRPC's synchronous server, which minitf's services use, has no such
// callback: a handler learns that its caller has gone only by asking
// (grpc::ServerContext::IsCancelled, which is safe from any thread). The
// watch asks for it. A handler that waits registers its call for as long as
// it runs; one thread of the watch asks, every `interval`, for each call
// registered, and cancels the call's CallOptions (worker_interface.h) once
// its caller has gone, which ends the step as a master's Close does.
//
//   CallOptions opts;
//   CallWatch::Scope watched = watch->Watch(context, &opts);
//   worker->RunGraphAsync(&opts, request, response, done);
#pragma once

#include <chrono>
#include <condition_variable>
#include <list>
#include <mutex>
#include <thread>

#include "minitf/distributed/runtime/worker_interface.h"

namespace grpc {
class ServerContext;
}  // namespace grpc

namespace minitf {

/// Cancels the CallOptions of each watched call once its caller has gone.
/// Thread safety: every method is safe from any thread.
class CallWatch {
 private:
  struct Watched {
    const grpc::ServerContext* context;
    CallOptions* opts;
    bool cancelled = false;
  };

 public:
  /// Watches from a thread of its own, asking every `interval`.
  explicit CallWatch(
      std::chrono::milliseconds interval = std::chrono::milliseconds(50));
  /// Stops the thread. REQUIRES: no Scope outlives the watch.
  ~CallWatch();
  CallWatch(const CallWatch&) = delete;
  CallWatch& operator=(const CallWatch&) = delete;

  /// One call's registration, from Watch until its destruction. Once it is
  /// destroyed, the watch touches neither the context nor the options.
  class Scope {
   public:
    Scope(CallWatch* watch, std::list<Watched>::iterator it)
        : watch_(watch), it_(it) {}
    ~Scope();
    Scope(const Scope&) = delete;
    Scope& operator=(const Scope&) = delete;

   private:
    CallWatch* const watch_;
    const std::list<Watched>::iterator it_;
  };

  /// Watches the call of `context` until the Scope is destroyed: when its
  /// caller has gone, `opts->StartCancel()` runs, once, on the watch's
  /// thread. `context` and `opts` must outlive the Scope.
  [[nodiscard]] Scope Watch(const grpc::ServerContext* context,
                            CallOptions* opts);

 private:
  void Run();

  const std::chrono::milliseconds interval_;
  std::mutex mu_;
  std::condition_variable changed_;
  std::list<Watched> watched_;  // guarded by mu_
  bool stopping_ = false;       // guarded by mu_
  std::thread thread_;
};

}  // namespace minitf
