#include "minitf/device/devices/gpu_visibility.h"

#include <algorithm>
#include <cctype>
#include <cstdint>
#include <optional>
#include <set>
#include <string_view>

#include "minitf/tensor/str_split.h"

namespace minitf {
namespace {

// A 32-bit integer, as TensorFlow's safe_strto32 reads one: surrounding
// spaces allowed, an optional sign, then digits and nothing else.
std::optional<int> ParseInt32(std::string_view s) {
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.front()))) {
    s.remove_prefix(1);
  }
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.back()))) {
    s.remove_suffix(1);
  }
  bool negative = false;
  if (!s.empty() && (s.front() == '-' || s.front() == '+')) {
    negative = s.front() == '-';
    s.remove_prefix(1);
  }
  if (s.empty() || s.size() > 10) return std::nullopt;
  int64_t value = 0;
  for (char c : s) {
    if (c < '0' || c > '9') return std::nullopt;
    value = value * 10 + (c - '0');
  }
  if (negative) value = -value;
  if (value < INT32_MIN || value > INT32_MAX) return std::nullopt;
  return static_cast<int>(value);
}

}  // namespace

// --8<-- [start:cuda_visible_devices]
std::vector<int> VisibleByEnvironment(const char* env, int device_count) {
  std::vector<int> visible;
  if (env == nullptr) {
    for (int i = 0; i < device_count; ++i) visible.push_back(i);
    return visible;
  }
  for (std::string_view part : StrSplit(env, ',')) {
    std::optional<int> card = ParseInt32(part);
    if (!card || *card < 0 || *card >= device_count ||
        std::find(visible.begin(), visible.end(), *card) != visible.end()) {
      break;  // the driver reads no further
    }
    visible.push_back(*card);
  }
  return visible;
}
// --8<-- [end:cuda_visible_devices]

// --8<-- [start:visible_device_list]
StatusOr<std::vector<int>> ParseVisibleDeviceList(
    std::string_view visible_device_list, int visible_count) {
  std::vector<int> order;
  if (visible_device_list.empty()) {
    for (int i = 0; i < visible_count; ++i) order.push_back(i);
    return order;
  }
  for (std::string_view entry : StrSplit(visible_device_list, ',')) {
    std::optional<int> id = ParseInt32(entry);
    if (!id) {
      return errors::InvalidArgument(
          "Could not parse entry in 'visible_device_list': '", entry,
          "'. visible_device_list = ", visible_device_list);
    }
    if (*id < 0 || *id >= visible_count) {
      return errors::InvalidArgument(
          "'visible_device_list' listed an invalid GPU id '", *id,
          "' but visible device count is ", visible_count);
    }
    order.push_back(*id);
  }
  if (std::set<int>(order.begin(), order.end()).size() != order.size()) {
    return errors::InvalidArgument(
        "visible_device_list contained a duplicate entry: ",
        visible_device_list);
  }
  return order;
}
// --8<-- [end:visible_device_list]

}  // namespace minitf
