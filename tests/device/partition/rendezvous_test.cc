#include "minitf/device/partition/rendezvous.h"

#include <gtest/gtest.h>

#include <atomic>
#include <string>
#include <thread>
#include <vector>

#include "device_test_util.h"
#include "minitf/device/partition/intra_process_rendezvous.h"

namespace minitf {
namespace {

constexpr const char* kCpu0 = "/job:localhost/replica:0/task:0/device:CPU:0";
constexpr const char* kGpu0 = "/job:localhost/replica:0/task:0/device:GPU:0";

Rendezvous::ParsedKey Key(const std::string& name,
                          const std::string& src = kCpu0,
                          const std::string& dst = kGpu0) {
  return Rendezvous::ParseKey(
             Rendezvous::CreateKey(src, 0x75bcd15, dst, name, FrameAndIter{}))
      .value();
}

// --- Keys -------------------------------------------------------------------

TEST(RendezvousKeyTest, CreateKeyIsTensorFlowsFormat) {
  EXPECT_EQ(
      Rendezvous::CreateKey(kCpu0, 0x75bcd15, kGpu0, "a:0", FrameAndIter{0, 0}),
      "/job:localhost/replica:0/task:0/device:CPU:0;00000000075bcd15;"
      "/job:localhost/replica:0/task:0/device:GPU:0;a:0;0:0");
  EXPECT_EQ(Rendezvous::CreateKey(kCpu0, ~uint64_t{0}, kCpu0, "^b",
                                  FrameAndIter{2, 7}),
            "/job:localhost/replica:0/task:0/device:CPU:0;ffffffffffffffff;"
            "/job:localhost/replica:0/task:0/device:CPU:0;^b;2:7");
}

TEST(RendezvousKeyTest, ParseKeySplitsTheParts) {
  const std::string key =
      Rendezvous::CreateKey(kCpu0, 0xabc, kGpu0, "x:1", FrameAndIter{});
  Rendezvous::ParsedKey parsed = Rendezvous::ParseKey(key).value();
  EXPECT_EQ(parsed.full_key, key);
  EXPECT_EQ(parsed.src_device, kCpu0);
  EXPECT_EQ(parsed.dst_device, kGpu0);
  EXPECT_EQ(parsed.edge_name, "x:1");
  EXPECT_EQ(parsed.src_incarnation, 0xabcu);
  EXPECT_EQ(parsed.dst.device_type, "GPU");
  // A copy points into its own string.
  Rendezvous::ParsedKey copy = parsed;
  parsed = Rendezvous::ParsedKey();
  EXPECT_EQ(copy.edge_name, "x:1");
  EXPECT_EQ(copy.src_device, kCpu0);
}

TEST(RendezvousKeyTest, MalformedKeysAreInvalidArgument) {
  for (const std::string& key : std::vector<std::string>{
           "", "a;b;c;d", StrCat(kCpu0, ";1;", kGpu0, ";x;0:0;extra"),
           StrCat(kCpu0, ";xyz;", kGpu0, ";x;0:0"),
           StrCat("/gpu:0;1;", kGpu0, ";x;0:0"),
           StrCat(kCpu0, ";1;", kGpu0, ";;0:0")}) {
    StatusOr<Rendezvous::ParsedKey> parsed = Rendezvous::ParseKey(key);
    ASSERT_FALSE(parsed.ok()) << key;
    EXPECT_EQ(parsed.status().code(), error::INVALID_ARGUMENT);
    EXPECT_EQ(parsed.status().message(), "Invalid  rendezvous key: " + key);
  }
}

// --- LocalRendezvous
// ----------------------------------------------------------

TEST(LocalRendezvousTest, SendThenRecv) {
  LocalRendezvous r;
  ASSERT_TRUE(r.Send(Key("a:0"), {}, Tensor(3.f), false).ok());
  Tensor t;
  bool dead = true;
  ASSERT_TRUE(r.Recv(Key("a:0"), {}, &t, &dead).ok());
  EXPECT_EQ(t.scalar<float>(), 3.f);
  EXPECT_FALSE(dead);
}

TEST(LocalRendezvousTest, RecvThenSendCallsTheWaiterInTheSender) {
  LocalRendezvous r;
  float got = 0;
  std::thread::id caller;
  r.RecvAsync(Key("a:0"), {},
              [&](const Status& s, const Rendezvous::Args&,
                  const Rendezvous::Args&, const Tensor& t, bool) {
                ASSERT_TRUE(s.ok());
                got = t.scalar<float>();
                caller = std::this_thread::get_id();
              });
  EXPECT_EQ(got, 0.f);
  ASSERT_TRUE(r.Send(Key("a:0"), {}, Tensor(5.f), false).ok());
  EXPECT_EQ(got, 5.f);
  EXPECT_EQ(caller, std::this_thread::get_id());
}

TEST(LocalRendezvousTest, KeysAreMatchedFirstInFirstOut) {
  LocalRendezvous r;
  for (float v : {1.f, 2.f, 3.f}) {
    ASSERT_TRUE(r.Send(Key("a:0"), {}, Tensor(v), false).ok());
  }
  ASSERT_TRUE(r.Send(Key("b:0"), {}, Tensor(9.f), false).ok());
  for (float want : {1.f, 2.f, 3.f}) {
    Tensor t;
    bool dead;
    ASSERT_TRUE(r.Recv(Key("a:0"), {}, &t, &dead).ok());
    EXPECT_EQ(t.scalar<float>(), want);
  }
}

TEST(LocalRendezvousTest, AbortFailsWaitersAndEveryLaterCall) {
  LocalRendezvous r;
  Status heard;
  r.RecvAsync(Key("a:0"), {},
              [&](const Status& s, const Rendezvous::Args&,
                  const Rendezvous::Args&, const Tensor&, bool) { heard = s; });
  r.StartAbort(errors::InvalidArgument("first"));
  r.StartAbort(errors::Internal("second"));
  EXPECT_EQ(heard.message(), "first");
  EXPECT_EQ(r.Send(Key("a:0"), {}, Tensor(1.f), false).message(), "first");
  Tensor t;
  bool dead;
  EXPECT_EQ(r.Recv(Key("b:0"), {}, &t, &dead).message(), "first");
}

TEST(LocalRendezvousTest, DestroyingCancelsWaiters) {
  Status heard;
  {
    LocalRendezvous r;
    r.RecvAsync(
        Key("a:0"), {},
        [&](const Status& s, const Rendezvous::Args&, const Rendezvous::Args&,
            const Tensor&, bool) { heard = s; });
  }
  EXPECT_EQ(heard.code(), error::CANCELLED);
}

TEST(LocalRendezvousTest, ManyThreadsSendAndReceive) {
  LocalRendezvous r;
  constexpr int kKeys = 200;
  std::atomic<int> sum{0};
  std::thread sender([&] {
    for (int i = 0; i < kKeys; ++i) {
      ASSERT_TRUE(
          r.Send(Key(StrCat("t", i)), {}, Tensor(static_cast<float>(i)), false)
              .ok());
    }
  });
  std::thread receiver([&] {
    for (int i = kKeys - 1; i >= 0; --i) {
      r.RecvAsync(Key(StrCat("t", i)), {},
                  [&](const Status& s, const Rendezvous::Args&,
                      const Rendezvous::Args&, const Tensor& t, bool) {
                    ASSERT_TRUE(s.ok());
                    sum += static_cast<int>(t.scalar<float>());
                  });
    }
  });
  sender.join();
  receiver.join();
  EXPECT_EQ(sum, kKeys * (kKeys - 1) / 2);
}

// --- IntraProcessRendezvous
// ---------------------------------------------------

class IntraProcessRendezvousTest : public testing::CleanDeviceEnvironment {
 protected:
  void SetUp() override {
    ConfigProto config = testing::VirtualGpus(1, /*limit_mb=*/1);
    config.device_count["CPU"] = 2;
    mgr_ = testing::MakeDevices(config);
    ASSERT_NE(mgr_, nullptr);
    cpu0_ = mgr_->LookupDevice("/cpu:0").value();
    cpu1_ = mgr_->LookupDevice("/cpu:1").value();
    gpu0_ = mgr_->LookupDevice("/gpu:0").value();
  }

