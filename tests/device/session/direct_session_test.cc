#include "minitf/device/session/direct_session.h"

#include <gtest/gtest.h>

#include <chrono>
#include <cstring>
#include <limits>
#include <map>
#include <set>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "device_test_util.h"
#include "executor/executor_test_ops.h"
#include "minitf/device/session/step_stats_collector.h"
#include "minitf/device/session/timeline.h"
#include "minitf/graph/local_session.h"
#include "minitf/graph/ops/array_ops.h"
#include "minitf/graph/ops/math_ops.h"
#include "minitf/graph/ops/nn_ops.h"
#include "minitf/graph/ops/random_ops.h"
#include "minitf/graph/run_metadata.h"
#include "minitf/graph/scope.h"
#include "minitf/train/optimizers/gradient_descent.h"
#include "minitf/train/variables.h"

namespace minitf {
namespace {

constexpr const char* kCpu0 = "/job:localhost/replica:0/task:0/device:CPU:0";
constexpr const char* kCpu1 = "/job:localhost/replica:0/task:0/device:CPU:1";
constexpr const char* kGpu0 = "/job:localhost/replica:0/task:0/device:GPU:0";
constexpr const char* kGpu1 = "/job:localhost/replica:0/task:0/device:GPU:1";

class DirectSessionTest : public testing::CleanDeviceEnvironment {
 protected:
  // A session on graph_ with `config`; fails the test on an error.
  std::unique_ptr<DirectSession> MakeSession(const ConfigProto& config = {}) {
    SessionOptions options;
    options.config = config;
    auto session = DirectSession::Create(options, graph_);
    EXPECT_TRUE(session.ok()) << session.status();
    return session.ok() ? std::move(session).value() : nullptr;
  }

  std::vector<Tensor> Run(
      SessionInterface* session, const std::vector<std::string>& fetches,
      const std::vector<std::string>& targets = {},
      const std::vector<std::pair<std::string, Tensor>>& feeds = {}) {
    std::vector<Tensor> out;
    Status s = session->Run(feeds, fetches, targets, &out);
    EXPECT_TRUE(s.ok()) << s;
    return out;
  }

  // Runs Towers() once, traced, on two virtual GPUs with `inter_op_threads`
  // inter-op threads; checks the sum and returns the step's stats.
  StepStats TracedTowersStep(int inter_op_threads);

  // Runs one node that blocks until it is released, `release_ms` after the
  // step starts, with RunOptions' `timeout_ms`: the step's status.
  Status RunBlockedStep(int64_t timeout_ms, int release_ms) {
    testing::ResetBlock();
    Output blocked = testing::Block("blocked");
    auto session = MakeSession();
    std::thread releaser([release_ms] {
      std::this_thread::sleep_for(std::chrono::milliseconds(release_ms));
      testing::Release();
    });
    std::vector<Tensor> out;
    Status s = session->Run(RunOptions{.timeout_in_ms = timeout_ms}, {},
                            {blocked.name()}, {}, &out, nullptr);
    releaser.join();
    return s;
  }

