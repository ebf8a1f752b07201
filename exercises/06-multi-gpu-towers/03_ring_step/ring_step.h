// Exercise 6.3: the function you write (ring_step.cc).
#pragma once

#include <string>
#include <vector>

#include "minitf/towers/all_reduce.h"

namespace minitf::exercises {

/// One scatter-reduce step of a ring all-reduce over N = chunks->size()
/// devices, `step` in [0, N−1): device d passes its chunk (d − step) mod N
/// to device (d + 1) mod N, where an Add placed on that device sums it with
/// that device's own chunk and replaces it in chunks[(d + 1) mod N].
/// chunks[d][c] is chunk c as device d holds it; devices[d] is device d's
/// name. The library's version is RingScatterReduceStep (all_reduce.h).
void ScatterReduceStep(RingChunks* chunks,
                       const std::vector<std::string>& devices, int step);

}  // namespace minitf::exercises
