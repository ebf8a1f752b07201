#include "minitf/train/saver/table.h"

#include <algorithm>

#include "minitf/tensor/errors.h"
#include "minitf/train/crc32c.h"

namespace minitf::train {
namespace {

void PutFixed32(std::string* out, uint32_t v) {
  for (int i = 0; i < 4; ++i) out->push_back(static_cast<char>(v >> (8 * i)));
}

void PutVarint(std::string* out, uint64_t v) {
  while (v >= 0x80) {
    out->push_back(static_cast<char>(v | 0x80));
    v >>= 7;
  }
  out->push_back(static_cast<char>(v));
}

uint32_t Fixed32(std::string_view bytes) {
  uint32_t v = 0;
  for (int i = 0; i < 4; ++i) {
    v |= uint32_t{static_cast<uint8_t>(bytes[i])} << (8 * i);
  }
  return v;
}

// Reads a varint at the front of `*in` and drops it; false when `*in` ends
// first or the varint runs past 64 bits.
bool GetVarint(std::string_view* in, uint64_t* v) {
  *v = 0;
  for (int shift = 0; shift < 64 && !in->empty(); shift += 7) {
    const uint8_t byte = static_cast<uint8_t>(in->front());
    in->remove_prefix(1);
    *v |= uint64_t{byte & 0x7fu} << shift;
    if (byte < 0x80) return true;
  }
  return false;
}

// The shortest key k with start <= k < limit, when shorter than start:
// the first differing byte of start, plus one, when that stays below limit's.
void ShortestSeparator(std::string* start, std::string_view limit) {
  const size_t n = std::min(start->size(), limit.size());
  size_t diff = 0;
  while (diff < n && (*start)[diff] == limit[diff]) ++diff;
  if (diff >= n) return;  // one is a prefix of the other
  const uint8_t byte = static_cast<uint8_t>((*start)[diff]);
  if (byte < 0xff && byte + 1 < static_cast<uint8_t>(limit[diff])) {
    (*start)[diff] = static_cast<char>(byte + 1);
    start->resize(diff + 1);
  }
}

// The shortest key >= `key`: its first byte that is not 0xff, plus one.
void ShortSuccessor(std::string* key) {
  for (size_t i = 0; i < key->size(); ++i) {
    const uint8_t byte = static_cast<uint8_t>((*key)[i]);
    if (byte != 0xff) {
      (*key)[i] = static_cast<char>(byte + 1);
      key->resize(i + 1);
      return;
    }
  }
}

// One block of a table being read, checked as it is decoded.
class BlockReader {
 public:
  BlockReader(std::string_view file, const std::string& path)
      : file_(file), path_(path) {}

  // The block at `handle` (two varints: offset, size), its trailer checked.
  Status Read(std::string_view handle, std::string_view* block) const {
    uint64_t offset = 0, size = 0;
    if (!GetVarint(&handle, &offset) || !GetVarint(&handle, &size)) {
      return Loss("bad block handle");
    }
    if (offset > file_.size() || size > file_.size() - offset ||
        kBlockTrailerSize > file_.size() - offset - size) {
      return Loss("truncated block read");
    }
    const std::string_view with_type = file_.substr(offset, size + 1);
    const uint32_t stored = Fixed32(file_.substr(offset + size + 1, 4));
    if (crc32c::kVerifyChecksums &&
        crc32c::Unmask(stored) != crc32c::Value(with_type)) {
      return Loss("block checksum mismatch");
    }
    if (with_type.back() != 0) return Loss("bad block type");
    *block = with_type.substr(0, size);
    return Status::OK();
  }

  // Appends the block's entries to `*entries`, whole keys restored.
  Status Entries(
      std::string_view block,
      std::vector<std::pair<std::string, std::string>>* entries) const {
    if (block.size() < 4) return Loss("bad block contents");
    const uint64_t restarts = Fixed32(block.substr(block.size() - 4));
    if (restarts == 0 || restarts > (block.size() - 4) / 4) {
      return Loss("bad block contents");
    }
    std::string_view in = block.substr(0, block.size() - 4 * (restarts + 1));
    std::string key;
    while (!in.empty()) {
      uint64_t shared = 0, unshared = 0, value_size = 0;
      if (!GetVarint(&in, &shared) || !GetVarint(&in, &unshared) ||
          !GetVarint(&in, &value_size) || shared > key.size() ||
          unshared > in.size() || value_size > in.size() - unshared) {
        return Loss("bad entry in block");
      }
      key.resize(shared);
      key.append(in.substr(0, unshared));
      if (!entries->empty() && key <= entries->back().first) {
        return Loss("keys out of order in block");
      }
      entries->emplace_back(key, std::string(in.substr(unshared, value_size)));
      in.remove_prefix(unshared + value_size);
    }
    return Status::OK();
  }

  Status Loss(std::string_view what) const {
    return errors::DataLoss("Unable to read table ", path_, ": ", what);
  }

