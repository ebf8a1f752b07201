#include "minitf/train/saver/checkpoint_format.h"

#include <fcntl.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "minitf/train/crc32c.h"

namespace minitf::train {
namespace {

constexpr size_t kHeaderBytes = 8 + 4 + 4 + 4;
constexpr size_t kFooterBytes = 8 + 4 + 8;

void PutUint(std::string* out, uint64_t v, int bytes) {
  for (int i = 0; i < bytes; ++i)
    out->push_back(static_cast<char>(v >> (8 * i)));
}

void PutCrc(std::string* out, std::string_view covered) {
  PutUint(out, crc32c::Mask(crc32c::Value(covered)), 4);
}

// The raw bytes of a tensor of any dtype.
std::string_view TensorBytes(const Tensor& t) {
  const void* p = nullptr;
  switch (t.dtype()) {
    case DT_FLOAT:
      p = t.data<float>();
      break;
    case DT_DOUBLE:
      p = t.data<double>();
      break;
    case DT_INT32:
      p = t.data<int32_t>();
      break;
    case DT_INT64:
      p = t.data<int64_t>();
      break;
    case DT_BOOL:
      p = t.data<bool>();
      break;
    default:
      MINITF_CHECK(false);
  }
  return {static_cast<const char*>(p),
          static_cast<size_t>(t.NumElements()) * DataTypeSize(t.dtype())};
}

char* MutableTensorBytes(Tensor* t) {
  switch (t->dtype()) {
    case DT_FLOAT:
      return reinterpret_cast<char*>(t->data<float>());
    case DT_DOUBLE:
      return reinterpret_cast<char*>(t->data<double>());
    case DT_INT32:
      return reinterpret_cast<char*>(t->data<int32_t>());
    case DT_INT64:
      return reinterpret_cast<char*>(t->data<int64_t>());
    case DT_BOOL:
      return reinterpret_cast<char*>(t->data<bool>());
    default:
      MINITF_CHECK(false);
  }
  return nullptr;
}

// Reads fields front to back, refusing to read past the end.
class Cursor {
 public:
  explicit Cursor(std::string_view bytes) : bytes_(bytes) {}
  bool Uint(int n, uint64_t* v) {
    if (bytes_.size() - pos_ < static_cast<size_t>(n)) return false;
    *v = 0;
    for (int i = 0; i < n; ++i) {
      *v |= uint64_t{static_cast<uint8_t>(bytes_[pos_ + i])} << (8 * i);
    }
    pos_ += n;
    return true;
  }
  bool Bytes(uint64_t n, std::string_view* v) {
    if (bytes_.size() - pos_ < n) return false;
    *v = bytes_.substr(pos_, n);
    pos_ += n;
    return true;
  }
  // Checks the masked crc stored next against bytes [from, here).
  bool Crc(size_t from) {
    const std::string_view covered = bytes_.substr(from, pos_ - from);
    uint64_t stored;
    return Uint(4, &stored) && crc32c::Unmask(static_cast<uint32_t>(stored)) ==
                                   crc32c::Value(covered);
  }
  size_t pos() const { return pos_; }

