// RecvTensor's bytes: a RecvTensorResponse written by hand around a tensor's
// own buffer (tensor_coding.h) and read back into one copy. The bytes must
// be the message protobuf itself reads; the buffer must live as long as
// gRPC holds it, however soon the tensor goes; and bad bytes, from a body
// cut short to random ones, must give TensorFlow's typed error. Then whole
// tensors of every dtype, large and odd-sized, cross between two servers.
#include "minitf/distributed/runtime/rpc/tensor_coding.h"

#include <grpcpp/generic/async_generic_service.h>
#include <grpcpp/generic/generic_stub.h>
#include <grpcpp/grpcpp.h>
#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <climits>
#include <cstring>
#include <random>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "distributed_testing.h"
#include "minitf/device/devices/device_mgr.h"
#include "minitf/distributed/runtime/proto/worker.pb.h"
#include "minitf/distributed/runtime/rpc_rendezvous.h"
#include "minitf/distributed/runtime/server.h"
#include "minitf/distributed/runtime/worker_cache.h"
#include "minitf/graph/ops/array_ops.h"
#include "minitf/graph/proto_convert.h"
#include "minitf/graph/scope.h"
#include "minitf/graph/session.h"

namespace tf = minitf;

namespace {

// Every dtype the wire carries, with a value for element i.
const std::vector<tf::DType> kDtypes = {
    tf::DT_FLOAT, tf::DT_DOUBLE, tf::DT_INT32, tf::DT_INT64, tf::DT_BOOL};

// A tensor whose elements differ from one another (and bools that are not
// all alike), from `allocator`.
tf::Tensor Pattern(tf::DType dtype, const tf::TensorShape& shape,
                   tf::Allocator* allocator = tf::cpu_allocator()) {
  tf::Tensor t(allocator, dtype, shape);
  const int64_t n = t.NumElements();
  switch (dtype) {
    case tf::DT_FLOAT:
      for (int64_t i = 0; i < n; ++i) t.data<float>()[i] = 0.5f * i - 7.f;
      break;
    case tf::DT_DOUBLE:
      for (int64_t i = 0; i < n; ++i) t.data<double>()[i] = 1e-3 * i + 1e10;
      break;
    case tf::DT_INT32:
      for (int64_t i = 0; i < n; ++i) t.data<int32_t>()[i] = int32_t(i * 7919);
      break;
    case tf::DT_INT64:
      for (int64_t i = 0; i < n; ++i) t.data<int64_t>()[i] = -i << 33;
      break;
    default:
      for (int64_t i = 0; i < n; ++i) t.data<bool>()[i] = i % 3 == 1;
  }
  return t;
}

// Same dtype, shape and bytes.
::testing::AssertionResult SameTensor(const tf::Tensor& a,
                                      const tf::Tensor& b) {
  if (a.dtype() != b.dtype() || a.shape() != b.shape()) {
    return ::testing::AssertionFailure()
           << a.DebugString() << " vs " << b.DebugString();
  }
  if (a.TotalBytes() != b.TotalBytes() ||
      (a.TotalBytes() > 0 &&
       std::memcmp(a.raw_data(), b.raw_data(), a.TotalBytes()) != 0)) {
    return ::testing::AssertionFailure() << "the bytes differ";
  }
  return ::testing::AssertionSuccess();
}

// The bytes of a ByteBuffer, joined.
std::string Bytes(const grpc::ByteBuffer& buffer) {
  std::vector<grpc::Slice> slices;
  EXPECT_TRUE(buffer.Dump(&slices).ok());
  std::string out;
  for (const grpc::Slice& s : slices) {
    out.append(reinterpret_cast<const char*>(s.begin()), s.size());
  }
  return out;
}

grpc::ByteBuffer Buffer(const std::string& bytes) {
  grpc::Slice slice(bytes);
  return grpc::ByteBuffer(&slice, 1);
}

// Decodes `bytes`; the tensor, or the error.
tf::StatusOr<tf::Tensor> Decode(const std::string& bytes) {
  grpc::ByteBuffer buffer = Buffer(bytes);
  tf::Tensor value;
  bool is_dead = false;
  TF_RETURN_IF_ERROR(tf::DecodeRecvTensorResponse(&buffer, tf::cpu_allocator(),
                                                  &value, &is_dead));
  if (is_dead) return tf::errors::Internal("unexpectedly dead");
  return value;
}

// An allocator that counts its live blocks, to see when a buffer is freed.
class CountingAllocator : public tf::Allocator {
 public:
  std::string Name() const override { return "counting"; }
  void* AllocateRaw(size_t alignment, size_t num_bytes) override {
    ++live_;
    return tf::cpu_allocator()->AllocateRaw(alignment, num_bytes);
  }
  void DeallocateRaw(void* ptr) override {
    tf::cpu_allocator()->DeallocateRaw(ptr);
    --live_;
  }
  int live() const { return live_; }

