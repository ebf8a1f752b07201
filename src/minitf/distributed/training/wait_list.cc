#include "minitf/distributed/training/wait_list.h"

#include <utility>

#include "minitf/device/devices/device.h"
#include "minitf/device/partition/rendezvous.h"
#include "minitf/device/partition/sendrecv_ops.h"

namespace minitf {

uint64_t WaitList::Add(Attempt attempt, StatusCallback cancel) {
  const uint64_t id = next_id_++;
  attempts_.push_back({id, std::move(attempt), std::move(cancel)});
  return id;
}

void WaitList::Run(DeferredCalls* calls, bool in_order) {
  for (auto it = attempts_.begin(); it != attempts_.end();) {
    if (it->attempt(calls)) {
      it = attempts_.erase(it);
    } else if (in_order) {
      return;
    } else {
      ++it;
    }
  }
}

bool WaitList::Cancel(uint64_t id, const Status& status, DeferredCalls* calls) {
  for (auto it = attempts_.begin(); it != attempts_.end(); ++it) {
    if (it->id != id) continue;
    calls->push_back(
        [cancel = std::move(it->cancel), status] { cancel(status); });
    attempts_.erase(it);
    return true;
  }
  return false;
}

void WaitList::CancelAll(const Status& status, DeferredCalls* calls) {
  for (Entry& e : attempts_) {
    calls->push_back(
        [cancel = std::move(e.cancel), status] { cancel(status); });
  }
  attempts_.clear();
}

// --8<-- [start:cancel_with_step]
void CancelWithStep(OpKernelContext* ctx, const std::string& tag,
                    StatusCallback on_cancel) {
  auto* step = dynamic_cast<RendezvousStepExtension*>(ctx->step_extension());
  if (step == nullptr || step->rendezvous() == nullptr) return;
  Device* device = step->device();
  // A key on this very device that no _Send ever uses: its receiver is
  // called only by the rendezvous's abort, or when the step's rendezvous
  // ends.
  StatusOr<Rendezvous::ParsedKey> key = Rendezvous::ParseKey(
      Rendezvous::CreateKey(device->name(), device->attributes().incarnation,
                            device->name(), "_cancel/" + tag, FrameAndIter{}));
  if (!key.ok()) return;
  step->rendezvous()->RecvAsync(
      *key, {device},
      [on_cancel = std::move(on_cancel)](
          const Status& s, const Rendezvous::Args&, const Rendezvous::Args&,
          const Tensor&,
          bool) { on_cancel(s.ok() ? errors::Cancelled("step over") : s); });
}
// --8<-- [end:cancel_with_step]

void RunDeferred(DeferredCalls* calls) {
  for (auto& call : *calls) call();
  calls->clear();
}

}  // namespace minitf
