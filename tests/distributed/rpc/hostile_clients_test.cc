// A server under clients that misbehave, all on loopback: a thousand
// malformed or truncated requests to every method of both services,
// messages at the size limits, clients that go away in the middle of a step,
// 64 sessions at once beside clients that send garbage, and session handles
// the server never gave. The server answers each bad call with a status
// that says what was wrong (never gRPC's UNKNOWN, which is what an exception
// escaping a handler becomes), keeps serving the clients that behave, and
// ends every step whose caller went away. CI runs the same tests under
// AddressSanitizer and LeakSanitizer.
#include <google/protobuf/stubs/logging.h>
#include <grpcpp/generic/generic_stub.h>
#include <grpcpp/grpcpp.h>
#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <cstdint>
#include <functional>
#include <future>
#include <map>
#include <memory>
#include <random>
#include <set>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "distributed_testing.h"
#include "minitf/device/partition/rendezvous.h"
#include "minitf/distributed/runtime/proto/master_service.grpc.pb.h"
#include "minitf/distributed/runtime/proto/worker_service.grpc.pb.h"
#include "minitf/distributed/runtime/rpc/grpc_server.h"
#include "minitf/distributed/runtime/worker.h"
#include "minitf/distributed/training/fifo_queue.h"
#include "minitf/graph/graph_def.h"
#include "minitf/graph/ops/array_ops.h"
#include "minitf/graph/ops/math_ops.h"
#include "minitf/graph/proto_convert.h"
#include "minitf/graph/scope.h"

namespace tf = minitf;

namespace {

using std::chrono::milliseconds;
using std::chrono::seconds;

constexpr char kCpu[] = "/job:ps/replica:0/task:0/device:CPU:0";

void SetDeadline(grpc::ClientContext* context,
                 milliseconds after = milliseconds(10000)) {
  context->set_deadline(std::chrono::system_clock::now() + after);
}

// Waits up to ten seconds for `done`; whether it came.
bool Eventually(const std::function<bool()>& done) {
  const auto end = std::chrono::steady_clock::now() + seconds(10);
  while (!done()) {
    if (std::chrono::steady_clock::now() > end) return false;
    std::this_thread::sleep_for(milliseconds(5));
  }
  return true;
}

class HostileClientsTest : public ::testing::Test {
 protected:
  void SetUp() override {
    auto server = tf::GrpcServer::Create(
        tf::train::ClusterSpec({{"ps", {"localhost:0"}}}), "ps", 0, {},
        {.log_stream = &log_});
    ASSERT_TRUE(server.ok()) << server.status();
    server_ = std::move(*server);
    ASSERT_TRUE(server_->Start().ok());
    // Room for the largest message a tensor may make, as TensorFlow's
    // clients allow.
    grpc::ChannelArguments args;
    args.SetMaxReceiveMessageSize(-1);
    args.SetMaxSendMessageSize(-1);
    channel_ = grpc::CreateCustomChannel(
        server_->target().substr(std::string("grpc://").size()),
        grpc::InsecureChannelCredentials(), args);
    master_ = tensorflow::MasterService::NewStub(channel_);
    worker_ = tensorflow::WorkerService::NewStub(channel_);
  }

  // A session on `graph`, made as any gRPC client makes one.
  std::string CreateSession(const tf::Graph& graph) {
    grpc::ClientContext context;
    SetDeadline(&context);
    tf::proto::CreateSessionRequest request;
    tf::proto::CreateSessionResponse response;
    EXPECT_TRUE(tf::ToGraphDef(graph, request.mutable_graph_def()).ok());
    grpc::Status s = master_->CreateSession(&context, request, &response);
    EXPECT_TRUE(s.ok()) << s.error_message();
    return response.session_handle();
  }

  grpc::Status RunStep(const tf::proto::RunStepRequest& request,
                       tf::proto::RunStepResponse* response,
                       milliseconds deadline = milliseconds(10000)) {
    grpc::ClientContext context;
    SetDeadline(&context, deadline);
    return master_->RunStep(&context, request, response);
  }

