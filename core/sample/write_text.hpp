// Writing with a trained token model, as the page and the CLI ask for it (course C2, C3, C7, C8): a
// prompt, masks up to `length`, an optional suffix, then undiffusing (random or greedy reveal order;
// infilling when there is a suffix) or left-to-right writing with a causal model. The mask and <unk> are
// never written. Every story comes back with its words, the step that revealed each position and the
// number of network calls.
#pragma once
#include <cstdint>
#include <string>

#include <nlohmann/json.hpp>

#include "data/word_codec.hpp"
#include "nn/model.hpp"

namespace tf {

struct WriteRequest {
  std::string prompt, suffix;
  std::string sampler;  // "undiffuse", "greedy" or "left-to-right"; empty: left-to-right for causal models
  int64_t length = 32;  // tokens in all, prompt and suffix included
  int64_t count = 5;
  int64_t steps = 0;  // undiffusing steps T; 0 = length
  int64_t top_k = 0;  // left to right: 0 = the whole vocabulary
  float temperature = 1.f;
  uint64_t seed = 0;

  // From the page's JSON, camelCase as the JS API names things: {prompt, suffix, sampler, length, count,
  // steps, topK, temperature, seed}, each optional and typed (a tf::Error names a wrong field).
  static WriteRequest from_json(const std::string& json);
};

// The longest story written, whatever a model's max_length: undiffusing runs the whole story through the
// model at every step, so a story's cost grows with its length squared.
constexpr int64_t kMaxWriteLength = 2048;
// The floats one batch of undiffused stories may hold (probabilities and attention): 64 MB.
constexpr int64_t kWriteBatchFloats = int64_t{1} << 24;

// The request checked against the model and vocabulary (each failure is about the request, so front ends
// can call it a usage error), with its sampler chosen; write_text checks it again.
WriteRequest check_write_request(const Model& model, const WordCodec& codec, const WriteRequest& request);

// {"sampler", "stories": [{"text", "tokens", "reveal_step" (undiffusing), "network_calls"}]}.
nlohmann::json write_text(const Model& model, const WordCodec& codec, const WriteRequest& request);

}  // namespace tf
