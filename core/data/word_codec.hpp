// Words <-> ids for whatever vocabulary a model came with (what front ends type and show): a story
// vocabulary (ending in "<unk>" and "_") uses the page's prompt tokenizer, unknown words -> <unk>; any other
// list (the toy language's 14 words, the sorter's digits) splits on spaces and every word must exist.
#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "data/vocabulary.hpp"

namespace tf {

class WordCodec {
 public:
  explicit WordCodec(std::vector<std::string> words);
  const std::vector<std::string>& words() const { return words_; }
  int64_t size() const { return static_cast<int64_t>(words_.size()); }
  // The id of "_" (the mask), or -1 when the vocabulary has none.
  int32_t mask_id() const { return mask_; }
  // The id of "<unk>", or -1 when the vocabulary has none.
  int32_t unk_id() const { return unk_; }

  std::vector<int32_t> encode(std::string_view text) const;
  std::vector<std::string> decode(const std::vector<int32_t>& ids) const;  // throws on an id out of range
  std::string join(const std::vector<int32_t>& ids) const;                 // words joined by single spaces

 private:
  std::vector<std::string> words_;
  std::optional<Vocabulary> story_;  // set for story vocabularies
  int32_t mask_ = -1, unk_ = -1;
};

}  // namespace tf
