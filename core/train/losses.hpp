// The course's three losses.
// - diffusion_loss (masked diffusion): per sequence a time t in (0, 1]; every position is masked with
//   probability t; loss = (1/t) * sum over masked positions of -log p(x0_i | x_t), averaged over the batch.
//   On stories the per-token figure is loss / L.
// - next_token_loss: the input is x0 without its last token, the answer x0 without its first; mean CE.
// - sorter_loss: teacher-forced mean cross-entropy of the decoder's logits against the sorted digits.
// With a BatchShard each scores its rows of the batch alone, normalised by the whole batch (the diffusion
// loss divides by B already, the means are scaled by rows / B), so the shards' losses and gradients add up
// to the whole batch's; the masks are still drawn for the whole batch.
#pragma once
#include "nn/sorter.hpp"
#include "nn/token_model.hpp"
#include "util/rng.hpp"

namespace tf {

// The rows of each batch that one of `ranks` processes of a data-parallel run computes: rank r takes rows
// [B r / ranks, B (r + 1) / ranks).
struct BatchShard {
  int rank = 0, ranks = 1;
  bool whole() const { return ranks == 1; }
  int64_t begin(int64_t B) const { return B * rank / ranks; }
  int64_t end(int64_t B) const { return B * (rank + 1) / ranks; }
};

Tensor diffusion_loss(const TokenModel& net, const Ids& x0, int32_t mask_id, Rng& rng, BatchShard shard = {});
Tensor next_token_loss(const TokenModel& net, const Ids& x0, BatchShard shard = {});
Tensor sorter_loss(const Sorter& net, const Ids& src, const Ids& tgt_in, const Ids& tgt,
                   BatchShard shard = {});

// x0 with every position masked independently with probability t_b of its row; also returns the per-row
// weights (1/t_b for masked positions, divided by B; 0 elsewhere). Exposed for tests.
struct MaskedBatch {
  Ids x_t;
  std::vector<float> weights;  // [B * L]
  std::vector<float> t;        // [B]
};
MaskedBatch mask_for_diffusion(const Ids& x0, int32_t mask_id, Rng& rng);

}  // namespace tf
