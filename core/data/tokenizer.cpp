#include "data/tokenizer.hpp"

#include "util/utf8.hpp"

namespace tf {

namespace {
constexpr char kSeparator = ' ';  // stands for every character that can be neither a token nor a marker
constexpr std::string_view kEndOfText = "<|endoftext|>";

// Python's lower() as far as the token pattern can see it: one byte per character, except U+0130
// which becomes two characters ("i" and U+0307). Invalid bytes vanish without separating anything.
std::string lower_for_tokens(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  for (size_t pos = 0; pos < text.size();) {
    char32_t cp = 0;
    size_t n = utf8_decode_one(text, pos, cp);
    pos += n == 0 ? 1 : n;
    if (n == 0) continue;
    if (cp < 0x80) {
      out.push_back(cp >= 'A' && cp <= 'Z' ? static_cast<char>(cp - 'A' + 'a') : static_cast<char>(cp));
    } else if (cp == 0x0130) {  // LATIN CAPITAL LETTER I WITH DOT ABOVE -> "i" + COMBINING DOT ABOVE
      out.push_back('i');
      out.push_back(kSeparator);
    } else if (cp == 0x212A) {  // KELVIN SIGN -> "k"
      out.push_back('k');
    } else {
      out.push_back(kSeparator);
    }
  }
  return out;
}

// str.replace("<|endoftext|>", " "): left to right, non-overlapping (the marker cannot overlap itself).
void blank_end_of_text(std::string& s) {
  for (size_t at = s.find(kEndOfText); at != std::string::npos;
       at = s.find(kEndOfText, at + kEndOfText.size()))
    s.replace(at, kEndOfText.size(), std::string(kEndOfText.size(), kSeparator));
}

bool is_word_char(char c) { return (c >= 'a' && c <= 'z') || c == '\''; }

bool is_single_token(char c, TokenMode mode) {
  switch (c) {
    case '.':
    case ',':
    case '!':
    case '?':
    case '"':
      return true;
    case '_':
      return mode == TokenMode::Prompt;
    default:
      return false;
  }
}
}  // namespace

void for_each_token(std::string_view text, TokenMode mode,
                    const std::function<void(std::string_view)>& emit) {
  std::string s = lower_for_tokens(text);
  // Replacing the marker by separators of the same length equals replacing it by one space: runs of
  // separators produce no tokens.
  if (mode == TokenMode::Corpus) blank_end_of_text(s);
  const std::string_view v(s);
  for (size_t i = 0; i < v.size();) {
    if (is_word_char(v[i])) {
      size_t j = i + 1;
      while (j < v.size() && is_word_char(v[j])) ++j;
      emit(v.substr(i, j - i));
      i = j;
    } else {
      if (is_single_token(v[i], mode)) emit(v.substr(i, 1));
      ++i;
    }
  }
}

std::vector<std::string> tokenize(std::string_view text, TokenMode mode) {
  std::vector<std::string> words;
  words.reserve(text.size() / 5);  // stories run about 4.3 bytes per token
  for_each_token(text, mode, [&](std::string_view w) { words.emplace_back(w); });
  return words;
}

}  // namespace tf
