#include "minitf/train/crc32c.h"

#include <array>

namespace minitf::crc32c {
namespace {

// The reflected Castagnoli polynomial.
constexpr uint32_t kPolynomial = 0x82f63b78u;

// One table of 256 entries: a byte at a time. Fast enough for checkpoints and
// event files, whose cost is the disk; hardware CRC instructions would be
// the next step if it ever showed in a profile.
constexpr std::array<uint32_t, 256> MakeTable() {
  std::array<uint32_t, 256> table{};
  for (uint32_t i = 0; i < 256; ++i) {
    uint32_t crc = i;
    for (int bit = 0; bit < 8; ++bit) {
      crc = (crc & 1) ? (crc >> 1) ^ kPolynomial : crc >> 1;
    }
    table[i] = crc;
  }
  return table;
}
constexpr std::array<uint32_t, 256> kTable = MakeTable();

}  // namespace

uint32_t Extend(uint32_t init_crc, const char* data, size_t size) {
  uint32_t crc = ~init_crc;
  for (size_t i = 0; i < size; ++i) {
    crc = kTable[(crc ^ static_cast<uint8_t>(data[i])) & 0xff] ^ (crc >> 8);
  }
  return ~crc;
}

}  // namespace minitf::crc32c
