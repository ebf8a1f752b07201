#include "minitf/train/tfrecord.h"

#include <sys/stat.h>

#include <cerrno>
#include <cstring>

#include "minitf/train/crc32c.h"

namespace minitf {
namespace {

// Little-endian whatever the machine's order, as the format fixes it.
void PutFixed64(uint64_t v, char* out) {
  for (int i = 0; i < 8; ++i) out[i] = static_cast<char>(v >> (8 * i));
}
void PutFixed32(uint32_t v, char* out) {
  for (int i = 0; i < 4; ++i) out[i] = static_cast<char>(v >> (8 * i));
}
uint64_t GetFixed64(const char* p) {
  uint64_t v = 0;
  for (int i = 0; i < 8; ++i)
    v |= uint64_t{static_cast<uint8_t>(p[i])} << (8 * i);
  return v;
}
uint32_t GetFixed32(const char* p) {
  uint32_t v = 0;
  for (int i = 0; i < 4; ++i)
    v |= uint32_t{static_cast<uint8_t>(p[i])} << (8 * i);
  return v;
}

uint32_t MaskedCrc(const char* data, size_t size) {
  return crc32c::Mask(crc32c::Value(data, size));
}

Status OpenError(const std::string& path, std::string_view what) {
  const int err = errno;
  if (err == ENOENT) {
    return errors::NotFound(path, ": ", what, ": ", std::strerror(err));
  }
  if (err == EACCES) {
    return errors::PermissionDenied(path, ": ", what, ": ", std::strerror(err));
  }
  return errors::Internal(path, ": ", what, ": ", std::strerror(err));
}

}  // namespace

// --8<-- [start:encode]
std::string EncodeTFRecord(std::string_view data) {
  std::string out(kTFRecordHeaderBytes + data.size() + kTFRecordFooterBytes,
                  '\0');
  char* p = out.data();
  PutFixed64(data.size(), p);
  PutFixed32(MaskedCrc(p, sizeof(uint64_t)), p + sizeof(uint64_t));
  std::memcpy(p + kTFRecordHeaderBytes, data.data(), data.size());
  PutFixed32(MaskedCrc(data.data(), data.size()),
             p + kTFRecordHeaderBytes + data.size());
  return out;
}
// --8<-- [end:encode]

TFRecordWriter::~TFRecordWriter() {
  if (file_ != nullptr) std::fclose(file_);
}

Status TFRecordWriter::Open(const std::string& path) {
  if (file_ != nullptr) {
    return errors::FailedPrecondition(path_, " is already open for writing");
  }
  path_ = path;
  file_ = std::fopen(path.c_str(), "wb");
  if (file_ == nullptr) return OpenError(path, "cannot create file");
  return Status::OK();
}

Status TFRecordWriter::IOError(std::string_view what) const {
  return errors::Internal(path_, ": ", what, ": ", std::strerror(errno));
}

Status TFRecordWriter::WriteRecord(std::string_view data) {
  if (file_ == nullptr) {
    return errors::FailedPrecondition("Writing a record to a closed file ",
                                      path_);
  }
  const std::string framed = EncodeTFRecord(data);
  if (std::fwrite(framed.data(), 1, framed.size(), file_) != framed.size()) {
    return IOError("write failed");
  }
  return Status::OK();
}

Status TFRecordWriter::Flush() {
  if (file_ == nullptr) return Status::OK();
  if (std::fflush(file_) != 0) return IOError("flush failed");
  return Status::OK();
}

Status TFRecordWriter::Close() {
  if (file_ == nullptr) return Status::OK();
  const bool ok = std::fclose(file_) == 0;
  file_ = nullptr;
  if (!ok) return IOError("close failed");
  return Status::OK();
}

TFRecordReader::~TFRecordReader() {
  if (file_ != nullptr) std::fclose(file_);
}

Status TFRecordReader::Open(const std::string& path) {
  if (file_ != nullptr) std::fclose(file_);
  path_ = path;
  offset_ = 0;
  file_ = std::fopen(path.c_str(), "rb");
  if (file_ == nullptr) return OpenError(path, "cannot open file");
  return Status::OK();
}

size_t TFRecordReader::Read(size_t n, std::string* out) {
  out->resize(n);
  const size_t got = std::fread(out->data(), 1, n, file_);
  out->resize(got);
  return got;
}

StatusOr<uint64_t> TFRecordReader::BytesLeft() const {
  struct stat st;
  const off_t pos = ::ftello(file_);
  if (::fstat(::fileno(file_), &st) != 0 || pos < 0) {
    return errors::Internal(
        path_, ": cannot find the file's size: ", std::strerror(errno));
  }
  return st.st_size > pos ? static_cast<uint64_t>(st.st_size - pos) : 0;
}

// --8<-- [start:read_record]
Status TFRecordReader::ReadRecord(std::string* record) {
  if (file_ == nullptr) {
    return errors::FailedPrecondition("Reading a record from a closed file ",
                                      path_);
  }
  std::string header;
  const size_t got = Read(kTFRecordHeaderBytes, &header);
  if (got == 0) return errors::OutOfRange(path_, ": end of file");
  if (got < kTFRecordHeaderBytes) {
    return errors::DataLoss(path_, ": truncated record at offset ", offset_,
                            " (", got, " of ", kTFRecordHeaderBytes,
                            " header bytes)");
  }
  // The length is checked before it is trusted: a flipped bit could make
  // the reader allocate gigabytes or skip the rest of the file.
  if (crc32c::kVerifyChecksums &&
      GetFixed32(header.data() + sizeof(uint64_t)) !=
          MaskedCrc(header.data(), sizeof(uint64_t))) {
    return errors::DataLoss(path_, ": corrupted record at offset ", offset_,
                            " (length checksum mismatch)");
  }
  const uint64_t length = GetFixed64(header.data());
  // A length whose checksum holds can still promise more than the file has
  // (a writer stopped in the middle of a record, or a file made to exhaust
  // memory): compare it with the bytes left before allocating for it.
  TF_ASSIGN_OR_RETURN(const uint64_t left, BytesLeft());
  if (length > left || left - length < kTFRecordFooterBytes) {
    return errors::DataLoss(path_, ": truncated record at offset ", offset_,
                            " (", length, " data bytes expected, ", left,
                            " bytes left in the file)");
  }
  std::string footer;
  if (Read(length, record) < length ||
      Read(kTFRecordFooterBytes, &footer) < kTFRecordFooterBytes) {
    return errors::DataLoss(path_, ": truncated record at offset ", offset_,
                            " (", length, " data bytes expected)");
  }
  if (crc32c::kVerifyChecksums &&
      GetFixed32(footer.data()) != MaskedCrc(record->data(), length)) {
    return errors::DataLoss(path_, ": corrupted record at offset ", offset_,
                            " (data checksum mismatch)");
  }
  offset_ += kTFRecordHeaderBytes + length + kTFRecordFooterBytes;
  return Status::OK();
}
// --8<-- [end:read_record]

}  // namespace minitf
