#include "minitf/device/partition/rendezvous.h"

#include <utility>
#include <vector>

#include "minitf/device/executor/notification.h"

namespace minitf {

// --- Keys -------------------------------------------------------------------

// --8<-- [start:create_key]
std::string Rendezvous::CreateKey(std::string_view src_device,
                                  uint64_t src_incarnation,
                                  std::string_view dst_device,
                                  std::string_view name,
                                  const FrameAndIter& frame_iter) {
  // ';' cannot occur in a device name, so the parts split back unambiguously.
  // Both ends are named, although the receiver alone would make the key
  // unique, so that a key in a log says where the value travels.
  static constexpr char kHex[] = "0123456789abcdef";
  char incarnation[16];
  for (int i = 15; i >= 0; --i) {
    incarnation[i] = kHex[src_incarnation & 0xf];
    src_incarnation >>= 4;
  }
  return StrCat(src_device, ";", std::string_view(incarnation, 16), ";",
                dst_device, ";", name, ";", frame_iter.frame_id, ":",
                frame_iter.iter_id);
}
// --8<-- [end:create_key]

Rendezvous::ParsedKey& Rendezvous::ParsedKey::operator=(
    const ParsedKey& other) {
  if (this == &other) return *this;
  full_key = other.full_key;
  const char* base = other.full_key.data();
  auto rebase = [&](std::string_view part) {
    return std::string_view(full_key.data() + (part.data() - base),
                            part.size());
  };
  src_device =
      other.src_device.empty() ? std::string_view() : rebase(other.src_device);
  dst_device =
      other.dst_device.empty() ? std::string_view() : rebase(other.dst_device);
  edge_name =
      other.edge_name.empty() ? std::string_view() : rebase(other.edge_name);
  src = other.src;
  dst = other.dst;
  src_incarnation = other.src_incarnation;
  return *this;
}

namespace {

bool ParseHex(std::string_view s, uint64_t* out) {
  if (s.empty() || s.size() > 16) return false;
  uint64_t v = 0;
  for (char c : s) {
    int digit;
    if (c >= '0' && c <= '9') {
      digit = c - '0';
    } else if (c >= 'a' && c <= 'f') {
      digit = c - 'a' + 10;
    } else if (c >= 'A' && c <= 'F') {
      digit = c - 'A' + 10;
    } else {
      return false;
    }
    v = (v << 4) | static_cast<uint64_t>(digit);
  }
  *out = v;
  return true;
}

// A full device name: every field set.
bool ParseFullName(std::string_view name, DeviceSpec* out) {
  StatusOr<DeviceSpec> spec = DeviceSpec::Parse(name);
  if (!spec.ok() || !spec->IsFullySpecified()) return false;
  *out = std::move(spec).value();
  return true;
}

}  // namespace

StatusOr<Rendezvous::ParsedKey> Rendezvous::ParseKey(std::string_view key) {
  ParsedKey out;
  out.full_key = std::string(key);
  std::string_view rest = out.full_key;
  std::string_view parts[5];
  for (int i = 0; i < 5; ++i) {
    const size_t semi = rest.find(';');
    parts[i] = rest.substr(0, semi);
    rest = semi == std::string_view::npos ? std::string_view()
                                          : rest.substr(semi + 1);
  }
  if (rest.empty() && !parts[4].empty() && ParseFullName(parts[0], &out.src) &&
      ParseHex(parts[1], &out.src_incarnation) &&
      ParseFullName(parts[2], &out.dst) && !parts[3].empty()) {
    out.src_device = parts[0];
    out.dst_device = parts[2];
    out.edge_name = parts[3];
    return out;
  }
  // Two spaces, as TensorFlow's message has them.
  return errors::InvalidArgument("Invalid  rendezvous key: ", key);
}

Status Rendezvous::Recv(const ParsedKey& key, const Args& recv_args,
                        Tensor* value, bool* is_dead) {
  Notification received;
  Status result;
  RecvAsync(key, recv_args,
            [&](const Status& s, const Args&, const Args&, const Tensor& v,
                bool dead) {
              result = s;
              *value = v;
              *is_dead = dead;
              received.Notify();
            });
  received.WaitForNotification();
  return result;
}

// --- LocalRendezvous --------------------------------------------------------

LocalRendezvous::~LocalRendezvous() {
  bool waiting;
  {
    std::lock_guard<std::mutex> lock(mu_);
    waiting = !table_.empty();
  }
  if (waiting) StartAbort(errors::Cancelled("LocalRendezvous deleted"));
}

// --8<-- [start:local_send]
Status LocalRendezvous::Send(const ParsedKey& key, const Args& send_args,
                             const Tensor& value, bool is_dead) {
  std::unique_lock<std::mutex> lock(mu_);
  if (!status_.ok()) return status_;
  Queue& queue = table_[key.full_key];
  if (queue.empty() || !queue.front().waiter) {
    // Nobody waits: leave the value for the receiver to pick up.
    queue.push_back(Item{nullptr, value, is_dead, send_args, {}});
    return Status::OK();
  }
  Item waiter = std::move(queue.front());
  queue.pop_front();
  if (queue.empty()) table_.erase(key.full_key);
  lock.unlock();
  // Outside the lock: the receiver may go on to send or receive itself.
  waiter.waiter(Status::OK(), send_args, waiter.recv_args, value, is_dead);
  return Status::OK();
}
// --8<-- [end:local_send]

void LocalRendezvous::RecvAsync(const ParsedKey& key, const Args& recv_args,
                                DoneCallback done) {
  std::unique_lock<std::mutex> lock(mu_);
  if (!status_.ok()) {
    const Status s = status_;
    lock.unlock();
    done(s, Args(), recv_args, Tensor(), false);
    return;
  }
  Queue& queue = table_[key.full_key];
  if (queue.empty() || queue.front().waiter) {
    queue.push_back(Item{std::move(done), Tensor(), false, {}, recv_args});
    return;
  }
  Item sent = std::move(queue.front());
  queue.pop_front();
  if (queue.empty()) table_.erase(key.full_key);
  lock.unlock();
  done(Status::OK(), sent.send_args, recv_args, sent.value, sent.is_dead);
}

void LocalRendezvous::StartAbort(const Status& status) {
  MINITF_CHECK(!status.ok());
  std::unordered_map<std::string, Queue> table;
  Status first;  // what the waiters hear: the first abort's status
  {
    std::lock_guard<std::mutex> lock(mu_);
    if (status_.ok()) status_ = status;
    first = status_;
    table.swap(table_);
  }
  for (auto& [key, queue] : table) {
    for (Item& item : queue) {
      if (item.waiter)
        item.waiter(first, Args(), item.recv_args, Tensor(), false);
    }
  }
}

}  // namespace minitf
