// What clang 14 lacks of the C++20 library the engine uses, for the
// fuzzers' build only: the emulator's CMakeLists.txt includes this file
// before every source that uses the emulator (-include) when
// MINITF_SANITIZE=fuzzer and clang is older than 15.
//
// std::source_location: libstdc++ 12 defines it only over a compiler
// builtin, __builtin_source_location, that clang gained in version 15, so
// with clang 14 <source_location> is empty. The emulator of chapter 5 names
// the kernel line of a misplaced __syncthreads() with it. This is the same
// class over the builtins clang has long had (__builtin_FILE and its kin),
// which, as default arguments, give the caller's location too.
#pragma once

#if defined(__cplusplus) && defined(__clang__) && __clang_major__ < 15
#include <source_location>  // empty here; its guard keeps it so

namespace std {

struct source_location {
  static constexpr source_location current(
      const char* file = __builtin_FILE(),
      const char* function = __builtin_FUNCTION(),
      unsigned line = __builtin_LINE(),
      unsigned column = __builtin_COLUMN()) noexcept {
    source_location where;
    where.file_ = file;
    where.function_ = function;
    where.line_ = line;
    where.column_ = column;
    return where;
  }
  constexpr source_location() noexcept = default;
  constexpr unsigned line() const noexcept { return line_; }
  constexpr unsigned column() const noexcept { return column_; }
  constexpr const char* file_name() const noexcept { return file_; }
  constexpr const char* function_name() const noexcept { return function_; }

 private:
  const char* file_ = "";
  const char* function_ = "";
  unsigned line_ = 0;
  unsigned column_ = 0;
};

}  // namespace std
#endif
