#include "minitf/device/executor/parallel_executor.h"

#include <gtest/gtest.h>

#include <condition_variable>
#include <memory>
#include <mutex>
#include <string>
#include <unsupported/Eigen/CXX11/ThreadPool>
#include <vector>

#include "device_test_util.h"
#include "executor_test_ops.h"
#include "minitf/device/partition/intra_process_rendezvous.h"
#include "minitf/device/partition/sendrecv_ops.h"
#include "minitf/graph/node_builder.h"
#include "minitf/graph/ops/array_ops.h"
#include "minitf/graph/ops/build.h"
#include "minitf/graph/ops/math_ops.h"
#include "minitf/graph/scope.h"

namespace minitf {
namespace {

class ParallelExecutorTest : public testing::CleanDeviceEnvironment {
 protected:
  void SetUp() override {
    ConfigProto config;
    config.device_count["CPU"] = 2;
    mgr_ = testing::MakeDevices(config);
    ASSERT_NE(mgr_, nullptr);
    cpu0_ = mgr_->ListDevices()[0];
    cpu1_ = mgr_->ListDevices()[1];
  }

  // The executor of `graph` on `device`, its kernels kept by the test.
  std::unique_ptr<ParallelExecutor> Compile(const Graph& graph,
                                            Device* device) {
    auto exec = ParallelExecutor::Create(
        &graph, device, [&](const Node& n) -> StatusOr<OpKernel*> {
          TF_ASSIGN_OR_RETURN(auto k, KernelRegistry::Global()->CreateKernel(
                                          n, device->device_type()));
          kernels_.push_back(std::move(k));
          return kernels_.back().get();
        });
    EXPECT_TRUE(exec.ok()) << exec.status();
    return exec.ok() ? std::move(exec).value() : nullptr;
  }

  ParallelExecutor::Args Args(Rendezvous* rendezvous) {
    ParallelExecutor::Args args;
    args.rendezvous = rendezvous;
    args.resource_manager = &resources_;
    args.runner = [this](std::function<void()> fn) {
      pool_.Schedule(std::move(fn));
    };
    return args;
  }

  // A _Send or _Recv between the two CPUs of tensor `name`.
  NodeBuilder Transfer(const char* op, const std::string& node_name,
                       const std::string& tensor, Device* from, Device* to) {
    return NodeBuilder(op, node_name)
        .Attr("tensor_name", tensor)
        .Attr("send_device", from->name())
        .Attr("send_device_incarnation",
              static_cast<int64_t>(from->attributes().incarnation))
        .Attr("recv_device", to->name());
  }

  Rendezvous::ParsedKey KeyOf(const Graph& g, const std::string& node) {
    return Rendezvous::ParseKey(SendRecvKey(*g.FindNode(node)).value()).value();
  }

