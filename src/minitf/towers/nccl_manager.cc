#include "minitf/towers/nccl_manager.h"

#include <algorithm>
#include <cstring>
#include <utility>

#include "minitf/gpu/gpu_device.h"
#include "minitf/graph/deadline.h"
#include "minitf/tensor/errors.h"
#include "minitf/tensor/kernels/cwise_ops.h"
#ifdef MINITF_WITH_CUDA
#include "minitf/towers/nccl_communicators.h"
#endif

namespace minitf {
namespace {

std::string Describe(const NcclCollectiveKey& key) {
  return "NcclAllReduce with shared_name " + key.shared_name + " (step " +
         std::to_string(key.step_id) + ")";
}

// Where the participant's tensors lie: memory the CPU can read (virtual and
// emulated GPUs), a real GPU's (NCCL's), or memory the CPU may not read on
// the emulator's GPUs (the tests' stand-in for a real GPU's).
enum class Memory { kHost, kRealGpu, kEmulatedDevice };

Memory MemoryOf(const NcclParticipant& p) {
  if (p.output.allocator()->HostAccessible()) return Memory::kHost;
  if (p.gpu != nullptr && p.gpu->executor()->HostAccessible()) {
    return Memory::kEmulatedDevice;
  }
  return Memory::kRealGpu;
}

bool SortedByDevice(const NcclParticipant& a, const NcclParticipant& b) {
  return a.device < b.device;
}

// --8<-- [start:host_sum]
// The sum on the host, for devices whose memory the CPU can read: the
// inputs added in the order of their devices' names, so that every run
// adds in the same order, then copied into every participant's output.
Status HostSum(std::vector<NcclParticipant>& participants) {
  std::sort(participants.begin(), participants.end(), SortedByDevice);
  Tensor sum = *participants[0].input;
  for (size_t i = 1; i < participants.size(); ++i) {
    TF_ASSIGN_OR_RETURN(sum, kernels::Add(sum, *participants[i].input));
  }
  for (NcclParticipant& p : participants) {
    std::memcpy(p.output.raw_data(), sum.raw_data(), sum.TotalBytes());
  }
  return Status::OK();
}
// --8<-- [end:host_sum]

// The sum by the GPUs' own kernels, for the emulator's GPUs whose memory the
// CPU may not read: every GPU adds the inputs, in the order of their
// devices' names, into its output, on its compute stream, reading the other
// GPUs' memory as NCCL's kernels do over NVLink (the emulator's GPUs share
// one address space). The inputs are made on other streams and freed once
// the participants are called back, so the host waits for every stream
// before and after.
Status EmulatedDeviceSum(std::vector<NcclParticipant>& participants) {
  std::sort(participants.begin(), participants.end(), SortedByDevice);
  auto synchronize_all = [&]() -> Status {
    for (const NcclParticipant& p : participants) {
      TF_RETURN_IF_ERROR(
          p.gpu->executor()->SynchronizeStream(p.gpu->compute().stream));
    }
    return Status::OK();
  };
  TF_RETURN_IF_ERROR(synchronize_all());
  const Tensor& first = *participants[0].input;
  gpu::BroadcastLoops flat;
  flat.dims[0] = first.NumElements();
  flat.x_strides[0] = flat.y_strides[0] = 1;
  for (NcclParticipant& p : participants) {
    if (first.NumElements() == 0) break;
    const gpu::GpuStreamContext gpu = p.gpu->compute();
    TF_RETURN_IF_ERROR(p.gpu->executor()->MemcpyDeviceToDevice(
        p.output.device_data(), first.device_data(), first.TotalBytes(),
        gpu.stream));
    for (size_t i = 1; i < participants.size(); ++i) {
      TF_RETURN_IF_ERROR(gpu.kernels->Binary(
          gpu.stream, gpu::BinaryOp::kAdd, first.dtype(),
          p.output.device_data(), participants[i].input->device_data(),
          p.output.device_data(), flat));
    }
  }
  return synchronize_all();
}

}  // namespace

NcclManager* NcclManager::Get() {
  static NcclManager* manager = new NcclManager();
  return manager;
}

NcclManager::NcclManager() : watchdog_([this] { Watchdog(); }) {}

int NcclManager::num_pending() const {
  std::lock_guard<std::mutex> lock(mu_);
  return static_cast<int>(pending_.size());
}

// --8<-- [start:add]
void NcclManager::AddToAllReduce(const NcclCollectiveKey& key, int num_devices,
                                 int64_t timeout_ms,
                                 NcclParticipant participant) {
  Status refused;
  Collective complete;
  std::vector<NcclParticipant> failed;
  {
    std::lock_guard<std::mutex> lock(mu_);
    auto [it, is_new] = pending_.try_emplace(key);
    Collective& c = it->second;
    if (is_new) {
      c.num_devices = num_devices;
      c.timeout_ms = timeout_ms;
      c.deadline = DeadlineAfter(std::chrono::steady_clock::now(), timeout_ms);
      deadline_changed_.notify_all();
    } else {
      const NcclParticipant& first = c.participants.front();
      const Tensor& a = *first.input;
      const Tensor& b = *participant.input;
      if (c.num_devices != num_devices) {
        refused = errors::InvalidArgument(
            Describe(key), ": num_devices ", num_devices, " on ",
            participant.device, " but ", c.num_devices, " on ", first.device);
      } else if (a.dtype() != b.dtype() || a.shape() != b.shape()) {
        refused = errors::InvalidArgument(
            Describe(key), ": ", DataTypeString(b.dtype()), " ",
            b.shape().DebugString(), " on ", participant.device, " but ",
            DataTypeString(a.dtype()), " ", a.shape().DebugString(), " on ",
            first.device);
      }
      for (const NcclParticipant& p : c.participants) {
        if (refused.ok() && p.device == participant.device) {
          refused = errors::InvalidArgument(Describe(key),
                                            ": two participants on ", p.device);
        }
      }
    }
    c.participants.push_back(std::move(participant));
    if (!refused.ok()) {
      failed = std::move(c.participants);
      pending_.erase(it);
    } else if (static_cast<int>(c.participants.size()) == c.num_devices) {
      complete = std::move(c);
      pending_.erase(it);
    }
  }
  for (NcclParticipant& p : failed) p.done(refused, Tensor());
  if (!complete.participants.empty()) Run(key, std::move(complete));
}
// --8<-- [end:add]

void NcclManager::Run(const NcclCollectiveKey& key, Collective collective) {
  std::vector<NcclParticipant>& ps = collective.participants;
  const Memory memory = MemoryOf(ps[0]);
  const bool one_kind = std::all_of(
      ps.begin(), ps.end(),
      [&](const NcclParticipant& p) { return MemoryOf(p) == memory; });
  Status status;
  if (!one_kind) {
    status = errors::Unimplemented(
        Describe(key),
        ": mixes GPUs whose memory the CPU cannot read with devices whose "
        "memory it can");
  } else if (memory == Memory::kHost) {
    status = HostSum(ps);
  } else if (memory == Memory::kEmulatedDevice) {
    status = EmulatedDeviceSum(ps);
  } else {
#ifdef MINITF_WITH_CUDA
    status = RunNcclAllReduce(ps);
#else
    status = errors::Unimplemented(
        Describe(key), ": real GPUs need NCCL, and this build has no CUDA");
#endif
  }
  for (NcclParticipant& p : ps) p.done(status, p.output);
}

// --8<-- [start:watchdog]
void NcclManager::Watchdog() {
  std::unique_lock<std::mutex> lock(mu_);
  while (true) {
    const auto now = std::chrono::steady_clock::now();
    std::vector<std::pair<Status, std::vector<NcclParticipant>>> expired;
    auto next = std::chrono::steady_clock::time_point::max();
    for (auto it = pending_.begin(); it != pending_.end();) {
      Collective& c = it->second;
      if (c.deadline > now) {
        next = std::min(next, c.deadline);
        ++it;
        continue;
      }
      std::string arrived;
      for (const NcclParticipant& p : c.participants) {
        arrived += (arrived.empty() ? "" : ", ") + p.device;
      }
      expired.emplace_back(
          errors::DeadlineExceeded(
              Describe(it->first), ": ", c.participants.size(), " of ",
              c.num_devices, " participants arrived within ", c.timeout_ms,
              " ms (", arrived,
              "); the others never ran. Evaluate every output of all_sum in "
              "one run, or raise ConfigProto.operation_timeout_in_ms"),
          std::move(c.participants));
      it = pending_.erase(it);
    }
    if (!expired.empty()) {
      lock.unlock();
      for (auto& [status, participants] : expired) {
        for (NcclParticipant& p : participants) p.done(status, Tensor());
      }
      lock.lock();
      continue;
    }
    if (next == std::chrono::steady_clock::time_point::max()) {
      deadline_changed_.wait(lock);
    } else {
      deadline_changed_.wait_until(lock, next);
    }
  }
}
// --8<-- [end:watchdog]

}  // namespace minitf
