// Whole files as bytes. Writing goes to a temporary file in the destination's folder, which is flushed to
// disk and then renamed over the destination: readers see the old file or the new one, never half of one.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "util/error.hpp"

namespace tf {

// The most any reader takes from one file unless it says otherwise.
constexpr uint64_t kMaxFileBytes = uint64_t{2} << 30;

// The whole file; throws tf::Error naming the path and the system's reason. A directory or a device (such
// as /dev/zero) is refused before reading, and so is a file over max_bytes (pipes: once they pass it), so
// a hostile path never makes the reader allocate without bound. With `prefix`, a longer file is not refused:
// its first max_bytes bytes are read.
std::vector<uint8_t> read_file_bytes(const std::string& path, uint64_t max_bytes = kMaxFileBytes,
                                     bool prefix = false);

// parse(the file's bytes), with the path put in front of any tf::Error the parser throws ("'a.bin': ...").
template <class Parse>
auto parse_file(const std::string& path, uint64_t max_bytes, Parse parse) {
  std::vector<uint8_t> bytes = read_file_bytes(path, max_bytes);
  try {
    return parse(bytes);
  } catch (const Error& e) {
    fail("'", path, "': ", e.what());
  }
}

// Throws unless path names a regular file or nothing yet: renaming over a symlink, a device node or a folder
// would replace it with a regular file (as root, /dev/null itself).
void check_replaceable(const std::string& path);

// check_replaceable(path), and a temporary file beside it can be made (so a run learns before it trains
// that its checkpoint could not be saved); temporary files left by a process that was killed mid-write
// are removed.
void check_writable(const std::string& path);

// Replaces (or creates) path with exactly these bytes through a temporary file beside it (check_writable
// first). On failure the temporary file is removed, an existing destination is left as it was, and a
// tf::Error names the path and the reason.
void write_file_atomically(const std::string& path, const std::vector<uint8_t>& bytes);

}  // namespace tf
