#include "minitf/distributed/runtime/rpc_trace.h"

#include <fcntl.h>
#include <unistd.h>

#include <atomic>
#include <charconv>
#include <chrono>
#include <cstdlib>
#include <fstream>
#include <mutex>
#include <sstream>

#include "minitf/distributed/runtime/task_name.h"
#include "minitf/tensor/errors.h"

namespace minitf {
namespace {

// The file being appended to; fd -1 when tracing is off.
struct TraceFile {
  std::mutex mu;
  std::string path;  // guarded by mu
  int fd = -1;       // guarded by mu
  std::atomic<bool> enabled{false};
};

TraceFile& File() {
  static TraceFile* file = [] {
    auto* f = new TraceFile;
    if (const char* path = std::getenv("MINITF_RPC_TRACE");
        path != nullptr && *path != '\0') {
      f->path = path;
      f->enabled = true;
    }
    return f;
  }();
  return *file;
}

// A device name as its task; anything else ("client") as it is.
std::string AsTask(const std::string& name) {
  StatusOr<std::string> task = TaskOfDevice(name);
  return task.ok() ? *task : name;
}

bool ParseInt(const std::string& text, int64_t* value) {
  const char* end = text.data() + text.size();
  auto [ptr, ec] = std::from_chars(text.data(), end, *value);
  return ec == std::errc() && ptr == end;
}

}  // namespace

bool RpcTraceEnabled() { return File().enabled.load(); }

void SetRpcTraceFile(const std::string& path) {
  TraceFile& file = File();
  std::lock_guard<std::mutex> lock(file.mu);
  if (file.fd >= 0) ::close(file.fd);
  file.fd = -1;
  file.path = path;
  file.enabled = !path.empty();
}

int64_t RpcTraceNowMicros() {
  return std::chrono::duration_cast<std::chrono::microseconds>(
             std::chrono::system_clock::now().time_since_epoch())
      .count();
}

void RecordRpc(RpcRecord record) {
  TraceFile& file = File();
  if (!file.enabled.load()) return;
  const std::string line =
      StrCat(record.method, "\t", AsTask(record.caller), "\t",
             AsTask(record.callee), "\t", record.step_id, "\t", record.start_us,
             "\t", record.end_us, "\t", record.detail, "\n");
  std::lock_guard<std::mutex> lock(file.mu);
  if (file.fd < 0 && !file.path.empty()) {
    // O_APPEND: each write lands at the end of the file, whichever process
    // of the cluster makes it.
    file.fd = ::open(file.path.c_str(), O_WRONLY | O_CREAT | O_APPEND, 0644);
  }
  if (file.fd >= 0) {
    ssize_t written = ::write(file.fd, line.data(), line.size());
    (void)written;  // a lost line is a gap in a picture, not an error
  }
}

RpcTraceScope::RpcTraceScope(const char* method, const std::string& caller,
                             const std::string& callee, int64_t step_id,
                             const std::string& detail)
    : enabled_(RpcTraceEnabled()) {
  if (!enabled_) return;
  record_ = {method, caller, callee, step_id, RpcTraceNowMicros(), 0, detail};
}

RpcTraceScope::~RpcTraceScope() {
  if (!enabled_) return;
  record_.end_us = RpcTraceNowMicros();
  RecordRpc(std::move(record_));
}

StatusOr<std::vector<RpcRecord>> ReadRpcTrace(const std::string& path) {
  std::ifstream in(path);
  if (!in) return errors::NotFound("Cannot read the RPC trace ", path);
  std::vector<RpcRecord> records;
  int number = 0;
  for (std::string line; std::getline(in, line);) {
    ++number;
    std::vector<std::string> fields;
    std::stringstream split(line);
    for (std::string field; std::getline(split, field, '\t');) {
      fields.push_back(field);
    }
    // A trailing empty detail leaves six fields.
    if (fields.size() == 6) fields.emplace_back();
    RpcRecord r;
    if (fields.size() != 7 || !ParseInt(fields[3], &r.step_id) ||
        !ParseInt(fields[4], &r.start_us) || !ParseInt(fields[5], &r.end_us)) {
      return errors::InvalidArgument("Malformed RPC trace line ", number, ": ",
                                     line);
    }
    r.method = fields[0];
    r.caller = fields[1];
    r.callee = fields[2];
    r.detail = fields[6];
    records.push_back(std::move(r));
  }
  return records;
}

StatusCallback TracingWorker::Traced(const char* method, int64_t step_id,
                                     StatusCallback done) const {
  if (!RpcTraceEnabled()) return done;
  return [record = RpcRecord{method, caller_, callee_, step_id,
                             RpcTraceNowMicros(), 0, ""},
          done = std::move(done)](const Status& s) mutable {
    record.end_us = RpcTraceNowMicros();
    RecordRpc(std::move(record));
    done(s);
  };
}

}  // namespace minitf
