#include "minitf/distributed/runtime/local_master.h"

#include <condition_variable>
#include <map>
#include <mutex>

#include "minitf/distributed/runtime/master.h"
#include "minitf/tensor/errors.h"

namespace minitf {

// One registered master and the calls holding it. The entry is shared by
// the table, its registration and every call holding it.
struct LocalMaster::Entry {
  std::mutex mu;
  std::condition_variable released;
  Master* master = nullptr;  // guarded by mu; null once unregistered
  int holders = 0;           // guarded by mu
};

namespace {

struct Table {
  std::mutex mu;
  std::map<std::string, std::shared_ptr<LocalMaster::Entry>> entries;
};

Table& GetTable() {
  static Table* table = new Table;  // never destroyed: servers may outlive
  return *table;                    // static destructors
}

}  // namespace

LocalMaster::Registration::Registration(std::string target,
                                        std::shared_ptr<Entry> entry)
    : target_(std::move(target)), entry_(std::move(entry)) {}

LocalMaster::Registration::~Registration() {
  Table& table = GetTable();
  {
    // Unless a server started since on the same target replaced it.
    std::lock_guard<std::mutex> lock(table.mu);
    auto it = table.entries.find(target_);
    if (it != table.entries.end() && it->second == entry_) {
      table.entries.erase(it);
    }
  }
  std::unique_lock<std::mutex> lock(entry_->mu);
  entry_->master = nullptr;
  entry_->released.wait(lock, [this] { return entry_->holders == 0; });
}

std::unique_ptr<LocalMaster::Registration> LocalMaster::Register(
    const std::string& target, Master* master) {
  auto entry = std::make_shared<Entry>();
  entry->master = master;
  Table& table = GetTable();
  std::lock_guard<std::mutex> lock(table.mu);
  table.entries[target] = entry;
  return std::make_unique<Registration>(target, std::move(entry));
}

std::unique_ptr<LocalMaster> LocalMaster::Lookup(const std::string& target) {
  Table& table = GetTable();
  std::lock_guard<std::mutex> lock(table.mu);
  if (table.entries.count(target) == 0) return nullptr;
  return std::unique_ptr<LocalMaster>(new LocalMaster(target));
}

Status LocalMaster::Call(const std::function<Status(Master&)>& call) const {
  std::shared_ptr<Entry> entry;
  {
    Table& table = GetTable();
    std::lock_guard<std::mutex> lock(table.mu);
    auto it = table.entries.find(target_);
    if (it != table.entries.end()) entry = it->second;
  }
  Master* master = nullptr;
  if (entry != nullptr) {
    std::lock_guard<std::mutex> lock(entry->mu);
    master = entry->master;
    if (master != nullptr) ++entry->holders;
  }
  if (master == nullptr) {
    return errors::Unavailable("The server of ", target_,
                               " in this process has stopped");
  }
  // Let go when the call returns, however it returns.
  struct Release {
    Entry& entry;
    ~Release() {
      std::lock_guard<std::mutex> lock(entry.mu);
      if (--entry.holders == 0) entry.released.notify_all();
    }
  } release{*entry};
  return call(*master);
}

Status LocalMaster::CreateSession(CallOptions*,
                                  const proto::CreateSessionRequest* request,
                                  proto::CreateSessionResponse* response) {
  return Call([&](Master& m) { return m.CreateSession(*request, response); });
}

Status LocalMaster::ExtendSession(CallOptions*,
                                  const proto::ExtendSessionRequest* request,
                                  proto::ExtendSessionResponse* response) {
  return Call([&](Master& m) { return m.ExtendSession(*request, response); });
}

Status LocalMaster::RunStep(CallOptions* opts,
                            const proto::RunStepRequest* request,
                            proto::RunStepResponse* response) {
  return Call([&](Master& m) { return m.RunStep(*request, response, opts); });
}

Status LocalMaster::CloseSession(CallOptions*,
                                 const proto::CloseSessionRequest* request,
                                 proto::CloseSessionResponse*) {
  return Call([&](Master& m) { return m.CloseSession(*request); });
}

}  // namespace minitf