  std::unique_ptr<DeviceMgr> mgr_;
  Device* cpu0_ = nullptr;
  Device* cpu1_ = nullptr;
  Device* gpu0_ = nullptr;
};

TEST_F(IntraProcessRendezvousTest, CopiesIntoTheReceiversMemory) {
  IntraProcessRendezvous r;
  const Tensor x({1.f, 2.f, 3.f, 4.f});
  ASSERT_TRUE(r.Send(Key("x:0"), {cpu0_}, x, false).ok());
  Tensor got;
  bool dead;
  ASSERT_TRUE(r.Recv(Key("x:0"), {gpu0_}, &got, &dead).ok());
  EXPECT_EQ(got.ToVector<float>(), x.ToVector<float>());
  EXPECT_FALSE(got.SharesBufferWith(x));
  EXPECT_EQ(got.allocator(), gpu0_->allocator());
  const TransferRecord record = r.GetTransferStats().at({cpu0_, gpu0_});
  EXPECT_EQ(record.tensors, 1);
  EXPECT_EQ(record.copies, 1);
  EXPECT_EQ(record.bytes, static_cast<int64_t>(x.TotalBytes()));
  EXPECT_EQ(record.bytes_copied, record.bytes);
  EXPECT_EQ(gpu0_->GetTransferStats().bytes_in, record.bytes);
}

TEST_F(IntraProcessRendezvousTest, HostMemoryIsSharedNotCopied) {
  IntraProcessRendezvous r;
  const Tensor x({1.f, 2.f});
  ASSERT_TRUE(r.Send(Key("x:0"), {cpu0_}, x, false).ok());
  Tensor got;
  bool dead;
  ASSERT_TRUE(r.Recv(Key("x:0"), {cpu1_}, &got, &dead).ok());
  EXPECT_TRUE(got.SharesBufferWith(x));
  const TransferRecord record = r.GetTransferStats().at({cpu0_, cpu1_});
  EXPECT_EQ(record.tensors, 1);
  EXPECT_EQ(record.copies, 0);
  EXPECT_EQ(record.bytes_copied, 0);
}

TEST_F(IntraProcessRendezvousTest, AnEmptyValuePassesUncopied) {
  IntraProcessRendezvous r;
  ASSERT_TRUE(r.Send(Key("w:0"), {cpu0_}, Tensor(), false).ok());
  Tensor got;
  bool dead;
  ASSERT_TRUE(r.Recv(Key("w:0"), {gpu0_}, &got, &dead).ok());
  EXPECT_FALSE(got.IsInitialized());
}

TEST_F(IntraProcessRendezvousTest, AFullReceiverFailsTheRecvWithItsOom) {
  IntraProcessRendezvous r;
  auto big = Tensor::Allocate(DT_FLOAT, TensorShape({1024, 1024})).value();
  ASSERT_TRUE(r.Send(Key("big:0"), {cpu0_}, big, false).ok());
  Tensor got;
  bool dead;
  Status s = r.Recv(Key("big:0"), {gpu0_}, &got, &dead);
  EXPECT_EQ(s.code(), error::RESOURCE_EXHAUSTED) << s;
  EXPECT_NE(
      s.message().find("OOM when allocating tensor with shape[1024,1024]"),
      std::string::npos)
      << s;
  EXPECT_TRUE(r.GetTransferStats().empty());
}

}  // namespace
}  // namespace minitf