  grpc::Status CloseSession(const std::string& handle) {
    grpc::ClientContext context;
    SetDeadline(&context);
    tf::proto::CloseSessionRequest request;
    tf::proto::CloseSessionResponse response;
    request.set_session_handle(handle);
    return master_->CloseSession(&context, request, &response);
  }

  int StepsRunning() const { return server_->worker().steps_running(); }

  std::ostringstream log_;
  std::unique_ptr<tf::GrpcServer> server_;
  std::shared_ptr<grpc::Channel> channel_;
  std::unique_ptr<tensorflow::MasterService::Stub> master_;
  std::unique_ptr<tensorflow::WorkerService::Stub> worker_;
};

// y = 2x, for a float vector fed as x.
struct Doubler {
  Doubler() {
    tf::graph_scope use(graph);
    tf::Output x = tf::placeholder(tf::DT_FLOAT, {tf::None}, "x");
    tf::multiply(x, tf::constant(tf::Tensor(2.f)), "y");
  }

  static tf::proto::RunStepRequest Step(const std::string& handle,
                                        const tf::Tensor& x) {
    tf::proto::RunStepRequest request;
    request.set_session_handle(handle);
    tf::proto::NamedTensorProto* feed = request.add_feed();
    feed->set_name("x:0");
    EXPECT_TRUE(tf::TensorToProto(x, feed->mutable_tensor()).ok());
    request.add_fetch("y:0");
    return request;
  }

