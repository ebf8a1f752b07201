// A remote session returns what was asked, in the order asked, whatever
// order its master answers in. TensorFlow's master answers a RunStep in an
// order of its own (sorted by name), so a client must match the answers to
// its fetches by name. Here the master is minitf's, behind a master service
// of the test's own that forwards each call and then reorders, drops,
// repeats or adds answers, so that the suite shows the client's matching
// without TensorFlow. (The CTest tests distributed.*_fetch_order run the
// same fetches between minitf and TensorFlow's own client and server.)
#include <grpcpp/grpcpp.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <memory>
#include <mutex>
#include <sstream>
#include <string>
#include <vector>

#include "distributed_testing.h"
#include "minitf/distributed/runtime/local_master.h"
#include "minitf/distributed/runtime/proto/master_service.grpc.pb.h"
#include "minitf/distributed/runtime/rpc/grpc_status.h"
#include "minitf/distributed/runtime/server.h"
#include "minitf/graph/graph_def.h"
#include "minitf/graph/ops/array_ops.h"
#include "minitf/graph/ops/math_ops.h"
#include "minitf/graph/scope.h"
#include "minitf/graph/session.h"
#include "minitf/tensor/errors.h"

namespace tf = minitf;

namespace {

using tf::testing::Str;

// What the test's master service does to a RunStep's answer.
enum class Twist { kNone, kReverse, kDropLast, kRepeatFirst, kAddUnasked };

// A master service that passes every call to the master of `target`, a
// minitf server of this process, and twists RunStep's answer. It keeps the
// fetches of the last RunStep, to show what the client asked for.
class TwistingMaster final : public tensorflow::MasterService::Service {
 public:
  explicit TwistingMaster(std::string target) : target_(std::move(target)) {}

  void set_twist(Twist twist) {
    std::lock_guard<std::mutex> lock(mu_);
    twist_ = twist;
  }
  std::vector<std::string> last_fetches() {
    std::lock_guard<std::mutex> lock(mu_);
    return last_fetches_;
  }

  grpc::Status CreateSession(
      grpc::ServerContext*, const tf::proto::CreateSessionRequest* request,
      tf::proto::CreateSessionResponse* response) override {
    return Forward([&](tf::MasterInterface& m, tf::CallOptions* opts) {
      return m.CreateSession(opts, request, response);
    });
  }
  grpc::Status ExtendSession(
      grpc::ServerContext*, const tf::proto::ExtendSessionRequest* request,
      tf::proto::ExtendSessionResponse* response) override {
    return Forward([&](tf::MasterInterface& m, tf::CallOptions* opts) {
      return m.ExtendSession(opts, request, response);
    });
  }
  grpc::Status CloseSession(
      grpc::ServerContext*, const tf::proto::CloseSessionRequest* request,
      tf::proto::CloseSessionResponse* response) override {
    return Forward([&](tf::MasterInterface& m, tf::CallOptions* opts) {
      return m.CloseSession(opts, request, response);
    });
  }
  grpc::Status RunStep(grpc::ServerContext*,
                       const tf::proto::RunStepRequest* request,
                       tf::proto::RunStepResponse* response) override {
    grpc::Status s =
        Forward([&](tf::MasterInterface& m, tf::CallOptions* opts) {
          return m.RunStep(opts, request, response);
        });
    std::lock_guard<std::mutex> lock(mu_);
    last_fetches_.assign(request->fetch().begin(), request->fetch().end());
    if (!s.ok() || response->tensor().empty()) return s;
    auto* answers = response->mutable_tensor();
    switch (twist_) {
      case Twist::kNone:
        break;
      case Twist::kReverse:
        std::reverse(answers->begin(), answers->end());
        break;
      case Twist::kDropLast:
        answers->RemoveLast();
        break;
      case Twist::kRepeatFirst:
        *answers->Add() = answers->Get(0);
        break;
      case Twist::kAddUnasked: {
        tf::proto::NamedTensorProto extra = answers->Get(0);
        extra.set_name("nobody_asked:0");
        *answers->Add() = extra;
        break;
      }
    }
    return s;
  }

 private:
  template <typename F>
  grpc::Status Forward(F call) {
    std::unique_ptr<tf::LocalMaster> master = tf::LocalMaster::Lookup(target_);
    if (master == nullptr) {
      return grpc::Status(grpc::StatusCode::UNAVAILABLE, "no master");
    }
    tf::CallOptions opts;
    return tf::ToGrpcStatus(call(*master, &opts));
  }