 private:
  std::string_view bytes_;
  size_t pos_ = 0;
};

}  // namespace

std::string CheckpointDataPath(const std::string& prefix) {
  return prefix + ".data-00000-of-00001";
}

std::string EncodeCheckpoint(const std::vector<NamedTensor>& tensors) {
  std::string out(kCheckpointMagic);
  PutUint(&out, kCheckpointVersion, 4);
  PutUint(&out, tensors.size(), 4);
  PutCrc(&out, out);
  for (const auto& [name, tensor] : tensors) {
    const size_t start = out.size();
    PutUint(&out, name.size(), 4);
    out += name;
    PutUint(&out, static_cast<uint32_t>(tensor.dtype()), 4);
    PutUint(&out, tensor.dims(), 4);
    for (int i = 0; i < tensor.dims(); ++i) {
      PutUint(&out, static_cast<uint64_t>(tensor.dim_size(i)), 8);
    }
    const std::string_view data = TensorBytes(tensor);
    PutUint(&out, data.size(), 8);
    PutCrc(&out, std::string_view(out).substr(start));
    out += data;
    PutCrc(&out, data);
  }
  const std::string body_crc_input = out;
  PutUint(&out, body_crc_input.size(), 8);
  PutCrc(&out, body_crc_input);
  out += kCheckpointFooterMagic;
  return out;
}

Status DecodeCheckpoint(std::string_view bytes, const std::string& path,
                        std::vector<NamedTensor>* tensors) {
  auto loss = [&](const std::string& what) {
    return errors::DataLoss("Unable to read checkpoint file ", path, ": ",
                            what);
  };
  if (bytes.size() < kHeaderBytes + kFooterBytes) {
    return loss(StrCat("truncated: ", bytes.size(), " bytes"));
  }
  // The footer first: its checksum covers every other byte.
  const size_t body = bytes.size() - kFooterBytes;
  Cursor footer(bytes.substr(body));
  uint64_t length = 0, crc = 0;
  footer.Uint(8, &length);
  footer.Uint(4, &crc);
  if (bytes.substr(bytes.size() - 8) != kCheckpointFooterMagic) {
    return loss("not a minitf checkpoint, or truncated (bad footer magic)");
  }
  if (length != body) {
    return loss(StrCat("truncated: footer records ", length,
                       " bytes before it, found ", body));
  }
  if (crc32c::Unmask(static_cast<uint32_t>(crc)) !=
      crc32c::Value(bytes.substr(0, body))) {
    return loss("checksum mismatch (the file was altered)");
  }
  Cursor c(bytes.substr(0, body));
  std::string_view magic;
  uint64_t version = 0, count = 0;
  if (!c.Bytes(8, &magic) || magic != kCheckpointMagic ||
      !c.Uint(4, &version) || !c.Uint(4, &count) || !c.Crc(0)) {
    return loss("bad header");
  }
  if (version != kCheckpointVersion) {
    return loss(StrCat("unsupported version ", version));
  }
  tensors->clear();
  for (uint64_t k = 0; k < count; ++k) {
    const size_t start = c.pos();
    uint64_t name_len = 0, dtype = 0, rank = 0, data_len = 0;
    std::string_view name;
    if (!c.Uint(4, &name_len) || !c.Bytes(name_len, &name) ||
        !c.Uint(4, &dtype) || !c.Uint(4, &rank) || rank > 64) {
      return loss(StrCat("bad record ", k));
    }
    std::vector<int64_t> dims(rank);
    for (auto& d : dims) {
      uint64_t v = 0;
      if (!c.Uint(8, &v)) return loss(StrCat("bad record ", k));
      d = static_cast<int64_t>(v);
    }
    if (!c.Uint(8, &data_len) || !c.Crc(start) ||
        !DataTypeIsValid(static_cast<DType>(dtype))) {
      return loss(StrCat("bad record ", k));
    }
    // Every length is checked against the bytes that are really there
    // before anything is allocated: the data must lie in the file (Bytes),
    // and the dims must describe exactly those bytes. The dims are checked
    // (FromDims), not multiplied blindly, since [2^62, 4] would wrap to 0
    // elements and pass for an empty tensor, then allocate 2^64 of them.
    const StatusOr<TensorShape> shape =
        TensorShape::FromDims(dims, /*allow_unknown=*/false);
    const uint64_t element_size = DataTypeSize(static_cast<DType>(dtype));
    const size_t data_start = c.pos();
    std::string_view data;
    if (!shape.ok() || !c.Bytes(data_len, &data) || !c.Crc(data_start) ||
        data_len % element_size != 0 ||
        static_cast<uint64_t>(shape->num_elements()) !=
            data_len / element_size) {
      return loss(StrCat("bad data in record ", k, " (", name, ")"));
    }
    Tensor t(static_cast<DType>(dtype), *shape);
    if (data_len > 0)
      std::memcpy(MutableTensorBytes(&t), data.data(), data_len);
    tensors->emplace_back(std::string(name), std::move(t));
  }
  if (c.pos() != body) return loss("trailing bytes after the last record");
  return Status::OK();
}

Status ReadCheckpoint(const std::string& path,
                      std::vector<NamedTensor>* tensors) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return errors::NotFound("Failed to find checkpoint file ", path);
  std::stringstream ss;
  ss << in.rdbuf();
  return DecodeCheckpoint(ss.str(), path, tensors);
}

Status WriteFileAtomically(const std::string& path, std::string_view bytes) {
  static std::atomic<uint64_t> counter{0};
  const std::string tmp =
      StrCat(path, ".tmp", ::getpid(), "_", counter.fetch_add(1));
  auto fail = [&](const char* what) {
    const Status s =
        errors::Unknown(what, " ", tmp, ": ", std::strerror(errno));
    ::unlink(tmp.c_str());
    return s;
  };
  const int fd = ::open(tmp.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
  if (fd < 0) {
    return errno == ENOENT
               ? errors::NotFound("Failed to create ", tmp, ": no such folder")
               : errors::PermissionDenied("Failed to create ", tmp, ": ",
                                          std::strerror(errno));
  }
  size_t done = 0;
  while (done < bytes.size()) {
    const ssize_t n = ::write(fd, bytes.data() + done, bytes.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) {
      ::close(fd);
      return fail("Failed to write");
    }
    done += static_cast<size_t>(n);
  }
  if (::fsync(fd) != 0) {
    ::close(fd);
    return fail("Failed to fsync");
  }
  if (::close(fd) != 0) return fail("Failed to close");
  if (::rename(tmp.c_str(), path.c_str()) != 0) return fail("Failed to rename");
  // The rename lives in the folder's entries: sync those too.
  std::filesystem::path dir = std::filesystem::path(path).parent_path();
  if (dir.empty()) dir = std::filesystem::current_path();
  const int dfd = ::open(dir.c_str(), O_RDONLY | O_DIRECTORY);
  if (dfd >= 0) {
    ::fsync(dfd);
    ::close(dfd);
  }
  return Status::OK();
}

}  // namespace minitf::train
