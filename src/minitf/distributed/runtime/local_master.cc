#include "minitf/distributed/runtime/local_master.h"

#include <condition_variable>
#include <map>
#include <mutex>

namespace minitf {

// One registered master and the calls holding it. The entry is shared by
// the table, its registration and every LocalMaster made from it.
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

LocalMaster LocalMaster::Lookup(const std::string& target) {
  std::shared_ptr<Entry> entry;
  {
    Table& table = GetTable();
    std::lock_guard<std::mutex> lock(table.mu);
    auto it = table.entries.find(target);
    if (it == table.entries.end()) return LocalMaster(nullptr, nullptr);
    entry = it->second;
  }
  std::lock_guard<std::mutex> lock(entry->mu);
  if (entry->master == nullptr) return LocalMaster(nullptr, nullptr);
  ++entry->holders;
  Master* master = entry->master;
  return LocalMaster(std::move(entry), master);
}

LocalMaster::LocalMaster(std::shared_ptr<Entry> entry, Master* master)
    : entry_(std::move(entry)), master_(master) {}

LocalMaster::LocalMaster(LocalMaster&& other) noexcept
    : entry_(std::move(other.entry_)), master_(other.master_) {
  other.master_ = nullptr;
}

LocalMaster::~LocalMaster() {
  if (master_ == nullptr) return;
  std::lock_guard<std::mutex> lock(entry_->mu);
  if (--entry_->holders == 0) entry_->released.notify_all();
}

}  // namespace minitf