  const std::string target_;
  std::mutex mu_;
  Twist twist_ = Twist::kNone;             // guarded by mu_
  std::vector<std::string> last_fetches_;  // guarded by mu_
};

// A minitf server, the twisting master in front of it, and a graph of
// tensors that differ in shape and dtype, so that a value in the wrong
// place cannot pass for the right one.
class FetchOrderTest : public ::testing::Test {
 protected:
  void SetUp() override {
    master_ = std::make_unique<TwistingMaster>(server_.target());
    grpc::ServerBuilder builder;
    builder.AddListeningPort("127.0.0.1:0", grpc::InsecureServerCredentials(),
                             &port_);
    builder.RegisterService(master_.get());
    front_ = builder.BuildAndStart();
    ASSERT_NE(front_, nullptr);
    ASSERT_GT(port_, 0);

    one_ = tf::constant(tf::Tensor({1.f}), "one");
    two_ = tf::constant(tf::Tensor({2.f, 2.f}), "two");
    three_ = tf::multiply(tf::constant(tf::Tensor({1.f, 1.f, 1.f})),
                          tf::constant(3.f), "three");
    pair_ = tf::matmul(tf::constant(tf::Tensor({{1.0, 2.0}})),
                       tf::constant(tf::Tensor({{3.0}, {4.0}})), false, false,
                       "pair");
    count_ = tf::constant(tf::Tensor({7, 8, 9, 10}), "count");
  }
  void TearDown() override {
    if (front_) front_->Shutdown();
  }

  // A session on the twisting master: every call goes through gRPC.
  tf::SessionOptions Options() const {
    tf::SessionOptions options;
    options.target = "grpc://127.0.0.1:" + std::to_string(port_);
    options.config.operation_timeout_in_ms = 30000;  // a broken test ends
    return options;
  }

