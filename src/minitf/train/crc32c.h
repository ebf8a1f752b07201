// CRC32C: the checksum that guards every record minitf writes to disk.
//
// A file can be cut short by a crash or altered by a faulty disk; a reader
// must notice rather than train on garbage. TensorFlow guards TFRecord files
// (and so TensorBoard's event files) and checkpoints with CRC32C, the
// Castagnoli polynomial, and stores it "masked": rotated and offset, so that a
// checksum of data that itself contains checksums is not trivially related.
// minitf writes the same values, so its event files read in TensorBoard.
//
//   uint32_t crc = tf::crc32c::Value(data, size);
//   uint32_t stored = tf::crc32c::Mask(crc);       // What goes in the file.
//   assert(tf::crc32c::Unmask(stored) == crc);
#pragma once

#include <cstddef>
#include <cstdint>
#include <string_view>

namespace minitf::crc32c {

/// The CRC32C of `data` continued from `init_crc` (the CRC of what came
/// before); Extend(0, ...) is the CRC of the data alone.
uint32_t Extend(uint32_t init_crc, const char* data, size_t size);
inline uint32_t Value(const char* data, size_t size) {
  return Extend(0, data, size);
}
inline uint32_t Value(std::string_view data) {
  return Value(data.data(), data.size());
}

/// TensorFlow's masking: rotate right by 15 bits and add a constant.
inline constexpr uint32_t kMaskDelta = 0xa282ead8u;
inline uint32_t Mask(uint32_t crc) {
  return ((crc >> 15) | (crc << 17)) + kMaskDelta;
}
inline uint32_t Unmask(uint32_t masked) {
  const uint32_t rot = masked - kMaskDelta;
  return (rot >> 17) | (rot << 15);
}

/// Whether readers refuse what fails its checksum: true, but false in the
/// fuzzers (fuzz/). A fuzzer's mutated byte almost never comes with a
/// checksum to match, so every input would stop at the check and never reach
/// the parsing behind it. The value is defined in a file of its own,
/// verify_checksums.cc, which a program may replace (minitf_layer_defaults
/// in cmake/Course.cmake says how), and the fuzzers link
/// fuzz/fuzzing_limits.cc in its place.
extern const bool kVerifyChecksums;

}  // namespace minitf::crc32c
