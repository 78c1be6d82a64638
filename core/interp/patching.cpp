#include "interp/patching.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

#include "autograd/node.hpp"
#include "ops/ops.hpp"
#include "util/error.hpp"

namespace tf {

namespace {

// One run's activations as its tap saw them, per block in order.
struct Activations {
  std::vector<Tensor> inputs, heads;
};

Tap recorder(Activations& a) {
  return [&a](size_t, Site site, const Tensor& v) {
    (site == Site::Input ? a.inputs : a.heads).push_back(v);
    return v;
  };
}

// value [1, T, C] with rows [r0, r1) of columns [c0, c0 + n) copied from `from`.
Tensor splice(const Tensor& value, const Tensor& from, int64_t r0, int64_t r1, int64_t c0, int64_t n) {
  std::vector<float> v = value.to_vector(), f = from.to_vector();
  const int64_t C = value.size(2);
  for (int64_t r = r0; r < r1; ++r) std::copy_n(f.begin() + r * C + c0, n, v.begin() + r * C + c0);
  return Tensor::from_vector(v, value.shape(), value.device());
}

// The tap that copies the patches `p` in from the clean run's activations (`heads` heads per block).
Tap patcher(const Activations& clean, const PatchSet& p, int64_t heads) {
  return [&clean, &p, heads](size_t block, Site site, const Tensor& v) {
    const int64_t T = v.size(1), C = v.size(2), D = C / heads;
    Tensor out = v;
    for (auto [b, i] : site == Site::Heads ? p.heads : p.residuals) {
      if (b != static_cast<int64_t>(block)) continue;
      out = site == Site::Heads ? splice(out, clean.heads[block], 0, T, i * D, D)
                                : splice(out, clean.inputs[block], i, i + 1, 0, C);
    }
    return out;
  };
}

void check_inputs(const Ids& clean, const Ids& corrupted) {
  TF_CHECK(clean.shape.ndim() == 2 && clean.shape[0] == 1 && clean.shape == corrupted.shape,
           "patching takes a clean and a corrupted input [1, T] of the same length, got ", clean.shape.str(),
           " and ", corrupted.shape.str());
}

void check_patches(const PatchSet& p, int64_t blocks, int64_t heads, int64_t T) {
  for (auto [b, h] : p.heads)
    TF_CHECK(b >= 0 && b < blocks && h >= 0 && h < heads, "no head ", h, " in block ", b, " to patch");
  for (auto [b, t] : p.residuals)
    TF_CHECK(b >= 0 && b < blocks && t >= 0 && t < T, "no position ", t, " in block ", b, " to patch");
}

// The probability of `word` at position t of logits [1, T, V]: softmax(logits) there (softmax is row by row).
float probability_at(const Tensor& logits, int64_t t, int32_t word) {
  return softmax(narrow(logits, 1, t, 1)).to_vector()[static_cast<size_t>(word)];
}

// (p - corrupted) / (clean - corrupted), NaN where clean and corrupted are too close to tell apart.
float restored(float p, float clean, float corrupted) {
  if (std::abs(clean - corrupted) < 0.01f) return std::numeric_limits<float>::quiet_NaN();
  return (p - corrupted) / (clean - corrupted);
}

// The same over a grid whose last dimension runs over clean.size() answers (one for a token model).
std::vector<float> restored(const std::vector<float>& p, const std::vector<float>& clean,
                            const std::vector<float>& corrupted) {
  std::vector<float> r(p.size());
  for (size_t i = 0; i < p.size(); ++i)
    r[i] = restored(p[i], clean[i % clean.size()], corrupted[i % clean.size()]);
  return r;
}

// A token model's two runs, recorded: the patched runs start from the corrupted one's block inputs.
struct TokenRuns {
  const MyTransformer& net;
  Activations clean, corrupted;
  Tensor clean_logits;  // [1, T, V]
  int64_t position;
  int32_t target;
  float corrupted_p = 0;  // the target's probability in the corrupted run, nothing patched

  // position < 0: the last; target < 0: the word the clean run finds likeliest at the position.
  TokenRuns(const MyTransformer& n, const Ids& x_clean, const Ids& x_corrupted, int64_t t, int32_t w)
      : net(n), position(t < 0 ? x_clean.shape[1] - 1 : t), target(w) {
    check_inputs(x_clean, x_corrupted);
    TF_CHECK(n.block_count() > 0, "patching needs a model with blocks");
    TF_CHECK(position < x_clean.shape[1], "position ", t, " is outside the ", x_clean.shape[1], " words");
    TF_CHECK(w < n.config().vocab, "target word ", w, " is outside the vocabulary");
    clean_logits = net.unembed(net.run_blocks(net.embed_input(x_clean), recorder(clean)));
    if (target < 0) {
      std::vector<float> row = narrow(clean_logits, 1, position, 1).to_vector();
      target = static_cast<int32_t>(std::max_element(row.begin(), row.end()) - row.begin());
    }
    corrupted_p = probability_at(
        net.unembed(net.run_blocks(net.embed_input(x_corrupted), recorder(corrupted))), position, target);
  }
  // The target's probability with `p` patched, run from block `first` on (the blocks before it are the
  // corrupted run's: `p` must patch nothing there).
  float probability(const PatchSet& p, size_t first = 0) const {
    check_patches(p, static_cast<int64_t>(net.block_count()), net.config().heads, clean_logits.size(1));
    Tensor logits =
        net.unembed(net.run_blocks(corrupted.inputs[first], patcher(clean, p, net.config().heads), first));
    return probability_at(logits, position, target);
  }
};

// The sorter's two runs: the decoder reads SOS + the clean input's greedy answer in both.
struct SorterRuns {
  const Sorter& net;
  std::vector<int32_t> answer;
  Ids tgt_in;
  Activations clean;
  Tensor clean_logits, corrupted_memory;  // [1, S, V], [1, S, d]

