// The GPU device of layer 5 on the emulator: emulated GPUs (virtual GPUs
// whose kernels are CUDA kernels on the CPU emulator), their streams and
// the order of copies and kernels, and how a session runs on them.
#include "minitf/gpu/gpu_device.h"

#include <gtest/gtest.h>

#include <chrono>
#include <string>
#include <thread>
#include <vector>

#include "device_memory_gpus.h"
#include "device_test_util.h"
#include "minitf/device/devices/device_lib.h"
#include "minitf/device/devices/virtual_gpu_device.h"
#include "minitf/device/session/direct_session.h"
#include "minitf/gpu/emulator/cuda.h"
#include "minitf/gpu/gpu_allocator.h"
#include "minitf/graph/node_builder.h"
#include "minitf/graph/ops/array_ops.h"
#include "minitf/graph/ops/build.h"
#include "minitf/graph/ops/math_ops.h"
#include "minitf/graph/ops/nn_ops.h"
#include "minitf/graph/ops/random_ops.h"
#include "minitf/graph/scope.h"
#include "minitf/train/api.h"
#include "minitf/train/ops/grad_ops.h"

namespace minitf::gpu {
namespace {

using minitf::gpu::testing::GpusWithDeviceMemory;
using minitf::gpu::testing::ScopedGpuPlatform;
using minitf::testing::CleanDeviceEnvironment;
using minitf::testing::ScopedEnv;

ConfigProto EmulatedGpus(int n, int64_t limit_mb = 64) {
  ConfigProto config = minitf::testing::VirtualGpus(n, limit_mb);
  config.gpu_options.emulate_gpu_kernels = true;
  return config;
}

class EmulatedGpuTest : public CleanDeviceEnvironment {};

TEST_F(EmulatedGpuTest, DeviceLibSaysTheGpuIsEmulated) {
  auto mgr = minitf::testing::MakeDevices(EmulatedGpus(2));
  ASSERT_NE(mgr, nullptr);
  ASSERT_EQ(mgr->ListDevices().size(), 3u);
  for (int i = 0; i < 2; ++i) {
    Device* gpu = mgr->ListDevices()[1 + i];
    EXPECT_EQ(gpu->device_type(), "GPU");
    EXPECT_NE(dynamic_cast<GpuDevice*>(gpu), nullptr);
    EXPECT_EQ(gpu->attributes().physical_device_desc,
              "device: " + std::to_string(i) +
                  ", name: minitf CUDA emulator (CPU), pci bus id: emulated, "
                  "compute capability: 8.0");
    EXPECT_EQ(gpu->allocator()->Name(), "GPU_" + std::to_string(i) + "_bfc");
  }
}

TEST_F(EmulatedGpuTest, WithoutEmulationTheGpuKernelsRunTheCpuKernels) {
  auto graph = std::make_shared<Graph>();
  graph_scope use(*graph);
  Output y;
  {
    device_scope on("/gpu:0");
    y = add(constant(Tensor(2.f), "x"), constant(Tensor(3.f), "z"), "y");
  }
  SessionOptions options;
  options.config = minitf::testing::VirtualGpus(1);
  auto session = DirectSession::Create(options, graph);
  ASSERT_TRUE(session.ok()) << session.status();
  std::vector<Tensor> out;
  const long long launched = emulator::launched_kernel_count();
  ASSERT_TRUE(session.value()->Run({}, {y.name()}, {}, &out).ok());
  EXPECT_EQ(out[0].flat<float>()(0), 5.f);
  EXPECT_EQ(emulator::launched_kernel_count(), launched);
}

TEST_F(EmulatedGpuTest, ChapterFoursVirtualGpusStayAsTheyWere) {
  auto mgr = minitf::testing::MakeDevices(minitf::testing::VirtualGpus(1));
  ASSERT_NE(mgr, nullptr);
  Device* gpu = mgr->ListDevices()[1];
  EXPECT_EQ(dynamic_cast<GpuDevice*>(gpu), nullptr);
  EXPECT_EQ(gpu->attributes().physical_device_desc,
            "device: 0, name: minitf virtual GPU (CPU memory), pci bus id: "
            "virtual");
}

TEST_F(EmulatedGpuTest, TheEnvironmentVariableAsksForEmulation) {
  ScopedEnv emulate("MINITF_EMULATE_GPU_KERNELS", "1");
  auto mgr = minitf::testing::MakeDevices(minitf::testing::VirtualGpus(1));
  ASSERT_NE(mgr, nullptr);
  EXPECT_NE(dynamic_cast<GpuDevice*>(mgr->ListDevices()[1]), nullptr);
}

TEST_F(EmulatedGpuTest, ABadEnvironmentValueIsInvalidArgument) {
  ScopedEnv emulate("MINITF_EMULATE_GPU_KERNELS", "yes");
  SessionOptions options;
  options.config = minitf::testing::VirtualGpus(1);
  EXPECT_EQ(DeviceMgr::Create(options).status().ToString(),
            "Invalid argument: MINITF_EMULATE_GPU_KERNELS must be 1 (emulated "
            "GPU kernels) or 0 (the CPU's), got 'yes'");
}

TEST_F(EmulatedGpuTest, VisibleDeviceListSelectsAmongEmulatedGpus) {
  ConfigProto config = EmulatedGpus(3);
  config.gpu_options.visible_device_list = "2,0";
  auto mgr = minitf::testing::MakeDevices(config);
  ASSERT_NE(mgr, nullptr);
  ASSERT_EQ(mgr->ListDevices().size(), 3u);
  EXPECT_EQ(
      mgr->ListDevices()[1]->attributes().physical_device_desc.substr(0, 9),
      "device: 2");
  config.gpu_options.visible_device_list = "0,0";
  SessionOptions options;
  options.config = config;
  EXPECT_EQ(DeviceMgr::Create(options).status().ToString(),
            "Invalid argument: visible_device_list contained a duplicate "
            "entry: 0,0");
}

// A kernel that takes its time before it writes: if a copy out of the GPU
// did not wait for it, the copy would read the old values.
__global__ void slow_fill(float* out, int n, float value) {
  std::this_thread::sleep_for(std::chrono::milliseconds(20));
  for (int i = 0; i < n; ++i) out[i] = value;
}

TEST(GpuDeviceContextTest, ACopyOutWaitsForTheKernelsBeforeIt) {
  std::unique_ptr<StreamExecutor> executor = NewEmulatedStreamExecutor();
  auto context = GpuDeviceContext::Create(executor.get(),
                                          /*synchronous=*/false);
  ASSERT_TRUE(context.ok()) << context.status();
  Tensor on_gpu(DT_FLOAT, TensorShape({8}));
  for (int i = 0; i < 8; ++i) on_gpu.flat<float>()(i) = 0.f;
  MINITF_LAUNCH(slow_fill, 1, 1, 0,
                static_cast<cudaStream_t>(context.value()->compute().stream),
                on_gpu.flat<float>().data(), 8, 42.f);
  Tensor on_host(DT_FLOAT, TensorShape({8}));
  Status copied = errors::Unknown("not called");
  context.value()->CopyDeviceTensorToCPU(&on_gpu, "x:0", nullptr, &on_host,
                                         [&](const Status& s) { copied = s; });
  ASSERT_TRUE(copied.ok()) << copied;
  for (int i = 0; i < 8; ++i) EXPECT_EQ(on_host.flat<float>()(i), 42.f) << i;
}

// A kernel that reads what a copy into the GPU wrote.
__global__ void double_into(const float* in, float* out, int n) {
  for (int i = 0; i < n; ++i) out[i] = 2 * in[i];
}

TEST(GpuDeviceContextTest, AKernelAfterACopyInReadsTheCopy) {
  std::unique_ptr<StreamExecutor> executor = NewEmulatedStreamExecutor();
  auto context = GpuDeviceContext::Create(executor.get(),
                                          /*synchronous=*/false);
  ASSERT_TRUE(context.ok()) << context.status();
  Tensor on_host(DT_FLOAT, TensorShape({4}));
  for (int i = 0; i < 4; ++i) on_host.flat<float>()(i) = float(i + 1);
  Tensor on_gpu(DT_FLOAT, TensorShape({4}));
  Status copied = errors::Unknown("not called");
  context.value()->CopyCPUTensorToDevice(&on_host, nullptr, &on_gpu,
                                         [&](const Status& s) { copied = s; });
  ASSERT_TRUE(copied.ok()) << copied;
  Tensor doubled(DT_FLOAT, TensorShape({4}));
  const GpuStream compute = context.value()->compute().stream;
  MINITF_LAUNCH(double_into, 1, 1, 0, static_cast<cudaStream_t>(compute),
                on_gpu.flat<float>().data(), doubled.flat<float>().data(), 4);
  ASSERT_TRUE(executor->SynchronizeStream(compute).ok());
  for (int i = 0; i < 4; ++i) {
    EXPECT_EQ(doubled.flat<float>()(i), 2.f * (i + 1));
  }
}

TEST(GpuDeviceContextTest, ACopyOfTheWrongSizeIsInternal) {
  std::unique_ptr<StreamExecutor> executor = NewEmulatedStreamExecutor();
  auto context = GpuDeviceContext::Create(executor.get(), true);
  ASSERT_TRUE(context.ok());
  Tensor a(DT_FLOAT, TensorShape({4})), b(DT_FLOAT, TensorShape({5}));
  Status copied;
  context.value()->CopyCPUTensorToDevice(&a, nullptr, &b,
                                         [&](const Status& s) { copied = s; });
  EXPECT_EQ(copied.ToString(),
            "Internal: Cannot copy a tensor of type float and shape [4] into "
            "one of type float and shape [5]");
}

// y = x w + b, fetched from an emulated GPU, is what the CPU computes.
TEST_F(EmulatedGpuTest, ASessionRunsTheGraphOnTheEmulatedGpu) {
  auto graph = std::make_shared<Graph>();
  graph_scope use(*graph);
  Output x = constant(
      Tensor::FromVector<float>({1, 2, 3, 4, 5, 6}, {2, 3}).value(), "x");
  Output y;
  {
    device_scope on("/gpu:0");
    Output w = constant(
        Tensor::FromVector<float>({1, 0, 0, 1, 1, 1}, {3, 2}).value(), "w");
    Output b = constant(Tensor::FromVector<float>({10, 20}, {2}).value(), "b");
    y = add(matmul(x, w), b, "y");
  }
  SessionOptions options;
  options.config = EmulatedGpus(1);
  auto session = DirectSession::Create(options, graph);
  ASSERT_TRUE(session.ok()) << session.status();
  std::vector<Tensor> out;
  const long long launched = emulator::launched_kernel_count();
  Status s = session.value()->Run({}, {y.name()}, {}, &out);
  ASSERT_TRUE(s.ok()) << s;
  // MatMul and Add ran as CUDA kernels on the emulator.
  EXPECT_GE(emulator::launched_kernel_count() - launched, 2);
  ASSERT_EQ(out[0].shape(), TensorShape({2, 2}));
  EXPECT_EQ(out[0].flat<float>()(0), 14.f);
  EXPECT_EQ(out[0].flat<float>()(1), 25.f);
  EXPECT_EQ(out[0].flat<float>()(2), 20.f);
  EXPECT_EQ(out[0].flat<float>()(3), 31.f);
}

// An update on an emulated GPU is a CUDA kernel there: w -= 0.5 * delta.
TEST_F(EmulatedGpuTest, TheOptimizersUpdateRunsAsAGpuKernel) {
  reset_default_graph();
  Variable w;
  Output update;
  {
    device_scope on("/gpu:0");
    w = Variable(Tensor::FromVector<float>({2, -4}, {2}).value(), "w");
    update = apply_gradient_descent(
        w.ref(), constant(Tensor(0.5f), "alpha"),
        constant(Tensor::FromVector<float>({2, -4}, {2}).value(), "delta"));
  }
  Session sess(EmulatedGpus(1));
  sess.run(global_variables_initializer());
  const long long launched = emulator::launched_kernel_count();
  sess.run(update.op());
  EXPECT_EQ(emulator::launched_kernel_count() - launched, 1);
  const Tensor value = sess.run(w);
  EXPECT_EQ(value.flat<float>()(0), 1.f);
  EXPECT_EQ(value.flat<float>()(1), -2.f);
}

// A GPU the session does not have is chapter 4's placement error, whatever
// kernels the GPUs run.
TEST_F(EmulatedGpuTest, AGpuThatDoesNotExistIsAPlacementError) {
  auto graph = std::make_shared<Graph>();
  graph_scope use(*graph);
  Output y;
  {
    device_scope on("/gpu:3");
    y = add(constant(Tensor(2.f), "x"), constant(Tensor(3.f), "z"), "y");
  }
  SessionOptions options;
  options.config = EmulatedGpus(1);
  auto session = DirectSession::Create(options, graph);
  ASSERT_TRUE(session.ok()) << session.status();
  std::vector<Tensor> out;
  const Status s = session.value()->Run({}, {y.name()}, {}, &out);
  EXPECT_EQ(s.code(), error::INVALID_ARGUMENT) << s;
  EXPECT_NE(s.message().find("Could not satisfy explicit device specification "
                             "'/gpu:3'"),
            std::string::npos)
      << s;
}

// On a GPU whose memory the CPU cannot read, an op without a GPU kernel
// whose CPU kernel reads its float input there (AddN) is refused with a
// typed error naming the op.
TEST_F(EmulatedGpuTest, AGpuWithDeviceMemoryRefusesACpuKernelThatReadsIt) {
  GpusWithDeviceMemory platform(1);
  ScopedGpuPlatform use_platform(&platform);
  auto graph = std::make_shared<Graph>();
  graph_scope use(*graph);
  Output y;
  {
    device_scope on("/gpu:0");
    Output x =
        constant(Tensor::FromVector<float>({1, 2, 3, 4}, {2, 2}).value(), "x");
    y = add_n({x, x}, "y");
  }
  auto session = DirectSession::Create(SessionOptions{}, graph);
  Status s = session.status();
  std::vector<Tensor> out;
  if (s.ok()) s = session.value()->Run({}, {y.name()}, {}, &out);
  EXPECT_EQ(s.code(), error::UNIMPLEMENTED) << s;
  EXPECT_NE(s.message().find(
                "No GPU kernel for 'AddN' (node y) on "
                "/job:localhost/replica:0/task:0/device:GPU:0: minitf runs "
                "this op there with the CPU's kernel, which needs memory the "
                "CPU can read, as virtual and emulated GPUs have"),
            std::string::npos)
      << s;
}

// The bytes copied from devices whose names contain `from` to devices whose
// names contain `to`, as the session counted them.
int64_t BytesCopied(const DirectSession& session, const std::string& from,
                    const std::string& to) {
  int64_t bytes = 0;
  for (const auto& [route, record] : session.GetTransferStats()) {
    if (route.first.find(from) != std::string::npos &&
        route.second.find(to) != std::string::npos) {
      bytes += record.bytes_copied;
    }
  }
  return bytes;
}

// An int32 crosses between the CPU and a GPU whose memory the CPU cannot
// read without a copy: the GPU keeps it in host memory, where it arrives
// (the fed shape) and where the GPU's Shape makes it (the fetched shape).
TEST_F(EmulatedGpuTest, Int32CrossesToAndFromAGpuWithDeviceMemoryUncopied) {
  GpusWithDeviceMemory platform(1);
  ScopedGpuPlatform use_platform(&platform);
  auto graph = std::make_shared<Graph>();
  graph_scope use(*graph);
  Output dims, y, s;
  {
    device_scope on_cpu("/cpu:0");
    dims = placeholder(DT_INT32, {2}, "dims");
  }
  {
    device_scope on_gpu("/gpu:0");
    y = broadcast_to(
        constant(Tensor::FromVector<float>({1, 2, 3}, {3}).value(), "x"), dims,
        "y");
    s = shape(y, "s");
  }
  auto session = DirectSession::Create(SessionOptions{}, graph);
  ASSERT_TRUE(session.ok()) << session.status();
  std::vector<Tensor> out;
  Status status = session.value()->Run(
      {{"dims:0", Tensor::FromVector<int32_t>({2, 3}, {2}).value()}},
      {y.name(), s.name()}, {}, &out);
  ASSERT_TRUE(status.ok()) << status;
  EXPECT_EQ(out[0].shape(), TensorShape({2, 3}));
  EXPECT_EQ(out[0].flat<float>()(5), 3.f);
  EXPECT_EQ(out[1].flat<int32_t>()(0), 2);
  EXPECT_EQ(out[1].flat<int32_t>()(1), 3);
  // Only y's 6 floats were copied: neither int32 crossed by a copy.
  EXPECT_EQ(BytesCopied(*session.value(), "CPU:0", "GPU:0"), 0);
  EXPECT_EQ(BytesCopied(*session.value(), "GPU:0", "CPU:0"), 6 * 4);
}

// Fill's value lies in the GPU's memory there (a Const copied in); the
// kernel copies the scalar out before it launches.
TEST_F(EmulatedGpuTest, FillReadsItsValueFromTheGpusMemory) {
  GpusWithDeviceMemory platform(1);
  ScopedGpuPlatform use_platform(&platform);
  auto graph = std::make_shared<Graph>();
  graph_scope use(*graph);
  Output y;
  {
    device_scope on_gpu("/gpu:0");
    y = fill({2, 2}, Tensor(2.5f), "y");
  }
  auto session = DirectSession::Create(SessionOptions{}, graph);
  ASSERT_TRUE(session.ok()) << session.status();
  std::vector<Tensor> out;
  Status status = session.value()->Run({}, {y.name()}, {}, &out);
  ASSERT_TRUE(status.ok()) << status;
  for (int i = 0; i < 4; ++i) EXPECT_EQ(out[0].flat<float>()(i), 2.5f);
}

// A GPU kernel whose data is int32 but whose input lies in the GPU's memory
// (a Cast from float to int32) cannot keep its output on the host: a typed
// error naming the op and why.
TEST_F(EmulatedGpuTest, AnInt32OutputFromDeviceMemoryIsUnimplemented) {
  GpusWithDeviceMemory platform(1);
  ScopedGpuPlatform use_platform(&platform);
  auto graph = std::make_shared<Graph>();
  graph_scope use(*graph);
  Output y;
  {
    device_scope on_gpu("/gpu:0");
    y = cast(constant(Tensor(2.f), "x"), DT_INT32, "y");
  }
  auto session = DirectSession::Create(SessionOptions{}, graph);
  ASSERT_TRUE(session.ok()) << session.status();
  std::vector<Tensor> out;
  Status status = session.value()->Run({}, {y.name()}, {}, &out);
  EXPECT_EQ(status.code(), error::UNIMPLEMENTED) << status;
  EXPECT_NE(status.message().find(
                "No GPU kernel for 'Cast' (node y) with int32 data and inputs "
                "in the GPU's memory: minitf keeps a GPU's int32 tensors in "
                "host memory, as TensorFlow does"),
            std::string::npos)
      << status;
}

// An index input that is int64 lies in the GPU's memory there (only int32
// is kept on the host): the kernel cannot read it, and says so instead of
// touching memory the CPU cannot read.
TEST_F(EmulatedGpuTest, AnInt64IndexInDeviceMemoryIsUnimplemented) {
  GpusWithDeviceMemory platform(1);
  ScopedGpuPlatform use_platform(&platform);
  auto graph = std::make_shared<Graph>();
  graph_scope use(*graph);
  Output y;
  {
    device_scope on_gpu("/gpu:0");
    Output a = constant(Tensor::FromVector<float>({1, 2}, {2}).value(), "a");
    Output axis = constant(Tensor(int64_t{0}), "axis");
    y = ops::AddOp(NodeBuilder("ConcatV2", "y").Input({a, a}).Input(axis),
                   {a, axis});
  }
  auto session = DirectSession::Create(SessionOptions{}, graph);
  ASSERT_TRUE(session.ok()) << session.status();
  std::vector<Tensor> out;
  Status status = session.value()->Run({}, {y.name()}, {}, &out);
  EXPECT_EQ(status.code(), error::UNIMPLEMENTED) << status;
  EXPECT_NE(status.message().find(
                "axis is an int64 tensor in the memory of a GPU that the "
                "host cannot read; minitf keeps a GPU's int32 tensors in host "
                "memory, as TensorFlow does, and reads index inputs there: "
                "give it as int32"),
            std::string::npos)
      << status;
}

// Seed 002's model (or chapter 3's MLP) and its training step on `device`.
struct Model {
  Output x, y_, loss, accuracy;
  Variable W;
  Operation train_step;

