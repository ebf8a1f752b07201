#include "minitf/gpu/emulator/runtime_api.h"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <deque>
#include <functional>
#include <mutex>
#include <new>
#include <set>
#include <thread>
#include <unordered_map>
#include <utility>
#include <vector>

#include "minitf/gpu/emulator/grid_executor.h"
#include "minitf/gpu/emulator/sanitizer.h"

namespace minitf::gpu::emulator {

/// A stream: a queue of work that one host thread runs in order.
class Stream {
 public:
  Stream() : thread_([this] { serve(); }) {}
  ~Stream() {
    {
      std::lock_guard lock(mutex_);
      stopping_ = true;
    }
    changed_.notify_all();
    thread_.join();
  }

  void enqueue(std::function<void()> work) {
    {
      std::lock_guard lock(mutex_);
      queue_.push_back(std::move(work));
    }
    changed_.notify_all();
  }
  void synchronize() {
    std::unique_lock lock(mutex_);
    changed_.wait(lock, [&] { return queue_.empty() && !busy_; });
  }
  bool idle() {
    std::lock_guard lock(mutex_);
    return queue_.empty() && !busy_;
  }

 private:
  void serve() {
    std::unique_lock lock(mutex_);
    for (;;) {
      changed_.wait(lock, [&] { return stopping_ || !queue_.empty(); });
      if (queue_.empty()) return;
      std::function<void()> work = std::move(queue_.front());
      queue_.pop_front();
      busy_ = true;
      lock.unlock();
      work();
      lock.lock();
      busy_ = false;
      changed_.notify_all();
    }
  }

  std::mutex mutex_;
  std::condition_variable changed_;
  std::deque<std::function<void()>> queue_;
  bool busy_ = false;
  bool stopping_ = false;
  std::thread thread_;
};

/// An event: recorded into a stream, it happens when the work before it is
/// done, and keeps the host time at which it did. Each record is a state of
/// its own, shared with the work that completes it or waits for it: as in
/// CUDA, a stream told to wait for an event waits for the record made last
/// before it was told, whatever is recorded later, and the event may be
/// destroyed while queued work still refers to a record.
class Event {
 public:
  struct Record {
    std::mutex mutex;
    std::condition_variable changed;
    bool done = false;
    std::chrono::steady_clock::time_point when;

    void happen() {
      {
        std::lock_guard lock(mutex);
        done = true;
        when = std::chrono::steady_clock::now();
      }
      changed.notify_all();
    }
    void wait() {
      std::unique_lock lock(mutex);
      changed.wait(lock, [&] { return done; });
    }
  };

  /// A new record, not yet done, which becomes the event's latest.
  std::shared_ptr<Record> arm() {
    std::lock_guard lock(mutex_);
    latest_ = std::make_shared<Record>();
    return latest_;
  }
  /// The latest record; nullptr when the event was never recorded.
  std::shared_ptr<Record> latest() {
    std::lock_guard lock(mutex_);
    return latest_;
  }
  void wait() {
    if (std::shared_ptr<Record> record = latest()) record->wait();
  }
  /// 0: never recorded; 1: recorded, not yet done; 2: done.
  int status(std::chrono::steady_clock::time_point* when) {
    std::shared_ptr<Record> record = latest();
    if (record == nullptr) return 0;
    std::lock_guard lock(record->mutex);
    if (when != nullptr) *when = record->when;
    return record->done ? 2 : 1;
  }

