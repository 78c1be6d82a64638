#include "data/corpus.hpp"

#include <algorithm>

#include "util/error.hpp"

namespace tf {

Corpus Corpus::from_text(std::string_view text, const Vocabulary& vocab) {
  return Corpus(vocab.encode_corpus(text));
}

Ids Corpus::batch(Rng& rng, int64_t B, int64_t T) const {
  TF_CHECK(B > 0 && T > 0, "corpus batch: B and T must be positive, got ", B, " and ", T);
  TF_CHECK(size() > T, "corpus batch: windows of ", T, " tokens need more than ", T, " tokens of text, have ",
           size());
  std::vector<int32_t> out(static_cast<size_t>(B * T));  // (B, T)
  for (int64_t b = 0; b < B; ++b) {
    const int64_t start = rng.below(size() - T);
    std::copy_n(ids_.begin() + start, T, out.begin() + b * T);
  }
  return Ids(std::move(out), Shape{B, T});
}

Ids Corpus::windows(int64_t count, int64_t T) const {
  TF_CHECK(count > 0 && T > 0, "corpus windows: count and T must be positive, got ", count, " and ", T);
  TF_CHECK(count * T <= size(), "corpus windows: ", count, " windows of ", T, " tokens need ", count * T,
           " tokens, have ", size());
  std::vector<int32_t> out(ids_.begin(), ids_.begin() + count * T);  // (count, T)
  return Ids(std::move(out), Shape{count, T});
}

std::pair<Corpus, Corpus> Corpus::split_tail(double fraction) const {
  TF_CHECK(fraction > 0.0 && fraction < 1.0, "corpus split: the held-out fraction must be in (0, 1), got ",
           fraction);
  const auto tail = static_cast<int64_t>(static_cast<double>(size()) * fraction);
  const auto cut = ids_.begin() + (size() - tail);
  return {Corpus(std::vector<int32_t>(ids_.begin(), cut)), Corpus(std::vector<int32_t>(cut, ids_.end()))};
}

}  // namespace tf
