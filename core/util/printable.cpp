#include "util/printable.hpp"

#include <cstdio>

#include "util/utf8.hpp"

namespace tf {

namespace {

std::string escape(const char* format, unsigned value) {
  char buf[16];
  std::snprintf(buf, sizeof buf, format, value);
  return buf;
}

}  // namespace

std::string printable(std::string_view text, bool backslashes) {
  std::string out;
  for (size_t pos = 0; pos < text.size();) {
    char32_t cp = 0;
    size_t n = utf8_decode_one(text, pos, cp);
    if (n == 0) {  // not UTF-8: the raw byte, escaped
      out += escape("\\x%02x", static_cast<unsigned char>(text[pos]));
      pos += 1;
      continue;
    }
    if (cp == '\n')
      out += "\\n";
    else if (cp == '\r')
      out += "\\r";
    else if (cp == '\t')
      out += "\\t";
    else if (cp == '\\' && backslashes)
      out += "\\\\";
    else if (cp < 0x20 || cp == 0x7f)
      out += escape("\\x%02x", static_cast<unsigned>(cp));
    else if (cp >= 0x80 && cp <= 0x9f)  // C1 controls: CSI (U+009B) starts escape sequences too
      out += escape("\\u%04x", static_cast<unsigned>(cp));
    else
      out.append(text.substr(pos, n));
    pos += n;
  }
  return out;
}

}  // namespace tf
