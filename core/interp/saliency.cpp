#include "interp/saliency.hpp"

#include <cmath>

#include "ops/ops.hpp"
#include "util/error.hpp"

namespace tf {

SaliencyResult sorter_saliency(const Sorter& net, const Ids& src) {
  TF_CHECK(src.shape.ndim() == 2 && src.shape[0] == 1, "saliency explains one input [1, S], got ",
           src.shape.str());
  int64_t S = src.shape[1], V = net.config().vocab, d = net.config().dim;
  Ids out = net.greedy(src, S);
  std::vector<int32_t> tgt_in{Sorter::kSos};
  tgt_in.insert(tgt_in.end(), out.data.begin(), out.data.end() - 1);
  // The embedding as a leaf, so gradients stop there.
  Tensor emb = net.embed_source(src).detach().set_requires_grad(true);
  Tensor logits = net.decode(Ids(tgt_in, Shape{1, S}), net.encode_embedded(emb));  // [1, S, V]
  std::vector<float> rows(static_cast<size_t>(S * S));
  for (int64_t k = 0; k < S; ++k) {
    std::vector<float> onehot(static_cast<size_t>(S * V), 0.f);
    onehot[static_cast<size_t>(k * V + out.at(k))] = 1.f;
    emb.set_grad(Tensor());
    logits.backward(Tensor::from_vector(onehot, logits.shape(), logits.device()));
    std::vector<float> g = emb.grad().to_vector();  // [1, S, d]
    double total = 0;
    for (int64_t j = 0; j < S; ++j) {
      double n2 = 0;
      for (int64_t c = 0; c < d; ++c)
        n2 += static_cast<double>(g[static_cast<size_t>(j * d + c)]) * g[static_cast<size_t>(j * d + c)];
      rows[static_cast<size_t>(k * S + j)] = static_cast<float>(std::sqrt(n2));
      total += std::sqrt(n2);
    }
    for (int64_t j = 0; j < S; ++j)
      rows[static_cast<size_t>(k * S + j)] =
          total > 0 ? static_cast<float>(rows[static_cast<size_t>(k * S + j)] / total) : 0.f;
  }
  return {Tensor::from_vector(rows, Shape{S, S}), out};
}

}  // namespace tf