 private:
  std::mutex mutex_;
  std::shared_ptr<Record> latest_;  // guarded by mutex_
};

namespace {

constexpr std::size_t kTotalMemory = std::size_t{8} << 30;
constexpr std::size_t kSharedMemPerBlock = 48 * 1024;
constexpr unsigned kMaxThreadsPerBlock = 1024;

thread_local cudaError_t last_error = cudaSuccess;

// The device-wide state: live allocations, streams and events, and the
// failure of a kernel that ran since the last synchronisation.
struct Device {
  std::mutex mutex;
  std::unordered_map<void*, std::size_t> allocations;
  std::size_t allocated = 0;
  std::set<Stream*> streams;
  std::set<Event*> events;
  cudaError_t pending = cudaSuccess;
};

Device& device() {
  static Device* d = new Device;  // outlives every stream's thread
  return *d;
}

cudaError_t fail(cudaError_t error) {
  last_error = error;
  return error;
}

cudaError_t take_pending() {
  std::lock_guard lock(device().mutex);
  return std::exchange(device().pending, cudaSuccess);
}

// Returns the pending kernel failure (also as the last error), or success.
cudaError_t pending_as_result() {
  const cudaError_t error = take_pending();
  if (error != cudaSuccess) last_error = error;
  return error;
}

bool valid_stream(cudaStream_t stream) {
  if (stream == nullptr) return true;
  std::lock_guard lock(device().mutex);
  return device().streams.count(stream) != 0;
}

bool valid_event(cudaEvent_t event) {
  std::lock_guard lock(device().mutex);
  return event != nullptr && device().events.count(event) != 0;
}

// A new stream or event at *handle, in `live` (the device's streams or
// events) from now on, so that valid_stream or valid_event accepts it.
template <class Object>
cudaError_t create(Object** handle, std::set<Object*>& live) {
  if (handle == nullptr) return fail(cudaErrorInvalidValue);
  *handle = new Object;
  std::lock_guard lock(device().mutex);
  live.insert(*handle);
  return cudaSuccess;
}

// The legacy default stream: its work starts once every stream has drained.
void drain_streams() {
  std::vector<Stream*> streams;
  {
    std::lock_guard lock(device().mutex);
    streams.assign(device().streams.begin(), device().streams.end());
  }
  for (Stream* s : streams) s->synchronize();
}

// Runs `work` in `stream`'s order: now on this thread for the default
// stream, else queued.
void submit(cudaStream_t stream, std::function<void()> work) {
  if (stream == nullptr) {
    drain_streams();
    work();
  } else {
    stream->enqueue(std::move(work));
  }
}

struct ErrorText {
  cudaError_t code;
  const char* name;
  const char* text;
};

// The names and libcudart's texts (CUDA 13) of the codes the emulator uses.
constexpr ErrorText kErrors[] = {
    {cudaSuccess, "cudaSuccess", "no error"},
    {cudaErrorInvalidValue, "cudaErrorInvalidValue", "invalid argument"},
    {cudaErrorMemoryAllocation, "cudaErrorMemoryAllocation", "out of memory"},
    {cudaErrorInitializationError, "cudaErrorInitializationError",
     "initialization error"},
    {cudaErrorInvalidConfiguration, "cudaErrorInvalidConfiguration",
     "invalid configuration argument"},
    {cudaErrorInvalidDevicePointer, "cudaErrorInvalidDevicePointer",
     "invalid device pointer"},
    {cudaErrorInvalidMemcpyDirection, "cudaErrorInvalidMemcpyDirection",
     "invalid copy direction for memcpy"},
    {cudaErrorInsufficientDriver, "cudaErrorInsufficientDriver",
     "CUDA driver version is insufficient for CUDA runtime version"},
    {cudaErrorInvalidDeviceFunction, "cudaErrorInvalidDeviceFunction",
     "invalid device function"},
    {cudaErrorNoDevice, "cudaErrorNoDevice",
     "no CUDA-capable device is detected"},
    {cudaErrorInvalidDevice, "cudaErrorInvalidDevice",
     "invalid device ordinal"},
    {cudaErrorInvalidResourceHandle, "cudaErrorInvalidResourceHandle",
     "invalid resource handle"},
    {cudaErrorNotReady, "cudaErrorNotReady", "device not ready"},
    {cudaErrorIllegalAddress, "cudaErrorIllegalAddress",
     "an illegal memory access was encountered"},
    {cudaErrorLaunchOutOfResources, "cudaErrorLaunchOutOfResources",
     "too many resources requested for launch"},
    {cudaErrorLaunchFailure, "cudaErrorLaunchFailure",
     "unspecified launch failure"},
    {cudaErrorUnknown, "cudaErrorUnknown", "unknown error"},
};

const ErrorText* find_error(cudaError_t error) {
  for (const ErrorText& e : kErrors) {
    if (e.code == error) return &e;
  }
  return nullptr;
}

bool valid_configuration(dim3 grid, dim3 block, std::size_t shared) {
  const std::uint64_t threads = std::uint64_t{block.x} * block.y * block.z;
  return block.x >= 1 && block.y >= 1 && block.z >= 1 && block.x <= 1024 &&
         block.y <= 1024 && block.z <= 64 && threads <= kMaxThreadsPerBlock &&
         grid.x >= 1 && grid.y >= 1 && grid.z >= 1 && grid.x <= 0x7fffffffu &&
         grid.y <= 65535 && grid.z <= 65535 && shared <= kSharedMemPerBlock;
}

}  // namespace

namespace {
std::atomic<long long> launched_kernels{0};
}  // namespace

long long launched_kernel_count() { return launched_kernels.load(); }

void launch_kernel(KernelLaunch launch, std::shared_ptr<void> thunk,
                   cudaStream_t stream) {
  if (!valid_configuration(launch.grid, launch.block,
                           launch.dynamic_shared_bytes)) {
    fail(cudaErrorInvalidConfiguration);
    return;
  }
  if (!valid_stream(stream)) {
    fail(cudaErrorInvalidResourceHandle);
    return;
  }
  launched_kernels.fetch_add(1, std::memory_order_relaxed);
  install_address_sanitizer_hook();
  const Options now = options();
  launch.order = now.order;
  launch.seed = now.seed;
  submit(stream, [launch, thunk = std::move(thunk)]() mutable {
    std::atomic<bool> failed{false};
    launch.failed = &failed;
    run_grid(launch);
    if (failed.load()) {
      std::lock_guard lock(device().mutex);
      if (device().pending == cudaSuccess)
        device().pending = cudaErrorLaunchFailure;
    }
  });
}

}  // namespace minitf::gpu::emulator

