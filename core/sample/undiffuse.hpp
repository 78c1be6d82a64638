// Writing by undiffusing (the masked-diffusion page): start from masks; for s = T ... 1 every still-masked
// position is revealed with probability 1/s (all are revealed at s = 1) by sampling from the guess.
// UndiffuseGreedy reveals the most confident positions first with their most likely token. Positions that
// are not masked in the start (a prompt prefix and suffix) stay fixed: that is infilling. Many sequences
// are written at once, one network call per step for the whole batch.
#pragma once
#include <vector>

#include "sample/guesser.hpp"
#include "util/rng.hpp"

namespace tf {

struct UndiffuseOptions {
  int steps = 20;       // T
  bool greedy = false;  // UndiffuseGreedy
};

struct UndiffuseResult {
  Ids tokens;  // [N, L]
  std::vector<int32_t>
      reveal_step;        // [N * L]: 1 = revealed at the first step (s = T), 0 = fixed from the start
  int network_calls = 0;  // guesser calls (each on the whole batch)
};

// start [N, L]: mask_id where the sampler must write, anything else is kept.
UndiffuseResult undiffuse(const Guesser& guess, const Ids& start, int32_t mask_id,
                          const UndiffuseOptions& options, Rng& rng);

}  // namespace tf
