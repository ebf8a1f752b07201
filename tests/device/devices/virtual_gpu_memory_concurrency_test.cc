// Steps that run at once on several virtual GPUs: each kernel's tensors go
// to the memory of its own device, whichever pool thread runs it, since the
// default allocator belongs to a thread and the executor sets it around each
// kernel. Labelled tsan, with the other tests of code that runs on many
// threads.
#include <gtest/gtest.h>

#include <thread>
#include <vector>

#include "device_test_util.h"
#include "minitf/device/session/direct_session.h"
#include "minitf/graph/ops/array_ops.h"
#include "minitf/graph/ops/math_ops.h"
#include "minitf/graph/scope.h"

namespace minitf {
namespace {

class VirtualGpuMemoryConcurrencyTest : public testing::CleanDeviceEnvironment {
};

TEST_F(VirtualGpuMemoryConcurrencyTest, ConcurrentStepsChargeEachGpuItsOwn) {
  constexpr int kThreads = 4;
  constexpr int kSteps = 10;
  auto graph = std::make_shared<Graph>();
  graph_scope use(*graph);
  // Two towers of different sizes, so that a tensor charged to the wrong GPU
  // shows in the largest allocation each one saw.
  std::vector<Output> sums;
  const int64_t sizes[] = {16, 32};
  for (int g = 0; g < 2; ++g) {
    const int64_t n = sizes[g];
    Tensor ones(DT_FLOAT, TensorShape({n, n}));
    ones.flat<float>().setConstant(1.f);
    device_scope on(g == 0 ? "/gpu:0" : "/gpu:1");
    Output x = constant(ones);
    Output y = matmul(x, x);
    sums.push_back(reduce_sum(matmul(y, x)));
  }
  Output total;
  {
    device_scope on("/cpu:0");
    total = add_n(sums);
  }
  SessionOptions options;
  options.config = testing::VirtualGpus(2);
  options.config.inter_op_parallelism_threads = 4;
  auto session = DirectSession::Create(options, graph).value();
  Device* gpus[] = {session->device_mgr().LookupDevice("/gpu:0").value(),
                    session->device_mgr().LookupDevice("/gpu:1").value()};
  Device* cpu = session->device_mgr().LookupDevice("/cpu:0").value();

  // y = x x is n everywhere, y x is n^2, and its sum n^4, per tower.
  const float expected = 16.f * 16.f * 16.f * 16.f + 32.f * 32.f * 32.f * 32.f;
  // A first step makes the kernels, and with them the constants on the
  // GPUs, which stay.
  std::vector<Tensor> first;
  ASSERT_TRUE(session->Run({}, {total.name()}, {}, &first).ok());
  const int64_t kept[] = {gpus[0]->GetAllocatorStats().bytes_in_use,
                          gpus[1]->GetAllocatorStats().bytes_in_use};
  std::vector<std::thread> clients;
  std::vector<int> failures(kThreads, 0);
  for (int t = 0; t < kThreads; ++t) {
    clients.emplace_back([&, t] {
      for (int step = 0; step < kSteps; ++step) {
        std::vector<Tensor> out;
        Status s = session->Run({}, {total.name()}, {}, &out);
        if (!s.ok() || out[0].scalar<float>() != expected) ++failures[t];
      }
    });
  }
  for (std::thread& c : clients) c.join();
  EXPECT_EQ(failures, std::vector<int>(kThreads, 0));
  for (int g = 0; g < 2; ++g) {
    const AllocatorStats s = gpus[g]->GetAllocatorStats();
    // Per step: y, y x and its sum, on this GPU.
    EXPECT_GE(s.num_allocs, 3 * kThreads * kSteps) << g;
    // The largest is one [n,n] float product (and its header), never the
    // other tower's.
    EXPECT_GE(s.max_alloc_size, sizes[g] * sizes[g] * 4) << g;
    EXPECT_LT(s.max_alloc_size, sizes[g] * sizes[g] * 4 + 1024) << g;
    EXPECT_EQ(s.bytes_in_use, kept[g]) << g;
  }
  // The CPU's kernels (add_n) took the CPU's own allocator, uncounted; its
  // device counted only what the GPUs sent it.
  EXPECT_EQ(cpu->GetAllocatorStats().bytes_in_use, 0);
}

}  // namespace
}  // namespace minitf
