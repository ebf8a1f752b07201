// Fuzzing: what every fuzzer of this folder shares.
//
// A fuzzer is one function, LLVMFuzzerTestOneInput, that libFuzzer calls
// millions of times with bytes it makes up. It starts from a corpus of
// valid inputs (fuzz/corpus/<name>/), mutates them, and keeps each mutant
// that reaches code no earlier input reached; AddressSanitizer and UBSan
// turn a wrong read, a leak or undefined behaviour into a crash it reports
// with the input. The engine's contract is that bytes from outside end in
// a Status (or a typed error at the user-facing API), never in a crash: so
// a fuzzer feeds the bytes to one entry point and checks nothing more than
// that it returns.
//
//   extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
//     minitf::proto::GraphDef def;
//     if (!minitf::fuzzing::Parse(data, size, &def)) return 0;
//     ...
//   }
#pragma once

#include <unistd.h>

#include <cstddef>
#include <cstdint>
#include <fstream>
#include <string>
#include <string_view>

namespace minitf::fuzzing {

/// The input as a string view.
inline std::string_view Bytes(const uint8_t* data, size_t size) {
  return {reinterpret_cast<const char*>(data), size};
}

/// Parses the input as a protobuf message; false (skip the input) when it
/// is not one.
template <typename Message>
bool Parse(const uint8_t* data, size_t size, Message* message) {
  return message->ParseFromArray(data, static_cast<int>(size));
}

/// Writes the input to this process's scratch file and returns its path:
/// for the readers that take a file name. The file is under $TMPDIR (or
/// /tmp) and is overwritten by the next input.
inline std::string ScratchFile(const uint8_t* data, size_t size) {
  static const std::string path = [] {
    const char* dir = std::getenv("TMPDIR");
    return std::string(dir != nullptr && *dir != '\0' ? dir : "/tmp") +
           "/minitf_fuzz_" + std::to_string(getpid());
  }();
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out.write(reinterpret_cast<const char*>(data),
            static_cast<std::streamsize>(size));
  return path;
}

}  // namespace minitf::fuzzing