namespace emu = minitf::gpu::emulator;

cudaError_t cudaGetLastError() {
  cudaError_t error = std::exchange(emu::last_error, cudaSuccess);
  if (error == cudaSuccess) error = emu::take_pending();
  return error;
}

cudaError_t cudaPeekAtLastError() {
  if (emu::last_error != cudaSuccess) return emu::last_error;
  std::lock_guard lock(emu::device().mutex);
  return emu::device().pending;
}

const char* cudaGetErrorName(cudaError_t error) {
  const emu::ErrorText* e = emu::find_error(error);
  return e != nullptr ? e->name : "unrecognized error code";
}

const char* cudaGetErrorString(cudaError_t error) {
  const emu::ErrorText* e = emu::find_error(error);
  return e != nullptr ? e->text : "unrecognized error code";
}

cudaError_t cudaGetDeviceCount(int* count) {
  if (count == nullptr) return emu::fail(cudaErrorInvalidValue);
  *count = 1;
  return cudaSuccess;
}

cudaError_t cudaGetDevice(int* device) {
  if (device == nullptr) return emu::fail(cudaErrorInvalidValue);
  *device = 0;
  return cudaSuccess;
}

cudaError_t cudaSetDevice(int device) {
  return device == 0 ? cudaSuccess : emu::fail(cudaErrorInvalidDevice);
}

cudaError_t cudaDeviceGetPCIBusId(char* pci_bus_id, int len, int device) {
  if (pci_bus_id == nullptr || len <= 0)
    return emu::fail(cudaErrorInvalidValue);
  if (device != 0) return emu::fail(cudaErrorInvalidDevice);
  std::snprintf(pci_bus_id, static_cast<std::size_t>(len), "emulated");
  return cudaSuccess;
}

cudaError_t cudaGetDeviceProperties(cudaDeviceProp* prop, int device) {
  if (prop == nullptr) return emu::fail(cudaErrorInvalidValue);
  if (device != 0) return emu::fail(cudaErrorInvalidDevice);
  *prop = cudaDeviceProp{};
  std::snprintf(prop->name, sizeof prop->name, "minitf CUDA emulator (CPU)");
  prop->totalGlobalMem = emu::kTotalMemory;
  prop->sharedMemPerBlock = emu::kSharedMemPerBlock;
  prop->regsPerBlock = 65536;
  prop->warpSize = 32;
  prop->maxThreadsPerBlock = emu::kMaxThreadsPerBlock;
  prop->maxThreadsDim[0] = 1024;
  prop->maxThreadsDim[1] = 1024;
  prop->maxThreadsDim[2] = 64;
  prop->maxGridSize[0] = 0x7fffffff;
  prop->maxGridSize[1] = 65535;
  prop->maxGridSize[2] = 65535;
  prop->clockRate = 1000000;
  prop->totalConstMem = 65536;
  // Compute capability 8.0: the warp primitives with masks (_sync) and
  // independent thread scheduling, as on the course's Ampere GPUs.
  prop->major = 8;
  prop->minor = 0;
  const int threads = emu::options().host_threads;
  prop->multiProcessorCount =
      threads > 0
          ? threads
          : static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
  prop->maxThreadsPerMultiProcessor = 2048;
  prop->sharedMemPerMultiprocessor = 164 * 1024;
  return cudaSuccess;
}

