#include <doctest/doctest.h>

#include <algorithm>
#include <cctype>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <map>
#include <string>
#include <unordered_map>
#include <vector>

#include "data/tokenizer.hpp"
#include "data/vocabulary.hpp"
#include "io/text_file.hpp"
#include "story_gen/grammar.hpp"
#include "story_gen/lexicon.hpp"
#include "support/data_paths.hpp"

using namespace tf;

namespace {
// The default 4 MB training text, made once for the tests that study it.
const std::string& default_corpus() {
  static const std::string text = [] {
    const auto start = std::chrono::steady_clock::now();
    std::string t = generate_stories(kStoryTrainSeed);
    const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    MESSAGE("story grammar: " << t.size() << " bytes in " << s << " s");
    return t;
  }();
  return text;
}

struct Entropies {
  double unigram = 0;  // H(w), nats per token
  double bigram = 0;   // H(w_t | w_t-1)
};

Entropies entropies(const std::vector<std::string>& words) {
  std::unordered_map<std::string, uint64_t> id;
  std::vector<uint64_t> ids;
  for (const std::string& w : words) ids.push_back(id.emplace(w, id.size()).first->second);
  std::unordered_map<uint64_t, double> one, pair, before;
  for (size_t i = 0; i < ids.size(); ++i) {
    one[ids[i]] += 1;
    if (i) pair[ids[i - 1] << 32 | ids[i]] += 1, before[ids[i - 1]] += 1;
  }
  Entropies e;
  const double n = static_cast<double>(ids.size());
  for (const auto& [w, c] : one) e.unigram -= c / n * std::log(c / n);
  for (const auto& [p, c] : pair) e.bigram -= c / (n - 1) * std::log(c / before[p >> 32]);
  return e;
}
}  // namespace

TEST_SUITE("grammar") {
  TEST_CASE("a seed always gives the same stories and another seed others") {
    const std::string a = generate_stories(5, 100000);
    CHECK(a == generate_stories(5, 100000));
    CHECK(a != generate_stories(6, 100000));
    CHECK(generate_stories(5, 20000) == a.substr(0, generate_stories(5, 20000).size()));
    CHECK(generate_stories(5, 0).empty());
  }

  TEST_CASE("the text is whole stories in the TinyStories V2 format") {
    const std::string text = generate_stories(3, 200000);
    CHECK(text.size() >= 200000);
    CHECK(text.size() < 200000 + 4000);
    const std::string sep = "<|endoftext|>\n";
    REQUIRE(text.size() > sep.size());
    CHECK(text.compare(text.size() - sep.size(), sep.size(), sep) == 0);
    size_t stories = 0, at = 0;
    for (size_t next; (next = text.find(sep, at)) != std::string::npos; at = next + sep.size(), ++stories) {
      const std::string story = text.substr(at, next - at);
      CHECK(story.size() > 100);
      CHECK(story.back() == '\n');
      CHECK(std::isupper(static_cast<unsigned char>(story[0])));
    }
    CHECK(stories > 100);
    CHECK_MESSAGE(std::all_of(text.begin(), text.end(), [](char c) { return (c & 0x80) == 0; }),
                  "the grammar writes ASCII only");
    const std::vector<std::string> words = tokenize(text);
    CHECK(std::find(words.begin(), words.end(), "\"") != words.end());  // dialogue
    CHECK(std::find(words.begin(), words.end(), "endoftext") == words.end());
  }

  TEST_CASE("inflections follow English spelling rules") {
    using namespace tf::story_gen;
    CHECK(plural("box") == "boxes");
    CHECK(plural("puppy") == "puppies");
    CHECK(plural("toy") == "toys");
    CHECK(plural("mouse") == "mice");
    CHECK(past("stop") == "stopped");
    CHECK(past("visit") == "visited");
    CHECK(past("cry") == "cried");
    CHECK(past("play") == "played");
    CHECK(past("bake") == "baked");
    CHECK(past("run") == "ran");
    CHECK(ing("dance") == "dancing");
    CHECK(ing("swim") == "swimming");
    CHECK(ing("see") == "seeing");
    CHECK(ing("rescue") == "rescuing");
    CHECK(ing("tiptoe") == "tiptoeing");
    CHECK(ing("fix") == "fixing");
  }

  TEST_CASE("articles agree with the next word") {
    const std::vector<std::string> words = tokenize(generate_stories(4, 300000));
    int wrong = 0;
    for (size_t i = 0; i + 1 < words.size(); ++i) {
      const std::string& next = words[i + 1];
      const bool vowel = std::string("aeiou").find(next[0]) != std::string::npos &&
                         next.rfind("uni", 0) != 0 && next.rfind("use", 0) != 0 && next.rfind("one", 0) != 0;
      const bool silent_h = next.rfind("honest", 0) == 0 || next.rfind("hour", 0) == 0;
      if (words[i] == "a" && (vowel || silent_h)) ++wrong;
      if (words[i] == "an" && !vowel && !silent_h) ++wrong;
    }
    CHECK(wrong == 0);
  }

  TEST_CASE("the default corpus fills a 2000-word vocabulary with words in real use") {
    const std::string& text = default_corpus();
    CHECK(text.size() >= static_cast<size_t>(kStoryCorpusBytes));
    const Vocabulary vocab = Vocabulary::from_text(text);
    REQUIRE(vocab.size() == 2002);
    std::map<int32_t, int64_t> counts;
    const std::vector<int32_t> ids = vocab.encode_corpus(text);
    for (int32_t id : ids) ++counts[id];
    const double unk_share = static_cast<double>(counts[vocab.unk_id()]) / static_cast<double>(ids.size());
    MESSAGE("story grammar: " << ids.size() << " tokens, rarest vocabulary word seen " << counts[1999]
                              << " times, <unk> share " << unk_share);
    CHECK(counts[1999] >= 5);  // the 2000th word is no one-off
    CHECK(unk_share > 0.0);    // like real text, some words fall outside the top 2000
    CHECK(unk_share < 0.02);
  }

  TEST_CASE("the next word is far more predictable than word frequencies alone") {
    const Entropies e = entropies(tokenize(default_corpus()));
    MESSAGE("story grammar: unigram entropy " << e.unigram << " nats, bigram " << e.bigram);
    CHECK(e.unigram > 4.5);  // a rich vocabulary, like the page's 5.4 unigram line
    CHECK(e.bigram < e.unigram - 2.0);
  }

  TEST_CASE("its word statistics are close to real TinyStories") {
    const std::string name = "tinystories-v2-train-head.txt";
    const std::string path = testing::real_text_path(name);
    TF_SKIP_WITHOUT_REAL_TEXT(path, name);
    const Entropies real = entropies(tokenize(read_text_file(path)));
    const Entropies ours = entropies(tokenize(generate_stories(kStoryTrainSeed, 1424708)));
    MESSAGE("unigram entropy: real " << real.unigram << ", grammar " << ours.unigram);
    CHECK(std::abs(ours.unigram - real.unigram) < 0.5);
  }
}
