#include "checkpoint/checkpoint.hpp"

#include <algorithm>
#include <cfloat>
#include <cmath>
#include <cstdint>
#include <nlohmann/json.hpp>
#include <optional>
#include <set>
#include <string_view>
#include <unordered_map>

#include "checkpoint/finite_check.hpp"
#include "io/file_bytes.hpp"
#include "io/json_fields.hpp"
#include "io/safetensors.hpp"
#include "nn/model_config.hpp"
#include "util/error.hpp"
#include "util/rng.hpp"

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

// "'a', 'b', 'c' and 4 more" of `count` names: keeps errors about big models readable.
std::string name_list(const std::vector<std::string>& names, size_t count) {
  std::string s;
  size_t shown = std::min<size_t>(names.size(), 5);
  for (size_t i = 0; i < shown; ++i) s += (i ? ", '" : "'") + excerpt(names[i]) + "'";
  if (count > shown) s += " and " + std::to_string(count - shown) + " more";
  return s;
}

std::string shape_text(const std::vector<int64_t>& shape) {
  std::string s;
  for (int64_t d : shape) s += (s.empty() ? "" : ", ") + std::to_string(d);
  return "(" + s + ")";
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

// The vocabulary, when there is one, names every token the model has, each word once (one rule for every
// front end: a word given twice would make encoding ambiguous).
void check_vocab(const std::vector<std::string>& vocab, const ModelConfig& config) {
  TF_CHECK(vocab.empty() || static_cast<int64_t>(vocab.size()) == config.vocab, "checkpoint vocabulary has ",
           vocab.size(), " entries but the model config says vocab ", config.vocab);
  std::unordered_map<std::string_view, size_t> seen;
  for (size_t i = 0; i < vocab.size(); ++i) {
    auto [at, fresh] = seen.emplace(vocab[i], i);
    TF_CHECK(fresh, "checkpoint vocabulary has the word \"", excerpt(vocab[i]), "\" twice (token ids ",
             at->second, " and ", i, ")");
  }
}

// JSON has no NaN or infinity: a skipped step's loss is stored as null (and read back as NaN).
std::string losses_json(const std::vector<float>& losses) {
  Json out = Json::array();
  for (float l : losses) out.push_back(std::isfinite(l) ? Json(static_cast<double>(l)) : Json(nullptr));
  return out.dump();
}

std::map<std::string, std::string> metadata_of(const Checkpoint& ck) {
  // refuse to write a file that cannot be loaded back
  check_vocab(ck.vocab, ModelConfig::from_json(ck.config_json));
  TF_CHECK(ck.step >= 0, "checkpoint step must be non-negative, got ", ck.step);
  TF_CHECK(static_cast<uint64_t>(ck.losses.size()) <= static_cast<uint64_t>(ck.step), "checkpoint has ",
           ck.losses.size(), " losses for ", ck.step, " steps");
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
    TF_CHECK(!is_optimizer_name(name) && name.rfind(kSnapshotPrefix, 0) != 0, "checkpoint parameter name '",
             name, "' may not start with '", kOptimizerPrefix, "' or '", kSnapshotPrefix, "'");
    all.emplace_back(name, t);
  }
  for (const auto& [name, t] : ck.optimizer_state.slots) all.emplace_back(kOptimizerPrefix + name, t);
  for (const auto& [step, params] : ck.timeline)
    for (const auto& [name, t] : params)
      all.emplace_back(kSnapshotPrefix + std::to_string(step) + "/" + name, t);
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

// A metadata array of at most max_count entries, streamed (a hostile one is refused as soon as it is too
// long); read(entry, index) checks and converts each entry.
template <class Read>
auto parse_array(const std::string& text, const std::string& name, size_t max_count, Read read) {
  std::vector<decltype(read(Json(), size_t{0}))> out;
  json_fields::for_each_in_array(text, "checkpoint " + name, max_count,
                                 [&](const Json& entry, size_t i) { out.push_back(read(entry, i)); });
  return out;
}

std::vector<std::string> parse_vocab(const std::string& text, const ModelConfig& config) {
  return parse_array(text, "vocabulary", static_cast<size_t>(config.vocab), [](const Json& word, size_t i) {
    TF_CHECK(word.is_string(), "checkpoint vocabulary entry ", i, " is not a string");
    return word.get<std::string>();
  });
}

std::vector<uint64_t> parse_rng(const std::string& text) {
  return parse_array(text, "RNG state", Rng(0).state().size(), [](const Json& word, size_t) {
    TF_CHECK(word.is_string(), "checkpoint RNG state holds a non-string entry");
    return parse_decimal(word.get<std::string>(), "RNG state word");
  });
}

// A loss per step: at most `steps` of them.
std::vector<float> parse_losses(const std::string& text, int64_t steps) {
  return parse_array(text, "loss history", static_cast<size_t>(steps), [](const Json& l, size_t i) {
    TF_CHECK(l.is_null() || (l.is_number() && std::abs(l.get<double>()) <= FLT_MAX),
             "checkpoint loss history entry ", i, " is not a float32 number");
    return l.is_null() ? std::nanf("") : l.get<float>();
  });
}

int64_t parse_step(const std::string& text) {
  uint64_t step = parse_decimal(text, "step");
  TF_CHECK(step <= static_cast<uint64_t>(INT64_MAX), "checkpoint step '", text, "' is too large");
  return static_cast<int64_t>(step);
}

// "step_<N>/<parameter>" -> {N, parameter}; nullopt for a name outside the timeline.
std::optional<std::pair<int64_t, std::string>> snapshot_name(const std::string& name) {
  if (name.rfind(kSnapshotPrefix, 0) != 0) return std::nullopt;
  const size_t begin = std::string(kSnapshotPrefix).size(), slash = name.find('/');
  TF_CHECK(slash != std::string::npos, "checkpoint entry '", excerpt(name),
           "' names no parameter after its step (step_<N>/<name>)");
  return std::make_pair(parse_step(name.substr(begin, slash - begin)), name.substr(slash + 1));
}

ParameterShapes shapes_of(const std::vector<std::pair<std::string, Tensor>>& named) {
  ParameterShapes out;
  for (const auto& [name, t] : named) out.emplace_back(name, t.shape().dims());
  return out;
}

// A timeline holds at most kMaxSnapshots steps, none past the run's, each snapshot exactly the parameters'
// names and shapes (so it loads wherever the checkpoint does).
void check_timeline(const std::map<int64_t, ParameterShapes>& timeline, const ParameterShapes& params,
                    int64_t step) {
  TF_CHECK(timeline.size() <= kMaxSnapshots, "checkpoint timeline has more than ", kMaxSnapshots, " steps");
  for (const auto& [at, shapes] : timeline) {
    TF_CHECK(at >= 0 && at <= step, "checkpoint timeline has a snapshot at step ", at,
             ", past the run's step ", step);
    const std::string mismatch = parameter_mismatch(params, shapes);
    TF_CHECK(mismatch.empty(), "checkpoint snapshot at step ", at, ": ", mismatch);
  }
}

// The config first, then the step: they bound the arrays (vocabulary, loss history) as those are read.
void read_metadata(const std::map<std::string, std::string>& m, Checkpoint& ck) {
  const std::string& format = required(m, keys::kFormat);
  TF_CHECK(format == kCheckpointFormat, "checkpoint format '", excerpt(format),
           "' is not supported (this build reads ", kCheckpointFormat, ")");
  ck.config_json = required(m, keys::kConfig);
  ModelConfig config;
  try {
    config = ModelConfig::from_json(ck.config_json);
  } catch (const Error& e) {
    fail("checkpoint ", e.what());
  }
  auto step = m.find(keys::kStep);
  if (step != m.end()) ck.step = parse_step(step->second);
  for (const auto& [key, value] : m) {
    if (key == keys::kVocab)
      ck.vocab = parse_vocab(value, config);
    else if (key == keys::kRng)
      ck.rng_state = parse_rng(value);
    else if (key == keys::kTrain)
      ck.train_config_json = value;
    else if (key == keys::kTask)
      ck.task = value;
    else if (key == keys::kLosses)
      ck.losses = parse_losses(value, ck.step);
    else if (!is_reserved_key(key))
      ck.metadata[key] = value;
  }
  check_vocab(ck.vocab, config);
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
  std::map<int64_t, ParameterShapes> timeline;
  for (const auto& [step, params] : ck.timeline) timeline[step] = shapes_of(params);
  check_timeline(timeline, shapes_of(ck.params), ck.step);
  return write_safetensors(tensors_of(ck), metadata_of(ck), integers_of(ck));
}

Checkpoint load_checkpoint_bytes(const uint8_t* data, size_t size, const ClaimsCheck& check) {
  Checkpoint ck;
  SafetensorsFile file = read_safetensors(data, size, [&](const SafetensorsFile& claims) {
    read_metadata(claims.metadata, ck);
    ParameterShapes params;
    std::map<int64_t, ParameterShapes> timeline;
    size_t entries = claims.integers.size();  // outside the timeline
    for (const SafetensorsTensor& t : claims.tensors) {
      std::optional<std::pair<int64_t, std::string>> at = snapshot_name(t.name);
      if (at) timeline[at->first].emplace_back(at->second, t.shape);
      TF_CHECK(timeline.size() <= kMaxSnapshots, "checkpoint timeline has more than ", kMaxSnapshots,
               " steps");
      entries += !at;
      if (!at && !is_optimizer_name(t.name)) params.emplace_back(t.name, t.shape);
    }
    // Each parameter brings at most three tensors and a step count, the run one count more: twice that
    // bounds what the tensors' names cost to check (a file may claim millions of empty tensors).
    ParameterShapes model = ModelConfig::from_json(ck.config_json).parameter_shapes();
    if (entries > 2 * (4 * model.size() + 1)) {
      params.resize(std::min(params.size(), model.size() + 1));  // enough to name one the model lacks
      fail("checkpoint has ", entries, " entries, more than twice what its model's parameters and their ",
           "optimizer state make (", 4 * model.size() + 1, "): ", parameter_mismatch(model, params));
    }
    check_timeline(timeline, params, ck.step);
    if (check) check(ck, params);
  });
  for (const SafetensorsIntegers& e : file.integers)
    ck.optimizer_state.counts.emplace_back(optimizer_name(e.name), to_count(e));
  for (const SafetensorsTensor& t : file.tensors) {
    if (std::optional<std::pair<int64_t, std::string>> at = snapshot_name(t.name))
      ck.timeline[at->first].emplace_back(at->second, to_tensor(t));
    else if (is_optimizer_name(t.name))
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

std::string parameter_mismatch(const ParameterShapes& model, const ParameterShapes& file) {
  std::unordered_map<std::string_view, size_t> index;  // the model's names: a few thousand at most
  for (size_t i = 0; i < model.size(); ++i) index.emplace(model[i].first, i);
  std::vector<const std::vector<int64_t>*> given(model.size(), nullptr);
  std::vector<std::string> missing, extra;  // the first few of each (the file may name millions)
  size_t extras = 0;
  for (const auto& [name, shape] : file) {
    auto it = index.find(name);
    if (it == index.end() && extras++ < 5) extra.push_back(name);
    if (it == index.end()) continue;
    if (given[it->second]) return "the checkpoint has the parameter '" + excerpt(name) + "' twice";
    given[it->second] = &shape;
  }
  for (size_t i = 0; i < model.size(); ++i)
    if (given[i] && *given[i] != model[i].second)
      return "parameter '" + model[i].first + "' has shape " + shape_text(*given[i]) +
             " in the checkpoint but " + shape_text(model[i].second) + " in the model";
  for (size_t i = 0; i < model.size(); ++i)
    if (!given[i]) missing.push_back(model[i].first);
  if (!missing.empty())
    return "the checkpoint lacks the model's parameter(s) " + name_list(missing, missing.size());
  if (extras) return "the checkpoint has parameter(s) the model does not: " + name_list(extra, extras);
  return "";
}

void load_parameters(Module& model, const Checkpoint& ck) {
  ParameterShapes file;
  for (const auto& [name, t] : ck.params) {
    if (is_optimizer_name(name)) continue;
    TF_CHECK(t.defined(), "checkpoint parameter '", name, "' is undefined");
    file.emplace_back(name, t.shape().dims());
  }
  auto wanted = model.named_parameters();
  std::string mismatch = parameter_mismatch(shapes_of(wanted), file);
  TF_CHECK(mismatch.empty(), mismatch);
  std::map<std::string, const Tensor*> given;
  for (const auto& [name, t] : ck.params) given.emplace(name, &t);
  // Moved to the model's device before the first write, so a failing transfer also leaves the model as it
  // was.
  std::vector<Tensor> staged;
  for (const auto& [name, p] : wanted) staged.push_back(given.at(name)->to(p.device()));
  for (size_t i = 0; i < wanted.size(); ++i) wanted[i].second.copy_from(staged[i]);
}

}  // namespace tf