  Model(const std::string& device, bool mlp) {
    device_scope on(device);
    x = placeholder(DT_FLOAT, {-1, 6}, "x");
    y_ = placeholder(DT_FLOAT, {-1, 3}, "y_");
    if (!mlp) {
      W = Variable(zeros({6, 3}), "W");
      Variable b(zeros({3}), "b");
      Output y = nn::softmax(matmul(x, W) + b);
      loss = reduce_mean(-reduce_sum(y_ * log(y), /*reduction_indices=*/{1}));
      train_step = train::GradientDescentOptimizer(0.5f).minimize(loss);
      accuracy =
          reduce_mean(cast(equal(argmax(y, 1), argmax(y_, 1)), DT_FLOAT));
    } else {
      set_random_seed(1);
      W = Variable(truncated_normal({6, 5}, 0.0, 0.5), "W1");
      Variable b1(zeros({5}), "b1");
      Variable W2(truncated_normal({5, 3}, 0.0, 0.5), "W2");
      Variable b2(zeros({3}), "b2");
      Output hidden = nn::relu(matmul(x, W) + b1);
      Output logits = matmul(hidden, W2) + b2;
      loss = reduce_mean(nn::softmax_cross_entropy_with_logits(y_, logits));
      train_step = train::AdamOptimizer(0.05).minimize(loss);
      accuracy =
          reduce_mean(cast(equal(argmax(logits, 1), argmax(y_, 1)), DT_FLOAT));
    }
  }
};

// A batch of 8 examples of 6 features and 3 classes, different every step.
std::pair<Tensor, Tensor> Batch(int step) {
  std::vector<float> xs(8 * 6), ys(8 * 3, 0.f);
  for (int i = 0; i < 8; ++i) {
    const int label = (i + step) % 3;
    ys[i * 3 + label] = 1.f;
    for (int j = 0; j < 6; ++j) {
      xs[i * 6 + j] = 0.1f * ((i * 7 + j * 3 + step) % 11) + (j == label);
    }
  }
  return {Tensor::FromVector<float>(xs, {8, 6}).value(),
          Tensor::FromVector<float>(ys, {8, 3}).value()};
}

// What six training steps give: losses, accuracies, the first weights, and
// the bytes that crossed into the GPU in the last step.
struct Trajectory {
  std::vector<float> losses, accuracies;
  Tensor weights;
  int64_t bytes_into_gpu_last_step = 0;
};

// Trains the model on /cpu:0 or on the one GPU of a GpuPlatform whose
// memory the CPU may not read.
Trajectory Train(bool on_gpu, bool mlp) {
  GpusWithDeviceMemory platform(1);
  ScopedGpuPlatform use_platform(&platform);
  reset_default_graph();
  Model model(on_gpu ? "/gpu:0" : "/cpu:0", mlp);
  Session sess;
  auto* direct = dynamic_cast<DirectSession*>(sess.core());
  EXPECT_NE(direct, nullptr);
  auto bytes_into_gpu = [&] { return BytesCopied(*direct, "", "GPU:0"); };
  sess.run(global_variables_initializer());
  Trajectory t;
  for (int step = 0; step < 6; ++step) {
    auto [xs, ys] = Batch(step);
    const int64_t before = bytes_into_gpu();
    auto r = sess.run({model.loss, model.accuracy},
                      {{model.x, xs}, {model.y_, ys}}, {model.train_step});
    t.losses.push_back(r[0].scalar<float>());
    t.accuracies.push_back(r[1].scalar<float>());
    t.bytes_into_gpu_last_step = bytes_into_gpu() - before;
  }
  t.weights = sess.run(model.W);
  return t;
}

void ExpectSameTraining(const Trajectory& gpu, const Trajectory& cpu) {
  ASSERT_EQ(gpu.losses.size(), cpu.losses.size());
  for (size_t step = 0; step < cpu.losses.size(); ++step) {
    EXPECT_NEAR(gpu.losses[step], cpu.losses[step], 1e-5) << "step " << step;
    EXPECT_EQ(gpu.accuracies[step], cpu.accuracies[step]) << "step " << step;
  }
  EXPECT_LT(gpu.losses.back(), gpu.losses.front());
  ASSERT_EQ(gpu.weights.shape(), cpu.weights.shape());
  for (int64_t i = 0; i < cpu.weights.NumElements(); ++i) {
    EXPECT_NEAR(gpu.weights.flat<float>()(i), cpu.weights.flat<float>()(i),
                1e-5);
  }
  // What crossed into the GPU in a step: the two feeds, and nothing else.
  EXPECT_EQ(gpu.bytes_into_gpu_last_step, (8 * 6 + 8 * 3) * 4);
}

// Seed 002 trains on a GPU whose memory the CPU cannot read as it does on
// the CPU: the GPU kernels read device memory, the kernels borrowed from
// the CPU touch only host memory (shapes, sizes and axes, which are int32
// and stay on the host, as TensorFlow keeps them) or no data at all, and
// what crosses into the GPU in a step is the two feeds and nothing else.
TEST_F(EmulatedGpuTest, SeedSoftmaxRegressionTrainsOnAGpuWithDeviceMemory) {
  ExpectSameTraining(Train(/*on_gpu=*/true, /*mlp=*/false),
                     Train(/*on_gpu=*/false, /*mlp=*/false));
}

// So does chapter 3's MLP: random initial values (made on the host, copied
// in once), ReLU, the fused cross-entropy and Adam's slots.
TEST_F(EmulatedGpuTest, ChapterThreesMlpTrainsOnAGpuWithDeviceMemory) {
  ExpectSameTraining(Train(/*on_gpu=*/true, /*mlp=*/true),
                     Train(/*on_gpu=*/false, /*mlp=*/true));
}

}  // namespace
}  // namespace minitf::gpu
