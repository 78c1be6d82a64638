#include "interp/saliency.hpp"

#include <algorithm>
#include <cmath>

#include "ops/ops.hpp"
#include "util/error.hpp"

namespace tf {
namespace {

// Backpropagates a one-hot on logits [1, K, V] at (k, word) to the leaf `emb` [1, S, d] and returns the
// norm of each of its S rows, divided by their sum (zeros when every gradient vanishes).
std::vector<float> normalised_gradient_row(const Tensor& logits, Tensor& emb, int64_t k, int32_t word) {
  int64_t K = logits.shape()[1], V = logits.shape()[2], S = emb.shape()[1], d = emb.shape()[2];
  std::vector<float> onehot(static_cast<size_t>(K * V), 0.f);
  onehot[static_cast<size_t>(k * V + word)] = 1.f;
  emb.set_grad(Tensor());
  logits.backward(Tensor::from_vector(onehot, logits.shape(), logits.device()));
  std::vector<float> g = emb.grad().to_vector();  // [1, S, d]
  std::vector<float> row(static_cast<size_t>(S));
  double total = 0;
  for (int64_t j = 0; j < S; ++j) {
    double n2 = 0;
    for (int64_t c = 0; c < d; ++c)
      n2 += static_cast<double>(g[static_cast<size_t>(j * d + c)]) * g[static_cast<size_t>(j * d + c)];
    row[static_cast<size_t>(j)] = static_cast<float>(std::sqrt(n2));
    total += std::sqrt(n2);
  }
  for (float& v : row) v = total > 0 ? static_cast<float>(v / total) : 0.f;
  return row;
}

// One normalised gradient row per written position k, for the word out[k].
Tensor saliency_rows(const Tensor& logits, Tensor& emb, const Ids& out) {
  int64_t K = logits.shape()[1];
  std::vector<float> rows;
  rows.reserve(static_cast<size_t>(K * emb.shape()[1]));
  for (int64_t k = 0; k < K; ++k) {
    std::vector<float> row = normalised_gradient_row(logits, emb, k, out.at(k));
    rows.insert(rows.end(), row.begin(), row.end());
  }
  return Tensor::from_vector(rows, Shape{K, emb.shape()[1]});
}

Figure figure_of(const SaliencyResult& r, const char* words) {
  Figure f;
  f.add("saliency", r.saliency);
  f.values[words] = r.output.data;
  return f;
}

}  // namespace

SaliencyResult sorter_saliency(const Sorter& net, const Ids& src) {
  TF_CHECK(src.shape.ndim() == 2 && src.shape[0] == 1, "saliency explains one input [1, S], got ",
           src.shape.str());
  int64_t S = src.shape[1];
  Ids out = net.greedy(src, S);
  std::vector<int32_t> tgt_in{Sorter::kSos};
  tgt_in.insert(tgt_in.end(), out.data.begin(), out.data.end() - 1);
  // The embedding as a leaf, so gradients stop there.
  Tensor emb = net.embed_source(src).detach().set_requires_grad(true);
  Tensor logits = net.decode(Ids(tgt_in, Shape{1, S}), net.encode_embedded(emb));  // [1, S, V]
  return {saliency_rows(logits, emb, out), out};
}

SaliencyResult token_saliency(const MyTransformer& net, const Ids& x) {
  TF_CHECK(x.shape.ndim() == 2 && x.shape[0] == 1, "saliency explains one input [1, T], got ", x.shape.str());
  int64_t T = x.shape[1], V = net.config().vocab;
  Tensor emb = net.embed_input(x).detach().set_requires_grad(true);  // [1, T, C], a leaf
  Tensor logits = net.forward_embedded(emb);                         // [1, T, V]
  std::vector<float> l = logits.to_vector();
  std::vector<int32_t> written(static_cast<size_t>(T));
  for (int64_t t = 0; t < T; ++t) {
    const float* row = l.data() + t * V;
    written[static_cast<size_t>(t)] = static_cast<int32_t>(std::max_element(row, row + V) - row);
  }
  Ids out(written, Shape{1, T});
  return {saliency_rows(logits, emb, out), out};
}

Figure sorter_saliency_figure(const Sorter& net, const Ids& src) {
  return figure_of(sorter_saliency(net, src), "output");
}

Figure token_saliency_figure(const MyTransformer& net, const Ids& x) {
  return figure_of(token_saliency(net, x), "written");
}

}  // namespace tf
