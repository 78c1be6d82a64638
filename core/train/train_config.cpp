#include "train/train_config.hpp"

#include <nlohmann/json.hpp>

#include "data/sort_digits.hpp"
#include "data/toy_language.hpp"
#include "io/json_fields.hpp"
#include "util/error.hpp"
#include "util/names.hpp"

namespace tf {

namespace {
constexpr NameTable<TaskKind, 3> kTaskNames = {
    {TaskKind::Toy, "toy"}, {TaskKind::Sort, "sort"}, {TaskKind::Stories, "stories"}};

void check_bounds(const char* name, double v) {
  const Bounds& b = TrainConfig::bounds(name);
  bool in = (b.min_open ? v > b.min : v >= b.min) && (b.max_open ? v < b.max : v <= b.max);
  if (b.whole) TF_CHECK(in, name, " must be between ", int64_t(b.min), " and ", int64_t(b.max), ", got ", v);
  TF_CHECK(in, name, " must be in ", b.min_open ? "(" : "[", b.min, ", ", b.max, b.max_open ? ")" : "]",
           ", got ", v);
}
}  // namespace

std::string task_name(TaskKind task) { return name_in(kTaskNames, task); }

TaskKind parse_task(const std::string& name) { return value_in(kTaskNames, name, "task"); }

ModelKind default_kind(TaskKind task) {
  return task == TaskKind::Sort ? ModelKind::Sorter : ModelKind::Transformer;
}

TrainConfig TrainConfig::for_task(const std::string& task, std::optional<ModelKind> kind) {
  return for_task(parse_task(task), kind);
}

TrainConfig TrainConfig::for_task(const std::string& task, const std::string& kind) {
  return for_task(parse_task(task), kind.empty() ? std::nullopt : std::optional<ModelKind>(parse_kind(kind)));
}

TrainConfig TrainConfig::for_task(TaskKind task, std::optional<ModelKind> kind) {
  TrainConfig c;
  c.task = task;
  if (task == TaskKind::Toy) {
    c.model = ModelConfig::transformer(toy::kVocabSize, 32, 1, 1);
    c.steps = 1500;
    c.batch = 64;
  } else if (task == TaskKind::Sort) {
    c.model = ModelConfig::sorter();
    c.steps = 1200;
    c.batch = 128;
    c.optimizer = "adamw";
    c.weight_decay = 0.01f;
    c.schedule = "onecycle";
    c.pct_start = 0.1;
    c.clip = 1.f;
  } else {
    c.model = ModelConfig::transformer(2002);
  }
  c.model.kind = kind.value_or(default_kind(task));
  return c;
}

void TrainConfig::validate() const {
  TF_CHECK((task == TaskKind::Sort) == (model.kind == ModelKind::Sorter),
           "the sort task trains the sorter, and only it");
  model.validate();
  // The toy language and the digits have fixed vocabularies; a model of another size could never be saved.
  const int64_t words = task == TaskKind::Toy ? toy::kVocabSize : sort_digits::kVocabSize;
  TF_CHECK(task == TaskKind::Stories || model.vocab == words, "the ", task_name(task), " task has ", words,
           " words: the model's vocab must be ", words, ", got ", model.vocab);
  check_bounds("steps", steps);
  check_bounds("batch", batch);
  TF_CHECK(seq_len >= 2 && seq_len <= model.max_length,
           "seq_len must be between 2 and the model's max_length ", model.max_length, ", got ", seq_len);
  TF_CHECK(optimizer == "adam" || optimizer == "adamw" || optimizer == "sgd", "unknown optimizer '",
           optimizer, "' (expected adam, adamw or sgd)");
  check_bounds("lr", lr);
  check_bounds("weight_decay", weight_decay);
  check_bounds("momentum", momentum);
  TF_CHECK(schedule == "constant" || schedule == "onecycle" || schedule == "cosine", "unknown schedule '",
           schedule, "' (expected constant, onecycle or cosine)");
  check_bounds("pct_start", pct_start);
  TF_CHECK(warmup >= 0 && clip >= 0, "warmup and clip must be >= 0");
  check_bounds("max_skips", max_skips);
}

// Counts between whole numbers; rates in an interval, open where an end would not train (a zero learning
// rate, a one-cycle with no warm-up or no decay) or never forget (momentum 1).
const std::vector<Bounds>& TrainConfig::bounds() {
  static const std::vector<Bounds> all = {{"steps", 0, 1e8},
                                          {"batch", 1, 65536},
                                          {"lr", 0, 10, true, true, false},
                                          {"weight_decay", 0, 10, false, false, false},
                                          {"momentum", 0, 1, false, true, false},
                                          {"pct_start", 0, 1, true, true, false},
                                          {"max_skips", 1, 1e6}};
  return all;
}

const Bounds& TrainConfig::bounds(const std::string& name) {
  for (const Bounds& b : bounds())
    if (name == b.name) return b;
  fail("no bounds for the training setting '", name, "'");
}

namespace {

// The nested model config, written as an object and read (depth already limited by parse) as one.
json_fields::Field<TrainConfig> model_field() {
  namespace jf = json_fields;
  return {"model", [](const TrainConfig& c, jf::Json& j) { j["model"] = jf::Json::parse(c.model.to_json()); },
          [](TrainConfig& c, const jf::Json& v, const std::string&) {
            jf::require_object(v, "training config field 'model'");
            c.model = ModelConfig::from_json(v.dump());
          }};
}

const json_fields::Fields<TrainConfig>& json_form() {
  namespace jf = json_fields;
  using C = TrainConfig;
  static const jf::Fields<C> fields = {jf::named("task", &C::task, task_name, parse_task),
                                       model_field(),
                                       jf::field("steps", &C::steps),
                                       jf::field("batch", &C::batch),
                                       jf::field("seq_len", &C::seq_len),
                                       jf::field("optimizer", &C::optimizer),
                                       jf::field("lr", &C::lr),
                                       jf::field("weight_decay", &C::weight_decay),
                                       jf::field("momentum", &C::momentum),
                                       jf::field("schedule", &C::schedule),
                                       jf::field("pct_start", &C::pct_start),
                                       jf::field("warmup", &C::warmup),
                                       jf::field("clip", &C::clip),
                                       jf::field("seed", &C::seed),
                                       jf::field("max_skips", &C::max_skips)};
  return fields;
}

}  // namespace

std::string TrainConfig::to_json() const { return json_fields::write_fields(*this, json_form()).dump(); }

// The task's course settings first, then every field given.
TrainConfig TrainConfig::from_json(const std::string& text) {
  namespace jf = json_fields;
  const std::string what = "training config";
  jf::Json j = jf::parse_object(text, what);
  TrainConfig c = for_task(j.contains("task") ? jf::string(j["task"], what, "task") : "stories");
  jf::read_fields(c, j, what, json_form());
  c.validate();
  return c;
}

}  // namespace tf
