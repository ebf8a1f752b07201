#include "minitf/towers/nccl_communicators.h"

#include <cuda_runtime.h>
#include <nccl.h>

#include <map>
#include <mutex>
#include <string>

#include "minitf/gpu/gpu_device.h"
#include "minitf/tensor/errors.h"

namespace minitf {
namespace {

Status FromNccl(ncclResult_t result, const char* call) {
  if (result == ncclSuccess) return Status::OK();
  return errors::Internal(call, " failed: ", ncclGetErrorString(result));
}

Status FromCuda(cudaError_t result, const char* call) {
  if (result == cudaSuccess) return Status::OK();
  return errors::Internal(call, " failed: ", cudaGetErrorName(result), ": ",
                          cudaGetErrorString(result));
}

StatusOr<ncclDataType_t> NcclType(DType dtype) {
  switch (dtype) {
    case DT_FLOAT:
      return ncclFloat32;
    case DT_DOUBLE:
      return ncclFloat64;
    case DT_INT32:
      return ncclInt32;
    case DT_INT64:
      return ncclInt64;
    default:
      return errors::Unimplemented("NcclAllReduce of ", DataTypeString(dtype),
                                   " is not supported");
  }
}

// The CUDA ordinal of a participant's GPU, found by its PCI bus id, which
// its StreamExecutor reports (the device name's index is TensorFlow's,
// renumbered by visible_device_list, not CUDA's).
StatusOr<int> Ordinal(const NcclParticipant& p) {
  TF_ASSIGN_OR_RETURN(gpu::GpuDescription d, p.gpu->executor()->Describe());
  int ordinal = -1;
  TF_RETURN_IF_ERROR(
      FromCuda(cudaDeviceGetByPCIBusId(&ordinal, d.pci_bus_id.c_str()),
               "cudaDeviceGetByPCIBusId"));
  return ordinal;
}

// --8<-- [start:communicators]
// Communicators by the CUDA ordinals of their GPUs, in participant order;
// made once per set and kept for the process's lifetime.
StatusOr<std::vector<ncclComm_t>> Communicators(const std::vector<int>& gpus) {
  static std::mutex mu;
  static auto* cache = new std::map<std::vector<int>, std::vector<ncclComm_t>>;
  std::lock_guard<std::mutex> lock(mu);
  auto it = cache->find(gpus);
  if (it != cache->end()) return it->second;
  std::vector<ncclComm_t> comms(gpus.size());
  TF_RETURN_IF_ERROR(FromNccl(
      ncclCommInitAll(comms.data(), static_cast<int>(gpus.size()), gpus.data()),
      "ncclCommInitAll"));
  return cache->emplace(gpus, comms).first->second;
}
// --8<-- [end:communicators]

}  // namespace

// --8<-- [start:nccl_all_reduce]
Status RunNcclAllReduce(std::vector<NcclParticipant>& participants) {
  std::vector<int> gpus;
  for (const NcclParticipant& p : participants) {
    TF_ASSIGN_OR_RETURN(int ordinal, Ordinal(p));
    gpus.push_back(ordinal);
  }
  TF_ASSIGN_OR_RETURN(std::vector<ncclComm_t> comms, Communicators(gpus));
  const Tensor& first = *participants[0].input;
  TF_ASSIGN_OR_RETURN(ncclDataType_t type, NcclType(first.dtype()));
  TF_RETURN_IF_ERROR(FromNccl(ncclGroupStart(), "ncclGroupStart"));
  Status status;
  for (size_t i = 0; i < participants.size() && status.ok(); ++i) {
    NcclParticipant& p = participants[i];
    status = FromNccl(
        ncclAllReduce(p.input->device_data(), p.output.device_data(),
                      static_cast<size_t>(first.NumElements()), type, ncclSum,
                      comms[i],
                      static_cast<cudaStream_t>(p.gpu->compute().stream)),
        "ncclAllReduce");
  }
  // The group is closed even after an error, or NCCL stays inside it.
  Status ended = FromNccl(ncclGroupEnd(), "ncclGroupEnd");
  return status.ok() ? ended : status;
}
// --8<-- [end:nccl_all_reduce]

}  // namespace minitf
