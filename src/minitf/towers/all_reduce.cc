#include "minitf/towers/all_reduce.h"

#include <string>
#include <vector>

#include "minitf/graph/ops/array_ops.h"
#include "minitf/graph/ops/build.h"
#include "minitf/graph/ops/math_ops.h"
#include "minitf/graph/scope.h"
#include "minitf/tensor/errors.h"

namespace minitf {
namespace {

int Mod(int a, int n) { return ((a % n) + n) % n; }

// The checks both all-reduces share: one dtype, one fully known shape, a
// device on every tensor. Returns the devices, in the tensors' order.
std::vector<std::string> CheckInputs(const std::vector<Output>& tensors,
                                     const char* what) {
  if (tensors.empty()) {
    errors::ThrowIfError(errors::InvalidArgument(
        "Must pass >0 tensors to all reduce operations (", what, ")"));
  }
  std::vector<std::string> devices;
  for (const Output& t : tensors) {
    if (t.dtype() != tensors[0].dtype()) {
      errors::ThrowIfError(errors::InvalidArgument(
          what, ": all tensors must have one dtype, but ", tensors[0].name(),
          " is ", DataTypeString(tensors[0].dtype()), " and ", t.name(), " is ",
          DataTypeString(t.dtype())));
    }
    if (!t.shape().IsFullyDefined()) {
      errors::ThrowIfError(errors::InvalidArgument(
          what, ": tensors must have statically known shape, but ", t.name(),
          " has shape ", t.shape().DebugString()));
    }
    if (t.shape() != tensors[0].shape()) {
      errors::ThrowIfError(errors::InvalidArgument(
          what, ": shapes ", tensors[0].shape().DebugString(), " (",
          tensors[0].name(), ") and ", t.shape().DebugString(), " (", t.name(),
          ") are not compatible"));
    }
    if (t.op().device().empty()) {
      errors::ThrowIfError(errors::InvalidArgument(
          "Device assignment for tensor ", t.name(), " required for ", what,
          ": build it under a tf::device_scope"));
    }
    devices.push_back(t.op().device());
  }
  return devices;
}

// A scalar N of `dtype`, for the mean.
Tensor Count(DType dtype, int n) {
  switch (dtype) {
    case DT_DOUBLE:
      return Tensor(static_cast<double>(n));
    case DT_INT32:
      return Tensor(static_cast<int32_t>(n));
    case DT_INT64:
      return Tensor(static_cast<int64_t>(n));
    default:
      return Tensor(static_cast<float>(n));
  }
}

}  // namespace

std::vector<int64_t> RingChunkSizes(int64_t num_elements, int num_devices) {
  std::vector<int64_t> sizes(num_devices, num_elements / num_devices);
  for (int c = 0; c < num_elements % num_devices; ++c) ++sizes[c];
  return sizes;
}

// --8<-- [start:byte_model]
int64_t RingBytesSent(int64_t num_elements, int64_t element_size,
                      int num_devices, int device) {
  if (num_devices < 2) return 0;
  const std::vector<int64_t> s = RingChunkSizes(num_elements, num_devices);
  return (2 * num_elements - s[Mod(device + 1, num_devices)] -
          s[Mod(device + 2, num_devices)]) *
         element_size;
}
// --8<-- [end:byte_model]

// --8<-- [start:ring_steps]
void RingScatterReduceStep(RingChunks* chunks,
                           const std::vector<std::string>& devices, int step) {
  const int n = static_cast<int>(chunks->size());
  // The chunks device d sends and device d+1 adds to differ from device to
  // device within a step, so updating in place reads no chunk this step
  // has already changed.
  for (int d = 0; d < n; ++d) {
    const int next = Mod(d + 1, n);
    const int c = Mod(d - step, n);
    device_scope on_next(devices[next]);
    (*chunks)[next][c] =
        add((*chunks)[d][c], (*chunks)[next][c],
            "reduce_step" + std::to_string(step) + "_chunk" +
                std::to_string(c) + "_to" + std::to_string(next));
  }
}

void RingAllGatherStep(RingChunks* chunks,
                       const std::vector<std::string>& devices, int step) {
  const int n = static_cast<int>(chunks->size());
  for (int d = 0; d < n; ++d) {
    const int next = Mod(d + 1, n);
    const int c = Mod(d + 1 - step, n);
    device_scope on_next(devices[next]);
    (*chunks)[next][c] = identity(
        (*chunks)[d][c], "gather_step" + std::to_string(step) + "_chunk" +
                             std::to_string(c) + "_to" + std::to_string(next));
  }
}
// --8<-- [end:ring_steps]

// --8<-- [start:gather]
std::vector<Output> all_reduce_gather(const std::vector<Output>& tensors,
                                      const std::string& device, bool mean,
                                      const std::string& name) {
  const std::vector<std::string> devices =
      CheckInputs(tensors, "all_reduce_gather");
  if (device.empty()) {
    errors::ThrowIfError(errors::InvalidArgument(
        "all_reduce_gather: the device to gather on must be named"));
  }
  ops::OpScope scope(name, "all_reduce_gather", tensors);
  Output sum;
  {
    device_scope on_gatherer(device);
    sum = add_n(tensors, "sum");
    if (mean) {
      const int n = static_cast<int>(tensors.size());
      sum = divide(sum, constant(Count(sum.dtype(), n), "count"), "mean");
    }
  }
  std::vector<Output> outputs;
  for (size_t i = 0; i < tensors.size(); ++i) {
    device_scope on_device(devices[i]);
    outputs.push_back(identity(sum, "out_" + std::to_string(i)));
  }
  return outputs;
}
// --8<-- [end:gather]

// --8<-- [start:ring]
std::vector<Output> ring_all_reduce(const std::vector<Output>& tensors,
                                    bool mean, const std::string& name) {
  if (tensors.size() < 2) {
    errors::ThrowIfError(errors::InvalidArgument(
        "input_tensors must be length 2 or longer (ring_all_reduce got ",
        tensors.size(), " tensors: a ring needs two devices)"));
  }
  const std::vector<std::string> devices =
      CheckInputs(tensors, "ring_all_reduce");
  const int n = static_cast<int>(tensors.size());
  const TensorShape& shape = tensors[0].shape();
  const std::vector<int64_t> sizes = RingChunkSizes(shape.num_elements(), n);
  ops::OpScope scope(name, "ring_all_reduce", tensors);

  // Each device flattens its tensor and slices it into the n chunks.
  RingChunks chunks(n);
  for (int d = 0; d < n; ++d) {
    device_scope on_device(devices[d]);
    Output flat = reshape(tensors[d], {-1}, "flat_" + std::to_string(d));
    int64_t begin = 0;
    for (int c = 0; c < n; ++c) {
      chunks[d].push_back(
          slice(flat, {begin}, {sizes[c]},
                "chunk" + std::to_string(c) + "_on" + std::to_string(d)));
      begin += sizes[c];
    }
  }
  for (int step = 0; step < n - 1; ++step) {
    RingScatterReduceStep(&chunks, devices, step);
  }
  // Device d now owns the sum of chunk (d+1) mod n.
  if (mean) {
    for (int d = 0; d < n; ++d) {
      device_scope on_device(devices[d]);
      const int c = Mod(d + 1, n);
      chunks[d][c] = divide(
          chunks[d][c],
          constant(Count(tensors[0].dtype(), n), "count_" + std::to_string(d)),
          "mean_chunk" + std::to_string(c));
    }
  }
  for (int step = 0; step < n - 1; ++step) {
    RingAllGatherStep(&chunks, devices, step);
  }
  std::vector<Output> outputs;
  for (int d = 0; d < n; ++d) {
    device_scope on_device(devices[d]);
    Output joined = concat(chunks[d], 0, "concat_" + std::to_string(d));
    outputs.push_back(
        reshape(joined, shape.dim_sizes(), "out_" + std::to_string(d)));
  }
  return outputs;
}
// --8<-- [end:ring]

}  // namespace minitf
