#include "data/word_codec.hpp"

#include <algorithm>
#include <sstream>

#include "util/error.hpp"

namespace tf {

namespace {

bool is_story_vocabulary(const std::vector<std::string>& w) {
  return w.size() >= 2 && w[w.size() - 2] == Vocabulary::kUnk && w.back() == Vocabulary::kMask;
}

int32_t index_of(const std::vector<std::string>& words, const char* word) {
  auto it = std::find(words.begin(), words.end(), word);
  return it == words.end() ? -1 : static_cast<int32_t>(it - words.begin());
}

}  // namespace

WordCodec::WordCodec(std::vector<std::string> words) : words_(std::move(words)) {
  TF_CHECK(!words_.empty(), "the model has no vocabulary to read words with");
  if (is_story_vocabulary(words_)) story_ = Vocabulary::from_entries(words_);
  mask_ = index_of(words_, Vocabulary::kMask);
  unk_ = index_of(words_, Vocabulary::kUnk);
}

std::vector<int32_t> WordCodec::encode(std::string_view text) const {
  if (story_) return story_->encode(text);
  std::istringstream in{std::string(text)};
  std::vector<int32_t> ids;
  for (std::string w; in >> w;) {
    int32_t id = index_of(words_, w.c_str());
    TF_CHECK(id >= 0, "\"", w, "\" is not in the model's vocabulary of ", words_.size(), " words");
    ids.push_back(id);
  }
  return ids;
}

std::vector<std::string> WordCodec::decode(const std::vector<int32_t>& ids) const {
  std::vector<std::string> out;
  out.reserve(ids.size());
  for (int32_t id : ids) {
    TF_CHECK(id >= 0 && id < size(), "token id ", id, " is outside the vocabulary of ", words_.size(),
             " words");
    out.push_back(words_[static_cast<size_t>(id)]);
  }
  return out;
}

std::string WordCodec::join(const std::vector<int32_t>& ids) const {
  std::string text;
  for (const std::string& w : decode(ids)) text += (text.empty() ? "" : " ") + w;
  return text;
}

}  // namespace tf
