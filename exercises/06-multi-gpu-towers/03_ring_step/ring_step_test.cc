// Exercise 6.3's test: the learner's scatter-reduce step, run N−1 times on
// N = 2, 3 and 4 virtual GPUs, must leave on each device d the whole sum of
// chunk (d+1) mod N, computed by an add (op AddV2) on that device, with one
// chunk per step crossing from each GPU to the next and nothing else crossing.
#include "ring_step.h"

#include <gtest/gtest.h>

#include <map>
#include <string>
#include <vector>

#include "device_test_util.h"
#include "minitf/device/session/direct_session.h"
#include "minitf/graph/ops/array_ops.h"
#include "minitf/graph/scope.h"
#include "minitf/graph/session.h"

namespace minitf::exercises {
namespace {

class RingStepTest : public testing::CleanDeviceEnvironment,
                     public ::testing::WithParamInterface<int> {};

// Chunk c on device d: two floats, 10·d + c and 100 + 10·d + c.
TEST_P(RingStepTest, EachDeviceEndsWithTheSumOfTheChunkAfterItsOwn) {
  const int n = GetParam();
  Graph graph;
  graph_scope use(graph);
  std::vector<std::string> devices;
  RingChunks chunks(n);
  for (int d = 0; d < n; ++d) {
    devices.push_back("/device:GPU:" + std::to_string(d));
    device_scope on(devices[d]);
    for (int c = 0; c < n; ++c) {
      const float v = 10.f * d + c;
      chunks[d].push_back(constant({v, 100.f + v}, {2}));
    }
  }
  for (int step = 0; step < n - 1; ++step) {
    ScatterReduceStep(&chunks, devices, step);
  }
  std::vector<Fetch> owned;
  for (int d = 0; d < n; ++d) {
    const Output sum = chunks[d][(d + 1) % n];
    EXPECT_EQ(sum.op().type(), "AddV2") << "device " << d;
    EXPECT_EQ(sum.op().device(), devices[d]) << "device " << d;
    owned.push_back(sum);
  }
  Session sess(testing::VirtualGpus(n));
  auto* direct = dynamic_cast<DirectSession*>(sess.core());
  ASSERT_NE(direct, nullptr);
  const std::vector<Tensor> r = sess.run(owned);
  for (int d = 0; d < n; ++d) {
    const int c = (d + 1) % n;
    // sum over devices e of 10·e + c = 5·n·(n−1) + n·c.
    const float sum = 5.f * n * (n - 1) + static_cast<float>(n) * c;
    EXPECT_EQ(r[d].ToVector<float>(),
              (std::vector<float>{sum, 100.f * n + sum}))
        << "chunk " << c << " on device " << d;
  }
  // Each GPU sent N−1 chunks of 8 bytes to the next, and no other GPU.
  for (const auto& [route, record] : direct->GetTransferStats()) {
    if (route.first.find("GPU") == std::string::npos ||
        route.second.find("GPU") == std::string::npos) {
      continue;
    }
    const int from = route.first.back() - '0', to = route.second.back() - '0';
    EXPECT_EQ(to, (from + 1) % n) << route.first << " -> " << route.second;
    EXPECT_EQ(record.bytes_copied, 8 * (n - 1)) << route.first;
  }
}

INSTANTIATE_TEST_SUITE_P(Gpus, RingStepTest, ::testing::Values(2, 3, 4));

}  // namespace
}  // namespace minitf::exercises
