#include "sample/undiffuse.hpp"

#include <algorithm>

#include "util/error.hpp"

namespace tf {

namespace {

// Positions of row n still masked.
std::vector<int64_t> masked_positions(const Ids& x, int64_t n, int64_t L, int32_t mask_id) {
  std::vector<int64_t> out;
  for (int64_t i = 0; i < L; ++i)
    if (x.at(n * L + i) == mask_id) out.push_back(i);
  return out;
}

// Which positions of each row to reveal at step s (of T, counting down).
std::vector<std::vector<int64_t>> choose_reveals(const Ids& x, int64_t N, int64_t L, int32_t mask_id, int s,
                                                 bool greedy, Rng& rng) {
  std::vector<std::vector<int64_t>> reveal(static_cast<size_t>(N));
  for (int64_t n = 0; n < N; ++n) {
    std::vector<int64_t> masked = masked_positions(x, n, L, mask_id);
    if (greedy) {
      // Reveal an even share of what is left so that everything is revealed at s = 1; which ones is
      // decided after the guess (most confident first).
      int64_t k = (static_cast<int64_t>(masked.size()) + s - 1) / s;
      masked.resize(static_cast<size_t>(k));
      reveal[static_cast<size_t>(n)] = masked;
    } else {
      for (int64_t i : masked)
        if (s == 1 || rng.uniform() < 1.f / static_cast<float>(s))
          reveal[static_cast<size_t>(n)].push_back(i);
    }
  }
  return reveal;
}

}  // namespace

UndiffuseResult undiffuse(const Guesser& guess, const Ids& start, int32_t mask_id,
                          const UndiffuseOptions& options, Rng& rng) {
  TF_CHECK(start.shape.ndim() == 2, "undiffuse: start must be [N, L], got ", start.shape.str());
  TF_CHECK(options.steps >= 1, "undiffuse: steps must be at least 1, got ", options.steps);
  int64_t N = start.shape[0], L = start.shape[1];
  UndiffuseResult r{start, std::vector<int32_t>(static_cast<size_t>(N * L), 0), 0};
  int step_number = 0;
  for (int s = options.steps; s >= 1; --s) {
    ++step_number;
    auto reveal = choose_reveals(r.tokens, N, L, mask_id, s, options.greedy, rng);
    bool any = std::any_of(reveal.begin(), reveal.end(), [](const auto& v) { return !v.empty(); });
    if (!any) continue;
    std::vector<float> p = guess(r.tokens);  // [N, L, V]
    ++r.network_calls;
    int64_t V = static_cast<int64_t>(p.size()) / (N * L);
    for (int64_t n = 0; n < N; ++n) {
      std::vector<int64_t>& chosen = reveal[static_cast<size_t>(n)];
      if (options.greedy) {
        // Most confident masked positions first: by their largest probability.
        std::vector<int64_t> masked = masked_positions(r.tokens, n, L, mask_id);
        auto confidence = [&](int64_t i) {
          const float* row = p.data() + (n * L + i) * V;
          return *std::max_element(row, row + V);
        };
        std::stable_sort(masked.begin(), masked.end(),
                         [&](int64_t a, int64_t b) { return confidence(a) > confidence(b); });
        masked.resize(chosen.size());
        chosen = masked;
      }
      for (int64_t i : chosen) {
        const float* row = p.data() + (n * L + i) * V;
        int64_t token = options.greedy ? std::max_element(row, row + V) - row : rng.categorical(row, V);
        r.tokens.data[static_cast<size_t>(n * L + i)] = static_cast<int32_t>(token);
        r.reveal_step[static_cast<size_t>(n * L + i)] = step_number;
      }
    }
  }
  return r;
}

}  // namespace tf