 private:
  std::string_view file_;
  const std::string& path_;
};

}  // namespace

void TableBuilder::Block::Add(std::string_view key, std::string_view value) {
  size_t shared = 0;
  if (since_restart_ < interval_) {
    const size_t n = std::min(last_key_.size(), key.size());
    while (shared < n && last_key_[shared] == key[shared]) ++shared;
  } else {
    restarts_.push_back(static_cast<uint32_t>(bytes_.size()));
    since_restart_ = 0;
  }
  PutVarint(&bytes_, shared);
  PutVarint(&bytes_, key.size() - shared);
  PutVarint(&bytes_, value.size());
  bytes_.append(key.substr(shared));
  bytes_.append(value);
  last_key_.assign(key);
  ++since_restart_;
  ++count_;
}

std::string TableBuilder::Block::Finish() {
  std::string out = std::move(bytes_);
  for (uint32_t r : restarts_) PutFixed32(&out, r);
  PutFixed32(&out, static_cast<uint32_t>(restarts_.size()));
  bytes_.clear();
  restarts_ = {0};
  since_restart_ = 0;
  count_ = 0;
  last_key_.clear();
  return out;
}

TableBuilder::TableBuilder(size_t block_size, int restart_interval)
    : block_size_(block_size),
      data_(restart_interval),
      index_(/*restart_interval=*/1) {}

std::string TableBuilder::WriteBlock(Block* block) {
  std::string handle;
  const std::string bytes = block->Finish();
  PutVarint(&handle, out_.size());
  PutVarint(&handle, bytes.size());
  out_ += bytes;
  const char type = 0;  // no compression
  uint32_t crc = crc32c::Value(bytes);
  crc = crc32c::Extend(crc, &type, 1);
  out_.push_back(type);
  PutFixed32(&out_, crc32c::Mask(crc));
  return handle;
}

// --8<-- [start:table_add]
void TableBuilder::Add(std::string_view key, std::string_view value) {
  MINITF_CHECK(!started_ || key > last_key_);
  started_ = true;
  if (pending_index_entry_) {
    // The block before is closed: index it under a short key between its
    // last key and this one.
    ShortestSeparator(&last_key_, key);
    index_.Add(last_key_, pending_handle_);
    pending_index_entry_ = false;
  }
  last_key_.assign(key);
  data_.Add(key, value);
  if (data_.SizeEstimate() >= block_size_) {
    pending_handle_ = WriteBlock(&data_);
    pending_index_entry_ = true;
  }
}
// --8<-- [end:table_add]

std::string TableBuilder::Finish() {
  if (!data_.empty()) {
    pending_handle_ = WriteBlock(&data_);
    pending_index_entry_ = true;
  }
  Block metaindex(/*restart_interval=*/16);
  const std::string metaindex_handle = WriteBlock(&metaindex);
  if (pending_index_entry_) {
    ShortSuccessor(&last_key_);
    index_.Add(last_key_, pending_handle_);
    pending_index_entry_ = false;
  }
  const std::string index_handle = WriteBlock(&index_);
  std::string footer = metaindex_handle + index_handle;
  footer.resize(kTableFooterSize - 8, '\0');
  PutFixed32(&footer, static_cast<uint32_t>(kTableMagicNumber));
  PutFixed32(&footer, static_cast<uint32_t>(kTableMagicNumber >> 32));
  out_ += footer;
  return std::move(out_);
}

Status ReadTable(std::string_view bytes, const std::string& path,
                 std::vector<std::pair<std::string, std::string>>* entries) {
  const BlockReader reader(bytes, path);
  if (bytes.size() < kTableFooterSize) {
    return reader.Loss("file is too short to be an sstable");
  }
  const std::string_view footer = bytes.substr(bytes.size() - kTableFooterSize);
  const uint64_t magic =
      Fixed32(footer.substr(40)) | uint64_t{Fixed32(footer.substr(44))} << 32;
  if (magic != kTableMagicNumber) {
    return reader.Loss("not an sstable (bad magic number)");
  }
  // The footer: the metaindex block's handle, then the index block's. The
  // metaindex holds nothing in a checkpoint, but is checked all the same,
  // so that every byte but the footer's padding is covered by a checksum.
  std::string_view handles = footer.substr(0, 40);
  const std::string_view metaindex_handle = handles;
  uint64_t ignored = 0;
  if (!GetVarint(&handles, &ignored) || !GetVarint(&handles, &ignored)) {
    return reader.Loss("bad block handle");
  }
  std::string_view metaindex, index;
  std::vector<std::pair<std::string, std::string>> meta_entries;
  TF_RETURN_IF_ERROR(reader.Read(metaindex_handle, &metaindex));
  TF_RETURN_IF_ERROR(reader.Entries(metaindex, &meta_entries));
  TF_RETURN_IF_ERROR(reader.Read(handles, &index));
  std::vector<std::pair<std::string, std::string>> blocks;
  TF_RETURN_IF_ERROR(reader.Entries(index, &blocks));
  // Each index entry's value is a data block's handle, in key order.
  entries->clear();
  for (const auto& [separator, handle] : blocks) {
    std::string_view block;
    TF_RETURN_IF_ERROR(reader.Read(handle, &block));
    const size_t before = entries->size();
    TF_RETURN_IF_ERROR(reader.Entries(block, entries));
    if (entries->size() > before && entries->back().first > separator) {
      return reader.Loss("index key below its block's keys");
    }
  }
  return Status::OK();
}

}  // namespace minitf::train