cudaError_t cudaDeviceSynchronize() {
  emu::drain_streams();
  return emu::pending_as_result();
}

cudaError_t cudaMemGetInfo(std::size_t* free, std::size_t* total) {
  if (free == nullptr || total == nullptr)
    return emu::fail(cudaErrorInvalidValue);
  std::lock_guard lock(emu::device().mutex);
  *total = emu::kTotalMemory;
  *free = emu::kTotalMemory - emu::device().allocated;
  return cudaSuccess;
}

cudaError_t cudaMalloc(void** ptr, std::size_t bytes) {
  if (ptr == nullptr) return emu::fail(cudaErrorInvalidValue);
  *ptr = nullptr;
  if (bytes == 0) return cudaSuccess;
  emu::Device& d = emu::device();
  {
    std::lock_guard lock(d.mutex);
    if (bytes > emu::kTotalMemory - d.allocated)
      return emu::fail(cudaErrorMemoryAllocation);
    d.allocated += bytes;
  }
  // Exactly `bytes`: AddressSanitizer then flags the first byte past them.
  void* p = ::operator new (bytes, std::align_val_t{256}, std::nothrow);
  std::lock_guard lock(d.mutex);
  if (p == nullptr) {
    d.allocated -= bytes;
    return emu::fail(cudaErrorMemoryAllocation);
  }
  d.allocations.emplace(p, bytes);
  *ptr = p;
  return cudaSuccess;
}

cudaError_t cudaFree(void* ptr) {
  if (ptr == nullptr) return cudaSuccess;
  // cudaFree waits for the device, as CUDA's does.
  emu::drain_streams();
  emu::Device& d = emu::device();
  std::lock_guard lock(d.mutex);
  auto it = d.allocations.find(ptr);
  if (it == d.allocations.end()) return emu::fail(cudaErrorInvalidValue);
  d.allocated -= it->second;
  d.allocations.erase(it);
  ::operator delete (ptr, std::align_val_t{256});
  return cudaSuccess;
}

namespace {

cudaError_t check_copy(void* dst, const void* src, std::size_t bytes,
                       cudaMemcpyKind kind) {
  if (kind < cudaMemcpyHostToHost || kind > cudaMemcpyDefault) {
    return emu::fail(cudaErrorInvalidMemcpyDirection);
  }
  if (bytes > 0 && (dst == nullptr || src == nullptr))
    return emu::fail(cudaErrorInvalidValue);
  return cudaSuccess;
}

}  // namespace

cudaError_t cudaMemcpy(void* dst, const void* src, std::size_t bytes,
                       cudaMemcpyKind kind) {
  if (cudaError_t e = check_copy(dst, src, bytes, kind); e != cudaSuccess)
    return e;
  emu::submit(nullptr, [=] { std::memcpy(dst, src, bytes); });
  return emu::pending_as_result();
}

cudaError_t cudaMemcpyAsync(void* dst, const void* src, std::size_t bytes,
                            cudaMemcpyKind kind, cudaStream_t stream) {
  if (cudaError_t e = check_copy(dst, src, bytes, kind); e != cudaSuccess)
    return e;
  if (!emu::valid_stream(stream))
    return emu::fail(cudaErrorInvalidResourceHandle);
  emu::submit(stream, [=] { std::memcpy(dst, src, bytes); });
  return cudaSuccess;
}

cudaError_t cudaMemset(void* ptr, int value, std::size_t bytes) {
  if (bytes > 0 && ptr == nullptr) return emu::fail(cudaErrorInvalidValue);
  emu::submit(nullptr, [=] { std::memset(ptr, value, bytes); });
  return emu::pending_as_result();
}

cudaError_t cudaMemsetAsync(void* ptr, int value, std::size_t bytes,
                            cudaStream_t stream) {
  if (bytes > 0 && ptr == nullptr) return emu::fail(cudaErrorInvalidValue);
  if (!emu::valid_stream(stream))
    return emu::fail(cudaErrorInvalidResourceHandle);
  emu::submit(stream, [=] { std::memset(ptr, value, bytes); });
  return cudaSuccess;
}