  std::shared_ptr<Graph> graph_ = std::make_shared<Graph>();
  graph_scope use_{*graph_};
};

std::string Str(const Tensor& t) {
  std::ostringstream os;
  os << t;
  return os.str();
}

// Seed 001's multi-tower program, with both towers on GPUs.
Output Towers() {
  std::vector<Output> c;
  for (const char* d : {"/gpu:0", "/gpu:1"}) {
    device_scope on(d);
    Output a = constant({1.f, 2.f, 3.f, 4.f, 5.f, 6.f}, {2, 3});
    Output b = constant({1.f, 2.f, 3.f, 4.f, 5.f, 6.f}, {3, 2});
    c.push_back(matmul(a, b));
  }
  device_scope on("/cpu:0");
  return add_n(c);
}

TEST_F(DirectSessionTest, IsTheSessionOfTheEmptyTarget) {
  auto session = NewSession(SessionOptions{}, graph_).value();
  EXPECT_NE(dynamic_cast<DirectSession*>(session.get()), nullptr);
}

TEST_F(DirectSessionTest, PrintsTheDeviceMappingWhenLogging) {
  ConfigProto config = testing::VirtualGpus(2);
  config.log_device_placement = true;
  ::testing::internal::CaptureStdout();
  MakeSession(config);
  EXPECT_EQ(::testing::internal::GetCapturedStdout(),
            "Device mapping:\n"
            "/job:localhost/replica:0/task:0/device:GPU:0 -> device: 0, name: "
            "minitf virtual GPU (CPU memory), pci bus id: virtual\n"
            "/job:localhost/replica:0/task:0/device:GPU:1 -> device: 1, name: "
            "minitf virtual GPU (CPU memory), pci bus id: virtual\n");
  config.gpu_options.virtual_gpus = 0;
  ::testing::internal::CaptureStdout();
  MakeSession(config);
  EXPECT_EQ(::testing::internal::GetCapturedStdout(),
            "Device mapping: no known devices.\n");
}

TEST_F(DirectSessionTest, LogsThePlacementAtTheFirstRun) {
  Output a = constant({1.f, 2.f, 3.f, 4.f, 5.f, 6.f}, {2, 3}, "a");
  Output b = constant({1.f, 2.f, 3.f, 4.f, 5.f, 6.f}, {3, 2}, "b");
  Output c = matmul(a, b);
  ConfigProto config = testing::VirtualGpus(1);
  config.log_device_placement = true;
  ::testing::internal::CaptureStdout();
  auto session = MakeSession(config);
  EXPECT_EQ(Str(Run(session.get(), {c.name()})[0]), "[[22. 28.]\n [49. 64.]]");
  const std::string log = ::testing::internal::GetCapturedStdout();
  for (const std::string& line : std::vector<std::string>{
           "Device mapping:\n", StrCat("MatMul: (MatMul): ", kGpu0, "\n"),
           StrCat("a: (Const): ", kGpu0, "\n")}) {
    EXPECT_NE(log.find(line), std::string::npos) << line << " in\n" << log;
  }
}

TEST_F(DirectSessionTest, SoftPlacementIsThePlacersChoice) {
  Output c;
  {
    device_scope on("/gpu:2");
    c = matmul(constant({1.f, 2.f}, {1, 2}), constant({3.f, 4.f}, {2, 1}));
  }
  auto strict = MakeSession(testing::VirtualGpus(2));
  std::vector<Tensor> out;
  Status s = strict->Run({}, {c.name()}, {}, &out);
  EXPECT_EQ(s.code(), error::INVALID_ARGUMENT);
  // The seed's TensorFlow 0.x text, which spells the request "/gpu:2".
  EXPECT_NE(s.message().find("specification '/gpu:2'"), std::string::npos) << s;
  ConfigProto soft = testing::VirtualGpus(2);
  soft.allow_soft_placement = true;
  EXPECT_EQ(Run(MakeSession(soft).get(), {c.name()})[0].ToVector<float>(),
            (std::vector<float>{11.f}));
}

TEST_F(DirectSessionTest, SeedMatMulWithInputsOnTheCpuAndMatMulOnTheGpu) {
  Output a, b;
  {
    device_scope on("/cpu:0");
    a = constant({1.f, 2.f, 3.f, 4.f, 5.f, 6.f}, {2, 3}, "a");
    b = constant({1.f, 2.f, 3.f, 4.f, 5.f, 6.f}, {3, 2}, "b");
  }
  Output c;
  {
    device_scope on("/gpu:0");
    c = matmul(a, b);
  }
  auto session = MakeSession(testing::VirtualGpus(1));
  EXPECT_EQ(Str(Run(session.get(), {c.name()})[0]), "[[22. 28.]\n [49. 64.]]");
  const TransferTable t = session->GetTransferStats();
  // a and b go to the GPU, 24 bytes each; the product comes back, 16.
  EXPECT_EQ(t.at({kCpu0, kGpu0}).tensors, 2);
  EXPECT_EQ(t.at({kCpu0, kGpu0}).bytes_copied, 48);
  EXPECT_EQ(t.at({kGpu0, kCpu0}).bytes_copied, 16);
  EXPECT_EQ(t.at({kCpu0, kCpu0}).tensors, 1);  // the fetch
  EXPECT_EQ(t.at({kCpu0, kCpu0}).bytes_copied, 0);
}

TEST_F(DirectSessionTest, SeedTowersSumOnTheCpu) {
  Output sum = Towers();
  auto session = MakeSession(testing::VirtualGpus(2));
  EXPECT_EQ(Str(Run(session.get(), {sum.name()})[0]),
            "[[ 44.  56.]\n [ 98. 128.]]");
  const TransferTable t = session->GetTransferStats();
  EXPECT_EQ(t.at({kGpu0, kCpu0}).bytes_copied, 16);
  EXPECT_EQ(t.at({kGpu1, kCpu0}).bytes_copied, 16);
  EXPECT_EQ(t.count({kCpu0, kGpu0}), 0u);
}

TEST_F(DirectSessionTest, FeedsAndFetchesCrossToAndFromTheGpu) {
  Output x = placeholder(DT_FLOAT, {None}, "x");
  Output y;
  {
    device_scope on("/gpu:0");
    y = multiply(x, constant(2.f), "y");
  }
  auto session = MakeSession(testing::VirtualGpus(1));
  auto out = Run(session.get(), {"y:0", "x:0", "y:0"}, {},
                 {{"x:0", Tensor({1.f, 2.f, 3.f})}});
  ASSERT_EQ(out.size(), 3u);
  EXPECT_EQ(out[0].ToVector<float>(), (std::vector<float>{2.f, 4.f, 6.f}));
  EXPECT_EQ(out[1].ToVector<float>(), (std::vector<float>{1.f, 2.f, 3.f}));
  EXPECT_TRUE(out[2].SharesBufferWith(out[0]));  // fetched once
  // A fed value is checked and converted as chapter 2 does it: the int32
  // values go to the GPU as floats.
  auto ints = Run(session.get(), {"y:0"}, {}, {{"x:0", Tensor({1, 2, 3})}});
  ASSERT_EQ(ints.size(), 1u);
  EXPECT_EQ(ints[0].ToVector<float>(), (std::vector<float>{2.f, 4.f, 6.f}));
}

TEST_F(DirectSessionTest, VariablesLiveOnTheirDevice) {
  Variable w;
  {
    device_scope on("/gpu:0");
    w = Variable(Tensor({1.f, 2.f}), "weight");
  }
  Output doubled = w.value() * constant(2.f);
  Output update = w.assign_add(Tensor({1.f, 1.f}));
  auto session = MakeSession(testing::VirtualGpus(1));
  Run(session.get(), {}, {w.initializer().name()});
  Run(session.get(), {}, {update.node()->name()});
  EXPECT_EQ(Run(session.get(), {doubled.name()})[0].ToVector<float>(),
            (std::vector<float>{4.f, 6.f}));
  Device* gpu = session->device_mgr().LookupDevice("/gpu:0").value();
  Device* cpu = session->device_mgr().LookupDevice("/cpu:0").value();
  EXPECT_EQ(session->resource_manager(gpu)->DebugNames().size(), 1u);
  EXPECT_TRUE(session->resource_manager(cpu)->DebugNames().empty());
}

// As in chapter 3's session: the fetch of a variable shows the value its run
// leaves, as TensorFlow's fetch, which shares the variable's buffer, does;
// a reader computes with the value it read.
TEST_F(DirectSessionTest, AFetchOfAVariableShowsTheUpdatesOfItsRun) {
  Variable w(Tensor({1.f, 2.f}), "weight");
  Output reader = w.value() * constant(1.f);
  Output update = w.assign_add(Tensor({1.f, 1.f}));
  auto session = MakeSession();
  Run(session.get(), {}, {w.initializer().name()});
  std::vector<Tensor> out =
      Run(session.get(), {"weight:0", reader.name()}, {update.node()->name()});
  EXPECT_EQ(out[0].ToVector<float>(), (std::vector<float>{2.f, 3.f}));
  EXPECT_EQ(out[1].ToVector<float>(), (std::vector<float>{1.f, 2.f}));
}

// A variable on another device than the client's reaches the client as a
// copy, made when it is sent, before the update: TensorFlow's GPU variable
// is copied to the host as the fetch's _Send runs, too.
TEST_F(DirectSessionTest, AFetchOfAVariableOnAnotherDeviceIsSentBeforeUpdates) {
  Variable w;
  {
    device_scope on("/gpu:0");
    w = Variable(Tensor({1.f, 2.f}), "weight");
  }
  Output update = w.assign_add(Tensor({1.f, 1.f}));
  auto session = MakeSession(testing::VirtualGpus(1));
  Run(session.get(), {}, {w.initializer().name()});
  EXPECT_EQ(Run(session.get(), {"weight:0"}, {update.node()->name()})[0]
                .ToVector<float>(),
            (std::vector<float>{1.f, 2.f}));
  EXPECT_EQ(Run(session.get(), {"weight:0"})[0].ToVector<float>(),
            (std::vector<float>{2.f, 3.f}));
}

TEST_F(DirectSessionTest, UninitializedValuesReadAsChapterTwoReportsThem) {
  Variable w;
  {
    device_scope on("/gpu:0");
    w = Variable(Tensor({1.f, 2.f}), "weight");
  }
  Output y;
  {
    device_scope on("/cpu:0");
    y = negative(w.ref(), "y");
  }
  auto session = MakeSession(testing::VirtualGpus(1));
  std::vector<Tensor> out;
  // Read on another device than the variable's.
  Status s = session->Run({}, {"y:0"}, {}, &out);
  EXPECT_EQ(s.code(), error::FAILED_PRECONDITION);
  EXPECT_EQ(s.message(),
            "Attempting to use uninitialized value weight\n\t [[{{node y}}]]");
  // Fetched.
  s = session->Run({}, {"weight:0"}, {}, &out);
  EXPECT_EQ(s.message(),
            "Attempting to use uninitialized value weight\n\t [[{{node "
            "weight}}]]");
}

TEST_F(DirectSessionTest, AnErrorOnOneDeviceCancelsTheOtherWaitingOnARecv) {
  Output f, y;
  {
    device_scope on("/cpu:0");
    f = testing::Fail("f");
  }
  {
    device_scope on("/cpu:1");
    y = negative(f, "y");
  }
  ConfigProto config;
  config.device_count["CPU"] = 2;
  auto session = MakeSession(config);
  for (int i = 0; i < 20; ++i) {
    std::vector<Tensor> out;
    Status s = session->Run({}, {"y:0"}, {}, &out);
    EXPECT_EQ(s.code(), error::INVALID_ARGUMENT);
    EXPECT_EQ(s.message(), "this op always fails\n\t [[{{node f}}]]");
  }
}

TEST_F(DirectSessionTest, AnErrorStopsAStepThatOtherwiseWaitsForAnotherDevice) {
  // CPU:1 waits for `slow` from CPU:0, which never sends it: CPU:0 fails at
  // `f` first, and the abort releases the _Recv.
  Output slow, f, y;
  {
    device_scope on("/cpu:0");
    f = testing::Fail("f");
    slow = negative(f, "slow");
  }
  {
    device_scope on("/cpu:1");
    y = negative(slow, "y");
  }
  ConfigProto config;
  config.device_count["CPU"] = 2;
  auto session = MakeSession(config);
  std::vector<Tensor> out;
  Status s = session->Run({}, {"y:0"}, {}, &out);
  EXPECT_EQ(s.message(), "this op always fails\n\t [[{{node f}}]]");
}

TEST_F(DirectSessionTest, DevicesRunAtTheSameTime) {
  testing::MeetCount() = 0;
  Output a, b;
  {
    device_scope on("/cpu:0");
    a = testing::Meet("a");
  }
  {
    device_scope on("/cpu:1");
    b = testing::Meet("b");
  }
  ConfigProto config;
  config.device_count["CPU"] = 2;
  config.inter_op_parallelism_threads = 2;
  auto session = MakeSession(config);
  auto out = Run(session.get(), {"a:0", "b:0"});
  EXPECT_EQ(out.size(), 2u);
}

TEST_F(DirectSessionTest, IndependentOpsOfOneDeviceRunAtTheSameTime) {
  testing::MeetCount() = 0;
  testing::Meet("a");
  testing::Meet("b");
  ConfigProto config;
  config.inter_op_parallelism_threads = 2;
  auto session = MakeSession(config);
  Run(session.get(), {"a:0", "b:0"});
}

StepStats DirectSessionTest::TracedTowersStep(int inter_op_threads) {
  Output sum = Towers();
  ConfigProto config = testing::VirtualGpus(2);
  config.inter_op_parallelism_threads = inter_op_threads;
  auto session = MakeSession(config);
  RunMetadata metadata;
  std::vector<Tensor> out;
  Status s = session->Run(RunOptions{.trace_level = RunOptions::FULL_TRACE}, {},
                          {sum.name()}, {}, &out, &metadata);
  EXPECT_TRUE(s.ok()) << s;
  if (!s.ok()) return {};
  EXPECT_EQ(Str(out[0]), "[[ 44.  56.]\n [ 98. 128.]]");
  return metadata.step_stats;
}

TEST_F(DirectSessionTest, OneInterOpThreadRunsEverythingOnTheCaller) {
  const StepStats stats = TracedTowersStep(1);
  for (const DeviceStepStats& d : stats.dev_stats) {
    for (const NodeExecStats& n : d.node_stats) {
      EXPECT_EQ(n.thread_id, CurrentThreadNumber()) << n.node_name;
    }
  }
}

// With a pool, the calling thread starts the client's partition and then the
// last one, rather than sleep while a pool thread wakes for it: here GPU:1's
// constants, product and _Send all run on it.
TEST_F(DirectSessionTest, TheCallerAlsoStartsTheLastPartition) {
  const StepStats stats = TracedTowersStep(2);
  int on_gpu1 = 0;
  for (const DeviceStepStats& d : stats.dev_stats) {
    if (d.device.substr(d.device.size() - 5) != "GPU:1") continue;
    for (const NodeExecStats& n : d.node_stats) {
      EXPECT_EQ(n.thread_id, CurrentThreadNumber()) << n.node_name;
      ++on_gpu1;
    }
  }
  EXPECT_GE(on_gpu1, 4);  // two constants, the MatMul, its _Send
}

TEST_F(DirectSessionTest, ATimeoutAbortsTheStep) {
  Status s = RunBlockedStep(50, 300);
  EXPECT_EQ(s.code(), error::DEADLINE_EXCEEDED);
  EXPECT_EQ(s.message(), "Timed out waiting for notification");
}

// A timeout too long for the clock's arithmetic (INT64_MAX milliseconds)
// is no timeout at all, not a deadline already past.
TEST_F(DirectSessionTest, AHugeTimeoutWaits) {
  Status s = RunBlockedStep(std::numeric_limits<int64_t>::max(), 100);
  EXPECT_TRUE(s.ok()) << s;
}

TEST_F(DirectSessionTest, ATracedRunReportsEveryNodePerDevice) {
  Output a, b, c;
  {
    device_scope on("/cpu:0");
    a = constant({1.f, 2.f, 3.f, 4.f, 5.f, 6.f}, {2, 3}, "a");
    b = constant({1.f, 2.f, 3.f, 4.f, 5.f, 6.f}, {3, 2}, "b");
  }
  {
    device_scope on("/gpu:0");
    c = matmul(a, b, false, false, "c");
  }
  auto session = MakeSession(testing::VirtualGpus(1));
  RunMetadata metadata;
  std::vector<Tensor> out;
  ASSERT_TRUE(session
                  ->Run(RunOptions{.trace_level = RunOptions::FULL_TRACE,
                                   .output_partition_graphs = true},
                        {}, {c.name()}, {}, &out, &metadata)
                  .ok());
  ASSERT_EQ(metadata.step_stats.dev_stats.size(), 2u);
  ASSERT_EQ(metadata.partition_graphs.size(), 2u);
  const NodeExecStats* matmul_stats = nullptr;
  for (const DeviceStepStats& d : metadata.step_stats.dev_stats) {
    for (const NodeExecStats& n : d.node_stats) {
      EXPECT_GT(n.all_start_micros, 0) << n.node_name;
      EXPECT_GE(n.all_end_rel_micros, n.op_end_rel_micros);
      EXPECT_GE(n.op_end_rel_micros, n.op_start_rel_micros);
      if (n.node_name == "c") {
        EXPECT_EQ(d.device, kGpu0);
        matmul_stats = &n;
      }
    }
  }
  ASSERT_NE(matmul_stats, nullptr);
  EXPECT_EQ(matmul_stats->timeline_label, "c = MatMul(a/_1, b/_3)");
  ASSERT_EQ(matmul_stats->output.size(), 1u);
  const TensorDescription& d = matmul_stats->output[0].tensor_description;
  EXPECT_EQ(d.shape, TensorShape({2, 2}));
  EXPECT_EQ(d.allocation_description.requested_bytes, 16);
  // The timeline shows both devices. (Whether it draws arrows depends on
  // timing: an arrow joins a producer and a consumer only when they landed
  // in different lanes; timeline_test.cc checks the arrows on fixed stats.)
  const std::string trace =
      Timeline(metadata.step_stats).generate_chrome_trace_format();
  EXPECT_NE(trace.find(std::string(kGpu0) + " Compute"), std::string::npos);
  EXPECT_NE(trace.find(std::string(kCpu0) + " Compute"), std::string::npos);
  // An untraced run leaves the stats alone.
  RunMetadata untraced;
  ASSERT_TRUE(
      session->Run(RunOptions{}, {}, {c.name()}, {}, &out, &untraced).ok());
  EXPECT_TRUE(untraced.step_stats.dev_stats.empty());
  // A run's metadata reports that run alone, as TensorFlow's session.run
  // replaces the whole RunMetadata: run again without asking, the same
  // RunMetadata keeps neither the trace nor the graphs of the run before.
  ASSERT_TRUE(
      session->Run(RunOptions{}, {}, {c.name()}, {}, &out, &metadata).ok());
  EXPECT_TRUE(metadata.step_stats.dev_stats.empty());
  EXPECT_TRUE(metadata.partition_graphs.empty());
}

TEST_F(DirectSessionTest, KernelsSplitTheirWorkOnTheDevicesIntraOpPool) {
  // The executor names the device's pool (intra_op_parallelism_threads)
  // around each kernel, a virtual GPU's as the CPU's: a session that asks for
  // N threads per op gets N on every device, never the process's pool.
  {
    device_scope on("/cpu:0");
    testing::IntraOpThreads("on_cpu");
  }
  {
    device_scope on("/gpu:0");
    testing::IntraOpThreads("on_gpu");
  }
  ConfigProto config = testing::VirtualGpus(1);
  config.intra_op_parallelism_threads = 3;
  auto session = MakeSession(config);
  std::vector<Tensor> out = Run(session.get(), {"on_cpu:0", "on_gpu:0"});
  ASSERT_EQ(out.size(), 2u);
  EXPECT_EQ(out[0].data<int32_t>()[0], 3);
  EXPECT_EQ(out[1].data<int32_t>()[0], 3);
}

TEST_F(DirectSessionTest, PlansAreCachedPerSignature) {
  Output x = placeholder(DT_FLOAT, {}, "x");
  negative(x, "y");
  auto session = MakeSession();
  for (int i = 0; i < 3; ++i) {
    Run(session.get(), {"y:0"}, {}, {{"x:0", Tensor(1.f)}});
  }
  EXPECT_EQ(session->num_cached_plans(), 1);
  Run(session.get(), {"y:0", "x:0"}, {}, {{"x:0", Tensor(1.f)}});
  EXPECT_EQ(session->num_cached_plans(), 2);
}

TEST_F(DirectSessionTest, StatefulKernelsKeepTheirStateAcrossSignatures) {
  Output r = random_normal({3}, 0.0, 1.0, DT_FLOAT, /*seed=*/7, "r");
  Output k = constant(1.f, "k");
  auto first = MakeSession();
  Tensor d1 = Run(first.get(), {r.name()})[0];
  Tensor d2 = Run(first.get(), {r.name(), k.name()})[0];
  auto second = MakeSession();
  Tensor e1 = Run(second.get(), {r.name()})[0];
  Tensor e2 = Run(second.get(), {r.name()})[0];
  EXPECT_EQ(d1.ToVector<float>(), e1.ToVector<float>());
  EXPECT_EQ(d2.ToVector<float>(), e2.ToVector<float>());
  EXPECT_NE(d1.ToVector<float>(), d2.ToVector<float>());
}

TEST_F(DirectSessionTest, ConcurrentRunsOfOneSession) {
  Output x = placeholder(DT_FLOAT, {}, "x");
  Output y;
  {
    device_scope on("/gpu:0");
    y = multiply(x, x, "y");
  }
  Output z;
  {
    device_scope on("/gpu:1");
    z = add(y, x, "z");
  }
  auto session = MakeSession(testing::VirtualGpus(2));
  std::vector<std::thread> threads;
  for (int t = 0; t < 4; ++t) {
    threads.emplace_back([&, t] {
      for (int i = 0; i < 50; ++i) {
        const float v = static_cast<float>(t * 100 + i);
        std::vector<Tensor> out;
        Status s = session->Run({{"x:0", Tensor(v)}}, {"z:0"}, {}, &out);
        ASSERT_TRUE(s.ok()) << s;
        EXPECT_EQ(out[0].scalar<float>(), v * v + v);
      }
    });
  }
  for (std::thread& t : threads) t.join();
}

TEST_F(DirectSessionTest, ClosedSessionsRefuseToRun) {
  Variable w(Tensor(1.f), "w");
  auto session = MakeSession();
  Run(session.get(), {}, {w.initializer().name()});
  ASSERT_TRUE(session->Close().ok());
  std::vector<Tensor> out;
  EXPECT_EQ(session->Run({}, {"w:0"}, {}, &out).message(),
            "Session has been closed.");
  Device* cpu = session->device_mgr().ListDevices()[0];
  EXPECT_TRUE(session->resource_manager(cpu)->DebugNames().empty());
}

// Seed 000's linear regression, trained by chapter 2's LocalSession and by
// the DirectSession with the variables on a virtual GPU: the same floats.
TEST_F(DirectSessionTest, TrainsBitForBitAsChapterTwosSession) {
  Variable w, b;
  {
    device_scope on("/gpu:0");
    w = Variable(0.0f, "weight");
    b = Variable(0.0f, "bias");
  }
  Output x = placeholder(DT_FLOAT, {None});
  Output out = placeholder(DT_FLOAT, {None});
  Output y = w * x + b;
  Output loss = reduce_mean(square(y - out));
  Operation train_op = train::GradientDescentOptimizer(0.01).minimize(loss);
  Operation init = global_variables_initializer();
  const std::vector<std::pair<std::string, Tensor>> feeds = {
      {x.name(), Tensor({1.f, 23.f, 4.f, 5.f, 7.f, 5.f, 7.f})},
      {out.name(), Tensor({3.f, 5.f, 7.f, 9.f, 11.f, 13.f, 15.f})}};
  const std::vector<std::string> fetches = {loss.name(), w.value().name(),
                                            b.value().name()};

  LocalSession local(SessionOptions{}, graph_);
  auto direct = MakeSession(testing::VirtualGpus(1));
  std::vector<Tensor> local_out, direct_out;
  for (SessionInterface* s : {static_cast<SessionInterface*>(&local),
                              static_cast<SessionInterface*>(direct.get())}) {
    Run(s, {}, {init.name()});
  }
  for (int step = 0; step < 300; ++step) {
    ASSERT_TRUE(local.Run(feeds, fetches, {train_op.name()}, &local_out).ok());
    ASSERT_TRUE(
        direct->Run(feeds, fetches, {train_op.name()}, &direct_out).ok());
    for (size_t i = 0; i < fetches.size(); ++i) {
      const float l = local_out[i].scalar<float>();
      const float d = direct_out[i].scalar<float>();
      ASSERT_EQ(std::memcmp(&l, &d, sizeof(float)), 0)
          << fetches[i] << " at step " << step << ": " << l << " vs " << d;
    }
  }
}

// The op of each node of the partition graphs a traced run of `fetch` on
// `session` ran, by name; and the names of the nodes whose kernels ran.
struct RanGraphs {
  std::map<std::string, std::string> op_of;
  std::set<std::string> ran;
};
RanGraphs RunTraced(DirectSession* session, const std::string& fetch,
                    std::vector<Tensor>* out) {
  RunMetadata metadata;
  Status s = session->Run(RunOptions{.trace_level = RunOptions::FULL_TRACE,
                                     .output_partition_graphs = true},
                          {}, {fetch}, {}, out, &metadata);
  EXPECT_TRUE(s.ok()) << s;
  RanGraphs ran;
  for (const GraphDef& g : metadata.partition_graphs) {
    for (const auto& n : g.node()) ran.op_of[n.name()] = n.op();
  }
  for (const DeviceStepStats& d : metadata.step_stats.dev_stats) {
    for (const NodeExecStats& n : d.node_stats) ran.ran.insert(n.node_name);
  }
  return ran;
}

// x w + b, then Relu, with the chain on `device`.
Output Layer(const char* device) {
  device_scope on(device);
  Output x = constant({1.f, -2.f, 3.f, 4.f}, {2, 2}, "x");
  Output w = constant({1.f, 2.f, -3.f, 4.f}, {2, 2}, "w");
  Output b = constant({0.5f, -9.f}, {2}, "b");
  return nn::relu(nn::bias_add(matmul(x, w, false, false, "mm"), b, "ba"), "r");
}

TEST_F(DirectSessionTest, TheRemapperFusesOnTheCpu) {
  Output r = Layer("/cpu:0");
  std::vector<Tensor> fused, unfused;
  RanGraphs ran = RunTraced(MakeSession().get(), r.name(), &fused);
  EXPECT_EQ(ran.op_of["r"], "_FusedMatMul");
  EXPECT_EQ(ran.op_of.count("mm"), 0u);
  ConfigProto off;
  off.graph_options.rewrite_options.remapping = RewriterConfig::OFF;
  ran = RunTraced(MakeSession(off).get(), r.name(), &unfused);
  EXPECT_EQ(ran.op_of["r"], "Relu");
  EXPECT_EQ(Str(fused[0]), Str(unfused[0]));
}

TEST_F(DirectSessionTest, TheRemapperLeavesADeviceWithoutTheFusedKernel) {
  Output r = Layer("/gpu:0");
  std::vector<Tensor> out;
  RanGraphs ran =
      RunTraced(MakeSession(testing::VirtualGpus(1)).get(), r.name(), &out);
  EXPECT_EQ(ran.op_of["mm"], "MatMul");
  EXPECT_EQ(ran.op_of["r"], "Relu");
}

}  // namespace
}  // namespace minitf
