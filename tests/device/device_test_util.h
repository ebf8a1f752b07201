// Helpers shared by the tests of layer 4.
//
// The device factories read two environment variables
// (MINITF_VIRTUAL_GPUS, CUDA_VISIBLE_DEVICES) that a developer's shell or a
// GPU machine may have set. CleanDeviceEnvironment clears them for the
// length of a test, so that a test sees only the devices it asks for, and
// ScopedEnv sets one for the length of a C++ scope.
//
//   class MyTest : public tf::testing::CleanDeviceEnvironment {};
//   TEST_F(MyTest, Two) {
//     tf::testing::ScopedEnv env("MINITF_VIRTUAL_GPUS", "2");
//     ...
//   }
#pragma once

#include <gtest/gtest.h>

#include <cstdlib>
#include <optional>
#include <string>

#include "minitf/device/devices/device_factory.h"
#include "minitf/device/devices/device_mgr.h"

namespace minitf::testing {

/// Sets (or, with nullptr, unsets) an environment variable, and restores
/// what it was when the scope ends.
class ScopedEnv {
 public:
  ScopedEnv(const char* name, const char* value) : name_(name) {
    if (const char* old = std::getenv(name)) old_ = old;
    if (value == nullptr) {
      unsetenv(name);
    } else {
      setenv(name, value, /*overwrite=*/1);
    }
  }
  ~ScopedEnv() {
    if (old_) {
      setenv(name_.c_str(), old_->c_str(), 1);
    } else {
      unsetenv(name_.c_str());
    }
  }
  ScopedEnv(const ScopedEnv&) = delete;
  ScopedEnv& operator=(const ScopedEnv&) = delete;

 private:
  std::string name_;
  std::optional<std::string> old_;
};

/// A fixture whose tests run without the device environment variables.
class CleanDeviceEnvironment : public ::testing::Test {
 protected:
  ScopedEnv no_virtual_gpus_{"MINITF_VIRTUAL_GPUS", nullptr};
  ScopedEnv no_cuda_visible_{"CUDA_VISIBLE_DEVICES", nullptr};
  ScopedEnv no_emulation_{"MINITF_EMULATE_GPU_KERNELS", nullptr};
};

/// The devices `config` gives a local session; fails the test on an error.
inline std::unique_ptr<DeviceMgr> MakeDevices(const ConfigProto& config) {
  SessionOptions options;
  options.config = config;
  auto mgr = DeviceMgr::Create(options);
  EXPECT_TRUE(mgr.ok()) << mgr.status();
  return mgr.ok() ? std::move(mgr).value() : nullptr;
}

/// A ConfigProto asking for `n` virtual GPUs of `limit_mb` MiB each.
inline ConfigProto VirtualGpus(int n, int64_t limit_mb = 0) {
  ConfigProto config;
  config.gpu_options.virtual_gpus = n;
  config.gpu_options.virtual_gpu_memory_limit_mb = limit_mb;
  return config;
}

}  // namespace minitf::testing