cudaError_t cudaStreamCreate(cudaStream_t* stream) {
  return emu::create(stream, emu::device().streams);
}

cudaError_t cudaStreamCreateWithFlags(cudaStream_t* stream,
                                      unsigned int /*flags*/) {
  return cudaStreamCreate(stream);
}

cudaError_t cudaStreamDestroy(cudaStream_t stream) {
  if (stream == nullptr || !emu::valid_stream(stream)) {
    return emu::fail(cudaErrorInvalidResourceHandle);
  }
  stream->synchronize();
  {
    std::lock_guard lock(emu::device().mutex);
    emu::device().streams.erase(stream);
  }
  delete stream;
  return cudaSuccess;
}

cudaError_t cudaStreamSynchronize(cudaStream_t stream) {
  if (!emu::valid_stream(stream))
    return emu::fail(cudaErrorInvalidResourceHandle);
  if (stream == nullptr) {
    emu::drain_streams();
  } else {
    stream->synchronize();
  }
  return emu::pending_as_result();
}

cudaError_t cudaStreamQuery(cudaStream_t stream) {
  if (!emu::valid_stream(stream))
    return emu::fail(cudaErrorInvalidResourceHandle);
  if (stream == nullptr) return cudaSuccess;  // its work ran when queued
  return stream->idle() ? cudaSuccess : cudaErrorNotReady;
}

cudaError_t cudaStreamWaitEvent(cudaStream_t stream, cudaEvent_t event,
                                unsigned int) {
  if (!emu::valid_stream(stream) || !emu::valid_event(event)) {
    return emu::fail(cudaErrorInvalidResourceHandle);
  }
  // A wait for an event never recorded is no wait, as in CUDA.
  if (std::shared_ptr<emu::Event::Record> record = event->latest()) {
    emu::submit(stream, [record] { record->wait(); });
  }
  return cudaSuccess;
}

cudaError_t cudaEventCreate(cudaEvent_t* event) {
  return emu::create(event, emu::device().events);
}

cudaError_t cudaEventCreateWithFlags(cudaEvent_t* event,
                                     unsigned int /*flags*/) {
  return cudaEventCreate(event);
}

cudaError_t cudaEventDestroy(cudaEvent_t event) {
  if (!emu::valid_event(event))
    return emu::fail(cudaErrorInvalidResourceHandle);
  // As CUDA's, the call returns at once: work still queued that records or
  // waits for the event holds its record, not the event.
  {
    std::lock_guard lock(emu::device().mutex);
    emu::device().events.erase(event);
  }
  delete event;
  return cudaSuccess;
}

cudaError_t cudaEventRecord(cudaEvent_t event, cudaStream_t stream) {
  if (!emu::valid_event(event) || !emu::valid_stream(stream)) {
    return emu::fail(cudaErrorInvalidResourceHandle);
  }
  emu::submit(stream, [record = event->arm()] { record->happen(); });
  return cudaSuccess;
}

cudaError_t cudaEventSynchronize(cudaEvent_t event) {
  if (!emu::valid_event(event))
    return emu::fail(cudaErrorInvalidResourceHandle);
  event->wait();
  return emu::pending_as_result();
}

cudaError_t cudaEventQuery(cudaEvent_t event) {
  if (!emu::valid_event(event))
    return emu::fail(cudaErrorInvalidResourceHandle);
  return event->status(nullptr) == 1 ? cudaErrorNotReady : cudaSuccess;
}

cudaError_t cudaEventElapsedTime(float* ms, cudaEvent_t start,
                                 cudaEvent_t end) {
  if (ms == nullptr) return emu::fail(cudaErrorInvalidValue);
  if (!emu::valid_event(start) || !emu::valid_event(end)) {
    return emu::fail(cudaErrorInvalidResourceHandle);
  }
  std::chrono::steady_clock::time_point t0, t1;
  const int s0 = start->status(&t0);
  const int s1 = end->status(&t1);
  if (s0 == 0 || s1 == 0) return emu::fail(cudaErrorInvalidResourceHandle);
  if (s0 == 1 || s1 == 1) return emu::fail(cudaErrorNotReady);
  *ms = std::chrono::duration<float, std::milli>(t1 - t0).count();
  return cudaSuccess;
}
