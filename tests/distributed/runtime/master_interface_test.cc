// The client's seam (master_interface.h): a GrpcSession holds one
// MasterInterface and makes every call through it, whichever master is at
// the other end. Here the other end is a Master of this process, built
// without any server, so nothing goes over gRPC.
#include "minitf/distributed/runtime/master_interface.h"

#include <gtest/gtest.h>

#include <memory>
#include <sstream>
#include <string>
#include <vector>

#include "distributed_testing.h"
#include "minitf/device/devices/device_mgr.h"
#include "minitf/distributed/runtime/master.h"
#include "minitf/distributed/runtime/rpc/grpc_session.h"
#include "minitf/distributed/runtime/worker.h"
#include "minitf/distributed/runtime/worker_cache.h"
#include "minitf/graph/config.h"
#include "minitf/minitf.h"

namespace tf = minitf;

namespace {

// A MasterInterface over a Master of this process that counts the calls
// it is given.
class CountingMaster final : public tf::MasterInterface {
 public:
  explicit CountingMaster(tf::Master* master) : master_(master) {}
  std::vector<std::string> calls;

  tf::Status CreateSession(
      tf::CallOptions*, const tf::proto::CreateSessionRequest* request,
      tf::proto::CreateSessionResponse* response) override {
    calls.push_back("CreateSession");
    return master_->CreateSession(*request, response);
  }
  tf::Status ExtendSession(
      tf::CallOptions*, const tf::proto::ExtendSessionRequest* request,
      tf::proto::ExtendSessionResponse* response) override {
    calls.push_back("ExtendSession");
    return master_->ExtendSession(*request, response);
  }
  tf::Status RunStep(tf::CallOptions* opts,
                     const tf::proto::RunStepRequest* request,
                     tf::proto::RunStepResponse* response) override {
    calls.push_back("RunStep");
    return master_->RunStep(*request, response, opts);
  }
  tf::Status CloseSession(tf::CallOptions*,
                          const tf::proto::CloseSessionRequest* request,
                          tf::proto::CloseSessionResponse*) override {
    calls.push_back("CloseSession");
    return master_->CloseSession(*request);
  }

 private:
  tf::Master* const master_;
};

// A one-task cluster whose address nobody listens on, with its Worker and
// Master in this process: a session over a CountingMaster creates, extends,
// runs and closes, each call one of the interface's, and no call needs the
// network.
TEST(MasterInterfaceTest, AGrpcSessionMakesEveryCallThroughItsMaster) {
  const std::string task = "/job:worker/replica:0/task:0";
  tf::train::ClusterSpec cluster({{"worker", {tf::testing::FreeAddress()}}});
  tf::WorkerCache workers(cluster, task, 0);
  auto devices = tf::DeviceMgr::Create(tf::SessionOptions(), task).value();
  tf::Worker worker(task, devices.get(), &workers, 1);
  workers.set_local_worker(&worker);
  std::ostringstream log;
  tf::Master master(task, devices.get(), &workers, {.log_stream = &log});
  auto counting = std::make_unique<CountingMaster>(&master);
  CountingMaster* seen = counting.get();

  auto graph = std::make_shared<tf::Graph>();
  tf::graph_scope use(*graph);
  tf::Output sum = tf::add(tf::constant(tf::Tensor(2.f)),
                           tf::constant(tf::Tensor(3.f)), "sum");
  std::unique_ptr<tf::GrpcSession> session = tf::GrpcSession::Create(
      tf::SessionOptions{.target =
                             "grpc://" + cluster.task_address("worker", 0)},
      graph, std::move(counting));
  std::vector<tf::Tensor> out;
  ASSERT_TRUE(session->Run({}, {"sum:0"}, {}, &out).ok());
  EXPECT_EQ(out.at(0).scalar<float>(), 5.f);
  tf::Output twice = tf::add(sum, sum, "twice");
  ASSERT_TRUE(session->Run({}, {twice.name()}, {}, &out).ok());
  EXPECT_EQ(out.at(0).scalar<float>(), 10.f);
  ASSERT_TRUE(session->Close().ok());
  EXPECT_EQ(seen->calls, (std::vector<std::string>{"CreateSession", "RunStep",
                                                   "ExtendSession", "RunStep",
                                                   "CloseSession"}));
}

}  // namespace