 private:
  std::atomic<int> live_{0};
};

TEST(TensorCodingTest, EveryDtypeAndSizeRoundTrips) {
  const std::vector<tf::TensorShape> shapes = {
      {}, {0}, {2, 0, 3}, {3}, {255}, {257}, {7, 1013, 3}, {1000003}};
  for (tf::DType dtype : kDtypes) {
    for (const tf::TensorShape& shape : shapes) {
      SCOPED_TRACE(tf::DataTypeString(dtype));
      SCOPED_TRACE(shape.DebugString());
      const tf::Tensor value = Pattern(dtype, shape);
      grpc::ByteBuffer bytes;
      ASSERT_TRUE(tf::EncodeRecvTensorResponse(value, false, &bytes).ok());
      tf::Tensor back;
      bool is_dead = true;
      ASSERT_TRUE(tf::DecodeRecvTensorResponse(&bytes, tf::cpu_allocator(),
                                               &back, &is_dead)
                      .ok());
      EXPECT_FALSE(is_dead);
      EXPECT_TRUE(SameTensor(back, value));
    }
  }
}

// The hand-written bytes are the message protobuf reads, and protobuf's own
// bytes for the message (the tensor first) are read back alike.
TEST(TensorCodingTest, TheBytesAreARecvTensorResponse) {
  for (tf::DType dtype : kDtypes) {
    for (const tf::TensorShape& shape :
         {tf::TensorShape{5}, tf::TensorShape{3, 100003}}) {
      SCOPED_TRACE(tf::DataTypeString(dtype));
      const tf::Tensor value = Pattern(dtype, shape);
      grpc::ByteBuffer bytes;
      ASSERT_TRUE(tf::EncodeRecvTensorResponse(value, false, &bytes).ok());
      tf::proto::RecvTensorResponse parsed;
      ASSERT_TRUE(parsed.ParseFromString(Bytes(bytes)));
      tf::proto::RecvTensorResponse expected;
      ASSERT_TRUE(tf::TensorToProto(value, expected.mutable_tensor()).ok());
      EXPECT_EQ(parsed.SerializeAsString(), expected.SerializeAsString());

      tf::StatusOr<tf::Tensor> back = Decode(expected.SerializeAsString());
      ASSERT_TRUE(back.ok()) << back.status();
      EXPECT_TRUE(SameTensor(*back, value));
    }
  }
}

TEST(TensorCodingTest, ALargeTensorIsSentFromItsOwnBuffer) {
  const tf::Tensor large = Pattern(tf::DT_FLOAT, {tf::kShareTensorBytes});
  grpc::ByteBuffer bytes;
  ASSERT_TRUE(tf::EncodeRecvTensorResponse(large, false, &bytes).ok());
  std::vector<grpc::Slice> slices;
  ASSERT_TRUE(bytes.Dump(&slices).ok());
  ASSERT_EQ(slices.size(), 2u);
  EXPECT_EQ(static_cast<const void*>(slices[1].begin()), large.raw_data());
  EXPECT_EQ(slices[1].size(), large.TotalBytes());

  // A small one is copied next to its header: one slice.
  const tf::Tensor small = Pattern(tf::DT_FLOAT, {3});
  ASSERT_TRUE(tf::EncodeRecvTensorResponse(small, false, &bytes).ok());
  ASSERT_TRUE(bytes.Dump(&slices).ok());
  EXPECT_EQ(slices.size(), 1u);
}

// A tensor that a protobuf message cannot hold (2 GiB, less the fields
// around it) is refused with an error that says so, before any byte is
// written. Its values are never written either: the allocation stays
// virtual.
TEST(TensorCodingTest, ATensorOverTwoGiBIsRefused) {
  const tf::Tensor huge(tf::DT_FLOAT, tf::TensorShape{(int64_t{1} << 29) + 1});
  grpc::ByteBuffer bytes;
  const tf::Status s = tf::EncodeRecvTensorResponse(huge, false, &bytes);
  EXPECT_EQ(s.code(), tf::error::INVALID_ARGUMENT);
  EXPECT_EQ(s.message(),
            "Cannot send a tensor of 2147483652 bytes: a message is at most "
            "2 GiB");
}

TEST(TensorCodingTest, ADeadValueHasNoTensor) {
  grpc::ByteBuffer bytes;
  ASSERT_TRUE(tf::EncodeRecvTensorResponse(tf::Tensor(), true, &bytes).ok());
  tf::proto::RecvTensorResponse parsed;
  ASSERT_TRUE(parsed.ParseFromString(Bytes(bytes)));
  EXPECT_TRUE(parsed.is_dead());
  EXPECT_FALSE(parsed.has_tensor());
  tf::Tensor value;
  bool is_dead = false;
  ASSERT_TRUE(tf::DecodeRecvTensorResponse(&bytes, tf::cpu_allocator(), &value,
                                           &is_dead)
                  .ok());
  EXPECT_TRUE(is_dead);
  EXPECT_FALSE(value.IsInitialized());
}

// The buffer stays while the ByteBuffer (gRPC, once it is sending) holds
// it, after the tensor is gone, and is freed when the last slice goes.
TEST(TensorCodingTest, TheBufferOutlivesItsTensor) {
  CountingAllocator allocator;
  grpc::ByteBuffer bytes;
  const tf::Tensor expected = Pattern(tf::DT_INT64, {4099});
  {
    tf::Tensor value = Pattern(tf::DT_INT64, {4099}, &allocator);
    ASSERT_TRUE(tf::EncodeRecvTensorResponse(value, false, &bytes).ok());
  }
  EXPECT_EQ(allocator.live(), 1);
  tf::StatusOr<tf::Tensor> back = Decode(Bytes(bytes));
  ASSERT_TRUE(back.ok()) << back.status();
  EXPECT_TRUE(SameTensor(*back, expected));
  bytes.Clear();
  EXPECT_EQ(allocator.live(), 0);
}

// Every body cut short, and bytes that are no message, give TensorFlow's
// InvalidArgument; none crashes.
TEST(TensorCodingTest, ATruncatedOrCorruptBodyIsInvalid) {
  grpc::ByteBuffer bytes;
  ASSERT_TRUE(
      tf::EncodeRecvTensorResponse(Pattern(tf::DT_FLOAT, {300}), false, &bytes)
          .ok());
  const std::string whole = Bytes(bytes);
  for (size_t length = 0; length < whole.size(); ++length) {
    tf::StatusOr<tf::Tensor> cut = Decode(whole.substr(0, length));
    ASSERT_EQ(cut.status().code(), tf::error::INVALID_ARGUMENT)
        << length << ": " << cut.status();
  }
  EXPECT_EQ(Decode(whole.substr(0, whole.size() - 1)).status().message(),
            "Cannot parse tensor from response");

  std::mt19937 random(7);
  for (int i = 0; i < 200; ++i) {
    std::string noise(1 + random() % 64, '\0');
    for (char& c : noise) c = static_cast<char>(random());
    EXPECT_FALSE(Decode(noise).ok());
  }
}

TEST(TensorCodingTest, BytesThatDoNotMatchTheShapeAreInvalid) {
  tf::proto::RecvTensorResponse response;
  ASSERT_TRUE(
      tf::TensorToProto(Pattern(tf::DT_FLOAT, {4}), response.mutable_tensor())
          .ok());
  response.mutable_tensor()->mutable_tensor_content()->resize(12);
  tf::StatusOr<tf::Tensor> back = Decode(response.SerializeAsString());
  EXPECT_EQ(back.status().code(), tf::error::INVALID_ARGUMENT);
  EXPECT_EQ(back.status().message(),
            "TensorProto of type float and shape [4] needs 16 bytes of "
            "tensor_content, but has 12");
}

// A bool's byte on the wire may be anything; any but 0 reads as true.
TEST(TensorCodingTest, BoolBytesReadAsTruth) {
  tf::proto::RecvTensorResponse response;
  ASSERT_TRUE(
      tf::TensorToProto(Pattern(tf::DT_BOOL, {3}), response.mutable_tensor())
          .ok());
  response.mutable_tensor()->set_tensor_content(std::string("\x00\x02\x01", 3));
  tf::StatusOr<tf::Tensor> back = Decode(response.SerializeAsString());
  ASSERT_TRUE(back.ok()) << back.status();
  EXPECT_EQ(back->ToVector<bool>(), (std::vector<bool>{false, true, true}));
}

// The form TensorFlow writes small tensors in (a typed list, not
// tensor_content) is read too.
TEST(TensorCodingTest, TypedValueListsAreRead) {
  tf::proto::RecvTensorResponse response;
  response.mutable_tensor()->set_dtype(tf::proto::DT_FLOAT);
  response.mutable_tensor()->mutable_tensor_shape()->add_dim()->set_size(3);
  response.mutable_tensor()->add_float_val(2.5f);
  tf::StatusOr<tf::Tensor> back = Decode(response.SerializeAsString());
  ASSERT_TRUE(back.ok()) << back.status();
  EXPECT_EQ(back->ToVector<float>(), (std::vector<float>{2.5f, 2.5f, 2.5f}));
}

// A raw gRPC peer that answers every call with `reply_(request)`.
class RawPeer : public grpc::CallbackGenericService {
 public:
  explicit RawPeer(std::function<grpc::ByteBuffer()> reply)
      : reply_(std::move(reply)) {
    grpc::ServerBuilder builder;
    builder.AddListeningPort("localhost:0", grpc::InsecureServerCredentials(),
                             &port_);
    builder.SetMaxMessageSize(INT_MAX);
    builder.RegisterCallbackGenericService(this);
    server_ = builder.BuildAndStart();
  }
  ~RawPeer() override { server_->Shutdown(); }
  std::string address() const { return "localhost:" + std::to_string(port_); }

