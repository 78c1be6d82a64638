#include "data/toy_language.hpp"

#include <sstream>

#include "util/error.hpp"

namespace tf::toy {

namespace {
bool consistent(const Sentence& s, const std::vector<int32_t>& x) {
  for (int64_t i = 0; i < kLength; ++i)
    if (x[i] != kMask && x[i] != s.ids[i]) return false;
  return true;
}

// (L, V): for every position, the prior-weighted distribution of the word there over `candidates`.
std::vector<float> position_marginals(const std::vector<const Sentence*>& candidates) {
  double total = 0;
  for (const Sentence* s : candidates) total += s->prior;
  std::vector<double> p(kLength * kVocabSize, 0.0);
  for (const Sentence* s : candidates)
    for (int64_t i = 0; i < kLength; ++i) p[i * kVocabSize + s->ids[i]] += s->prior / total;
  return std::vector<float>(p.begin(), p.end());
}

void check_sentence(const std::vector<int32_t>& x) {
  TF_CHECK(static_cast<int64_t>(x.size()) == kLength, "toy language: a sentence has ", kLength,
           " tokens, got ", x.size());
  for (int32_t t : x) TF_CHECK(t >= 0 && t < kVocabSize, "toy language: token ", t, " is not in [0, 14)");
}
}  // namespace

const std::vector<std::string>& vocabulary() {
  static const std::vector<std::string> words = {"the",   "cat",      "box",   "is", "alive",
                                                 "empty", "nobody",   "knows", "if", "or",
                                                 "until", "somebody", "looks", "_"};
  return words;
}

const std::vector<Sentence>& sentences() {
  static const std::vector<Sentence> data = {{encode("the cat is alive"), 0.8},
                                             {encode("the box is empty"), 0.2}};
  return data;
}

std::vector<int32_t> encode(const std::string& sentence) {
  std::istringstream words(sentence);
  std::vector<int32_t> ids;
  for (std::string w; words >> w;) {
    const auto& v = vocabulary();
    int32_t id = 0;
    while (id < kVocabSize && v[id] != w) ++id;
    TF_CHECK(id < kVocabSize, "toy language: \"", w, "\" is not one of its 14 words");
    ids.push_back(id);
  }
  return ids;
}

std::string decode(const std::vector<int32_t>& ids) {
  std::string out;
  for (size_t i = 0; i < ids.size(); ++i) {
    TF_CHECK(ids[i] >= 0 && ids[i] < kVocabSize, "toy language: token ", ids[i], " is not in [0, 14)");
    if (i) out.push_back(' ');
    out += vocabulary()[ids[i]];
  }
  return out;
}

std::vector<int32_t> sample_p_init(Rng& rng) {
  const auto& s = sentences();
  return rng.uniform_double() < s[0].prior ? s[0].ids : s[1].ids;
}

Ids sample_batch(Rng& rng, int64_t B) {
  TF_CHECK(B > 0, "toy language: the batch size must be positive, got ", B);
  std::vector<int32_t> out;  // (B, 4)
  out.reserve(static_cast<size_t>(B * kLength));
  for (int64_t b = 0; b < B; ++b) {
    std::vector<int32_t> s = sample_p_init(rng);
    out.insert(out.end(), s.begin(), s.end());
  }
  return Ids(std::move(out), Shape{B, kLength});
}

std::vector<float> guess_x0(const std::vector<int32_t>& x) {
  check_sentence(x);
  std::vector<const Sentence*> fits, all;
  for (const Sentence& s : sentences()) {
    all.push_back(&s);
    if (consistent(s, x)) fits.push_back(&s);
  }
  std::vector<float> p = position_marginals(fits.empty() ? all : fits);  // (L, V)
  for (int64_t i = 0; i < kLength; ++i) {
    if (x[i] == kMask) continue;
    std::fill(p.begin() + i * kVocabSize, p.begin() + (i + 1) * kVocabSize, 0.f);
    p[i * kVocabSize + x[i]] = 1.f;
  }
  return p;
}

std::vector<double> token_frequencies() {
  std::vector<double> f(kVocabSize, 0.0);
  for (const Sentence& s : sentences())
    for (int32_t t : s.ids) f[t] += s.prior / kLength;
  return f;
}

int sentence_index(const std::vector<int32_t>& x) {
  const auto& s = sentences();
  for (size_t k = 0; k < s.size(); ++k)
    if (x == s[k].ids) return static_cast<int>(k);
  return -1;
}

bool is_nonsense(const std::vector<int32_t>& x) { return sentence_index(x) < 0; }

}  // namespace tf::toy
