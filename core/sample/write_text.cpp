#include "sample/write_text.hpp"

#include <algorithm>

#include "io/json_fields.hpp"

#include "sample/left_to_right.hpp"
#include "sample/undiffuse.hpp"
#include "util/error.hpp"

namespace tf {

WriteRequest WriteRequest::from_json(const std::string& text) {
  namespace jf = json_fields;
  using R = WriteRequest;
  static const jf::Fields<R> fields = {
      jf::field("prompt", &R::prompt),   jf::field("suffix", &R::suffix),
      jf::field("sampler", &R::sampler), jf::field("length", &R::length),
      jf::field("count", &R::count),     jf::field("steps", &R::steps),
      jf::field("topK", &R::top_k),      jf::field("temperature", &R::temperature),
      jf::field("seed", &R::seed)};
  const std::string what = "write request";
  WriteRequest r;  // write_text checks the real ranges
  jf::read_fields(r, jf::parse_object(text, what), what, fields);
  return r;
}

namespace {

GuessOptions guess_options(const WordCodec& codec, float temperature) {
  GuessOptions o;
  o.temperature = temperature;
  if (codec.mask_id() >= 0) o.forbidden.push_back(codec.mask_id());
  if (codec.unk_id() >= 0) o.forbidden.push_back(codec.unk_id());
  return o;
}

nlohmann::json story(const WordCodec& codec, const std::vector<int32_t>& ids, int calls) {
  return {{"text", codec.join(ids)}, {"tokens", codec.decode(ids)}, {"network_calls", calls}};
}

nlohmann::json left_to_right(const Model& model, const WordCodec& codec, const WriteRequest& r, Rng& rng) {
  const MyTransformer& net = model.transformer_model("left-to-right writing");
  std::vector<int32_t> prompt = codec.encode(r.prompt);
  WriteOptions o;
  o.length = r.length;
  o.guess = guess_options(codec, r.temperature);
  o.top_k = r.top_k;
  nlohmann::json stories = nlohmann::json::array();
  for (int64_t n = 0; n < r.count; ++n) {
    WriteResult w = write_left_to_right(net, prompt, o, rng);
    stories.push_back(story(codec, w.tokens, w.network_calls));
  }
  return stories;
}

// The template to fill: the prompt's tokens, masks up to `length`, then the suffix's tokens.
std::vector<int32_t> story_template(const WordCodec& codec, const WriteRequest& r) {
  std::vector<int32_t> prompt = codec.encode(r.prompt), suffix = codec.encode(r.suffix);
  std::vector<int32_t> t = prompt;
  t.resize(static_cast<size_t>(r.length - static_cast<int64_t>(suffix.size())), codec.mask_id());
  t.insert(t.end(), suffix.begin(), suffix.end());
  return t;
}

// Stories undiffused a batch at a time, each batch's probabilities [N, L, V] and attention [N, heads, L, L]
// within kWriteBatchFloats, so memory stays flat whatever the length and count.
nlohmann::json undiffuse_all(const Model& model, const WordCodec& codec, const WriteRequest& r, Rng& rng) {
  const TokenModel& net = model.token_model("undiffusing");
  const ModelConfig& c = net.config();
  std::vector<int32_t> tmpl = story_template(codec, r);
  const int64_t per_story = r.length * (c.vocab + c.heads * r.length);
  const int64_t per_batch = std::clamp<int64_t>(kWriteBatchFloats / per_story, 1, r.count);
  UndiffuseOptions o;
  o.steps = static_cast<int>(r.steps > 0 ? r.steps : r.length);
  o.greedy = r.sampler == "greedy";
  nlohmann::json stories = nlohmann::json::array();
  for (int64_t first = 0; first < r.count; first += per_batch) {
    const int64_t N = std::min(per_batch, r.count - first);
    std::vector<int32_t> batch;
    for (int64_t n = 0; n < N; ++n) batch.insert(batch.end(), tmpl.begin(), tmpl.end());
    UndiffuseResult u = undiffuse(make_guesser(net, guess_options(codec, r.temperature)),
                                  Ids(batch, Shape{N, r.length}), codec.mask_id(), o, rng);
    for (int64_t n = 0; n < N; ++n) {
      auto at = [&](const std::vector<int32_t>& v) {
        return std::vector<int32_t>(v.begin() + n * r.length, v.begin() + (n + 1) * r.length);
      };
      nlohmann::json s = story(codec, at(u.tokens.data), u.network_calls);
      s["reveal_step"] = at(u.reveal_step);
      stories.push_back(s);
    }
  }
  return stories;
}

}  // namespace

WriteRequest check_write_request(const Model& model, const WordCodec& codec, const WriteRequest& request) {
  WriteRequest r = request;
  const ModelConfig& c = model.config();
  if (r.sampler.empty()) r.sampler = c.causal ? "left-to-right" : "undiffuse";
  TF_CHECK(r.sampler == "undiffuse" || r.sampler == "greedy" || r.sampler == "left-to-right",
           "unknown sampler '", r.sampler, "' (expected undiffuse, greedy or left-to-right)");
  TF_CHECK(r.count >= 1 && r.count <= 10000, "count must be 1..10000, got ", r.count);
  const int64_t longest = std::min(c.max_length, kMaxWriteLength);
  TF_CHECK(r.length >= 1 && r.length <= longest, "length must be 1..", longest, " (the model's max_length ",
           c.max_length, ", and writing's limit of ", kMaxWriteLength, "), got ", r.length);
  TF_CHECK(r.steps >= 0 && r.steps <= 100000, "steps must be 0..100000, got ", r.steps);
  TF_CHECK(r.top_k >= 0, "top_k must be >= 0, got ", r.top_k);
  TF_CHECK(r.temperature > 0 && r.temperature <= 100, "temperature must be in (0, 100], got ", r.temperature);
  const size_t prompt = codec.encode(r.prompt).size(), suffix = codec.encode(r.suffix).size();
  if (r.sampler != "left-to-right") {
    TF_CHECK(!model.token_model("undiffusing").config().causal,
             "a causal model writes left to right: use the left-to-right sampler");
    TF_CHECK(codec.mask_id() >= 0, "undiffusing needs a mask token \"_\" in the vocabulary");
    TF_CHECK(static_cast<int64_t>(prompt + suffix) <= r.length, "the prompt and suffix have ",
             prompt + suffix, " tokens, more than the length ", r.length);
    return r;
  }
  TF_CHECK(model.transformer_model("left-to-right writing").config().causal,
           "left-to-right writing needs a causal model; undiffuse with this one");
  TF_CHECK(suffix == 0,
           "a left-to-right model cannot fill in before a suffix (course C8); use a diffusion model");
  TF_CHECK(static_cast<int64_t>(prompt) < r.length, "the prompt has ", prompt,
           " tokens: nothing left to write within length ", r.length);
  for (int32_t id : codec.encode(r.prompt))
    TF_CHECK(id != codec.mask_id(), "left-to-right writing has no masks: remove the _ from the prompt");
  return r;
}

nlohmann::json write_text(const Model& model, const WordCodec& codec, const WriteRequest& request) {
  WriteRequest r = check_write_request(model, codec, request);
  Rng rng(r.seed);
  nlohmann::json stories = r.sampler == "left-to-right" ? left_to_right(model, codec, r, rng)
                                                        : undiffuse_all(model, codec, r, rng);
  return {{"sampler", r.sampler}, {"stories", stories}};
}

}  // namespace tf
