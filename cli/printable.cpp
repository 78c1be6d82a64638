#include "printable.hpp"

#include "tinyformer.hpp"

namespace tf::cli {

std::string printable_json(const nlohmann::json& j) {
  std::string dumped = j.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
  std::string out;
  for (size_t i = 0; i < dumped.size(); ++i) {
    auto byte = static_cast<unsigned char>(dumped[i]);
    auto next = i + 1 < dumped.size() ? static_cast<unsigned char>(dumped[i + 1]) : 0;
    if (byte == 0x7f) {
      out += "\\u007f";
    } else if (byte == 0xc2 && next >= 0x80 && next <= 0x9f) {  // U+0080..U+009F, only ever inside strings
      const char* hex = "0123456789abcdef";
      out += std::string("\\u00") + hex[next >> 4] + hex[next & 15];
      ++i;
    } else {
      out += dumped[i];
    }
  }
  return out;
}

}  // namespace tf::cli