  tf::train::ClusterSpec cluster_{{{"worker", {tf::testing::FreeAddress()}}}};
  std::ostringstream log_;
  tf::train::Server server_{cluster_, "worker", 0, {}, {.log_stream = &log_}};
  std::unique_ptr<TwistingMaster> master_;
  std::unique_ptr<grpc::Server> front_;
  int port_ = 0;
  tf::Graph graph_;
  tf::graph_scope use_{graph_};
  tf::Output one_, two_, three_, pair_, count_;
};

// What each tensor prints as, computed locally.
const char* const kOne = "[1.]";
const char* const kTwo = "[2. 2.]";
const char* const kThree = "[3. 3. 3.]";
const char* const kPair = "[[11.]]";
const char* const kCount = "[ 7  8  9 10]";

TEST_F(FetchOrderTest, AReversingMasterStillGivesEveryFetchInItsPlace) {
  master_->set_twist(Twist::kReverse);
  tf::Session sess(Options(), &graph_);
  std::vector<tf::Output> fetches = {one_, two_, three_};
  std::vector<std::string> expected = {kOne, kTwo, kThree};
  // Every order of the three fetches.
  std::vector<int> order = {0, 1, 2};
  do {
    auto r =
        sess.run({fetches[order[0]], fetches[order[1]], fetches[order[2]]});
    ASSERT_EQ(r.size(), 3u);
    for (int i = 0; i < 3; ++i) {
      EXPECT_EQ(Str(r[i]), expected[order[i]]) << "fetch " << i;
    }
  } while (std::next_permutation(order.begin(), order.end()));
}

TEST_F(FetchOrderTest, MixedDtypesComeBackInTheOrderAsked) {
  master_->set_twist(Twist::kReverse);
  tf::Session sess(Options(), &graph_);
  auto r = sess.run({count_, one_, pair_});
  ASSERT_EQ(r.size(), 3u);
  EXPECT_EQ(r[0].dtype(), tf::DT_INT32);
  EXPECT_EQ(Str(r[0]), kCount);
  EXPECT_EQ(Str(r[1]), kOne);
  EXPECT_EQ(r[2].dtype(), tf::DT_DOUBLE);
  EXPECT_EQ(Str(r[2]), kPair);
}

TEST_F(FetchOrderTest, ATensorFetchedTwiceIsAskedForOnceAndGivenTwice) {
  tf::Session sess(Options(), &graph_);
  auto r = sess.run({three_, one_, three_});
  ASSERT_EQ(r.size(), 3u);
  EXPECT_EQ(Str(r[0]), kThree);
  EXPECT_EQ(Str(r[1]), kOne);
  EXPECT_EQ(Str(r[2]), kThree);
  EXPECT_EQ(master_->last_fetches(),
            (std::vector<std::string>{"three:0", "one:0"}));
}

TEST_F(FetchOrderTest, TwoSpellingsOfOneTensorAreOneFetch) {
  tf::Session sess(Options(), &graph_);
  std::vector<tf::Tensor> out;
  ASSERT_TRUE(sess.core()->Run({}, {"two", "two:0"}, {}, &out).ok());
  ASSERT_EQ(out.size(), 2u);
  EXPECT_EQ(Str(out[0]), kTwo);
  EXPECT_EQ(Str(out[1]), kTwo);
  EXPECT_EQ(master_->last_fetches(), (std::vector<std::string>{"two:0"}));
}

TEST_F(FetchOrderTest, ATensorFedTwiceIsRefusedAsLocally) {
  tf::Output x = tf::placeholder(tf::float32, {tf::None}, "x");
  tf::Output y = tf::multiply(x, tf::constant(2.f), "y");
  tf::Session local(tf::SessionOptions{}, &graph_);
  tf::Session remote(Options(), &graph_);
  const std::string local_text = tf::testing::InvalidArgumentText([&] {
    local.run(y, {{x, tf::Tensor({1.f})}, {"x:0", tf::Tensor({2.f})}});
  });
  EXPECT_EQ(local_text, "The tensor 'x:0' is fed more than once.");
  EXPECT_EQ(
      tf::testing::InvalidArgumentText([&] {
        remote.run(y, {{x, tf::Tensor({1.f})}, {"x:0", tf::Tensor({2.f})}});
      }),
      local_text);
}

TEST_F(FetchOrderTest, AnAnswerThatDoesNotMatchTheFetchesIsAnInternalError) {
  struct Case {
    Twist twist;
    std::string error;
  };
  for (const Case& c : std::vector<Case>{
           {Twist::kDropLast, "Received no response for fetch: two:0"},
           {Twist::kRepeatFirst,
            "Received more than one response for fetch: one:0"},
           // TensorFlow's client's words.
           {Twist::kAddUnasked,
            "Received response for unrequested fetch: nobody_asked:0"}}) {
    master_->set_twist(c.twist);
    tf::Session sess(Options(), &graph_);
    EXPECT_EQ(tf::testing::ErrorText<tf::errors::InternalError>([&] {
                sess.run({one_, two_});
              }),
              c.error);
  }
}

TEST_F(FetchOrderTest, MinitfsMasterAnswersInTheOrderAskedWithRepeats) {
  // What a client that asks for a tensor twice (a raw RunStep) gets back
  // from minitf's master: one answer per fetch, in the order asked.
  std::unique_ptr<tf::LocalMaster> master =
      tf::LocalMaster::Lookup(server_.target());
  ASSERT_NE(master, nullptr);
  tf::CallOptions opts;
  tf::proto::CreateSessionRequest create;
  tf::proto::CreateSessionResponse created;
  *create.mutable_graph_def() = tf::ToGraphDef(graph_).value();
  ASSERT_TRUE(master->CreateSession(&opts, &create, &created).ok());
  tf::proto::RunStepRequest run;
  run.set_session_handle(created.session_handle());
  for (const char* f : {"two:0", "one:0", "two:0"}) run.add_fetch(f);
  tf::proto::RunStepResponse answer;
  ASSERT_TRUE(master->RunStep(&opts, &run, &answer).ok());
  ASSERT_EQ(answer.tensor_size(), 3);
  EXPECT_EQ(answer.tensor(0).name(), "two:0");
  EXPECT_EQ(answer.tensor(1).name(), "one:0");
  EXPECT_EQ(answer.tensor(2).name(), "two:0");
  tf::proto::CloseSessionRequest close;
  close.set_session_handle(created.session_handle());
  tf::proto::CloseSessionResponse closed;
  EXPECT_TRUE(master->CloseSession(&opts, &close, &closed).ok());
}

}  // namespace
