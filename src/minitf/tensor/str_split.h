// StrSplit: a string cut at every separator, as Python's str.split(sep).
//
// Device names ("/job:ps/task:0"), CUDA_VISIBLE_DEVICES ("0,2") and
// visible_device_list are lists with a one-character separator. C++20's
// std::views::split says the same, but clang before 15 cannot compile
// libstdc++ 12's <ranges>, and the fuzzers (fuzz/) are built with clang 14.
//
//   StrSplit("/job:ps/task:0", '/');   // {"", "job:ps", "task:0"}
//   StrSplit("0,", ',');               // {"0", ""}
//   StrSplit("", ',');                 // {}
#pragma once

#include <string_view>
#include <vector>

namespace minitf {

/// The pieces of `s` between separators, empty ones included; none for an
/// empty `s` (as std::views::split). The views point into `s`.
inline std::vector<std::string_view> StrSplit(std::string_view s, char sep) {
  std::vector<std::string_view> parts;
  if (s.empty()) return parts;
  for (size_t start = 0;;) {
    const size_t end = s.find(sep, start);
    parts.push_back(s.substr(start, end - start));
    if (end == std::string_view::npos) return parts;
    start = end + 1;
  }
}

}  // namespace minitf
