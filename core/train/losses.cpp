#include "train/losses.hpp"

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

Tensor diffusion_loss(const TokenModel& net, const Ids& x0, int32_t mask_id, Rng& rng) {
  MaskedBatch m = mask_for_diffusion(x0, mask_id, rng);
  // Only masked positions carry weight: score those rows alone (about half of them on average).
  std::vector<int32_t> rows, targets;
  std::vector<float> weights;
  for (size_t i = 0; i < m.weights.size(); ++i) {
    if (m.weights[i] == 0.f) continue;
    rows.push_back(static_cast<int32_t>(i));
    targets.push_back(x0.data[i]);
    weights.push_back(m.weights[i]);
  }
  if (rows.empty()) {  // nothing masked: a zero loss that still reaches every parameter
    Tensor logits = net.forward(m.x_t);
    return cross_entropy(logits, x0, Tensor::from_vector(m.weights, Shape{x0.numel()}, logits.device()));
  }
  int64_t n = static_cast<int64_t>(rows.size());
  Tensor logits = net.forward_rows(m.x_t, Ids(rows, Shape{n}));  // [n, V]
  return cross_entropy(logits, Ids(targets, Shape{n}),
                       Tensor::from_vector(weights, Shape{n}, logits.device()));
}

Tensor next_token_loss(const TokenModel& net, const Ids& x0) {
  TF_CHECK(x0.shape.ndim() == 2 && x0.shape[1] >= 2, "next-token loss needs [B, L] with L >= 2, got ",
           x0.shape.str());
  int64_t B = x0.shape[0], L = x0.shape[1];
  std::vector<int32_t> in, target;
  for (int64_t b = 0; b < B; ++b) {
    for (int64_t i = 0; i + 1 < L; ++i) {
      in.push_back(x0.at(b * L + i));
      target.push_back(x0.at(b * L + i + 1));
    }
  }
  Tensor logits = net.forward(Ids(in, Shape{B, L - 1}));
  return cross_entropy(logits, Ids(target, Shape{B, L - 1}));
}

Tensor sorter_loss(const Sorter& net, const Ids& src, const Ids& tgt_in, const Ids& tgt) {
  return cross_entropy(net.forward(src, tgt_in), tgt);
}

}  // namespace tf
