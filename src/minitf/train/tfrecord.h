// TFRecord: the framing TensorFlow puts around each record of a file.
//
// An event file (and a tf.data TFRecord file) is a plain sequence of
// records, each framed so that a reader can find its end and tell whether
// the bytes survived:
//
//   uint64 length       little-endian
//   uint32 masked crc32c of the 8 length bytes
//   byte   data[length]
//   uint32 masked crc32c of data
//
// The length has its own checksum so that a damaged length is caught before
// the reader trusts it to skip ahead. A checksum proves only that the length
// was written so, not that its bytes follow: the reader also compares it
// with what is left of the file before allocating anything. A file cut
// short by a crash ends in a partial record, which the reader reports as
// DataLoss naming the file and the record's offset, rather than returning
// half a record.
//
//   TFRecordWriter w;
//   TF_RETURN_IF_ERROR(w.Open("/tmp/data.tfrecord"));
//   TF_RETURN_IF_ERROR(w.WriteRecord("hello"));
//   TF_RETURN_IF_ERROR(w.Close());
//   TFRecordReader r;  TF_RETURN_IF_ERROR(r.Open("/tmp/data.tfrecord"));
//   std::string rec;   while (r.ReadRecord(&rec).ok()) { ... }
#pragma once

#include <cstdint>
#include <cstdio>
#include <string>
#include <string_view>

#include "minitf/tensor/status.h"

namespace minitf {

/// Bytes of framing before a record's data (length and its CRC) and after
/// it (the data's CRC).
inline constexpr size_t kTFRecordHeaderBytes =
    sizeof(uint64_t) + sizeof(uint32_t);
inline constexpr size_t kTFRecordFooterBytes = sizeof(uint32_t);

/// The framed form of one record: header, data, footer.
std::string EncodeTFRecord(std::string_view data);

/// Appends framed records to a file, through the C library's buffer: a
/// record reaches the file on Flush(), Close() or destruction.
/// Thread safety: none; callers serialise (FileWriter holds a mutex).
class TFRecordWriter {
 public:
  TFRecordWriter() = default;
  /// Closes the file, ignoring errors; call Close() to see them.
  ~TFRecordWriter();
  TFRecordWriter(const TFRecordWriter&) = delete;
  TFRecordWriter& operator=(const TFRecordWriter&) = delete;

  /// Creates (or truncates) `path`. NotFound when its folder is missing,
  /// PermissionDenied or Internal for other failures, naming the file.
  Status Open(const std::string& path);
  /// REQUIRES: open.
  Status WriteRecord(std::string_view data);
  /// Hands the buffered bytes to the operating system.
  Status Flush();
  /// Flushes and closes; further writes are FailedPrecondition.
  Status Close();
  bool is_open() const { return file_ != nullptr; }
  const std::string& path() const { return path_; }

 private:
  Status IOError(std::string_view what) const;

  std::string path_;
  std::FILE* file_ = nullptr;
};

/// Reads framed records back, checking both checksums of every record.
class TFRecordReader {
 public:
  TFRecordReader() = default;
  ~TFRecordReader();
  TFRecordReader(const TFRecordReader&) = delete;
  TFRecordReader& operator=(const TFRecordReader&) = delete;

  /// NotFound naming the file when it does not exist.
  Status Open(const std::string& path);
  /// The next record's data into `*record`. OutOfRange at the clean end of
  /// the file; DataLoss ("<file>: truncated record at offset N", "...
  /// corrupted record at offset N") for a partial record or a checksum that
  /// does not match. A length longer than the rest of the file is a
  /// truncated record, found before anything is allocated for it, so a
  /// length of 2^60 costs nothing. REQUIRES: open, on a regular file.
  Status ReadRecord(std::string* record);
  /// Where the next record starts, in bytes from the start of the file.
  uint64_t offset() const { return offset_; }

 private:
  // Reads up to `n` bytes into `*out`; fewer only at the end of the file.
  size_t Read(size_t n, std::string* out);
  // The bytes between the read position and the end of the file as it is
  // now (an event file may still be growing while it is read).
  StatusOr<uint64_t> BytesLeft() const;

  std::string path_;
  std::FILE* file_ = nullptr;
  uint64_t offset_ = 0;
};

}  // namespace minitf
