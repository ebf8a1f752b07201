#include "minitf/device/devices/device_attributes.h"

#include <cstdio>
#include <mutex>
#include <random>

#include "minitf/tensor/status.h"

namespace minitf {
namespace {

// A string field as protobuf's text format writes it: in double quotes, with
// C escapes for quotes, backslashes and bytes that are not printable.
std::string Quoted(const std::string& s) {
  std::string out = "\"";
  for (unsigned char c : s) {
    switch (c) {
      case '\n':
        out += "\\n";
        break;
      case '\r':
        out += "\\r";
        break;
      case '\t':
        out += "\\t";
        break;
      case '"':
        out += "\\\"";
        break;
      case '\'':
        out += "\\'";
        break;
      case '\\':
        out += "\\\\";
        break;
      default:
        if (c < 0x20 || c >= 0x7f) {
          char octal[5];
          std::snprintf(octal, sizeof(octal), "\\%03o", c);
          out += octal;
        } else {
          out += static_cast<char>(c);
        }
    }
  }
  return out + "\"";
}

}  // namespace

// --8<-- [start:debug_string]
std::string DeviceAttributes::DebugString() const {
  // Proto3 text format: scalar fields at their default (0, "") are left out;
  // a message field is printed when it is set, even when empty.
  std::string out;
  if (!name.empty()) out += "name: " + Quoted(name) + "\n";
  if (!device_type.empty()) {
    out += "device_type: " + Quoted(device_type) + "\n";
  }
  if (memory_limit != 0) out += StrCat("memory_limit: ", memory_limit, "\n");
  out += "locality {\n";
  if (locality.bus_id != 0) out += StrCat("  bus_id: ", locality.bus_id, "\n");
  if (locality.numa_node != 0) {
    out += StrCat("  numa_node: ", locality.numa_node, "\n");
  }
  if (locality.links) {
    out += "  links {\n";
    for (const InterconnectLink& l : locality.links->link) {
      out += "    link {\n";
      if (l.device_id != 0)
        out += StrCat("      device_id: ", l.device_id, "\n");
      if (!l.type.empty()) out += "      type: " + Quoted(l.type) + "\n";
      if (l.strength != 0) out += StrCat("      strength: ", l.strength, "\n");
      out += "    }\n";
    }
    out += "  }\n";
  }
  out += "}\n";
  if (incarnation != 0) out += StrCat("incarnation: ", incarnation, "\n");
  if (!physical_device_desc.empty()) {
    out += "physical_device_desc: " + Quoted(physical_device_desc) + "\n";
  }
  return out;
}
// --8<-- [end:debug_string]

uint64_t NewIncarnation() {
  static std::mutex mu;
  static std::mt19937_64 engine = [] {
    std::random_device rd;
    std::seed_seq seed{rd(), rd(), rd(), rd()};
    return std::mt19937_64(seed);
  }();
  std::lock_guard<std::mutex> lock(mu);
  uint64_t value;
  do {
    value = engine();
  } while (value == 0);
  return value;
}

std::ostream& operator<<(std::ostream& os, const DeviceAttributes& a) {
  return os << a.DebugString();
}

std::ostream& operator<<(std::ostream& os,
                         const std::vector<DeviceAttributes>& list) {
  os << "[";
  for (size_t i = 0; i < list.size(); ++i) {
    if (i > 0) os << ", ";
    os << list[i];
  }
  return os << "]";
}

}  // namespace minitf
