#include "util/utf8.hpp"

namespace tf {

namespace {
bool is_continuation(unsigned char b) { return (b & 0xC0) == 0x80; }

// The allowed range of the second byte, which is where overlongs, surrogates and > U+10FFFF show
// (Unicode Table 3-7); later continuation bytes are always 80..BF.
bool second_byte_ok(unsigned char lead, unsigned char b) {
  if (lead == 0xE0) return b >= 0xA0 && b <= 0xBF;
  if (lead == 0xED) return b >= 0x80 && b <= 0x9F;
  if (lead == 0xF0) return b >= 0x90 && b <= 0xBF;
  if (lead == 0xF4) return b >= 0x80 && b <= 0x8F;
  return is_continuation(b);
}
}  // namespace

size_t utf8_decode_one(std::string_view text, size_t pos, char32_t& code_point) {
  const auto lead = static_cast<unsigned char>(text[pos]);
  if (lead < 0x80) {
    code_point = lead;
    return 1;
  }
  size_t length = lead >= 0xC2 && lead <= 0xDF   ? 2
                  : lead >= 0xE0 && lead <= 0xEF ? 3
                  : lead >= 0xF0 && lead <= 0xF4 ? 4
                                                 : 0;
  if (length == 0 || pos + length > text.size()) return 0;
  if (!second_byte_ok(lead, static_cast<unsigned char>(text[pos + 1]))) return 0;
  char32_t cp = lead & (0xFF >> (length + 1));
  for (size_t k = 1; k < length; ++k) {
    const auto b = static_cast<unsigned char>(text[pos + k]);
    if (!is_continuation(b)) return 0;
    cp = (cp << 6) | (b & 0x3F);
  }
  code_point = cp;
  return length;
}

std::string utf8_drop_invalid(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  size_t pos = 0;
  while (pos < text.size()) {
    char32_t cp;
    size_t n = utf8_decode_one(text, pos, cp);
    if (n == 0) {
      ++pos;
      continue;
    }
    out.append(text.substr(pos, n));
    pos += n;
  }
  return out;
}

}  // namespace tf
