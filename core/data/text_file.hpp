// Reading a corpus from disk the way the page reads its download: the first `max_bytes` bytes (all when
// negative), then decoded with invalid UTF-8 dropped, so a character cut in two at the end disappears.
#pragma once
#include <cstdint>
#include <string>

namespace tf {

std::string read_text_file(const std::string& path, int64_t max_bytes = -1);

}  // namespace tf
