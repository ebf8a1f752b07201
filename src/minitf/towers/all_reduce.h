// All-reduce: N tensors on N devices in, their sum on every device out.
//
// Towers compute one gradient each, on their own device; before the
// variables are updated every tower needs the same sum (or mean). An
// all-reduce builds that sum from graph ops placed on the devices, so
// chapter 4's partitioner turns each edge between devices into a _Send and a
// _Recv, and the session's transfer statistics count what crossed.
//
// Two ways, both of which give output i on the device of input i:
// - gather: every tensor goes to one device (the CPU, as TensorFlow's
//   multi-GPU tutorial averages there), AddN sums them, and an Identity on
//   each device takes the sum back. The gathering device receives N·K bytes
//   and sends N·K (K: the bytes of one tensor): its link is the bottleneck,
//   and the traffic grows with N.
// - ring: the devices form a ring, each sending only to the next. Every
//   tensor is split into N chunks; in N−1 scatter-reduce steps each device
//   passes one chunk on and the next adds it to its own, after which device
//   d holds the whole sum of chunk (d+1) mod N; in N−1 all-gather steps the
//   summed chunks go round once more, copied. Each device sends and
//   receives 2(N−1)/N·K bytes, whatever N is (TensorFlow 1.x's contrib
//   build_ring_all_reduce builds the same graph from the same ops).
//
//   std::vector<tf::Output> grads = {g0, g1};        // on /gpu:0 and /gpu:1
//   auto summed = tf::ring_all_reduce(grads);         // summed[i] on /gpu:i
//   auto mean = tf::all_reduce_gather(grads, "/cpu:0", /*mean=*/true);
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "minitf/graph/graph.h"

namespace minitf {

/// The sizes of the chunks a ring all-reduce over `num_devices` devices
/// splits `num_elements` elements into: num_elements / num_devices each, and
/// one more for the first num_elements % num_devices chunks (no padding:
/// chunks may be empty when there are fewer elements than devices).
/// REQUIRES: num_elements >= 0, num_devices >= 1.
std::vector<int64_t> RingChunkSizes(int64_t num_elements, int num_devices);

/// The byte model of the ring: the bytes device `device` sends to the next
/// device (and the next receives) in a ring all-reduce of a tensor of
/// `num_elements` elements of `element_size` bytes over `num_devices`
/// devices. In scatter-reduce, device d sends every chunk but (d+1) mod N,
/// the one it ends up owning; in all-gather, every chunk but (d+2) mod N,
/// the one the next device owns. With chunk sizes s_c (RingChunkSizes) and
/// K = num_elements:
///   sent(d) = (2K − s_{(d+1) mod N} − s_{(d+2) mod N}) · element_size,
/// which is 2(N−1)/N·K·element_size when N divides K.
int64_t RingBytesSent(int64_t num_elements, int64_t element_size,
                      int num_devices, int device);

/// Chunks of a ring all-reduce: chunks[d][c] is chunk c as device d holds it
/// (each a 1-D tensor on device d).
using RingChunks = std::vector<std::vector<Output>>;

// --8<-- [start:ring_steps_decl]
/// One scatter-reduce step, `step` in [0, N−1): device d passes its chunk
/// (d − step) mod N to device d+1 (mod N), where an Add placed on device
/// d+1 adds it to that device's chunk and takes its place in chunks[d+1].
/// `devices[d]` is device d's name. After steps 0..N−2, chunks[d][(d+1) mod
/// N] is the sum of every device's chunk (d+1) mod N.
void RingScatterReduceStep(RingChunks* chunks,
                           const std::vector<std::string>& devices, int step);
/// One all-gather step, `step` in [0, N−1): device d passes its chunk
/// (d + 1 − step) mod N to device d+1, where an Identity on device d+1
/// replaces that device's chunk. After the scatter-reduce steps and steps
/// 0..N−2 of these, every device holds every summed chunk.
void RingAllGatherStep(RingChunks* chunks,
                       const std::vector<std::string>& devices, int step);
// --8<-- [end:ring_steps_decl]

/// The sum (with `mean`, the mean) of `tensors`, gathered on `device`: each
/// tensor goes to `device`, an AddN sums them there (a RealDiv by N makes
/// the mean), and an Identity on the device of tensors[i] is output i.
/// Throws InvalidArgumentError for an empty list, tensors of different
/// dtypes or shapes, a tensor with no device, an empty `device`.
std::vector<Output> all_reduce_gather(const std::vector<Output>& tensors,
                                      const std::string& device,
                                      bool mean = false,
                                      const std::string& name = "");

/// The sum (with `mean`, the mean) of `tensors` by a ring over their
/// devices, in the order given: each tensor is flattened (Reshape) and
/// sliced into RingChunkSizes chunks (Slice), the steps above run N−1 times
/// each, and each device joins its chunks (ConcatV2) and reshapes them back.
/// The mean divides each summed chunk on the device that owns it, before
/// the all-gather. Output i is on the device of tensors[i]. Throws
/// InvalidArgumentError for fewer than two tensors ("input_tensors must be
/// length 2 or longer", TensorFlow's), tensors of different dtypes or
/// shapes or of a shape not fully known, a tensor with no device.
std::vector<Output> ring_all_reduce(const std::vector<Output>& tensors,
                                    bool mean = false,
                                    const std::string& name = "");

}  // namespace minitf
