// Philox4x32-10: the counter-based random number generator behind minitf's
// (and TensorFlow's) random ops.
//
// An ordinary generator (std::mt19937) is a state machine: the n-th number
// needs the n-1 before it. Philox is a function instead: a 128-bit counter and
// a 64-bit key go through ten rounds of multiply-and-scramble and come out as
// four random 32-bit words. Block i of a stream is Compute({i, ...}, key), so
// any block can be computed on its own, by any thread or GPU core, and the
// same key gives the same numbers on every machine. (Salmon, Moraes, Dror and
// Shaw, "Parallel Random Numbers: As Easy as 1, 2, 3", SC 2011.)
//
//   PhiloxStream stream(/*seed=*/1, /*seed2=*/0);
//   uint32_t a = stream.Next();           // the first word of block 0
//   Philox4x32::Counter c = Philox4x32::Compute({0, 0, 0, 0}, {0, 0});
//   // c == {0x6627e8d5, 0xe169c58d, 0xbc57ac4c, 0x9b00dbd8}, the published
//   // known answer.
#pragma once

#include <array>
#include <cstdint>

namespace minitf::kernels {

/// The bare generator: a pure function of (counter, key). Thread safe.
class Philox4x32 {
 public:
  using Counter = std::array<uint32_t, 4>;
  using Key = std::array<uint32_t, 2>;

  static constexpr int kRounds = 10;

  /// Four random words for one counter value under one key.
  static constexpr Counter Compute(Counter counter, Key key) {
    for (int r = 0; r < kRounds; ++r) {
      if (r > 0) key = BumpKey(key);
      counter = Round(counter, key);
    }
    return counter;
  }

 private:
  // The multipliers and the key increments (the golden ratio and sqrt(3) - 1,
  // as 32-bit fractions) are the constants the Philox paper chose.
  static constexpr uint32_t kMultiplier0 = 0xD2511F53;
  static constexpr uint32_t kMultiplier1 = 0xCD9E8D57;
  static constexpr uint32_t kKeyStep0 = 0x9E3779B9;
  static constexpr uint32_t kKeyStep1 = 0xBB67AE85;

  // --8<-- [start:philox_round]
  // One round: two 32x32 -> 64-bit multiplies scramble words 0 and 2; their
  // high halves are mixed into words 1 and 3 with the key, and the words
  // change places so that the next round multiplies the other pair. Ten
  // rounds make every output bit depend on every input and key bit.
  static constexpr Counter Round(const Counter& x, const Key& key) {
    const uint64_t product0 = uint64_t{kMultiplier0} * x[0];
    const uint64_t product1 = uint64_t{kMultiplier1} * x[2];
    const auto hi0 = static_cast<uint32_t>(product0 >> 32);
    const auto lo0 = static_cast<uint32_t>(product0);
    const auto hi1 = static_cast<uint32_t>(product1 >> 32);
    const auto lo1 = static_cast<uint32_t>(product1);
    return {hi1 ^ x[1] ^ key[0], lo1, hi0 ^ x[3] ^ key[1], lo0};
  }

  // Between rounds the key advances by a constant (a Weyl sequence), so the
  // rounds are not all the same permutation.
  static constexpr Key BumpKey(const Key& key) {
    return {key[0] + kKeyStep0, key[1] + kKeyStep1};
  }
  // --8<-- [end:philox_round]
};

/// The words of Philox blocks 0, 1, 2, ... in order, for one seed pair. The
/// key is `seed`; the counter holds the block number in its low 64 bits and
/// `seed2` in its high 64 bits, the layout TensorFlow uses, so distinct seed2
/// values give disjoint streams under one seed.
///
/// Thread safety: a stream is a sequence; give each thread its own.
class PhiloxStream {
 public:
  PhiloxStream(uint64_t seed, uint64_t seed2)
      : key_{static_cast<uint32_t>(seed), static_cast<uint32_t>(seed >> 32)},
        seed2_(seed2) {}

  /// The next 32-bit word.
  uint32_t Next() {
    if (used_ == 4) {
      block_words_ = Philox4x32::Compute(
          {static_cast<uint32_t>(block_), static_cast<uint32_t>(block_ >> 32),
           static_cast<uint32_t>(seed2_), static_cast<uint32_t>(seed2_ >> 32)},
          key_);
      ++block_;
      used_ = 0;
    }
    return block_words_[used_++];
  }

 private:
  Philox4x32::Key key_;
  uint64_t seed2_;
  uint64_t block_ = 0;
  Philox4x32::Counter block_words_{};
  int used_ = 4;  // Words of block_words_ already handed out.
};

}  // namespace minitf::kernels
