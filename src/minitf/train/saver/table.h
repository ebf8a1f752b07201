// The table: a sorted map from string keys to string values, as one file.
//
// A checkpoint's PREFIX.index is such a table, from tensor names to where
// their bytes are. TensorFlow took the format from LevelDB (its SSTable, a
// "sorted string table"), and it is small and clever in three ways:
//
//   data block 0 | trailer | data block 1 | trailer | ... |
//   metaindex block | trailer | index block | trailer | footer (48 bytes)
//
// - Keys are sorted, so neighbours share prefixes: each entry stores only
//   the length of the prefix it shares with the key before it, the rest of
//   its key, and its value (three varints, then the bytes). Every 16th entry
//   is a *restart point* that stores its whole key; the block ends with the
//   offsets of its restart points, so a reader can binary-search them and
//   decode from the nearest one instead of from the block's start.
// - Blocks are about 256 KiB; the *index block* holds one entry per data
//   block: a key between that block's last key and the next block's first
//   (as short as possible: "x" after "weight"), and the block's offset and
//   size. A reader finds any key by reading the footer, the index, and one
//   data block.
// - Every block is followed by a 5-byte trailer: a compression byte (0, none)
//   and the masked CRC32C (crc32c.h) of the block and that byte. The last 48
//   bytes, the *footer*, hold the offsets and sizes of the metaindex block
//   (empty here) and the index block, padded to 40 bytes, then the magic
//   number 0xdb4775248b80fb57.
//
// minitf writes byte for byte what TensorFlow's table writer writes, and
// reads a whole table at once: a checkpoint's index is a few bytes per
// variable.
//
//   tf::train::TableBuilder b;
//   b.Add("bias", entry_bytes);          // keys in increasing order
//   b.Add("weight", other_bytes);
//   std::string file = b.Finish();
//   std::vector<std::pair<std::string, std::string>> entries;
//   TF_RETURN_IF_ERROR(tf::train::ReadTable(file, path, &entries));
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "minitf/tensor/status.h"

namespace minitf::train {

/// The footer's last 8 bytes, little-endian.
inline constexpr uint64_t kTableMagicNumber = 0xdb4775248b80fb57ull;
/// Two block handles of at most 20 bytes each (two varint64s), padded, and
/// the magic number.
inline constexpr size_t kTableFooterSize = 48;
/// A block's trailer: the compression byte and the masked CRC32C.
inline constexpr size_t kBlockTrailerSize = 5;

/// Writes a table. Invariant: the keys added so far are strictly
/// increasing. Thread safety: none.
class TableBuilder {
 public:
  /// `block_size`: a data block is closed once it holds about this many
  /// bytes (TensorFlow's default, 256 KiB); `restart_interval`: entries
  /// between restart points in a data block (TensorFlow's 16).
  explicit TableBuilder(size_t block_size = 262144, int restart_interval = 16);

  /// Adds an entry. REQUIRES: `key` is greater than every key added before
  /// (bytewise), Finish not called yet.
  void Add(std::string_view key, std::string_view value);

  /// The whole file. REQUIRES: called once.
  std::string Finish();

 private:
  // A block being filled: entries, then the restart offsets and their count.
  class Block {
   public:
    explicit Block(int restart_interval) : interval_(restart_interval) {}
    void Add(std::string_view key, std::string_view value);
    size_t SizeEstimate() const {
      return bytes_.size() + 4 * restarts_.size() + 4;
    }
    bool empty() const { return count_ == 0; }
    // The block's bytes; the block is empty again afterwards.
    std::string Finish();

   private:
    int interval_;
    std::string bytes_;
    std::vector<uint32_t> restarts_ = {0};
    int since_restart_ = 0;
    int count_ = 0;
    std::string last_key_;
  };

  // Appends `block` and its trailer; returns its handle's bytes.
  std::string WriteBlock(Block* block);

  size_t block_size_;
  std::string out_;
  Block data_;
  Block index_;
  std::string last_key_;
  bool started_ = false;
  bool pending_index_entry_ = false;
  std::string pending_handle_;
};

/// Every entry of the table in `bytes`, in key order. Each block's checksum
/// is checked, and every length, offset and shared prefix is checked against
/// the bytes there before it is used. DataLoss naming `path` for a short
/// file ("file is too short to be an sstable"), a foreign one ("not an
/// sstable (bad magic number)"), an altered block ("block checksum
/// mismatch") and a malformed one (TensorFlow's texts where it has them).
Status ReadTable(std::string_view bytes, const std::string& path,
                 std::vector<std::pair<std::string, std::string>>* entries);

}  // namespace minitf::train
