// The story vocabulary of the course page: the `top` most common words of a corpus, then "<unk>" and
// "_" (the mask), so 2002 entries for the default 2000. Ties keep first-seen order, as Python's
// Counter.most_common does (a stable sort by count over insertion order), so the same text gives the
// same ids as the page. Stored in checkpoints as a JSON array of the words in id order.
#pragma once
#include <cstdint>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace tf {

class Vocabulary {
 public:
  static constexpr int64_t kDefaultTop = 2000;
  static constexpr const char* kUnk = "<unk>";
  static constexpr const char* kMask = "_";

  // The `top` most common words of the corpus text (tokenized with TokenMode::Corpus) + <unk> + _.
  static Vocabulary from_text(std::string_view text, int64_t top = kDefaultTop);
  static Vocabulary from_words(const std::vector<std::string>& corpus_words, int64_t top = kDefaultTop);
  // Words in id order; the last two must be "<unk>" and "_" (as written by to_json).
  static Vocabulary from_entries(std::vector<std::string> entries);
  static Vocabulary from_json(const std::string& json);

  std::string to_json() const;
  int64_t size() const { return static_cast<int64_t>(words_.size()); }
  const std::vector<std::string>& words() const { return words_; }
  const std::string& word(int32_t id) const;
  int32_t unk_id() const { return static_cast<int32_t>(words_.size() - 2); }
  int32_t mask_id() const { return static_cast<int32_t>(words_.size() - 1); }

  int32_t id(std::string_view word) const;  // unknown words -> unk_id()
  // The page's StoryTokens: prompt tokenization ("_" becomes mask_id()), unknown words -> unk_id().
  std::vector<int32_t> encode(std::string_view text) const;
  // Corpus tokenization (the page's `corpus`): "<|endoftext|>" separates, "_" is not a token.
  std::vector<int32_t> encode_corpus(std::string_view text) const;
  // The page's StoryText: words joined by single spaces.
  std::string decode(const std::vector<int32_t>& ids) const;

 private:
  explicit Vocabulary(std::vector<std::string> words);
  std::vector<std::string> words_;
  std::unordered_map<std::string, int32_t> index_;
};

}  // namespace tf
