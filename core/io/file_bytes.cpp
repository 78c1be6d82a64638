#include "io/file_bytes.hpp"

#include <dirent.h>
#include <fcntl.h>
#include <signal.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>

#include "util/error.hpp"

namespace tf {
namespace {

std::string reason() { return std::strerror(errno); }

// A name beside the destination that no other writer (thread or process) picks at the same moment:
// <path>.tmp.<pid>.<n>.
std::string temporary_name(const std::string& path) {
  static std::atomic<unsigned> counter{0};
  return path + ".tmp." + std::to_string(static_cast<long>(getpid())) + "." + std::to_string(counter++);
}

// Removes <path>.tmp.<pid>.<n> files whose process is gone (killed while it wrote, so never renamed).
void remove_stale_temporaries(const std::string& path) {
  size_t slash = path.rfind('/');
  std::string folder = slash == std::string::npos ? "." : path.substr(0, slash + 1);
  std::string stem = (slash == std::string::npos ? path : path.substr(slash + 1)) + ".tmp.";
  DIR* dir = ::opendir(folder.c_str());
  if (!dir) return;
  while (const dirent* entry = ::readdir(dir)) {
    std::string name = entry->d_name;
    if (name.compare(0, stem.size(), stem) != 0) continue;
    long pid = std::strtol(name.c_str() + stem.size(), nullptr, 10);
    if (pid > 0 && pid != getpid() && ::kill(static_cast<pid_t>(pid), 0) != 0 && errno == ESRCH)
      ::unlink((folder + "/" + name).c_str());
  }
  ::closedir(dir);
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
void check_readable_kind(int fd, const std::string& path, uint64_t max_bytes, bool prefix) {
  struct stat st {};
  if (::fstat(fd, &st) != 0) return;  // the read itself will report the problem
  const char* refused = S_ISDIR(st.st_mode)                          ? "it is a directory"
                        : S_ISCHR(st.st_mode) || S_ISBLK(st.st_mode) ? "it is a device, not a file"
                                                                     : nullptr;
  if (!refused && !prefix && S_ISREG(st.st_mode) && static_cast<uint64_t>(st.st_size) > max_bytes) {
    ::close(fd);
    fail("cannot read '", path, "': it is ", st.st_size, " bytes, over the limit of ", max_bytes);
  }
  if (!refused) return;
  ::close(fd);
  fail("cannot read '", path, "': ", refused);
}

}  // namespace

std::vector<uint8_t> read_file_bytes(const std::string& path, uint64_t max_bytes, bool prefix) {
  int fd = ::open(path.c_str(), O_RDONLY);
  TF_CHECK(fd >= 0, "cannot open '", path, "': ", reason());
  check_readable_kind(fd, path, max_bytes, prefix);
  std::vector<uint8_t> bytes;
  std::vector<uint8_t> buffer(1 << 16);  // on the heap: wasm stacks are small
  for (;;) {
    size_t want = prefix ? static_cast<size_t>(std::min<uint64_t>(buffer.size(), max_bytes - bytes.size()))
                         : buffer.size();
    ssize_t n = want == 0 ? 0 : ::read(fd, buffer.data(), want);
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

// A new temporary file beside path, open for writing; its name in `tmp`.
int create_temporary(const std::string& path, std::string& tmp) {
  check_replaceable(path);
  remove_stale_temporaries(path);
  tmp = temporary_name(path);
  int fd = ::open(tmp.c_str(), O_WRONLY | O_CREAT | O_EXCL, 0644);
  TF_CHECK(fd >= 0, "cannot write '", path, "': cannot create '", tmp, "': ", reason());
  return fd;
}

void check_writable(const std::string& path) {
  std::string tmp;
  ::close(create_temporary(path, tmp));
  ::unlink(tmp.c_str());
}

void write_file_atomically(const std::string& path, const std::vector<uint8_t>& bytes) {
  std::string tmp;
  int fd = create_temporary(path, tmp);
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