  std::unique_ptr<DeviceMgr> mgr_;
  Device* cpu0_ = nullptr;
  Device* cpu1_ = nullptr;
  ResourceMgr resources_;
  std::vector<std::unique_ptr<OpKernel>> kernels_;
  Eigen::ThreadPool pool_{2};
};

TEST_F(ParallelExecutorTest, RunsAGraphAndSendsItsResult) {
  Graph g;
  graph_scope use(g);
  Output c =
      add(constant({1.f, 2.f}, {2}, "a"), constant({3.f, 4.f}, {2}), "c");
  ops::AddNode(Transfer(kSendOp, "send_c", "c:0", cpu0_, cpu0_).Input(c), {});
  auto exec = Compile(g, cpu0_);
  IntraProcessRendezvous r;
  ASSERT_TRUE(exec->Run(Args(&r)).ok());
  Tensor t;
  bool dead;
  ASSERT_TRUE(r.Recv(KeyOf(g, "send_c"), {cpu0_}, &t, &dead).ok());
  EXPECT_EQ(t.ToVector<float>(), (std::vector<float>{4.f, 6.f}));
}

TEST_F(ParallelExecutorTest, RunsIndependentOpsAtTheSameTime) {
  testing::MeetCount() = 0;
  Graph g;
  graph_scope use(g);
  testing::Meet("a");
  testing::Meet("b");
  auto exec = Compile(g, cpu0_);
  IntraProcessRendezvous r;
  Status s = exec->Run(Args(&r));
  EXPECT_TRUE(s.ok()) << s;
}

TEST_F(ParallelExecutorTest, AKernelErrorNamesTheNodeAndStopsTheStep) {
  Graph g;
  graph_scope use(g);
  Output f = testing::Fail("f");
  negative(f, "after");
  auto exec = Compile(g, cpu0_);
  IntraProcessRendezvous r;
  Status s = exec->Run(Args(&r));
  EXPECT_EQ(s.code(), error::INVALID_ARGUMENT);
  EXPECT_EQ(s.message(), "this op always fails\n\t [[{{node f}}]]");
}

TEST_F(ParallelExecutorTest, AnEmptyValueFromARecvIsNamedByItsTensor) {
  // A variable read before it holds a value, on another device: the _Recv
  // passes the empty value on, and its reader names the variable.
  Graph g;
  graph_scope use(g);
  Output v = ops::AddOp(Transfer(kRecvOp, "v/_1", "weight:0", cpu1_, cpu0_)
                            .Attr("tensor_type", DT_FLOAT),
                        {});
  negative(v, "reader");
  auto exec = Compile(g, cpu0_);
  IntraProcessRendezvous r;
  ASSERT_TRUE(r.Send(KeyOf(g, "v/_1"), {cpu1_}, Tensor(), false).ok());
  Status s = exec->Run(Args(&r));
  EXPECT_EQ(s.code(), error::FAILED_PRECONDITION);
  EXPECT_EQ(s.message(),
            "Attempting to use uninitialized value weight\n\t "
            "[[{{node reader}}]]");
}

TEST_F(ParallelExecutorTest, TheFirstErrorAbortsTheOtherExecutorsRecv) {
  // Executor 0 fails; executor 1 waits for a value executor 0 never sends.
  Graph g0, g1;
  {
    graph_scope use(g0);
    Output f = testing::Fail("f");
    ops::AddNode(Transfer(kSendOp, "f/_0", "f:0", cpu0_, cpu1_).Input(f), {});
  }
  {
    graph_scope use(g1);
    Output v = ops::AddOp(Transfer(kRecvOp, "f/_1", "f:0", cpu0_, cpu1_)
                              .Attr("tensor_type", DT_FLOAT),
                          {});
    negative(v, "y");
  }
  auto exec0 = Compile(g0, cpu0_);
  auto exec1 = Compile(g1, cpu1_);
  for (int step = 0; step < 20; ++step) {
    IntraProcessRendezvous r;
    std::mutex mu;
    std::condition_variable cv;
    bool finished = false;
    Status step_status;
    std::vector<Status> executor_status;
    ExecutorBarrier barrier(2, &r, [&](const Status& s) {
      std::lock_guard<std::mutex> lock(mu);
      step_status = s;
      finished = true;
      cv.notify_all();
    });
    ParallelExecutor::Args args = Args(&r);
    args.barrier = &barrier;
    auto done = [&](const Status& s) {
      {
        std::lock_guard<std::mutex> lock(mu);
        executor_status.push_back(s);
      }
      barrier.ExecutorDone(s);
    };
    exec1->RunAsync(args, done);
    exec0->RunAsync(args, done);
    std::unique_lock<std::mutex> lock(mu);
    cv.wait(lock, [&] { return finished; });
    EXPECT_EQ(step_status.message(), "this op always fails\n\t [[{{node f}}]]");
    EXPECT_EQ(executor_status.size(), 2u);
    EXPECT_TRUE(barrier.aborted());
  }
}

TEST_F(ParallelExecutorTest, AnEmptyGraphFinishesAtOnce) {
  Graph g;
  auto exec = Compile(g, cpu0_);
  IntraProcessRendezvous r;
  EXPECT_TRUE(exec->Run(Args(&r)).ok());
}

}  // namespace
}  // namespace minitf
