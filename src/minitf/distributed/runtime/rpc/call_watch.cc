#include "minitf/distributed/runtime/rpc/call_watch.h"

#include <grpcpp/grpcpp.h>

namespace minitf {

CallWatch::CallWatch(std::chrono::milliseconds interval)
    : interval_(interval), thread_([this] { Run(); }) {}

CallWatch::~CallWatch() {
  {
    std::lock_guard<std::mutex> lock(mu_);
    stopping_ = true;
  }
  changed_.notify_all();
  thread_.join();
}

CallWatch::Scope CallWatch::Watch(const grpc::ServerContext* context,
                                  CallOptions* opts) {
  std::lock_guard<std::mutex> lock(mu_);
  const bool was_empty = watched_.empty();
  auto it = watched_.insert(watched_.end(), Watched{context, opts});
  if (was_empty) changed_.notify_all();  // the thread sleeps while none is
  return Scope(this, it);
}

CallWatch::Scope::~Scope() {
  // Under the lock, so that a cancellation the thread runs for this call
  // ends before the call's options go.
  std::lock_guard<std::mutex> lock(watch_->mu_);
  watch_->watched_.erase(it_);
}

// --8<-- [start:watch]
void CallWatch::Run() {
  std::unique_lock<std::mutex> lock(mu_);
  while (!stopping_) {
    if (watched_.empty()) {
      changed_.wait(lock, [this] { return stopping_ || !watched_.empty(); });
      continue;
    }
    changed_.wait_for(lock, interval_, [this] { return stopping_; });
    for (Watched& call : watched_) {
      if (call.cancelled || !call.context->IsCancelled()) continue;
      call.cancelled = true;
      // The cancellation only starts the step's end (it cleans up the
      // step's rendezvous, or cancels calls to other tasks); it takes none
      // of the locks a Scope's owner holds while it waits.
      call.opts->StartCancel();
    }
  }
}
// --8<-- [end:watch]

}  // namespace minitf
