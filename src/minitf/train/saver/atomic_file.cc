#include "minitf/train/saver/atomic_file.h"

#include <fcntl.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <cstring>
#include <filesystem>

#include "minitf/tensor/errors.h"

namespace minitf::train {

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
