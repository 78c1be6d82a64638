#include "data/vocabulary.hpp"

#include <algorithm>
#include <nlohmann/json.hpp>

#include "data/tokenizer.hpp"
#include "util/error.hpp"

namespace tf {

namespace {
struct WordCount {
  std::string word;
  int64_t count = 0;
};

// Counts in first-seen order, then a stable sort by count, largest first: Counter.most_common.
std::vector<std::string> most_common(const std::vector<WordCount>& seen, int64_t top) {
  std::vector<const WordCount*> order;
  order.reserve(seen.size());
  for (const WordCount& wc : seen) order.push_back(&wc);
  std::stable_sort(order.begin(), order.end(),
                   [](const WordCount* a, const WordCount* b) { return a->count > b->count; });
  std::vector<std::string> words;
  const size_t n = std::min(order.size(), static_cast<size_t>(top));
  for (size_t i = 0; i < n; ++i) words.push_back(order[i]->word);
  return words;
}

class WordCounter {
 public:
  void add(std::string_view word) {
    auto [it, fresh] = slot_.try_emplace(std::string(word), seen_.size());
    if (fresh) seen_.push_back({it->first, 0});
    ++seen_[it->second].count;
  }
  const std::vector<WordCount>& seen() const { return seen_; }

 private:
  std::unordered_map<std::string, size_t> slot_;
  std::vector<WordCount> seen_;  // first-seen order
};
std::vector<std::string> with_specials(std::vector<std::string> words) {
  words.push_back(Vocabulary::kUnk);
  words.push_back(Vocabulary::kMask);
  return words;
}
}  // namespace

Vocabulary::Vocabulary(std::vector<std::string> words) : words_(std::move(words)) {
  for (size_t i = 0; i < words_.size(); ++i) {
    bool fresh = index_.emplace(words_[i], static_cast<int32_t>(i)).second;
    TF_CHECK(fresh, "vocabulary: the word \"", words_[i], "\" appears twice");
  }
}

Vocabulary Vocabulary::from_text(std::string_view text, int64_t top) {
  TF_CHECK(top > 0, "vocabulary: the number of words must be positive, got ", top);
  WordCounter counter;
  for_each_token(text, TokenMode::Corpus, [&](std::string_view w) { counter.add(w); });
  return Vocabulary(with_specials(most_common(counter.seen(), top)));
}

Vocabulary Vocabulary::from_words(const std::vector<std::string>& corpus_words, int64_t top) {
  TF_CHECK(top > 0, "vocabulary: the number of words must be positive, got ", top);
  WordCounter counter;
  for (const std::string& w : corpus_words) counter.add(w);
  return Vocabulary(with_specials(most_common(counter.seen(), top)));
}

Vocabulary Vocabulary::from_entries(std::vector<std::string> entries) {
  const size_t n = entries.size();
  TF_CHECK(n >= 2 && entries[n - 2] == kUnk && entries[n - 1] == kMask,
           "vocabulary: the last two entries must be \"<unk>\" and \"_\" (", n, " entries given)");
  return Vocabulary(std::move(entries));
}

Vocabulary Vocabulary::from_json(const std::string& json) {
  nlohmann::json parsed = nlohmann::json::parse(json, nullptr, false);
  TF_CHECK(!parsed.is_discarded() && parsed.is_array(), "vocabulary: expected a JSON array of words");
  std::vector<std::string> entries;
  for (const auto& item : parsed) {
    TF_CHECK(item.is_string(), "vocabulary: every JSON entry must be a string");
    entries.push_back(item.get<std::string>());
  }
  return from_entries(std::move(entries));
}

std::string Vocabulary::to_json() const { return nlohmann::json(words_).dump(); }

const std::string& Vocabulary::word(int32_t id) const {
  TF_CHECK(id >= 0 && id < size(), "vocabulary: id ", id, " is outside [0, ", size(), ")");
  return words_[static_cast<size_t>(id)];
}

int32_t Vocabulary::id(std::string_view word) const {
  auto it = index_.find(std::string(word));
  return it == index_.end() ? unk_id() : it->second;
}

std::vector<int32_t> Vocabulary::encode(std::string_view text) const {
  std::vector<int32_t> ids;
  for_each_token(text, TokenMode::Prompt, [&](std::string_view w) { ids.push_back(id(w)); });
  return ids;
}

std::vector<int32_t> Vocabulary::encode_corpus(std::string_view text) const {
  std::vector<int32_t> ids;
  for_each_token(text, TokenMode::Corpus, [&](std::string_view w) { ids.push_back(id(w)); });
  return ids;
}

std::string Vocabulary::decode(const std::vector<int32_t>& ids) const {
  std::string out;
  for (size_t i = 0; i < ids.size(); ++i) {
    if (i) out.push_back(' ');
    out += word(ids[i]);
  }
  return out;
}

}  // namespace tf
