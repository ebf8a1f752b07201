// nccl_all_sum on the machine's real GPUs, through NCCL (built where CMake
// finds nvcc, label gpu). Every GPU the process sees takes part: with one,
// NCCL's all-reduce over one rank is a copy, which still runs the whole
// path (communicators, group, the compute stream); with several, a sum.
// Without a GPU or its driver the test skips, with CUDA's reason.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "../device/device_test_util.h"
#include "minitf/gpu/kernels/backend.h"
#include "minitf/graph/ops/array_ops.h"
#include "minitf/graph/scope.h"
#include "minitf/graph/session.h"
#include "minitf/towers/nccl_ops.h"

namespace minitf {
namespace {

class NcclOnGpuTest : public testing::CleanDeviceEnvironment {};

TEST_F(NcclOnGpuTest, AllSumOverEveryGpu) {
  StatusOr<int> count = gpu::CudaGpuKernels()->DeviceCount();
  if (!count.ok()) GTEST_SKIP() << "no GPU: " << count.status().message();
  if (*count == 0) GTEST_SKIP() << "no GPU: cudaGetDeviceCount found none";
  const int n = *count;
  Graph graph;
  graph_scope use(graph);
  std::vector<Output> tensors;
  for (int d = 0; d < n; ++d) {
    device_scope on("/gpu:" + std::to_string(d));
    std::vector<float> values(1000);
    for (int i = 0; i < 1000; ++i) values[i] = 100.f * (d + 1) + i;
    tensors.push_back(
        constant(Tensor::FromVector(values, TensorShape({10, 100})).value()));
  }
  const std::vector<Output> summed = nccl_all_sum(tensors);
  Session sess;
  std::vector<Fetch> fetches(summed.begin(), summed.end());
  for (int step = 0; step < 2; ++step) {  // the second reuses the comms
    const std::vector<Tensor> r = sess.run(fetches);
    for (int d = 0; d < n; ++d) {
      const std::vector<float> got = r[d].ToVector<float>();
      for (int i = 0; i < 1000; ++i) {
        ASSERT_EQ(got[i], 50.f * n * (n + 1) + n * i) << "GPU " << d;
      }
    }
  }
}

}  // namespace
}  // namespace minitf
