// Reading a corpus from disk as every file is read (io/file_bytes.hpp: a device or a folder is refused, and a
// file over `cap` bytes), then decoded with invalid UTF-8 dropped. `prefix` >= 0 reads only the first
// `prefix` bytes instead (the page reads its download that way), so a character cut in two at the end
// disappears.
#pragma once
#include <cstdint>
#include <string>

namespace tf {

// The default cap on a text file: 16x the course's 4 MB slice. A corpus costs several times its size once
// tokenized and counted (more for random bytes, where nearly every word is new).
constexpr uint64_t kMaxTextBytes = uint64_t{64} << 20;

std::string read_text_file(const std::string& path, int64_t prefix = -1, uint64_t cap = kMaxTextBytes);

}  // namespace tf
