// Fuzz target: corpus text and vocabulary files from anywhere. The first byte picks the vocabulary size
// (1..64 words + <unk> + _); the rest is the text. Tokenizing, building the vocabulary, encoding, decoding
// and drawing batches must never fail on any bytes, and every id must lie inside the vocabulary. The same
// bytes are also read as a vocabulary JSON file, which must survive its own JSON form.
#include <algorithm>
#include <string_view>

#include "data/corpus.hpp"
#include "data/tokenizer.hpp"
#include "data/vocabulary.hpp"
#include "data/word_codec.hpp"
#include "fuzz_check.hpp"
#include "util/error.hpp"
#include "util/utf8.hpp"

using namespace tf;

namespace {

void check_ids(const std::vector<int32_t>& ids, const Vocabulary& vocab) {
  for (int32_t id : ids) FUZZ_CHECK(id >= 0 && id < vocab.size(), "an id outside the vocabulary");
}

void check_text(std::string_view text, int64_t top) {
  std::vector<std::string> corpus_words = tokenize(text, TokenMode::Corpus);
  tokenize(text, TokenMode::Prompt);
  FUZZ_CHECK(tokenize(utf8_drop_invalid(text), TokenMode::Corpus) == corpus_words,
             "bytes that are not UTF-8 must be dropped before tokenizing");
  Vocabulary vocab = Vocabulary::from_text(text, top);
  FUZZ_CHECK(vocab.size() <= top + 2, "the vocabulary holds at most top words + <unk> + _");
  std::vector<int32_t> ids = vocab.encode(text);
  check_ids(ids, vocab);
  std::string decoded =
      vocab.decode(ids);  // "<unk>" reads back as the word "unk": only the others round trip
  if (std::find(ids.begin(), ids.end(), vocab.unk_id()) == ids.end())
    FUZZ_CHECK(vocab.encode(decoded) == ids, "decoding then encoding again changed the ids");
  Corpus corpus = Corpus::from_text(text, vocab);
  FUZZ_CHECK(static_cast<size_t>(corpus.size()) == corpus_words.size(), "one id per corpus word");
  check_ids(corpus.ids(), vocab);
  if (corpus.size() > 4) {
    Rng rng(static_cast<uint64_t>(corpus.size()));
    check_ids(corpus.batch(rng, 3, 4).data, vocab);
    check_ids(corpus.windows(1, 4).data, vocab);
  }
  auto [head, tail] = corpus.split_tail(0.25);
  FUZZ_CHECK(head.size() + tail.size() == corpus.size(), "a split keeps every token");
  WordCodec codec(vocab.words());
  check_ids(codec.encode(text), vocab);
}

void check_vocabulary_json(const std::string& text) {
  std::optional<Vocabulary> vocab;
  try {
    vocab = Vocabulary::from_json(text);
  } catch (const Error&) {
    return;
  }
  Vocabulary again = Vocabulary::from_json(vocab->to_json());
  FUZZ_CHECK(again.words() == vocab->words(), "a vocabulary changed in its JSON round trip");
  check_ids(vocab->encode(text), *vocab);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size == 0) return 0;
  int64_t top = 1 + data[0] % 64;
  std::string text(reinterpret_cast<const char*>(data + 1), size - 1);
  check_text(text, top);
  check_vocabulary_json(text);
  return 0;
}
