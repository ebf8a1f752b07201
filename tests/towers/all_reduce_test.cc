// All-reduce over N devices: gather, ring and NCCL give the plain sum on
// every device, on virtual GPUs (CPU kernels) and emulated GPUs (CUDA
// kernels on the emulator), and the ring and the gather move exactly the
// bytes of their models (all_reduce.h), read from the session's transfer
// statistics.
#include "minitf/towers/all_reduce.h"

#include <gtest/gtest.h>

#include <map>
#include <string>
#include <tuple>
#include <vector>

#include "../device/device_test_util.h"
#include "minitf/device/session/direct_session.h"
#include "minitf/graph/ops/array_ops.h"
#include "minitf/graph/scope.h"
#include "minitf/graph/session.h"
#include "minitf/tensor/errors.h"
#include "minitf/towers/nccl_manager.h"
#include "minitf/towers/nccl_ops.h"

namespace minitf {
namespace {

std::string Gpu(int i) {
  return "/job:localhost/replica:0/task:0/device:GPU:" + std::to_string(i);
}
const std::string kCpu = "/job:localhost/replica:0/task:0/device:CPU:0";

// Device d's tensor: element i is 100·(d+1) + i, so every sum is an exact
// float and element i of the sum over n devices is 50·n·(n+1) + n·i.
std::vector<Output> OnGpus(int n, const std::vector<int64_t>& shape) {
  int64_t count = 1;
  for (int64_t dim : shape) count *= dim;
  std::vector<Output> tensors;
  for (int d = 0; d < n; ++d) {
    std::vector<float> values(count);
    for (int64_t i = 0; i < count; ++i) values[i] = 100.f * (d + 1) + i;
    device_scope on("/gpu:" + std::to_string(d));
    tensors.push_back(
        constant(Tensor::FromVector(values, TensorShape(shape)).value(), "t"));
  }
  return tensors;
}

std::vector<float> ExpectedSum(int n, int64_t count) {
  std::vector<float> sum(count);
  for (int64_t i = 0; i < count; ++i) sum[i] = 50.f * n * (n + 1) + n * i;
  return sum;
}

ConfigProto Gpus(int n, bool emulated) {
  ConfigProto config = testing::VirtualGpus(n);
  config.gpu_options.emulate_gpu_kernels = emulated;
  return config;
}

// Bytes copied from device to device in the runs since `before`.
std::map<std::pair<std::string, std::string>, int64_t> BytesSince(
    const TransferTable& before, const TransferTable& after) {
  std::map<std::pair<std::string, std::string>, int64_t> bytes;
  for (const auto& [route, record] : after) {
    const auto it = before.find(route);
    const int64_t moved = record.bytes_copied -
                          (it == before.end() ? 0 : it->second.bytes_copied);
    if (moved != 0) bytes[route] = moved;
  }
  return bytes;
}

// Runs `outputs` for their effect only (a group of them as the target, so
// no value is fetched to the client) and returns the bytes that moved.
std::map<std::pair<std::string, std::string>, int64_t> BytesOfOneRun(
    Session& sess, const std::vector<Output>& outputs) {
  std::vector<Operation> ops;
  for (const Output& o : outputs) ops.push_back(o.op());
  Operation all = group(ops);
  auto* direct = dynamic_cast<DirectSession*>(sess.core());
  EXPECT_NE(direct, nullptr);
  const TransferTable before = direct->GetTransferStats();
  sess.run(all);
  return BytesSince(before, direct->GetTransferStats());
}

class AllReduceTest
    : public testing::CleanDeviceEnvironment,
      public ::testing::WithParamInterface<std::tuple<int, bool>> {
 protected:
  int n() const { return std::get<0>(GetParam()); }
  bool emulated() const { return std::get<1>(GetParam()); }
  Graph graph_;
  graph_scope use_{graph_};
};

// --8<-- [start:ring_test]
TEST_P(AllReduceTest, RingAndGatherGiveThePlainSumOnEveryDevice) {
  const std::vector<Output> tensors = OnGpus(n(), {4, 6});
  const std::vector<Output> ring = ring_all_reduce(tensors);
  const std::vector<Output> gather = all_reduce_gather(tensors, "/cpu:0");
  ASSERT_EQ(ring.size(), static_cast<size_t>(n()));
  Session sess(Gpus(n(), emulated()));
  std::vector<Fetch> fetches(ring.begin(), ring.end());
  fetches.insert(fetches.end(), gather.begin(), gather.end());
  const std::vector<Tensor> r = sess.run(fetches);
  for (int d = 0; d < 2 * n(); ++d) {
    EXPECT_EQ(r[d].shape(), TensorShape({4, 6}));
    EXPECT_EQ(r[d].ToVector<float>(), ExpectedSum(n(), 24)) << "output " << d;
  }
  for (int d = 0; d < n(); ++d) {
    EXPECT_EQ(ring[d].op().device(), tensors[d].op().device());
    EXPECT_EQ(gather[d].op().device(), tensors[d].op().device());
  }
}

TEST_P(AllReduceTest, RingMovesTwoNMinusOneOverNOfKPerDevice) {
  // K = 24 floats = 96 bytes, which 2, 3 and 4 divide: each device sends
  // 2(N−1)/N·K to the next and receives as much from the one before.
  const std::vector<Output> ring = ring_all_reduce(OnGpus(n(), {4, 6}));
  Session sess(Gpus(n(), emulated()));
  const auto bytes = BytesOfOneRun(sess, ring);
  const int64_t k = 24 * 4;
  std::map<std::pair<std::string, std::string>, int64_t> expected;
  for (int d = 0; d < n(); ++d) {
    expected[{Gpu(d), Gpu((d + 1) % n())}] = 2 * (n() - 1) * k / n();
    EXPECT_EQ(RingBytesSent(24, 4, n(), d), 2 * (n() - 1) * k / n());
  }
  EXPECT_EQ(bytes, expected);
}
// --8<-- [end:ring_test]

TEST_P(AllReduceTest, RingWithUnevenChunksMovesWhatTheModelSays) {
  // K = 7 floats: chunks of RingChunkSizes(7, n), and device d sends
  // 2K − s[(d+1)%n] − s[(d+2)%n] elements (RingBytesSent).
  const std::vector<Output> tensors = OnGpus(n(), {7});
  const std::vector<Output> ring = ring_all_reduce(tensors);
  Session sess(Gpus(n(), emulated()));
  std::vector<Fetch> fetches(ring.begin(), ring.end());
  for (const Tensor& t : sess.run(fetches)) {
    EXPECT_EQ(t.ToVector<float>(), ExpectedSum(n(), 7));
  }
  const auto bytes = BytesOfOneRun(sess, ring);
  const std::vector<int64_t> s = RingChunkSizes(7, n());
  for (int d = 0; d < n(); ++d) {
    const int64_t model = (2 * 7 - s[(d + 1) % n()] - s[(d + 2) % n()]) * 4;
    EXPECT_EQ(RingBytesSent(7, 4, n(), d), model);
    EXPECT_EQ(bytes.at({Gpu(d), Gpu((d + 1) % n())}), model) << "device " << d;
  }
  EXPECT_EQ(bytes.size(), static_cast<size_t>(n()));
}

TEST_P(AllReduceTest, GatherMovesNKIntoTheCpuAndNKBackOut) {
  const std::vector<Output> gather =
      all_reduce_gather(OnGpus(n(), {4, 6}), "/cpu:0");
  Session sess(Gpus(n(), emulated()));
  const auto bytes = BytesOfOneRun(sess, gather);
  std::map<std::pair<std::string, std::string>, int64_t> expected;
  for (int d = 0; d < n(); ++d) {
    expected[{Gpu(d), kCpu}] = 96;
    expected[{kCpu, Gpu(d)}] = 96;
  }
  EXPECT_EQ(bytes, expected);
}

TEST_P(AllReduceTest, MeanDividesByTheNumberOfDevices) {
  const std::vector<Output> tensors = OnGpus(n(), {5});
  const std::vector<Output> ring = ring_all_reduce(tensors, /*mean=*/true);
  const std::vector<Output> gather =
      all_reduce_gather(tensors, "/cpu:0", /*mean=*/true);
  Session sess(Gpus(n(), emulated()));
  std::vector<float> mean = ExpectedSum(n(), 5);
  for (float& v : mean) v /= static_cast<float>(n());
  for (const Tensor& t : sess.run({ring[0], ring[n() - 1], gather[0]})) {
    EXPECT_EQ(t.ToVector<float>(), mean);
  }
}

TEST_P(AllReduceTest, NcclAllSumGivesTheSumOnEveryGpu) {
  const std::vector<Output> tensors = OnGpus(n(), {3, 2});
  const std::vector<Output> summed = nccl_all_sum(tensors);
  Session sess(Gpus(n(), emulated()));
  std::vector<Fetch> fetches(summed.begin(), summed.end());
  for (int step = 0; step < 2; ++step) {
    const std::vector<Tensor> r = sess.run(fetches);
    for (int d = 0; d < n(); ++d) {
      EXPECT_EQ(r[d].ToVector<float>(), ExpectedSum(n(), 6)) << "output " << d;
    }
  }
}

INSTANTIATE_TEST_SUITE_P(
    VirtualAndEmulatedGpus, AllReduceTest,
    ::testing::Combine(::testing::Values(2, 3, 4), ::testing::Bool()),
    [](const ::testing::TestParamInfo<std::tuple<int, bool>>& info) {
      return std::to_string(std::get<0>(info.param)) +
             (std::get<1>(info.param) ? "EmulatedGpus" : "VirtualGpus");
    });

class AllReduceErrorsTest : public testing::CleanDeviceEnvironment {
 protected:
  Graph graph_;
  graph_scope use_{graph_};
};

template <typename F>
std::string InvalidArgument(F f) {
  try {
    f();
  } catch (const errors::InvalidArgumentError& e) {
    return e.what();
  }
  ADD_FAILURE() << "no InvalidArgumentError";
  return "";
}

TEST_F(AllReduceErrorsTest, ARingOverOneDeviceIsRefused) {
  const std::vector<Output> one = OnGpus(1, {4});
  EXPECT_NE(InvalidArgument([&] {
              ring_all_reduce(one);
            }).find("input_tensors must be length 2 or longer"),
            std::string::npos);
}

TEST_F(AllReduceErrorsTest, TensorsOfDifferentShapesOrDtypesAreRefused) {
  Output a, b, c;
  {
    device_scope on("/gpu:0");
    a = constant({1.f, 2.f}, {2}, "a");
  }
  {
    device_scope on("/gpu:1");
    b = constant({1.f, 2.f, 3.f}, {3}, "b");
    c = constant({1, 2}, {2}, "c");
  }
  EXPECT_NE(InvalidArgument([&] {
              ring_all_reduce({a, b});
            }).find("shapes [2] (a:0) and [3] (b:0) are not compatible"),
            std::string::npos);
  EXPECT_NE(InvalidArgument([&] {
              all_reduce_gather({a, b}, "/cpu:0");
            }).find("are not compatible"),
            std::string::npos);
  EXPECT_NE(InvalidArgument([&] {
              ring_all_reduce({a, c});
            }).find("a:0 is float and c:0 is int32"),
            std::string::npos);
}

TEST_F(AllReduceErrorsTest, ATensorWithoutADeviceIsRefused) {
  Output a, b;
  {
    device_scope on("/gpu:0");
    a = constant({1.f, 2.f}, {2}, "a");
  }
  b = constant({1.f, 2.f}, {2}, "b");
  EXPECT_NE(InvalidArgument([&] {
              ring_all_reduce({a, b});
            }).find("Device assignment for tensor b:0 required"),
            std::string::npos);
  // TensorFlow's words for all_sum (nccl_ops.py's _check_device).
  EXPECT_EQ(InvalidArgument([&] {
              nccl_all_sum({a, b});
            }),
            "Device assignment for tensor=Tensor(\"b:0\", shape=(2,), "
            "dtype=float32) required for nccl collective ops");
  EXPECT_EQ(InvalidArgument([&] { nccl_all_sum({}); }),
            "Must pass >0 tensors to all reduce operations");
}

// --8<-- [start:nccl_graph]
TEST_F(AllReduceErrorsTest, NcclAllSumBuildsTensorFlowsNodes) {
  const std::vector<Output> summed = nccl_all_sum(OnGpus(2, {2}));
  ASSERT_EQ(summed.size(), 2u);
  EXPECT_EQ(summed[0].name(), "NcclAllReduce:0");
  EXPECT_EQ(summed[1].name(), "NcclAllReduce_1:0");
  const std::string shared =
      GetAttr<std::string>(summed[0].node()->attrs(), "shared_name").value();
  EXPECT_EQ(shared.substr(0, 1), "c");
  for (int d = 0; d < 2; ++d) {
    const AttrMap& attrs = summed[d].node()->attrs();
    EXPECT_EQ(summed[d].op().type(), "NcclAllReduce");
    EXPECT_EQ(summed[d].op().device(), "/device:GPU:" + std::to_string(d));
    EXPECT_EQ(GetAttr<std::string>(attrs, "reduction").value(), "sum");
    EXPECT_EQ(GetAttr<int64_t>(attrs, "num_devices").value(), 2);
    EXPECT_EQ(GetAttr<std::string>(attrs, "shared_name").value(), shared);
  }
  // A second all_sum takes the next name of the process's counter.
  const std::vector<Output> again = nccl_all_sum(OnGpus(2, {2}));
  EXPECT_EQ(
      GetAttr<std::string>(again[0].node()->attrs(), "shared_name").value(),
      "c" + std::to_string(std::stoi(shared.substr(1)) + 1));
}
// --8<-- [end:nccl_graph]

// --8<-- [start:nccl_timeout]
TEST_F(AllReduceErrorsTest, EvaluatingOneOutputOfAllSumFailsAtTheDeadline) {
  // TensorFlow hangs here; minitf's participant gives up after the
  // session's operation_timeout_in_ms, saying who came.
  const std::vector<Output> summed = nccl_all_sum(OnGpus(2, {2}));
  ConfigProto config = testing::VirtualGpus(2);
  config.operation_timeout_in_ms = 50;
  Session sess(config);
  const std::string shared =
      GetAttr<std::string>(summed[0].node()->attrs(), "shared_name").value();
  try {
    sess.run(summed[0]);
    ADD_FAILURE() << "no DeadlineExceededError";
  } catch (const errors::DeadlineExceededError& e) {
    const std::string what = e.what();
    EXPECT_NE(what.find("shared_name " + shared), std::string::npos) << what;
    EXPECT_NE(what.find("1 of 2 participants arrived within 50 ms (" + Gpu(0)),
              std::string::npos)
        << what;
  }
  EXPECT_EQ(NcclManager::Get()->num_pending(), 0);
  // Both outputs in one run: the same session sums.
  const std::vector<Tensor> r = sess.run({summed[0], summed[1]});
  EXPECT_EQ(r[1].ToVector<float>(), ExpectedSum(2, 2));
}
// --8<-- [end:nccl_timeout]

}  // namespace
}  // namespace minitf
