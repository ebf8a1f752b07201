// The kernels virtual GPUs borrow from the CPU.
#include <gtest/gtest.h>

#include <set>
#include <string>
#include <vector>

#include "minitf/graph/kernel.h"
#include "minitf/graph/op_def.h"
#include "minitf/graph/ops/array_ops.h"
#include "minitf/graph/ops/math_ops.h"
#include "minitf/graph/scope.h"

namespace minitf {
namespace {

// The ops TensorFlow runs on the CPU only; and _FusedMatMul, which
// TensorFlow also runs on GPUs but whose only kernel here is the CPU's, so
// the remapper (graph_rewrite.h) leaves a GPU's layers unfused.
const std::set<std::string> kCpuOnly = {"ScalarSummary", "HistogramSummary",
                                        "MergeSummary", "_FusedMatMul"};

// A new op with a CPU kernel must be decided on: given a GPU alias in
// virtual_gpu_kernels.cc, or listed here as CPU-only.
TEST(VirtualGpuKernelsTest, EveryCpuKernelIsAliasedOrKnownCpuOnly) {
  const KernelRegistry* registry = KernelRegistry::Global();
  int aliased = 0;
  for (const std::string& op : OpRegistry::Global()->ListOps()) {
    if (!registry->HasKernel(op, DEVICE_CPU)) continue;
    if (kCpuOnly.count(op) != 0) {
      EXPECT_FALSE(registry->HasKernel(op, DEVICE_GPU)) << op;
    } else {
      EXPECT_TRUE(registry->HasKernel(op, DEVICE_GPU)) << op;
      ++aliased;
    }
  }
  EXPECT_GT(aliased, 70);
  EXPECT_EQ(registry->DeviceTypesFor("MatMul"),
            (std::vector<std::string>{"CPU", "GPU"}));
  EXPECT_EQ(registry->DeviceTypesFor("ScalarSummary"),
            (std::vector<std::string>{"CPU"}));
}

TEST(VirtualGpuKernelsTest, AGpuMatMulRunsTheCpuKernel) {
  Graph g;
  graph_scope use(g);
  Output a = constant({1.f, 2.f, 3.f, 4.f, 5.f, 6.f}, {2, 3}, "a");
  Output b = constant({1.f, 2.f, 3.f, 4.f, 5.f, 6.f}, {3, 2}, "b");
  Output c = matmul(a, b);
  auto kernel = KernelRegistry::Global()->CreateKernel(*c.node(), DEVICE_GPU);
  ASSERT_TRUE(kernel.ok()) << kernel.status();
  const Tensor x = a.node()->attrs().find("value")->second.get<Tensor>();
  const Tensor y = b.node()->attrs().find("value")->second.get<Tensor>();
  const Tensor* inputs[] = {&x, &y};
  Tensor output;
  OpKernelContext::Params params;
  params.inputs = inputs;
  params.num_inputs = 2;
  params.outputs = &output;
  params.num_outputs = 1;
  params.allocator = cpu_allocator();
  OpKernelContext ctx(params);
  ASSERT_TRUE(kernel.value()->Compute(&ctx).ok());
  EXPECT_EQ(output.ToString(), "[[22. 28.]\n [49. 64.]]");
}

TEST(VirtualGpuKernelsTest, AnInt32MatMulHasNoGpuKernel) {
  Graph g;
  graph_scope use(g);
  Output i = constant({1, 2, 3, 4}, {2, 2}, "i");
  Output c = matmul(i, i);
  EXPECT_FALSE(KernelRegistry::Global()->HasKernelForNode(*c.node(), "GPU"));
  auto kernel = KernelRegistry::Global()->CreateKernel(*c.node(), DEVICE_GPU);
  EXPECT_EQ(kernel.status().ToString(),
            "Not found: No registered 'MatMul' OpKernel for GPU devices "
            "compatible with "
            "node {{node MatMul}}\n\t (OpKernel was found, but attributes "
            "didn't match) Requested Attributes: T=DT_INT32");
}

}  // namespace
}  // namespace minitf
