#include "train/losses.hpp"

#include <algorithm>
#include <numeric>

#include "ops/ops.hpp"
#include "util/error.hpp"

namespace tf {

MaskedBatch mask_for_diffusion(const Ids& x0, int32_t mask_id, Rng& rng) {
  TF_CHECK(x0.shape.ndim() == 2, "diffusion loss: x0 must be [B, L], got ", x0.shape.str());
  int64_t B = x0.shape[0], L = x0.shape[1];
  MaskedBatch m{x0, std::vector<float>(static_cast<size_t>(B * L), 0.f),
                std::vector<float>(static_cast<size_t>(B))};
  for (int64_t b = 0; b < B; ++b) {
    float t = rng.uniform_open();
    m.t[static_cast<size_t>(b)] = t;
    for (int64_t i = 0; i < L; ++i) {
      size_t at = static_cast<size_t>(b * L + i);
      if (rng.uniform() < t) {
        m.x_t.data[at] = mask_id;
        m.weights[at] = 1.f / (t * static_cast<float>(B));
      }
    }
  }
  return m;
}

namespace {

// Rows [begin, end) of a batch [B, ...].
Ids rows_of(const Ids& x, int64_t begin, int64_t end) {
  int64_t row = x.numel() / x.shape[0];
  Shape shape = x.shape;
  shape[0] = end - begin;
  return Ids(std::vector<int32_t>(x.data.begin() + begin * row, x.data.begin() + end * row), shape);
}

// Rows `rows` of a batch [B, ...].
Ids pick_rows(const Ids& x, const std::vector<int64_t>& rows) {
  int64_t row = x.numel() / x.shape[0];
  Shape shape = x.shape;
  shape[0] = static_cast<int64_t>(rows.size());
  std::vector<int32_t> out;
  for (int64_t b : rows) out.insert(out.end(), x.data.begin() + b * row, x.data.begin() + (b + 1) * row);
  return Ids(out, shape);
}

// The rows a shard takes in a diffusion step: as many as [begin(B), end(B)) holds, picked so that the
// shards get about as many masked positions each (the unembedding's and the loss's work, which the ranks
// then wait on each other for): rows by masked count, most first, each to the shard with the fewest so far
// that has room. Every rank works the same split out of the same draws; one shard takes every row in order.
std::vector<int64_t> balanced_rows(const MaskedBatch& m, int64_t B, int64_t L, BatchShard shard) {
  std::vector<int64_t> order(static_cast<size_t>(B)), masked(order.size()), load(shard.ranks), mine;
  std::vector<int64_t> taken(shard.ranks);
  std::iota(order.begin(), order.end(), 0);
  for (size_t i = 0; i < m.weights.size(); ++i) masked[i / L] += m.weights[i] != 0.f;
  std::stable_sort(order.begin(), order.end(), [&](int64_t a, int64_t b) { return masked[a] > masked[b]; });
  for (int64_t b : order) {
    int to = -1;
    for (int r = 0; r < shard.ranks; ++r)
      if (taken[r] < B * (r + 1) / shard.ranks - B * r / shard.ranks && (to < 0 || load[r] < load[to]))
        to = r;
    ++taken[to], load[to] += masked[b];
    if (to == shard.rank) mine.push_back(b);
  }
  std::sort(mine.begin(), mine.end());
  return mine;
}

// A mean over a shard's rows as its part of the mean over the whole batch of B rows.
Tensor share_of_mean(const Tensor& mean, BatchShard shard, int64_t B) {
  if (shard.whole()) return mean;
  return scale(mean, static_cast<float>(shard.end(B) - shard.begin(B)) / static_cast<float>(B));
}

}  // namespace

Tensor diffusion_loss(const TokenModel& net, const Ids& x0, int32_t mask_id, Rng& rng, BatchShard shard) {
  MaskedBatch m = mask_for_diffusion(x0, mask_id, rng);  // the whole batch's draws, on every shard
  int64_t B = x0.shape[0], L = x0.shape[1];
  std::vector<int64_t> picked = balanced_rows(m, B, L, shard);
  Ids x_t = pick_rows(m.x_t, picked);
  // Only masked positions carry weight: score those rows alone (about half of them on average).
  std::vector<int32_t> rows, targets;
  std::vector<float> weights;
  for (size_t k = 0; k < picked.size(); ++k)
    for (int64_t i = picked[k] * L; i < (picked[k] + 1) * L; ++i) {
      if (m.weights[static_cast<size_t>(i)] == 0.f) continue;
      rows.push_back(static_cast<int32_t>(static_cast<int64_t>(k) * L + i % L));
      targets.push_back(x0.at(i));
      weights.push_back(m.weights[static_cast<size_t>(i)]);
    }
  if (rows.empty()) {  // nothing masked: a zero loss that still reaches every parameter
    Tensor logits = net.forward(x_t);
    return cross_entropy(logits, pick_rows(x0, picked), Tensor::zeros(Shape{x_t.numel()}, logits.device()));
  }
  int64_t n = static_cast<int64_t>(rows.size());
  Tensor logits = net.forward_rows(x_t, Ids(rows, Shape{n}));  // [n, V]
  return cross_entropy(logits, Ids(targets, Shape{n}),
                       Tensor::from_vector(weights, Shape{n}, logits.device()));
}

Tensor next_token_loss(const TokenModel& net, const Ids& x0, BatchShard shard) {
  TF_CHECK(x0.shape.ndim() == 2 && x0.shape[1] >= 2, "next-token loss needs [B, L] with L >= 2, got ",
           x0.shape.str());
  int64_t B = x0.shape[0], L = x0.shape[1], b0 = shard.begin(B), b1 = shard.end(B);
  std::vector<int32_t> in, target;
  for (int64_t b = b0; b < b1; ++b) {
    for (int64_t i = 0; i + 1 < L; ++i) {
      in.push_back(x0.at(b * L + i));
      target.push_back(x0.at(b * L + i + 1));
    }
  }
  Tensor logits = net.forward(Ids(in, Shape{b1 - b0, L - 1}));
  return share_of_mean(cross_entropy(logits, Ids(target, Shape{b1 - b0, L - 1})), shard, B);
}

Tensor sorter_loss(const Sorter& net, const Ids& src, const Ids& tgt_in, const Ids& tgt, BatchShard shard) {
  int64_t B = src.shape[0], b0 = shard.begin(B), b1 = shard.end(B);
  if (shard.whole()) return cross_entropy(net.forward(src, tgt_in), tgt);
  Tensor mean =
      cross_entropy(net.forward(rows_of(src, b0, b1), rows_of(tgt_in, b0, b1)), rows_of(tgt, b0, b1));
  return share_of_mean(mean, shard, B);
}

}  // namespace tf
