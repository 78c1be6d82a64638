#include "io/file_bytes.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <cstdio>
#include <cstring>

#include "util/error.hpp"

namespace tf {
namespace {

std::string reason() { return std::strerror(errno); }

// A name beside the destination that no other writer (thread or process) picks at the same moment.
std::string temporary_name(const std::string& path) {
  static std::atomic<unsigned> counter{0};
  return path + ".tmp." + std::to_string(static_cast<long>(getpid())) + "." + std::to_string(counter++);
}

// Writes all bytes to fd, resuming after short writes and signals; false (with errno set) on failure.
bool write_all(int fd, const uint8_t* data, size_t size) {
  while (size > 0) {
    ssize_t n = ::write(fd, data, size);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) {
      if (n == 0) errno = EIO;
      return false;
    }
    data += n;
    size -= static_cast<size_t>(n);
  }
  return true;
}

// Refuses what is not a file to read whole: directories and devices (their size says nothing).
void check_readable_kind(int fd, const std::string& path, uint64_t max_bytes) {
  struct stat st {};
  if (::fstat(fd, &st) != 0) return;  // the read itself will report the problem
  const char* refused = S_ISDIR(st.st_mode)                          ? "it is a directory"
                        : S_ISCHR(st.st_mode) || S_ISBLK(st.st_mode) ? "it is a device, not a file"
                                                                     : nullptr;
  if (!refused && S_ISREG(st.st_mode) && static_cast<uint64_t>(st.st_size) > max_bytes) {
    ::close(fd);
    fail("cannot read '", path, "': it is ", st.st_size, " bytes, over the limit of ", max_bytes);
  }
  if (!refused) return;
  ::close(fd);
  fail("cannot read '", path, "': ", refused);
}

}  // namespace

std::vector<uint8_t> read_file_bytes(const std::string& path, uint64_t max_bytes) {
  int fd = ::open(path.c_str(), O_RDONLY);
  TF_CHECK(fd >= 0, "cannot open '", path, "': ", reason());
  check_readable_kind(fd, path, max_bytes);
  std::vector<uint8_t> bytes;
  std::vector<uint8_t> buffer(1 << 16);  // on the heap: wasm stacks are small
  for (;;) {
    ssize_t n = ::read(fd, buffer.data(), buffer.size());
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) {
      std::string why = reason();
      ::close(fd);
      fail("cannot read '", path, "': ", why);
    }
    if (n == 0) break;
    if (bytes.size() + static_cast<size_t>(n) > max_bytes) {
      ::close(fd);
      fail("cannot read '", path, "': it is over the limit of ", max_bytes, " bytes");
    }
    bytes.insert(bytes.end(), buffer.data(), buffer.data() + n);
  }
  ::close(fd);
  return bytes;
}

void check_replaceable(const std::string& path) {
  struct stat st;
  if (::lstat(path.c_str(), &st) != 0) return;  // a new name: the write itself reports a missing folder
  TF_CHECK(S_ISREG(st.st_mode), "cannot write '", path, "': it is ",
           S_ISLNK(st.st_mode)   ? "a symbolic link"
           : S_ISDIR(st.st_mode) ? "a folder"
                                 : "not a regular file",
           "; give a regular file or a new name");
}

void write_file_atomically(const std::string& path, const std::vector<uint8_t>& bytes) {
  check_replaceable(path);
  std::string tmp = temporary_name(path);
  int fd = ::open(tmp.c_str(), O_WRONLY | O_CREAT | O_EXCL, 0644);
  TF_CHECK(fd >= 0, "cannot write '", path, "': cannot create '", tmp, "': ", reason());
  bool ok = write_all(fd, bytes.data(), bytes.size()) && ::fsync(fd) == 0;
  std::string why = ok ? "" : reason();
  if (::close(fd) != 0 && ok) {
    ok = false;
    why = reason();
  }
  if (ok && std::rename(tmp.c_str(), path.c_str()) != 0) {
    ok = false;
    why = reason();
  }
  if (ok) return;
  std::remove(tmp.c_str());
  fail("cannot write '", path, "': ", why);
}

}  // namespace tf
