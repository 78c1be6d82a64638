#include "checkpoint/checkpoint.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <nlohmann/json.hpp>
#include <set>

#include "checkpoint/finite_check.hpp"
#include "io/file_bytes.hpp"
#include "io/json_fields.hpp"
#include "io/safetensors.hpp"
#include "nn/model_config.hpp"
#include "util/error.hpp"

namespace tf {
namespace {

using Json = nlohmann::json;
namespace keys = checkpoint_keys;

bool is_optimizer_name(const std::string& name) { return name.rfind(kOptimizerPrefix, 0) == 0; }

bool is_reserved_key(const std::string& key) {
  for (const char* k : {keys::kFormat, keys::kConfig, keys::kVocab, keys::kStep, keys::kRng, keys::kTrain,
                        keys::kTask, keys::kLosses})
    if (key == k) return true;
  return false;
}

// "a, b, c and 4 more": keeps errors about big models readable.
std::string name_list(const std::vector<std::string>& names) {
  std::string s;
  size_t shown = std::min<size_t>(names.size(), 5);
  for (size_t i = 0; i < shown; ++i) s += (i ? ", '" : "'") + names[i] + "'";
  if (names.size() > shown) s += " and " + std::to_string(names.size() - shown) + " more";
  return s;
}

uint64_t parse_decimal(const std::string& text, const char* what) {
  TF_CHECK(!text.empty() && text.size() <= 20 && text.find_first_not_of("0123456789") == std::string::npos,
           "checkpoint ", what, " '", text, "' is not a non-negative integer");
  uint64_t v = 0;
  for (char c : text) {
    uint64_t digit = static_cast<uint64_t>(c - '0');
    TF_CHECK(v <= (UINT64_MAX - digit) / 10, "checkpoint ", what, " '", text, "' is too large");
    v = v * 10 + digit;
  }
  return v;
}

// ---------------------------------------------------------------- saving

std::string dump_or_fail(const Json& j, const char* what) {
  try {
    return j.dump();
  } catch (const Json::exception&) {
    fail("checkpoint ", what, " holds a string that is not valid UTF-8");
  }
}

// The vocabulary, when there is one, names every token the model has.
void check_vocab_size(const std::vector<std::string>& vocab, const ModelConfig& config) {
  TF_CHECK(vocab.empty() || static_cast<int64_t>(vocab.size()) == config.vocab, "checkpoint vocabulary has ",
           vocab.size(), " entries but the model config says vocab ", config.vocab);
}

// JSON has no NaN or infinity: a skipped step's loss is stored as null (and read back as NaN).
std::string losses_json(const std::vector<float>& losses) {
  Json out = Json::array();
  for (float l : losses) out.push_back(std::isfinite(l) ? Json(static_cast<double>(l)) : Json(nullptr));
  return out.dump();
}

std::map<std::string, std::string> metadata_of(const Checkpoint& ck) {
  // refuse to write a file that cannot be loaded back
  check_vocab_size(ck.vocab, ModelConfig::from_json(ck.config_json));
  TF_CHECK(ck.step >= 0, "checkpoint step must be non-negative, got ", ck.step);
  std::map<std::string, std::string> m;
  for (const auto& [key, value] : ck.metadata) {
    TF_CHECK(!is_reserved_key(key), "checkpoint metadata key '", key,
             "' is reserved for the checkpoint itself");
    m[key] = value;
  }
  m[keys::kFormat] = kCheckpointFormat;
  m[keys::kConfig] = ck.config_json;
  m[keys::kStep] = std::to_string(ck.step);
  if (!ck.vocab.empty()) m[keys::kVocab] = dump_or_fail(Json(ck.vocab), "vocabulary");
  if (!ck.train_config_json.empty()) m[keys::kTrain] = ck.train_config_json;
  if (!ck.task.empty()) m[keys::kTask] = ck.task;
  if (!ck.losses.empty()) m[keys::kLosses] = losses_json(ck.losses);
  if (!ck.rng_state.empty()) {
    Json words = Json::array();  // decimal strings: JavaScript's JSON.parse would round 64-bit numbers
    for (uint64_t w : ck.rng_state) words.push_back(std::to_string(w));
    m[keys::kRng] = words.dump();
  }
  return m;
}

std::vector<std::pair<std::string, Tensor>> tensors_of(const Checkpoint& ck) {
  std::vector<std::pair<std::string, Tensor>> all;
  for (const auto& [name, t] : ck.params) {
    TF_CHECK(!is_optimizer_name(name), "checkpoint parameter name '", name, "' may not start with '",
             kOptimizerPrefix, "'");
    all.emplace_back(name, t);
  }
  for (const auto& [name, t] : ck.optimizer_state.slots) all.emplace_back(kOptimizerPrefix + name, t);
  return all;
}

// Each step count as an I64 entry of shape [1].
std::vector<SafetensorsIntegers> integers_of(const Checkpoint& ck) {
  std::vector<SafetensorsIntegers> counts;
  for (const auto& [name, n] : ck.optimizer_state.counts)
    counts.push_back({kOptimizerPrefix + name, {1}, {n}});
  return counts;
}

// ---------------------------------------------------------------- loading

const std::string& required(const std::map<std::string, std::string>& m, const char* key) {
  auto it = m.find(key);
  TF_CHECK(it != m.end(), "not a Tinyformer checkpoint: its metadata has no '", key, "'");
  return it->second;
}

// Metadata JSON, depth-limited; `what` is what the value should be ("a JSON array of strings").
Json parse_value(const std::string& text, const std::string& name, const char* what) {
  try {
    return json_fields::parse(text, "checkpoint " + name);
  } catch (const Error& e) {
    fail("checkpoint ", name, " is not ", what, ": ", e.what());
  }
}

// A metadata array (`expected` says what: "a JSON array of strings"); read(entry, index) checks and
// converts each entry.
template <class Read>
auto parse_array(const std::string& text, const std::string& name, const char* expected, Read read) {
  Json j = parse_value(text, name, expected);
  TF_CHECK(j.is_array(), "checkpoint ", name, " is not ", expected);
  std::vector<decltype(read(j, size_t{0}))> out;
  for (const Json& entry : j) out.push_back(read(entry, out.size()));
  return out;
}

std::vector<std::string> parse_vocab(const std::string& text) {
  return parse_array(text, "vocabulary", "a JSON array of strings", [](const Json& word, size_t i) {
    TF_CHECK(word.is_string(), "checkpoint vocabulary entry ", i, " is not a string");
    return word.get<std::string>();
  });
}

std::vector<uint64_t> parse_rng(const std::string& text) {
  return parse_array(text, "RNG state", "a JSON array of decimal strings", [](const Json& word, size_t) {
    TF_CHECK(word.is_string(), "checkpoint RNG state holds a non-string entry");
    return parse_decimal(word.get<std::string>(), "RNG state word");
  });
}

std::vector<float> parse_losses(const std::string& text) {
  return parse_array(text, "loss history", "a JSON array of numbers", [](const Json& l, size_t i) {
    TF_CHECK(l.is_number() || l.is_null(), "checkpoint loss history entry ", i, " is not a number");
    return l.is_null() ? std::nanf("") : l.get<float>();
  });
}

int64_t parse_step(const std::string& text) {
  uint64_t step = parse_decimal(text, "step");
  TF_CHECK(step <= static_cast<uint64_t>(INT64_MAX), "checkpoint step '", text, "' is too large");
  return static_cast<int64_t>(step);
}

void read_metadata(const std::map<std::string, std::string>& m, Checkpoint& ck) {
  const std::string& format = required(m, keys::kFormat);
  TF_CHECK(format == kCheckpointFormat, "checkpoint format '", format,
           "' is not supported (this build reads ", kCheckpointFormat, ")");
  ck.config_json = required(m, keys::kConfig);
  ModelConfig config;
  try {
    config = ModelConfig::from_json(ck.config_json);
  } catch (const Error& e) {
    fail("checkpoint ", e.what());
  }
  for (const auto& [key, value] : m) {
    if (key == keys::kVocab)
      ck.vocab = parse_vocab(value);
    else if (key == keys::kStep)
      ck.step = parse_step(value);
    else if (key == keys::kRng)
      ck.rng_state = parse_rng(value);
    else if (key == keys::kTrain)
      ck.train_config_json = value;
    else if (key == keys::kTask)
      ck.task = value;
    else if (key == keys::kLosses)
      ck.losses = parse_losses(value);
    else if (!is_reserved_key(key))
      ck.metadata[key] = value;
  }
  check_vocab_size(ck.vocab, config);
}

// The optimizer's name of a stored tensor: "optim.x" is "x"; files written before the optimizer's own
// "optim." was dropped from file names hold "optim.optim.x", which is the same "x".
std::string optimizer_name(const std::string& stored) {
  const size_t n = std::string(kOptimizerPrefix).size();
  std::string name = stored.substr(n);
  return is_optimizer_name(name) ? name.substr(n) : name;
}

int64_t to_count(const SafetensorsIntegers& e) {
  TF_CHECK(is_optimizer_name(e.name), "checkpoint entry '", e.name,
           "' is I64; only the optimizer's step counts (under '", kOptimizerPrefix, "') are integers");
  TF_CHECK(e.data.size() == 1, "checkpoint step count '", e.name, "' should hold one number, holds ",
           e.data.size());
  return e.data[0];
}

Tensor to_tensor(const SafetensorsTensor& t) {
  TF_CHECK(t.shape.size() <= static_cast<size_t>(kMaxDims), "checkpoint tensor '", t.name, "' has ",
           t.shape.size(), " dimensions; Tinyformer tensors have at most ", kMaxDims);
  return Tensor::from_vector(t.data, Shape(t.shape));
}

}  // namespace

std::vector<uint8_t> save_checkpoint_bytes(const Checkpoint& ck) {
  check_checkpoint_finite(ck, "refusing to save this checkpoint");
  return write_safetensors(tensors_of(ck), metadata_of(ck), integers_of(ck));
}

Checkpoint load_checkpoint_bytes(const uint8_t* data, size_t size) {
  SafetensorsFile file = read_safetensors(data, size);
  Checkpoint ck;
  read_metadata(file.metadata, ck);
  for (const SafetensorsIntegers& e : file.integers)
    ck.optimizer_state.counts.emplace_back(optimizer_name(e.name), to_count(e));
  for (const SafetensorsTensor& t : file.tensors) {
    if (is_optimizer_name(t.name))
      ck.optimizer_state.slots.emplace_back(optimizer_name(t.name), to_tensor(t));
    else
      ck.params.emplace_back(t.name, to_tensor(t));
  }
  return ck;
}

void save_checkpoint(const std::string& path, const Checkpoint& ck) {
  write_file_atomically(path, save_checkpoint_bytes(ck));
}

Checkpoint load_checkpoint(const std::string& path) {
  return parse_file(path, kMaxCheckpointBytes,
                    [](const std::vector<uint8_t>& bytes) { return load_checkpoint_bytes(bytes); });
}

void load_parameters(Module& model, const Checkpoint& ck) {
  std::map<std::string, const Tensor*> given;
  for (const auto& [name, t] : ck.params) {
    if (is_optimizer_name(name)) continue;
    TF_CHECK(t.defined(), "checkpoint parameter '", name, "' is undefined");
    TF_CHECK(given.emplace(name, &t).second, "checkpoint has the parameter '", name, "' twice");
  }
  auto wanted = model.named_parameters();
  std::vector<std::string> missing, extra;
  std::set<std::string> known;
  for (const auto& [name, p] : wanted) {
    known.insert(name);
    auto it = given.find(name);
    if (it == given.end()) {
      missing.push_back(name);
      continue;
    }
    const Shape& have = it->second->shape();
    TF_CHECK(have == p.shape(), "parameter '", name, "' has shape ", have.str(), " in the checkpoint but ",
             p.shape().str(), " in the model");
  }
  for (const auto& [name, t] : given)
    if (!known.count(name)) extra.push_back(name);
  TF_CHECK(missing.empty(), "the checkpoint lacks the model's parameter(s) ", name_list(missing));
  TF_CHECK(extra.empty(), "the checkpoint has parameter(s) the model does not: ", name_list(extra));
  // Moved to the model's device before the first write, so a failing transfer also leaves the model as it
  // was.
  std::vector<Tensor> staged;
  for (const auto& [name, p] : wanted) staged.push_back(given.at(name)->to(p.device()));
  for (size_t i = 0; i < wanted.size(); ++i) wanted[i].second.copy_from(staged[i]);
}

}  // namespace tf
