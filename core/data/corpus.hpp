// A tokenized text as one long run of ids, and the page's GetBatch: B windows of T tokens whose starts
// are drawn like torch.randint(len(corpus) - T), i.e. uniformly in [0, len - T) (the last possible
// window is never drawn, as on the page). Validation text comes from a separate text or from the tail.
#pragma once
#include <cstdint>
#include <string_view>
#include <utility>
#include <vector>

#include "data/vocabulary.hpp"
#include "tensor/tensor.hpp"
#include "util/rng.hpp"

namespace tf {

class Corpus {
 public:
  Corpus() = default;
  explicit Corpus(std::vector<int32_t> ids) : ids_(std::move(ids)) {}
  // The page's `corpus`: corpus tokenization, unknown words -> <unk>.
  static Corpus from_text(std::string_view text, const Vocabulary& vocab);

  int64_t size() const { return static_cast<int64_t>(ids_.size()); }
  const std::vector<int32_t>& ids() const { return ids_; }

  // (B, T) ids: row b is ids[s_b : s_b + T] with s_b = rng.below(size() - T), drawn in row order.
  Ids batch(Rng& rng, int64_t B, int64_t T) const;
  // (count, T) ids: consecutive windows from the start (a fixed validation set; no randomness).
  Ids windows(int64_t count, int64_t T) const;

  // Splits off the last `fraction` of the tokens: {first part, held-out tail}.
  std::pair<Corpus, Corpus> split_tail(double fraction) const;

 private:
  std::vector<int32_t> ids_;
};

}  // namespace tf
