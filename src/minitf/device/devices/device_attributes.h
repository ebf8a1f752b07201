// DeviceAttributes: what a device says about itself.
//
// Every device TensorFlow creates describes itself with a DeviceAttributes
// message: its full name, its type, how much memory it may use, where it sits
// in the machine (its locality: the bus, the links to other GPUs), an
// incarnation number that changes each time the device is created (so a
// restarted worker is not mistaken for the one before), and a line for humans
// naming the hardware. device_lib.list_local_devices() returns these, and
// Python prints them as protocol buffers in text form; operator<< here prints
// the same text, byte for byte.
//
//   tf::DeviceAttributes a{.name = "/device:CPU:0", .device_type = "CPU",
//                          .memory_limit = 268435456,
//                          .incarnation = tf::NewIncarnation()};
//   std::cout << a;   // name: "/device:CPU:0"\ndevice_type: "CPU"\n...
//   std::cout << std::vector{a, a};   // [name: ..., name: ...]
#pragma once

#include <cstdint>
#include <optional>
#include <ostream>
#include <string>
#include <vector>

namespace minitf {

/// One link from a GPU to another (tensorflow.InterconnectLink).
struct InterconnectLink {
  int device_id = 0;
  std::string type = "";
  int strength = 0;
};

/// The GPUs a GPU can reach directly (tensorflow.LocalLinks).
struct LocalLinks {
  std::vector<InterconnectLink> link = {};
};

/// Where a device sits (tensorflow.DeviceLocality). TensorFlow sets bus_id
/// to the device's NUMA node plus one for GPUs, so that 0 means "unknown", and
/// leaves it 0 for CPUs. `links` is present for GPUs (empty when a GPU has no
/// peers), absent for CPUs; the printed text shows the difference.
struct DeviceLocality {
  int bus_id = 0;
  int numa_node = 0;
  std::optional<LocalLinks> links = std::nullopt;
};

/// tensorflow.DeviceAttributes, with its fields in the message's order.
/// Every field has an initializer, so designated initializers may leave
/// any out.
struct DeviceAttributes {
  /// "/job:localhost/replica:0/task:0/device:GPU:0", or "/device:GPU:0"
  /// when a device is made without a job (list_local_devices does so).
  std::string name = "";
  /// The kernel registry's key: "CPU", "GPU".
  std::string device_type = "";
  /// Bytes the device may allocate.
  int64_t memory_limit = 0;
  DeviceLocality locality = {};
  /// A random number, never 0, new each time a device is created.
  uint64_t incarnation = 0;
  /// The hardware, for humans: "device: 0, name: Tesla K40c, pci bus id:
  /// 0000:05:00.0". Empty for CPUs.
  std::string physical_device_desc = "";

  /// The message in protocol-buffer text form, as Python's str() shows it:
  /// one "field: value" line per field that is not at its default, nested
  /// messages as "locality {" ... "}" indented by two spaces.
  std::string DebugString() const;
};

/// A fresh incarnation number: random 64 bits, never 0 (0 means "unset" in
/// the message). Thread safety: safe from any thread.
uint64_t NewIncarnation();

/// Prints DebugString().
std::ostream& operator<<(std::ostream& os, const DeviceAttributes& a);
/// A list as Python prints one: "[" + the items joined by ", " + "]"; since
/// every item ends with a newline, the output reads as TensorFlow's does
/// under print(device_lib.list_local_devices()).
std::ostream& operator<<(std::ostream& os,
                         const std::vector<DeviceAttributes>& list);

}  // namespace minitf
