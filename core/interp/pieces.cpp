#include "interp/pieces.hpp"

#include <cmath>
#include <map>

#include "autograd/node.hpp"
#include "nn/block.hpp"
#include "nn/feed_forward.hpp"
#include "nn/init.hpp"
#include "nn/self_attention.hpp"
#include "ops/ops.hpp"
#include "util/error.hpp"

namespace tf {

namespace {

float max_gap(const Tensor& a, const Tensor& b) {
  std::vector<float> x = a.to_vector(), y = b.to_vector();
  float m = 0;
  for (size_t i = 0; i < x.size(); ++i) m = std::max(m, std::abs(x[i] - y[i]));
  return m;
}

// softmax(q k^T / sqrt(d_k)) with an optional mask (1 = blocked) : [n, n].
Tensor attention_weights(const Tensor& q, const Tensor& k, const Tensor& blocked = Tensor()) {
  Tensor s = scale(matmul(q, k, false, true), 1.f / std::sqrt(static_cast<float>(q.size(-1))));
  if (blocked.defined()) s = masked_fill(s, blocked, -INFINITY);
  return softmax(s);
}

std::vector<float> row_sums(const Tensor& w) {
  std::vector<float> v = w.to_vector(), out;
  int64_t n = w.size(-1);
  for (size_t r = 0; r < v.size() / static_cast<size_t>(n); ++r) {
    float s = 0;
    for (int64_t j = 0; j < n; ++j) s += v[r * static_cast<size_t>(n) + static_cast<size_t>(j)];
    out.push_back(s);
  }
  return out;
}

// A random embedding per distinct word: repeated words get the same row.
Tensor embed_words(const std::vector<std::string>& tokens, int64_t d, Rng& rng) {
  std::map<std::string, std::vector<float>> table;
  std::vector<float> x;
  for (const std::string& w : tokens) {
    auto it = table.find(w);
    if (it == table.end()) it = table.emplace(w, randn(Shape{d}, rng).to_vector()).first;
    x.insert(x.end(), it->second.begin(), it->second.end());
  }
  return Tensor::from_vector(x, Shape{static_cast<int64_t>(tokens.size()), d});
}

}  // namespace

Figure positional_figure(int64_t n_pos, int64_t d) {
  NoGrad no_grad;
  Figure f;
  Tensor pe = sinusoidal_encoding(n_pos, d);
  f.add("encoding", pe);
  f.add("similarity", matmul(pe, pe, false, true));
  return f;
}

Figure attention_walkthrough(const std::vector<std::string>& tokens, int64_t d_model, int64_t d_k,
                             int64_t heads, uint64_t seed) {
  TF_CHECK(tokens.size() >= 3, "the walkthrough needs at least three tokens");
  NoGrad no_grad;
  Rng rng(seed);
  int64_t n = static_cast<int64_t>(tokens.size());
  Tensor x_nopos = embed_words(tokens, d_model, rng);
  Tensor x = add(x_nopos, sinusoidal_encoding(n, d_model));
  float inv = 1.f / std::sqrt(static_cast<float>(d_model));
  Tensor wq = randn(Shape{d_model, d_k}, rng, inv), wk = randn(Shape{d_model, d_k}, rng, inv),
         wv = randn(Shape{d_model, d_k}, rng, inv);
  Tensor q = matmul(x, wq), k = matmul(x, wk), v = matmul(x, wv);
  Figure f;
  f.add("x", x);
  Tensor scores = scale(matmul(q, k, false, true), 1.f / std::sqrt(static_cast<float>(d_k)));
  f.add("scores", scores);
  Tensor w = softmax(scores);
  f.add("weights", w);
  Tensor out = matmul(w, v);
  f.add("output", out);
  f.values["row_sums"] = row_sums(w);
  // A4: multiplying the queries multiplies every energy: x10 is cold (one-hot), x0.1 hot (uniform).
  f.add("weights_cold", attention_weights(scale(q, 10.f), k));
  f.add("weights_hot", attention_weights(scale(q, 0.1f), k));
  // The fused multi-head kernel with one head computes the same thing.
  Tensor fused = attention(Cols(reshape(q, Shape{1, n, d_k})), Cols(reshape(k, Shape{1, n, d_k})),
                           Cols(reshape(v, Shape{1, n, d_k})), 1);
  f.values["fused_kernel_gap"] = max_gap(reshape(fused, Shape{n, d_k}), out);
  // A6: without positions, attention of a shuffled sentence is the shuffled attention.
  std::vector<int64_t> perm = rng.permutation(n);
  std::vector<float> xs = x_nopos.to_vector(), shuffled;
  for (int64_t i : perm)
    shuffled.insert(shuffled.end(), xs.begin() + i * d_model, xs.begin() + (i + 1) * d_model);
  auto attend = [&](const Tensor& in) {
    return matmul(attention_weights(matmul(in, wq), matmul(in, wk)), matmul(in, wv));
  };
  Tensor a_shuffled = attend(Tensor::from_vector(shuffled, Shape{n, d_model}));
  std::vector<float> a = attend(x_nopos).to_vector(), a_perm;
  for (int64_t i : perm) a_perm.insert(a_perm.end(), a.begin() + i * d_k, a.begin() + (i + 1) * d_k);
  f.values["permutation"] = perm;
  f.values["permutation_gap"] = max_gap(a_shuffled, Tensor::from_vector(a_perm, Shape{n, d_k}));
  // A7: the causal mask, causal attention, and padding (the last two tokens ignored).
  Tensor blocked = causal_mask(n);
  f.add("causal_mask", sub(Tensor::ones(Shape{n, n}), blocked));
  f.add("weights_causal", attention_weights(q, k, blocked));
  std::vector<float> pad(static_cast<size_t>(n), 0.f);
  pad[static_cast<size_t>(n - 1)] = pad[static_cast<size_t>(n - 2)] = 1.f;
  f.add("weights_padding", attention_weights(q, k, Tensor::from_vector(pad, Shape{1, n})));
  // A8: a MultiHead over d_model: one map per head.
  SelfAttention multi(d_model, heads, false, false, false, rng);
  multi.forward(reshape(x, Shape{1, n, d_model}));
  f.add("heads", reshape(multi.last_weights(), Shape{heads, n, n}));
  f.values["multihead_parameters"] = multi.parameter_count();
  return f;
}

Figure entropy_vs_dk(const std::vector<int64_t>& dims, int64_t queries, int64_t keys, uint64_t seed) {
  NoGrad no_grad;
  Rng rng(seed);
  std::vector<float> raw, scaled, dd;
  for (int64_t d : dims) {
    TF_CHECK(d >= 1 && d <= 4096, "d_k must be 1..4096, got ", d);
    Tensor q = randn(Shape{queries, 1, d}, rng), k = randn(Shape{queries, keys, d}, rng);
    Tensor s = reshape(matmul(q, k, false, true), Shape{queries, keys});
    for (int pass = 0; pass < 2; ++pass) {
      std::vector<float> p = softmax(pass ? scale(s, 1.f / std::sqrt(static_cast<float>(d))) : s).to_vector();
      double h = 0;
      for (float pi : p) h -= pi * std::log(pi + 1e-12);
      (pass ? scaled : raw).push_back(static_cast<float>(h / static_cast<double>(queries)));
    }
    dd.push_back(static_cast<float>(d));
  }
  Figure f;
  f.add("dims", Tensor::from_vector(dd, Shape{static_cast<int64_t>(dd.size())}));
  f.add("raw", Tensor::from_vector(raw, Shape{static_cast<int64_t>(raw.size())}));
  f.add("scaled", Tensor::from_vector(scaled, Shape{static_cast<int64_t>(scaled.size())}));
  f.values["uniform"] = std::log(static_cast<double>(keys));
  return f;
}

Figure feed_forward_check(int64_t d_model, int64_t positions, uint64_t seed) {
  NoGrad no_grad;
  Rng rng(seed);
  FeedForward ffn(d_model, 4 * d_model, GeluMode::Tanh, rng);
  Tensor x = randn(Shape{positions, d_model}, rng);
  Tensor whole = ffn.forward(x);
  std::vector<Tensor> rows;
  for (int64_t i = 0; i < positions; ++i) rows.push_back(ffn.forward(narrow(x, 0, i, 1)));
  Figure f;
  f.values["per_position_gap"] = max_gap(whole, concat(rows, 0));
  f.values["ffn_parameters"] = ffn.parameter_count();
  f.values["attention_parameters"] = 4 * d_model * d_model;
  std::vector<float> xs, ys;
  for (int i = -40; i <= 40; ++i) xs.push_back(static_cast<float>(i) / 10.f);
  Tensor gx = Tensor::from_vector(xs, Shape{81});
  f.add("gelu_x", gx);
  f.add("gelu_tanh", gelu(gx, GeluMode::Tanh));
  f.add("gelu_erf", gelu(gx, GeluMode::Erf));
  return f;
}

Figure layer_norm_check(uint64_t seed) {
  NoGrad no_grad;
  Rng rng(seed);
  Tensor x = randn(Shape{64, 5, 32}, rng);
  Tensor ln = layer_norm(x, Tensor::ones(Shape{32}), Tensor::zeros(Shape{32}));
  std::vector<float> v = x.to_vector(), by_hand(v.size());
  for (size_t r = 0; r < v.size() / 32; ++r) {
    double m = 0, var = 0;
    for (size_t c = 0; c < 32; ++c) m += v[r * 32 + c];
    m /= 32;
    for (size_t c = 0; c < 32; ++c) var += (v[r * 32 + c] - m) * (v[r * 32 + c] - m);
    double sd = std::sqrt(var / 32);
    for (size_t c = 0; c < 32; ++c) by_hand[r * 32 + c] = static_cast<float>((v[r * 32 + c] - m) / sd);
  }
  Figure f;
  f.values["gap"] = max_gap(ln, Tensor::from_vector(by_hand, x.shape()));
  return f;
}

Figure residual_stream(int64_t positions, int64_t d_model, int64_t heads, int64_t blocks, uint64_t seed) {
  NoGrad no_grad;
  Rng rng(seed);
  Block block(d_model, heads, true, false, rng);
  Tensor h = add(randn(Shape{1, positions, d_model}, rng),
                 reshape(sinusoidal_encoding(positions, d_model), Shape{1, positions, d_model}));
  std::vector<float> updates;
  for (int64_t b = 0; b < blocks; ++b) {
    Tensor next = block.forward(h);
    std::vector<float> dv = sub(next, h).to_vector();
    double n2 = 0;
    for (float d : dv) n2 += static_cast<double>(d) * d;
    updates.push_back(static_cast<float>(std::sqrt(n2)));
    h = next;
  }
  Figure f;
  f.values["update_norms"] = updates;
  return f;
}

}  // namespace tf
