#include "printable.hpp"

#include <cstdio>

#include "tinyformer.hpp"

namespace tf::cli {

namespace {

std::string escape(const char* format, unsigned value) {
  char buf[16];
  std::snprintf(buf, sizeof buf, format, value);
  return buf;
}

}  // namespace

std::string printable_json(const nlohmann::json& j) {
  std::string dumped = j.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
  std::string out;
  for (size_t i = 0; i < dumped.size(); ++i) {
    auto byte = static_cast<unsigned char>(dumped[i]);
    auto next = i + 1 < dumped.size() ? static_cast<unsigned char>(dumped[i + 1]) : 0;
    if (byte == 0x7f) {
      out += "\\u007f";
    } else if (byte == 0xc2 && next >= 0x80 && next <= 0x9f) {  // U+0080..U+009F, only ever inside strings
      out += escape("\\u%04x", next);
      ++i;
    } else {
      out += dumped[i];
    }
  }
  return out;
}

}  // namespace tf::cli
