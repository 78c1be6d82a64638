#include "interp/attention_maps.hpp"

#include <algorithm>

#include "autograd/node.hpp"
#include "interp/rollout.hpp"
#include "ops/ops.hpp"
#include "util/error.hpp"

namespace tf {

namespace {

// [1, heads, T, S] -> [heads, T, S], copied so later calls cannot change it.
Tensor first_sample(const Tensor& w) { return reshape(w, Shape{w.size(1), w.size(2), w.size(3)}).clone(); }

void add_layers(Figure& f, const std::string& prefix, const std::vector<Tensor>& layers) {
  for (size_t i = 0; i < layers.size(); ++i) f.add(prefix + "." + std::to_string(i), first_sample(layers[i]));
}

void check_one(const Ids& x, const char* what) {
  TF_CHECK(x.shape.ndim() == 2 && x.shape[0] == 1 && x.shape[1] >= 1, what, " takes one input [1, T], got ",
           x.shape.str());
}

}  // namespace

Figure token_attention(const TokenModel& net, const Ids& x) {
  check_one(x, "token attention");
  NoGrad no_grad;
  Tensor logits = net.forward(x);  // [1, T, V]
  Figure f;
  f.add("logits", reshape(logits, Shape{x.shape[1], net.config().vocab}).clone());
  std::vector<Tensor> layers = net.attention_weights();
  add_layers(f, "layer", layers);
  if (!layers.empty()) f.add("rollout", attention_rollout(layers));
  f.values["layers"] = layers.size();
  f.values["heads"] = layers.empty() ? 0 : layers.front().size(1);
  return f;
}

Figure sorter_attention(const Sorter& net, const Ids& src) {
  check_one(src, "sorter attention");
  int64_t S = src.shape[1];
  Ids out = net.greedy(src, S);
  std::vector<int32_t> tgt_in{Sorter::kSos};
  tgt_in.insert(tgt_in.end(), out.data.begin(), out.data.end() - 1);
  NoGrad no_grad;
  net.forward(src, Ids(tgt_in, Shape{1, S}));
  Figure f;
  std::vector<Tensor> encoder = net.encoder_attention();
  add_layers(f, "encoder", encoder);
  add_layers(f, "decoder_self", net.decoder_self_attention());
  add_layers(f, "cross", net.decoder_cross_attention());
  f.add("rollout", attention_rollout(encoder));
  std::vector<int32_t> sorted = src.data;
  std::sort(sorted.begin(), sorted.end());
  f.values["input"] = src.data;
  f.values["output"] = out.data;
  f.values["correct"] = out.data == sorted;
  return f;
}

}  // namespace tf
