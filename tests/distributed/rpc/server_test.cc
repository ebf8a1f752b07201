// tf::train::Server and the gRPC services under it. Every server listens on
// a loopback port the system picks ("localhost:0") and is stopped by the
// test; every call has a deadline, so a broken server fails a test rather
// than hanging it. The errors expected are TensorFlow 2.21's
// (tf.distribute.Server) for the same clusters.
#include "minitf/distributed/runtime/server.h"

#include <grpcpp/generic/generic_stub.h>
#include <grpcpp/grpcpp.h>
#include <gtest/gtest.h>

#include <chrono>
#include <condition_variable>
#include <mutex>
#include <regex>
#include <sstream>
#include <thread>

#include "distributed_testing.h"
#include "minitf/distributed/runtime/proto/master_service.grpc.pb.h"
#include "minitf/distributed/runtime/proto/worker_service.grpc.pb.h"
#include "minitf/distributed/runtime/rpc/grpc_server.h"
#include "minitf/tensor/errors.h"

namespace tf = minitf;

namespace {

using tf::testing::ErrorText;
using tf::train::ClusterSpec;
using tf::train::Server;

// The address of a target: "grpc://localhost:41234" -> "localhost:41234".
std::string Address(const std::string& target) {
  return target.substr(std::string("grpc://").size());
}

std::shared_ptr<grpc::Channel> Channel(const std::string& target) {
  return grpc::CreateChannel(Address(target),
                             grpc::InsecureChannelCredentials());
}

// A call context that gives up after ten seconds.
void SetDeadline(grpc::ClientContext* context) {
  context->set_deadline(std::chrono::system_clock::now() +
                        std::chrono::seconds(10));
}

TEST(ServerTest, LogsChannelCachesAndTarget) {
  std::ostringstream log;
  Server server(ClusterSpec({{"worker", {"localhost:2223", "localhost:2224"}},
                             {"ps", {"localhost:0"}}}),
                "ps", 0, {}, {.log_stream = &log});
  const std::string target = server.target();
  EXPECT_TRUE(std::regex_match(target, std::regex("grpc://localhost:[0-9]+")))
      << target;
  EXPECT_NE(target, "grpc://localhost:0");
  const std::string port = target.substr(target.rfind(':') + 1);
  // --8<-- [start:log_lines]
  // One line per job, sorted by name, this task's address as localhost and
  // the port it listens on; then the start.
  EXPECT_EQ(
      log.str(),
      "Initialize GrpcChannelCache for job ps -> {0 -> localhost:" + port +
          "}\n"
          "Initialize GrpcChannelCache for job worker -> {0 -> "
          "localhost:2223, 1 -> localhost:2224}\n"
          "Started server with target: " +
          target + "\n");
  // --8<-- [end:log_lines]
  server.stop();
}

TEST(ServerTest, StartTwiceLogsAlreadyStarted) {
  std::ostringstream log;
  Server server(ClusterSpec({{"ps", {"localhost:0"}}}), "ps", 0, {},
                {.log_stream = &log});
  log.str("");
  server.start();
  EXPECT_EQ(log.str(),
            "Server already started (target: " + server.target() + ")\n");
}

TEST(ServerTest, WorkerGetStatusListsTheTasksDevices) {
  std::ostringstream log;
  Server server(
      ClusterSpec({{"ps", {"localhost:0"}}, {"worker", {"localhost:2223"}}}),
      "ps", 0, {}, {.log_stream = &log});
  auto stub = tensorflow::WorkerService::NewStub(Channel(server.target()));
  grpc::ClientContext context;
  SetDeadline(&context);
  tf::proto::GetStatusRequest request;
  tf::proto::GetStatusResponse response;
  grpc::Status status = stub->GetStatus(&context, request, &response);
  ASSERT_TRUE(status.ok()) << status.error_message();
  ASSERT_GE(response.device_attributes_size(), 1);
  const auto& cpu = response.device_attributes(0);
  EXPECT_EQ(cpu.name(), "/job:ps/replica:0/task:0/device:CPU:0");
  EXPECT_EQ(cpu.device_type(), "CPU");
  EXPECT_NE(cpu.incarnation(), 0u);
}

TEST(ServerTest, MasterListDevicesGivesTheLocalDevices) {
  std::ostringstream log;
  Server server(ClusterSpec({{"worker", {"localhost:2223", "localhost:0"}}}),
                "worker", 1, {}, {.log_stream = &log});
  auto stub = tensorflow::MasterService::NewStub(Channel(server.target()));
  grpc::ClientContext context;
  SetDeadline(&context);
  tf::proto::ListDevicesRequest request;
  tf::proto::ListDevicesResponse response;
  grpc::Status status = stub->ListDevices(&context, request, &response);
  ASSERT_TRUE(status.ok()) << status.error_message();
  ASSERT_GE(response.local_device_size(), 1);
  EXPECT_EQ(response.local_device(0).name(),
            "/job:worker/replica:0/task:1/device:CPU:0");
}

TEST(ServerTest, RandomBytesAreRefusedNotCrashedOn) {
  // A body that is not a GetStatusRequest, sent through a generic stub
  // under the method's name: gRPC refuses it with INTERNAL before the
  // service sees it, and the server keeps serving.
  std::ostringstream log;
  Server server(ClusterSpec({{"ps", {"localhost:0"}}}), "ps", 0, {},
                {.log_stream = &log});
  auto channel = Channel(server.target());
  grpc::GenericStub generic(channel);
  grpc::ClientContext context;
  SetDeadline(&context);
  const char garbage[] = "\xff\xff\xff\xff\x0f";
  grpc::Slice slice(garbage, sizeof(garbage) - 1);
  grpc::ByteBuffer request(&slice, 1);
  grpc::ByteBuffer reply;
  grpc::Status status = tf::testing::GenericUnaryCall(
      generic, &context, "/tensorflow.WorkerService/GetStatus", request,
      &reply);
  EXPECT_EQ(status.error_code(), grpc::StatusCode::INTERNAL);

  auto stub = tensorflow::WorkerService::NewStub(channel);
  grpc::ClientContext again;
  SetDeadline(&again);
  tf::proto::GetStatusResponse response;
  EXPECT_TRUE(stub->GetStatus(&again, {}, &response).ok());
}

TEST(ServerTest, JoinReturnsOnceStopped) {
  std::ostringstream log;
  Server server(ClusterSpec({{"ps", {"localhost:0"}}}), "ps", 0, {},
                {.log_stream = &log});
  std::thread joiner([&] { server.join(); });
  server.stop();
  joiner.join();
  server.stop();  // twice is fine
  EXPECT_EQ(
      ErrorText<tf::errors::FailedPreconditionError>([&] { server.start(); }),
      "Server has been stopped");
}

TEST(ServerTest, StoppedServerNoLongerAnswers) {
  std::ostringstream log;
  Server server(ClusterSpec({{"ps", {"localhost:0"}}}), "ps", 0, {},
                {.log_stream = &log});
  const std::string target = server.target();
  server.stop();
  auto stub = tensorflow::WorkerService::NewStub(Channel(target));
  grpc::ClientContext context;
  context.set_deadline(std::chrono::system_clock::now() +
                       std::chrono::seconds(2));
  tf::proto::GetStatusResponse response;
  grpc::Status status = stub->GetStatus(&context, {}, &response);
  EXPECT_FALSE(status.ok());
}

TEST(ServerTest, PortInUseIsUnknownError) {
  std::ostringstream log;
  Server first(ClusterSpec({{"ps", {"localhost:0"}}}), "ps", 0, {},
               {.log_stream = &log});
  const std::string address = Address(first.target());
  EXPECT_EQ(ErrorText<tf::errors::UnknownError>([&] {
              Server second(ClusterSpec({{"ps", {address}}}), "ps", 0, {},
                            {.log_stream = &log});
            }),
            "Could not start gRPC server");
}

TEST(ServerTest, NotStartedUntilAsked) {
  std::ostringstream log;
  Server server(ClusterSpec({{"ps", {"localhost:0"}}}), "ps", 0, {},
                {.start = false, .log_stream = &log});
  EXPECT_EQ(log.str(), "");
  server.start();
  EXPECT_NE(log.str().find("Started server with target: grpc://localhost:"),
            std::string::npos);
}

TEST(ServerTest, ClusterErrorsInTensorFlowsWords) {
  ClusterSpec ps({{"ps", {"localhost:0"}}});
  EXPECT_EQ(
      ErrorText<tf::errors::InternalError>([&] { Server s(ps, "worker", 0); }),
      "Job \"worker\" was not defined in cluster");
  EXPECT_EQ(
      ErrorText<tf::errors::InternalError>([&] { Server s(ps, "ps", 3); }),
      "Task 3 was not defined in job \"ps\"");
  EXPECT_EQ(
      ErrorText<tf::errors::InternalError>([&] { Server s(ps, "ps", -1); }),
      "Task -1 was not defined in job \"ps\"");
  EXPECT_EQ(ErrorText<tf::errors::InvalidArgumentError>([] {
              Server s(ClusterSpec({{"ps", {"localhost:abc"}}}), "ps", 0);
            }),
            "Could not parse port for local server from \"localhost:abc\".");
  EXPECT_EQ(ErrorText<tf::errors::InvalidArgumentError>([] {
              Server s(ClusterSpec({{"ps", {"localhost"}}}), "ps", 0);
            }),
            "Could not parse port for local server from \"localhost\".");
  EXPECT_EQ(ErrorText<tf::errors::InvalidArgumentError>([] {
              Server s(ClusterSpec(
                  {{"ps", {"localhost:0"}}, {"worker", {"localhost:1"}}}));
            }),
            "Must specify an explicit `job_name`.");
  EXPECT_EQ(
      ErrorText<tf::errors::InvalidArgumentError>([] {
        Server s(ClusterSpec({{"ps", {"localhost:0", "localhost:2"}}}), "ps");
      }),
      "Must specify an explicit `task_index`.");
}

TEST(ServerTest, OneJobOneTaskNeedsNoNames) {
  std::ostringstream log;
  Server server(ClusterSpec({{"ps", {{4, "localhost:0"}}}}), "", std::nullopt,
                {}, {.log_stream = &log});
  EXPECT_NE(log.str().find("job ps -> {4 -> localhost:"), std::string::npos)
      << log.str();
}

TEST(ServerTest, CreateLocalServer) {
  std::ostringstream log;
  Server server = Server::create_local_server({}, {.log_stream = &log});
  EXPECT_TRUE(std::regex_match(server.target(),
                               std::regex("grpc://localhost:[1-9][0-9]*")));
}

TEST(GrpcServerTest, CoreReturnsStatus) {
  auto server = tf::GrpcServer::Create(ClusterSpec({{"ps", {"localhost:0"}}}),
                                       "nope", 0, {}, {});
  EXPECT_EQ(server.status().code(), tf::error::INTERNAL);
  std::ostringstream log;
  auto ok = tf::GrpcServer::Create(ClusterSpec({{"ps", {"localhost:0"}}}), "ps",
                                   0, {}, {.log_stream = &log});
  ASSERT_TRUE(ok.ok()) << ok.status();
  EXPECT_EQ(ok.value()->device_mgr().ListDevices()[0]->name(),
            "/job:ps/replica:0/task:0/device:CPU:0");
}

}  // namespace