  SorterRuns(const Sorter& n, const Ids& x_clean, const Ids& x_corrupted) : net(n) {
    check_inputs(x_clean, x_corrupted);
    answer = net.greedy(x_clean, x_clean.shape[1]).data;
    std::vector<int32_t> in{Sorter::kSos};
    in.insert(in.end(), answer.begin(), answer.end() - 1);
    tgt_in = Ids(in, x_clean.shape);
    clean_logits = net.decode(tgt_in, net.encode(x_clean), recorder(clean));
    corrupted_memory = net.encode(x_corrupted);
  }
  // The answer's probability at each of its steps: one softmax (row by row) and one read for them all.
  std::vector<float> probabilities(const Tensor& logits) const {
    std::vector<float> all = softmax(logits).to_vector(), p;
    const size_t V = static_cast<size_t>(logits.size(2));
    for (size_t k = 0; k < answer.size(); ++k) p.push_back(all[k * V + static_cast<size_t>(answer[k])]);
    return p;
  }
  std::vector<float> probabilities(const PatchSet& p) const {
    check_patches(p, net.config().decoder_layers, net.config().heads, tgt_in.shape[1]);
    return probabilities(net.decode(tgt_in, corrupted_memory, patcher(clean, p, net.config().heads)));
  }
};

}  // namespace

float patched_probability(const MyTransformer& net, const Ids& clean, const Ids& corrupted, int64_t position,
                          int32_t target, const PatchSet& patches) {
  NoGrad no_grad;
  return TokenRuns(net, clean, corrupted, position, target).probability(patches);
}

Figure token_patching(const MyTransformer& net, const Ids& clean, const Ids& corrupted, int64_t position,
                      int32_t target) {
  NoGrad no_grad;
  TokenRuns runs(net, clean, corrupted, position, target);
  const int64_t L = static_cast<int64_t>(net.block_count()), H = net.config().heads, T = clean.shape[1];
  std::vector<float> ends{probability_at(runs.clean_logits, runs.position, runs.target), runs.corrupted_p};
  std::vector<float> heads, residuals;
  for (int64_t b = 0; b < L; ++b) {
    for (int64_t h = 0; h < H; ++h) heads.push_back(runs.probability({{{b, h}}, {}}, static_cast<size_t>(b)));
    for (int64_t t = 0; t < T; ++t)
      residuals.push_back(runs.probability({{}, {{b, t}}}, static_cast<size_t>(b)));
  }
  Figure f;
  f.add("heads", Tensor::from_vector(heads, Shape{L, H}));
  f.add("residuals", Tensor::from_vector(residuals, Shape{L, T}));
  f.add("heads_restored", Tensor::from_vector(restored(heads, {ends[0]}, {ends[1]}), Shape{L, H}));
  f.add("residuals_restored", Tensor::from_vector(restored(residuals, {ends[0]}, {ends[1]}), Shape{L, T}));
  f.values = {
      {"clean", ends[0]}, {"corrupted", ends[1]}, {"position", runs.position}, {"target", runs.target}};
  return f;
}

std::vector<float> sorter_patched_probabilities(const Sorter& net, const Ids& clean, const Ids& corrupted,
                                                const PatchSet& patches) {
  NoGrad no_grad;
  return SorterRuns(net, clean, corrupted).probabilities(patches);
}

Figure sorter_patching(const Sorter& net, const Ids& clean, const Ids& corrupted) {
  NoGrad no_grad;
  SorterRuns runs(net, clean, corrupted);
  const int64_t L = net.config().decoder_layers, H = net.config().heads, S = clean.shape[1];
  std::vector<float> p_clean = runs.probabilities(runs.clean_logits),
                     p_corrupted = runs.probabilities(PatchSet{});
  std::vector<float> heads;
  for (int64_t b = 0; b < L; ++b)
    for (int64_t h = 0; h < H; ++h) {
      std::vector<float> p = runs.probabilities({{{b, h}}, {}});
      heads.insert(heads.end(), p.begin(), p.end());
    }
  Figure f;
  f.add("heads", Tensor::from_vector(heads, Shape{L, H, S}));
  f.add("heads_restored", Tensor::from_vector(restored(heads, p_clean, p_corrupted), Shape{L, H, S}));
  f.values = {{"answer", runs.answer}, {"clean", p_clean}, {"corrupted", p_corrupted}};
  return f;
}

}  // namespace tf
