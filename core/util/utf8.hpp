// UTF-8 decoding that drops what is not valid UTF-8, exactly like Python's bytes.decode("utf-8",
// errors="ignore") (the course page reads its corpus that way). A byte that does not start a complete,
// well-formed sequence (overlong forms, surrogates and code points past U+10FFFF are not) is skipped on
// its own; skipping one byte at a time gives the same text as Python's maximal-subpart rule, because the
// bytes Python skips together are continuation bytes, which can never start a character.
#pragma once
#include <cstddef>
#include <string>
#include <string_view>

namespace tf {

// Reads one character at text[pos]. Returns its length in bytes (1-4) and sets `code_point`, or
// returns 0 when text[pos] does not start a well-formed character.
size_t utf8_decode_one(std::string_view text, size_t pos, char32_t& code_point);

// The text with every byte that is not part of a well-formed character removed (e.g. a character cut
// in two at the end of a downloaded slice).
std::string utf8_drop_invalid(std::string_view text);

}  // namespace tf
