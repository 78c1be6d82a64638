// The course page's word tokenizer, exactly: Python's text.lower(), then (for a corpus) every
// "<|endoftext|>" replaced by a space, then re.findall(r"[a-z']+|[.,!?\"]"). Prompts use the page's
// StoryTokens rule instead: no replacement and "_" (the mask) is a token too. A hand-written scanner, not
// std::regex (slow, and heavy in wasm). Bytes that are not UTF-8 are dropped first, as the page's
// decode(errors="ignore") does; of all non-ASCII letters only U+0130 and U+212A lower-case into [a-z]
// in Python ("i" + a combining dot, and "k"), so those two are mapped and every other one separates words.
#pragma once
#include <functional>
#include <string>
#include <string_view>
#include <vector>

namespace tf {

enum class TokenMode {
  Corpus,  // training text: "<|endoftext|>" separates stories, tokens [a-z']+ | [.,!?"]
  Prompt,  // what a person types: "_" is a mask token as well, "<|endoftext|>" is not special
};

// Calls `emit` once per token, in order. The views live only during the call.
void for_each_token(std::string_view text, TokenMode mode, const std::function<void(std::string_view)>& emit);

std::vector<std::string> tokenize(std::string_view text, TokenMode mode = TokenMode::Corpus);

}  // namespace tf