  grpc::ServerGenericBidiReactor* CreateReactor(
      grpc::GenericCallbackServerContext*) override {
    return new Reactor(reply_);
  }

 private:
  class Reactor : public grpc::ServerGenericBidiReactor {
   public:
    explicit Reactor(const std::function<grpc::ByteBuffer()>& reply)
        : reply_(reply) {
      StartRead(&request_);
    }
    void OnReadDone(bool ok) override {
      if (!ok) return Finish(grpc::Status::OK);
      response_ = reply_();
      StartWriteAndFinish(&response_, grpc::WriteOptions(), grpc::Status::OK);
    }
    void OnDone() override { delete this; }

   private:
    const std::function<grpc::ByteBuffer()>& reply_;
    grpc::ByteBuffer request_, response_;
  };
  std::function<grpc::ByteBuffer()> reply_;
  int port_ = 0;
  std::unique_ptr<grpc::Server> server_;
};

// The tensor is dropped as soon as it is encoded, before gRPC sends a byte;
// the peer still receives all of it, and gRPC frees the buffer when done.
TEST(TensorCodingTest, GrpcKeepsTheBufferUntilItHasSentIt) {
  CountingAllocator allocator;
  const tf::TensorShape shape{3, 1048573};  // 12 MiB of floats, odd sized
  RawPeer peer([&] {
    grpc::ByteBuffer bytes;
    EXPECT_TRUE(tf::EncodeRecvTensorResponse(
                    Pattern(tf::DT_FLOAT, shape, &allocator), false, &bytes)
                    .ok());
    EXPECT_EQ(allocator.live(), 1);  // the tensor is gone; its buffer is not
    return bytes;
  });
  grpc::ChannelArguments args;
  args.SetMaxReceiveMessageSize(INT_MAX);
  grpc::GenericStub stub(grpc::CreateCustomChannel(
      peer.address(), grpc::InsecureChannelCredentials(), args));
  grpc::ClientContext context;
  context.set_deadline(std::chrono::system_clock::now() +
                       std::chrono::seconds(30));
  grpc::ByteBuffer request = Buffer(""), reply;
  ASSERT_TRUE(tf::testing::GenericUnaryCall(stub, &context, "/any/Call",
                                            request, &reply)
                  .ok());
  tf::Tensor value;
  bool is_dead = true;
  ASSERT_TRUE(tf::DecodeRecvTensorResponse(&reply, tf::cpu_allocator(), &value,
                                           &is_dead)
                  .ok());
  EXPECT_TRUE(SameTensor(value, Pattern(tf::DT_FLOAT, shape)));
  // gRPC lets go of the slice once the call is done on the server's side,
  // which may come a moment after the client has its answer.
  const auto give_up =
      std::chrono::steady_clock::now() + std::chrono::seconds(10);
  while (allocator.live() != 0 && std::chrono::steady_clock::now() < give_up) {
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  EXPECT_EQ(allocator.live(), 0);
}

// A peer task whose RecvTensor answers with a body cut short: the
// receiving rendezvous reports TensorFlow's InvalidArgument.
TEST(TensorCodingTest, ARendezvousRefusesATruncatedRecvTensorBody) {
  grpc::ByteBuffer whole;
  ASSERT_TRUE(
      tf::EncodeRecvTensorResponse(Pattern(tf::DT_FLOAT, {4096}), false, &whole)
          .ok());
  const std::string cut = Bytes(whole).substr(0, 5000);
  RawPeer ps([&] { return Buffer(cut); });
  const std::string worker_task = "/job:worker/replica:0/task:0";
  tf::WorkerCache workers(
      tf::train::ClusterSpec(
          {{"ps", {ps.address()}}, {"worker", {tf::testing::FreeAddress()}}}),
      worker_task, 0);
  tf::SessionOptions options;
  auto devices = tf::DeviceMgr::Create(options, worker_task).value();
  tf::Device* cpu = devices->ListDevices().front();
  tf::RpcRendezvous rendezvous(1, worker_task, devices.get(), &workers,
                               /*rpc_timeout_ms=*/30000);
  const std::string key =
      tf::Rendezvous::CreateKey("/job:ps/replica:0/task:0/device:CPU:0", 1,
                                cpu->name(), "x:0", tf::FrameAndIter{0, 0});
  tf::Tensor value;
  bool is_dead = false;
  tf::Status status = rendezvous.Recv(tf::Rendezvous::ParseKey(key).value(),
                                      {cpu}, &value, &is_dead);
  EXPECT_EQ(status.code(), tf::error::INVALID_ARGUMENT);
  EXPECT_EQ(status.message(), "Cannot parse tensor from response");
}

// Tensors of every dtype, several MiB and odd-sized, and empty ones, cross
// between two servers with RecvTensor, both ways, and come back equal. A fed
// value enters on the session's own task and a fetched one leaves from it,
// so the value goes through an identity on the ps: the ps fetches it from
// the worker, and the worker then fetches the ps's copy back.
TEST(TensorCodingTest, LargeTensorsCrossBetweenServers) {
  std::ostringstream log;
  tf::train::ClusterSpec cluster({{"ps", {tf::testing::FreeAddress()}},
                                  {"worker", {tf::testing::FreeAddress()}}});
  tf::train::Server ps(cluster, "ps", 0, {}, {.log_stream = &log});
  tf::train::Server worker(cluster, "worker", 0, {}, {.log_stream = &log});
  for (tf::DType dtype : kDtypes) {
    for (const tf::TensorShape& shape :
         {tf::TensorShape{1000003}, tf::TensorShape{3, 0}, tf::TensorShape{},
          tf::TensorShape{7, 77}}) {
      SCOPED_TRACE(tf::DataTypeString(dtype));
      SCOPED_TRACE(shape.DebugString());
      tf::Graph graph;
      tf::graph_scope use(graph);
      tf::device_scope on_worker("/job:worker/task:0");
      tf::Output x = tf::placeholder(dtype, shape, "x");
      tf::Output on_ps;
      {
        tf::device_scope on("/job:ps/task:0");
        on_ps = tf::identity(x);
      }
      tf::Output y = tf::identity(on_ps);
      tf::SessionOptions options;
      options.target = worker.target();
      options.config.operation_timeout_in_ms = 30000;  // a broken test ends
      tf::Session sess(options, &graph);
      const tf::Tensor value = Pattern(dtype, shape);
      EXPECT_TRUE(SameTensor(sess.run(y, {{x, value}}), value));
    }
  }
}

// The message size limit is raised on both sides of every call: a fed and
// a fetched value of 16 MiB, four times gRPC's default limit, cross in the
// RunStep request and its answer. The target names the server by address,
// so the session goes through gRPC rather than to the local master.
TEST(TensorCodingTest, A16MiBValueCrossesRunStepBothWays) {
  std::ostringstream log;
  tf::train::Server worker(
      tf::train::ClusterSpec({{"worker", {tf::testing::FreeAddress()}}}),
      "worker", 0, {}, {.log_stream = &log});
  const std::string target = worker.target();
  tf::Graph graph;
  tf::graph_scope use(graph);
  tf::Output x = tf::placeholder(tf::DT_FLOAT, {4 << 20}, "x");
  tf::Output y = tf::identity(x);
  tf::SessionOptions options;
  options.target = "grpc://127.0.0.1:" + target.substr(target.rfind(':') + 1);
  options.config.operation_timeout_in_ms = 30000;  // a broken test ends
  tf::Session sess(options, &graph);
  const tf::Tensor value = Pattern(tf::DT_FLOAT, {4 << 20});
  EXPECT_TRUE(SameTensor(sess.run(y, {{x, value}}), value));
}

}  // namespace
