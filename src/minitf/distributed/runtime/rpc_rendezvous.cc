#include "minitf/distributed/runtime/rpc_rendezvous.h"

#include <algorithm>
#include <chrono>
#include <string_view>

#include "minitf/device/devices/device_context.h"
#include "minitf/graph/deadline.h"

namespace minitf {

/// One RecvTensor call in flight: what the source task's worker is given
/// and fills while it runs.
struct RpcRendezvous::Call {
  CallOptions opts;
  proto::RecvTensorRequest request;
  TensorResponse response;
};

RpcRendezvous::RpcRendezvous(int64_t step_id, std::string local_task,
                             const DeviceMgr* devices, WorkerCache* workers,
                             int64_t rpc_timeout_ms)
    : step_id_(step_id),
      local_task_(std::move(local_task)),
      devices_(devices),
      host_(devices->ListDevices().front()),
      workers_(workers),
      rpc_timeout_ms_(rpc_timeout_ms) {}

RpcRendezvous::~RpcRendezvous() {
  // A call's callback uses this object: cancel what is in flight and wait
  // for the callbacks.
  CancelCalls();
  std::unique_lock<std::mutex> lock(mu_);
  calls_done_.wait(lock, [this] { return calls_.empty(); });
}

void RpcRendezvous::CancelCalls() {
  std::vector<std::shared_ptr<Call>> calls;
  {
    std::lock_guard<std::mutex> lock(mu_);
    calls.assign(calls_.begin(), calls_.end());
  }
  // Without the lock: a worker may answer a cancelled call at once, on
  // this thread, and the answer takes the lock.
  for (const std::shared_ptr<Call>& call : calls) call->opts.StartCancel();
}

Status RpcRendezvous::Send(const ParsedKey& key, const Args& send_args,
                           const Tensor& value, bool is_dead) {
  return local_.Send(key, send_args, value, is_dead);
}

void RpcRendezvous::RecvAsync(const ParsedKey& key, const Args& recv_args,
                              DoneCallback done) {
  StatusOr<std::string> src_task = TaskOfDevice(key.src_device);
  if (!src_task.ok()) {
    done(src_task.status(), Args{}, recv_args, Tensor(), false);
    return;
  }
  // Named while it waits (Waiting()), forgotten when it is done. A wait's
  // cancel key names it "dequeue/<queue>" or "take_grad/<accumulator>"
  // (wait_list.h).
  const std::string_view cancel = "_cancel/";
  std::string what(key.edge_name);
  if (what.starts_with(cancel)) {
    what.erase(0, cancel.size());
    const size_t slash = what.find('/');
    if (slash != std::string::npos) what.replace(slash, 1, " on ");
  } else if (*src_task != local_task_) {
    what += " from " + *src_task;
  }
  uint64_t id = 0;
  {
    std::lock_guard<std::mutex> lock(waiting_mu_);
    id = next_waiting_++;
    waiting_.emplace(id, std::move(what));
  }
  DoneCallback forget_then_done = [this, id, done = std::move(done)](
                                      const Status& s, const Args& send_args,
                                      const Args& args, const Tensor& value,
                                      bool is_dead) {
    {
      std::lock_guard<std::mutex> lock(waiting_mu_);
      waiting_.erase(id);
    }
    done(s, send_args, args, value, is_dead);
  };
  if (*src_task == local_task_) {
    local_.RecvAsync(key, recv_args, std::move(forget_then_done));
    return;
  }
  RecvRemote(key, recv_args, std::move(forget_then_done));
}

std::vector<std::string> RpcRendezvous::Waiting() const {
  std::lock_guard<std::mutex> lock(waiting_mu_);
  std::vector<std::string> names;
  for (const auto& [id, what] : waiting_) names.push_back(what);
  std::sort(names.begin(), names.end());
  names.erase(std::unique(names.begin(), names.end()), names.end());
  return names;
}

void RpcRendezvous::RecvLocalAsync(const ParsedKey& key, DoneCallback done) {
  local_.RecvAsync(key, Args{host_}, std::move(done));
}

// --8<-- [start:recv_remote]
void RpcRendezvous::RecvRemote(const ParsedKey& key, const Args& recv_args,
                               DoneCallback done) {
  StatusOr<std::string> src_task = TaskOfDevice(key.src_device);
  StatusOr<WorkerInterface*> worker =
      src_task.ok() ? workers_->GetWorker(*src_task)
                    : StatusOr<WorkerInterface*>(src_task.status());
  if (!worker.ok()) {
    done(worker.status(), Args{}, recv_args, Tensor(), false);
    return;
  }
  auto call = std::make_shared<Call>();
  call->request.set_step_id(step_id_);
  call->request.set_rendezvous_key(key.full_key);
  call->response.allocator = host_->kernel_allocator();
  if (rpc_timeout_ms_ > 0) {
    call->opts.set_deadline(
        DeadlineAfter(std::chrono::system_clock::now(), rpc_timeout_ms_));
  }
  {
    std::unique_lock<std::mutex> lock(mu_);
    if (!status_.ok()) {
      Status aborted = status_;
      lock.unlock();
      done(aborted, Args{}, recv_args, Tensor(), false);
      return;
    }
    calls_.insert(call);
  }
  (*worker)->RecvTensorAsync(
      &call->opts, &call->request, &call->response,
      [this, call, host = host_, name = std::string(key.edge_name), recv_args,
       done = std::move(done)](const Status& s) {
        Status status = s;
        Tensor value = std::move(call->response.tensor);
        const bool is_dead = call->response.is_dead;
        {
          std::lock_guard<std::mutex> lock(mu_);
          // A call cancelled by an abort reports the abort's reason.
          if (!status_.ok() && !status.ok()) status = status_;
          calls_.erase(call);
          // Under the lock: once it is released, the destructor may run,
          // and nothing below touches `this`.
          calls_done_.notify_all();
        }
        Device* dst = recv_args.device;
        if (!status.ok() || is_dead || dst == nullptr ||
            dst->UsesHostMemory()) {
          done(status, Args{}, recv_args, value, is_dead);
          return;
        }
        // The value arrived in host memory; the receiver's is its own.
        auto in = std::make_shared<Tensor>(std::move(value));
        auto out = std::make_shared<Tensor>();
        CopyTensorBetweenDevices(name, host, dst, *in, out.get(),
                                 [in, out, recv_args, done](const Status& s) {
                                   done(s, Args{}, recv_args, *out, false);
                                 });
      });
}
// --8<-- [end:recv_remote]

void RpcRendezvous::StartAbort(const Status& status) {
  local_.StartAbort(status);
  {
    std::lock_guard<std::mutex> lock(mu_);
    if (status_.ok()) status_ = status;
  }
  CancelCalls();
}

std::shared_ptr<RpcRendezvous> RendezvousMgr::Find(int64_t step_id,
                                                   int64_t rpc_timeout_ms) {
  std::lock_guard<std::mutex> lock(mu_);
  auto it = steps_.find(step_id);
  if (it != steps_.end()) return it->second;
  auto rendezvous = std::make_shared<RpcRendezvous>(
      step_id, local_task_, devices_, workers_, rpc_timeout_ms);
  if (ended_.count(step_id) > 0) {
    rendezvous->StartAbort(errors::Aborted("Cleanup ", step_id));
    return rendezvous;
  }
  steps_.emplace(step_id, rendezvous);
  return rendezvous;
}

void RendezvousMgr::Cleanup(int64_t step_id) {
  std::shared_ptr<RpcRendezvous> rendezvous;
  {
    std::lock_guard<std::mutex> lock(mu_);
    if (ended_.insert(step_id).second) {
      ended_order_.push_back(step_id);
      if (ended_order_.size() > kRememberedSteps) {
        ended_.erase(ended_order_.front());
        ended_order_.pop_front();
      }
    }
    auto it = steps_.find(step_id);
    if (it == steps_.end()) return;
    rendezvous = std::move(it->second);
    steps_.erase(it);
  }
  rendezvous->StartAbort(errors::Aborted("Cleanup ", step_id));
}

void RendezvousMgr::CleanupAll() {
  std::vector<int64_t> ids;
  {
    std::lock_guard<std::mutex> lock(mu_);
    for (const auto& [id, r] : steps_) ids.push_back(id);
  }
  for (int64_t id : ids) Cleanup(id);
}

}  // namespace minitf