  tf::Graph graph;
};

// The requests each method is fuzzed from: valid messages, as the tests of
// the layer make them, whose names point at nothing the server holds (so
// that a request that survives its mutation still ends at once).
std::map<std::string, std::string> SeedRequests(const tf::Graph& graph) {
  std::map<std::string, std::string> seeds;
  const std::string master = "/tensorflow.MasterService/";
  const std::string worker = "/tensorflow.WorkerService/";
  {
    tf::proto::CreateSessionRequest r;
    EXPECT_TRUE(tf::ToGraphDef(graph, r.mutable_graph_def()).ok());
    seeds[master + "CreateSession"] = r.SerializeAsString();
  }
  {
    tf::proto::ExtendSessionRequest r;
    r.set_session_handle("0123456789abcdef");
    EXPECT_TRUE(tf::ToGraphDef(graph, r.mutable_graph_def()).ok());
    r.set_current_graph_version(1);
    seeds[master + "ExtendSession"] = r.SerializeAsString();
  }
  seeds[master + "RunStep"] =
      Doubler::Step("0123456789abcdef", tf::Tensor({1.f, 2.f}))
          .SerializeAsString();
  {
    tf::proto::CloseSessionRequest r;
    r.set_session_handle("0123456789abcdef");
    seeds[master + "CloseSession"] = r.SerializeAsString();
  }
  seeds[master + "ListDevices"] =
      tf::proto::ListDevicesRequest().SerializeAsString();
  {
    tf::proto::ResetRequest r;
    r.add_container("no_such_container");
    seeds[master + "Reset"] = r.SerializeAsString();
  }
  seeds[worker + "GetStatus"] =
      tf::proto::GetStatusRequest().SerializeAsString();
  {
    tf::proto::CreateWorkerSessionRequest r;
    r.set_session_handle("hostile_session");
    seeds[worker + "CreateWorkerSession"] = r.SerializeAsString();
  }
  {
    tf::proto::DeleteWorkerSessionRequest r;
    r.set_session_handle("hostile_session");
    seeds[worker + "DeleteWorkerSession"] = r.SerializeAsString();
  }
  {
    tf::proto::RegisterGraphRequest r;
    r.set_session_handle("no_such_session");
    r.set_create_worker_session_called(true);
    EXPECT_TRUE(tf::ToGraphDef(graph, r.mutable_graph_def()).ok());
    seeds[worker + "RegisterGraph"] = r.SerializeAsString();
  }
  {
    tf::proto::DeregisterGraphRequest r;
    r.set_graph_handle("no_such_graph");
    seeds[worker + "DeregisterGraph"] = r.SerializeAsString();
  }
  {
    tf::proto::RunGraphRequest r;
    r.set_graph_handle("no_such_graph");
    r.set_step_id(11);
    r.add_recv_key("not;a;key");
    seeds[worker + "RunGraph"] = r.SerializeAsString();
  }
  {
    tf::proto::CleanupGraphRequest r;
    r.set_step_id(1 << 30);
    seeds[worker + "CleanupGraph"] = r.SerializeAsString();
  }
  {
    tf::proto::CleanupAllRequest r;
    r.add_container("no_such_container");
    seeds[worker + "CleanupAll"] = r.SerializeAsString();
  }
  {
    // A key of another task: refused at once, whatever the step.
    tf::proto::RecvTensorRequest r;
    r.set_step_id(12);
    r.set_rendezvous_key(tf::Rendezvous::CreateKey(
        "/job:worker/replica:0/task:0/device:CPU:0", 1, kCpu, "a:0", {}));
    seeds[worker + "RecvTensor"] = r.SerializeAsString();
  }
  return seeds;
}

// The i-th of a method's malformed requests, made from its seed: cut short,
// a few bits flipped, bytes of no message at all, or trailing garbage.
std::string Malformed(const std::string& seed, int i, std::mt19937* rng) {
  std::uniform_int_distribution<int> byte(0, 255);
  std::string bytes = seed;
  switch (i % 4) {
    case 0:  // truncated
      bytes.resize(seed.empty() ? 0 : (*rng)() % seed.size());
      break;
    case 1:  // one to three bits flipped
      for (int k = 0, n = 1 + (*rng)() % 3; k < n && !bytes.empty(); ++k) {
        bytes[(*rng)() % bytes.size()] ^=
            static_cast<char>(1 << ((*rng)() % 8));
      }
      break;
    case 2:  // no message at all
      bytes.assign((*rng)() % 65, '\0');
      for (char& c : bytes) c = static_cast<char>(byte(*rng));
      break;
    default:  // garbage after a valid message
      for (int k = 0, n = 1 + (*rng)() % 16; k < n; ++k) {
        bytes.push_back(static_cast<char>(byte(*rng)));
      }
      break;
  }
  return bytes;
}

TEST_F(HostileClientsTest, EveryMethodAnswersAThousandMalformedRequests) {
  // protobuf logs each string field that is not UTF-8; not this test's news.
  google::protobuf::LogSilencer quiet;
  Doubler doubler;
  const std::map<std::string, std::string> seeds = SeedRequests(doubler.graph);
  ASSERT_EQ(seeds.size(), 15u);  // every method of both services
  grpc::GenericStub generic(channel_);
  std::mt19937 rng(2026);
  std::map<grpc::StatusCode, int> codes;
  int requests = 0;
  for (const auto& [method, seed] : seeds) {
    for (int i = 0; i < 1000; ++i) {
      const std::string bytes = Malformed(seed, i, &rng);
      grpc::Slice slice(bytes);
      grpc::ByteBuffer body(&slice, 1), reply;
      grpc::ClientContext context;
      SetDeadline(&context, milliseconds(5000));
      grpc::Status s = tf::testing::GenericUnaryCall(generic, &context, method,
                                                     body, &reply);
      ++codes[s.error_code()];
      ++requests;
      // What an exception escaping a handler would be; and a bad request
      // must not wait for anything.
      ASSERT_NE(s.error_code(), grpc::StatusCode::UNKNOWN)
          << method << " #" << i << ": " << s.error_message();
      ASSERT_NE(s.error_code(), grpc::StatusCode::DEADLINE_EXCEEDED)
          << method << " #" << i;
    }
    // Between the methods, a client that behaves is served as before.
    const std::string handle = CreateSession(doubler.graph);
    tf::proto::RunStepResponse response;
    grpc::Status s =
        RunStep(Doubler::Step(handle, tf::Tensor({1.f, 2.f})), &response);
    ASSERT_TRUE(s.ok()) << method << ": " << s.error_message();
    auto y = tf::TensorFromProto(response.tensor(0).tensor());
    ASSERT_TRUE(y.ok());
    EXPECT_EQ(tf::testing::Str(*y), "[2. 4.]") << "after " << method;
    EXPECT_TRUE(CloseSession(handle).ok());
  }
  EXPECT_EQ(requests, 15000);
  // Most are refused (INTERNAL: gRPC cannot parse them; INVALID_ARGUMENT,
  // ABORTED, NOT_FOUND, UNIMPLEMENTED: the server's own words); some,
  // mutated into another valid request, are served.
  EXPECT_GT(codes[grpc::StatusCode::INTERNAL], 0);
  EXPECT_EQ(StepsRunning(), 0);
}

// A tensor as large as gRPC carries in one message crosses both ways; a
// TensorProto that claims more than a message may hold, or whose bytes do
// not fill its shape, is refused before anything is allocated.
TEST_F(HostileClientsTest, MessagesAtTheSizeLimits) {
  Doubler doubler;
  const std::string handle = CreateSession(doubler.graph);
  {
    // 64 MiB of floats: sixteen times gRPC's default limit of 4 MiB, which
    // the server lifts as TensorFlow's does.
    const int64_t n = int64_t{16} << 20;
    tf::Tensor x(tf::DT_FLOAT, tf::TensorShape({n}));
    float* v = x.data<float>();
    for (int64_t i = 0; i < n; ++i) v[i] = static_cast<float>(i % 1000);
    tf::proto::RunStepResponse response;
    grpc::Status s =
        RunStep(Doubler::Step(handle, x), &response, milliseconds(60000));
    ASSERT_TRUE(s.ok()) << s.error_message();
    auto y = tf::TensorFromProto(response.tensor(0).tensor());
    ASSERT_TRUE(y.ok());
    ASSERT_EQ(y->NumElements(), n);
    EXPECT_EQ(y->data<float>()[999], 1998.f);
    EXPECT_EQ(y->data<float>()[n - 1], 2.f * ((n - 1) % 1000));
  }
  {
    // 4 GiB claimed in a few bytes.
    tf::proto::RunStepRequest request =
        Doubler::Step(handle, tf::Tensor({1.f}));
    tf::proto::TensorProto* t = request.mutable_feed(0)->mutable_tensor();
    t->clear_tensor_content();
    t->mutable_tensor_shape()->mutable_dim(0)->set_size(int64_t{1} << 30);
    tf::proto::RunStepResponse response;
    grpc::Status s = RunStep(request, &response);
    EXPECT_EQ(s.error_code(), grpc::StatusCode::RESOURCE_EXHAUSTED);
    EXPECT_NE(s.error_message().find("is larger than 2 GiB"), std::string::npos)
        << s.error_message();
  }
  {
    // Bytes that do not fill the shape.
    tf::proto::RunStepRequest request =
        Doubler::Step(handle, tf::Tensor({1.f, 2.f}));
    request.mutable_feed(0)
        ->mutable_tensor()
        ->mutable_tensor_shape()
        ->mutable_dim(0)
        ->set_size(3);
    tf::proto::RunStepResponse response;
    grpc::Status s = RunStep(request, &response);
    EXPECT_EQ(s.error_code(), grpc::StatusCode::INVALID_ARGUMENT);
    EXPECT_EQ(s.error_message(),
              "TensorProto of type float and shape [3] needs 12 bytes of "
              "tensor_content, but has 8");
  }
  EXPECT_TRUE(CloseSession(handle).ok());
}

// A client whose step waits (a dequeue from an empty queue) and that then
// goes away: the server ends the step, and the value enqueued afterwards is
// still there, not taken by a step that runs for nobody.
TEST_F(HostileClientsTest, AClientThatGoesAwayMidStepLeavesNoStepRunning) {
  tf::Graph graph;
  {
    tf::graph_scope use(graph);
    tf::FIFOQueue q(10, {tf::DT_FLOAT}, {tf::TensorShape({})}, "q", "q");
    tf::identity(q.dequeue(), "taken");
    q.enqueue(tf::constant(tf::Tensor(1.f)), "put");
    tf::identity(q.size(), "size");
  }
  const std::string handle = CreateSession(graph);
  grpc::ClientContext waiting;
  SetDeadline(&waiting, milliseconds(30000));
  tf::proto::RunStepRequest request;
  request.set_session_handle(handle);
  request.add_fetch("taken:0");
  tf::proto::RunStepResponse response;
  auto step = std::async(std::launch::async, [&] {
    return master_->RunStep(&waiting, request, &response);
  });
  ASSERT_TRUE(Eventually([&] { return StepsRunning() == 1; }));
  waiting.TryCancel();  // the client goes
  EXPECT_EQ(step.get().error_code(), grpc::StatusCode::CANCELLED);
  ASSERT_TRUE(Eventually([&] { return StepsRunning() == 0; }))
      << "the step still runs for a client that went away";
  tf::proto::RunStepRequest put;
  put.set_session_handle(handle);
  put.add_target("put");
  ASSERT_TRUE(RunStep(put, &response).ok());
  tf::proto::RunStepRequest size;
  size.set_session_handle(handle);
  size.add_fetch("size:0");
  tf::proto::RunStepResponse sized;
  ASSERT_TRUE(RunStep(size, &sized).ok());
  auto n = tf::TensorFromProto(sized.tensor(0).tensor());
  ASSERT_TRUE(n.ok());
  EXPECT_EQ(tf::testing::Str(*n), "1");
  EXPECT_TRUE(CloseSession(handle).ok());
}

// The same one level down: a master (here, the test) that goes away while
// its RunGraph waits. Without a CleanupGraph from anyone, the worker ends
// the step itself.
TEST_F(HostileClientsTest, AMasterThatGoesAwayMidRunGraphLeavesNoStepRunning) {
  {
    grpc::ClientContext context;
    SetDeadline(&context);
    tf::proto::CreateWorkerSessionRequest request;
    tf::proto::CreateWorkerSessionResponse response;
    request.set_session_handle("s");
    ASSERT_TRUE(
        worker_->CreateWorkerSession(&context, request, &response).ok());
  }
  std::string graph_handle;
  {
    tf::Graph graph;
    {
      tf::graph_scope use(graph);
      tf::device_scope on(kCpu);
      tf::FIFOQueue q(10, {tf::DT_FLOAT}, {tf::TensorShape({})}, "q", "q");
      tf::identity(q.dequeue(), "taken");
    }
    grpc::ClientContext context;
    SetDeadline(&context);
    tf::proto::RegisterGraphRequest request;
    tf::proto::RegisterGraphResponse response;
    request.set_session_handle("s");
    request.set_create_worker_session_called(true);
    ASSERT_TRUE(tf::ToGraphDef(graph, request.mutable_graph_def()).ok());
    grpc::Status s = worker_->RegisterGraph(&context, request, &response);
    ASSERT_TRUE(s.ok()) << s.error_message();
    graph_handle = response.graph_handle();
  }
  grpc::ClientContext waiting;
  SetDeadline(&waiting, milliseconds(30000));
  tf::proto::RunGraphRequest request;
  request.set_session_handle("s");
  request.set_create_worker_session_called(true);
  request.set_graph_handle(graph_handle);
  request.set_step_id(9);
  tf::proto::RunGraphResponse response;
  auto step = std::async(std::launch::async, [&] {
    return worker_->RunGraph(&waiting, request, &response);
  });
  ASSERT_TRUE(Eventually([&] { return StepsRunning() == 1; }));
  waiting.TryCancel();
  EXPECT_EQ(step.get().error_code(), grpc::StatusCode::CANCELLED);
  EXPECT_TRUE(Eventually([&] { return StepsRunning() == 0; }))
      << "the step still runs for a master that went away";
}

// 64 clients with a session each, every one stepping at once, beside two
// that send garbage all the while: each gets its own answers.
TEST_F(HostileClientsTest, SixtyFourSessionsAtOnceBesideGarbage) {
  google::protobuf::LogSilencer quiet;
  Doubler doubler;
  std::atomic<bool> done{false};
  std::vector<std::thread> hostile;
  for (int h = 0; h < 2; ++h) {
    hostile.emplace_back([&, h] {
      grpc::GenericStub generic(channel_);
      std::mt19937 rng(h);
      const std::string seed =
          Doubler::Step("0123456789abcdef", tf::Tensor({1.f}))
              .SerializeAsString();
      for (int i = 0; !done; ++i) {
        const std::string bytes = Malformed(seed, i, &rng);
        grpc::Slice slice(bytes);
        grpc::ByteBuffer body(&slice, 1), reply;
        grpc::ClientContext context;
        SetDeadline(&context, milliseconds(5000));
        tf::testing::GenericUnaryCall(generic, &context,
                                      "/tensorflow.MasterService/RunStep", body,
                                      &reply);
      }
    });
  }
  constexpr int kClients = 64, kSteps = 20;
  std::vector<std::string> handles(kClients);
  std::vector<std::string> wrong(kClients);
  std::vector<std::thread> clients;
  for (int c = 0; c < kClients; ++c) {
    clients.emplace_back([&, c] {
      handles[c] = CreateSession(doubler.graph);
      for (int step = 0; step < kSteps; ++step) {
        tf::proto::RunStepResponse response;
        const tf::Tensor x({static_cast<float>(c), static_cast<float>(step)});
        grpc::Status s = RunStep(Doubler::Step(handles[c], x), &response);
        if (!s.ok()) {
          wrong[c] = s.error_message();
          return;
        }
        auto y = tf::TensorFromProto(response.tensor(0).tensor());
        if (!y.ok() || y->data<float>()[0] != 2.f * c ||
            y->data<float>()[1] != 2.f * step) {
          wrong[c] = "step " + std::to_string(step) + " answered wrong";
          return;
        }
      }
      if (!CloseSession(handles[c]).ok()) wrong[c] = "close failed";
    });
  }
  for (std::thread& t : clients) t.join();
  done = true;
  for (std::thread& t : hostile) t.join();
  for (int c = 0; c < kClients; ++c) EXPECT_EQ(wrong[c], "") << "client " << c;
  // Every handle is the server's own random 64 bits.
  EXPECT_EQ(std::set<std::string>(handles.begin(), handles.end()).size(),
            static_cast<size_t>(kClients));
  for (const std::string& h : handles) {
    EXPECT_EQ(h.size(), 16u);
    EXPECT_EQ(h.find_first_not_of("0123456789abcdef"), std::string::npos) << h;
  }
  EXPECT_EQ(StepsRunning(), 0);
}

// As in TensorFlow, a session handle is the session's only credential: 64
// random bits the server hands to the client that made it. A handle the
// server never gave (another client's, guessed) is refused by every method
// that takes one; the session it resembles is untouched.
TEST_F(HostileClientsTest, AHandleTheServerNeverGaveIsRefused) {
  Doubler doubler;
  const std::string handle = CreateSession(doubler.graph);
  std::string guessed = handle;
  guessed.back() = guessed.back() == '0' ? '1' : '0';
  tf::proto::RunStepResponse response;
  grpc::Status s =
      RunStep(Doubler::Step(guessed, tf::Tensor({1.f})), &response);
  EXPECT_EQ(s.error_code(), grpc::StatusCode::ABORTED);
  EXPECT_EQ(s.error_message(), "Session " + guessed + " is not found.");
  {
    grpc::ClientContext context;
    SetDeadline(&context);
    tf::proto::ExtendSessionRequest request;
    tf::proto::ExtendSessionResponse extended;
    request.set_session_handle(guessed);
    s = master_->ExtendSession(&context, request, &extended);
    EXPECT_EQ(s.error_code(), grpc::StatusCode::ABORTED);
  }
  s = CloseSession(guessed);
  EXPECT_EQ(s.error_code(), grpc::StatusCode::ABORTED);
  // The real session still serves its client.
  s = RunStep(Doubler::Step(handle, tf::Tensor({3.f})), &response);
  ASSERT_TRUE(s.ok()) << s.error_message();
  EXPECT_TRUE(CloseSession(handle).ok());
}

}  // namespace
