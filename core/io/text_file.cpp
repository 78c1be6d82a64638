#include "io/text_file.hpp"

#include <algorithm>

#include "io/file_bytes.hpp"
#include "util/utf8.hpp"

namespace tf {

std::string read_text_file(const std::string& path, int64_t prefix, uint64_t cap) {
  std::vector<uint8_t> bytes =
      prefix >= 0 ? read_file_bytes(path, std::min<uint64_t>(prefix, cap), true) : read_file_bytes(path, cap);
  return utf8_drop_invalid(std::string_view(reinterpret_cast<const char*>(bytes.data()), bytes.size()));
}

}  // namespace tf
