#include "train/train_config.hpp"

#include <nlohmann/json.hpp>

#include "io/json_fields.hpp"
#include "util/error.hpp"

namespace tf {

std::string task_name(TaskKind task) {
  switch (task) {
    case TaskKind::Toy:
      return "toy";
    case TaskKind::Sort:
      return "sort";
    case TaskKind::Stories:
      return "stories";
  }
  return "?";
}

TaskKind parse_task(const std::string& name) {
  if (name == "toy") return TaskKind::Toy;
  if (name == "sort") return TaskKind::Sort;
  if (name == "stories") return TaskKind::Stories;
  fail("unknown task '", name, "' (expected toy, sort or stories)");
}

TrainConfig TrainConfig::for_task(const std::string& task, ModelKind kind) {
  return for_task(parse_task(task), kind);
}

TrainConfig TrainConfig::for_task(TaskKind task, ModelKind kind) {
  TrainConfig c;
  c.task = task;
  if (task == TaskKind::Toy) {
    c.model = ModelConfig::transformer(14, 32, 1, 1);
    c.model.kind = kind == ModelKind::Sorter ? ModelKind::Transformer : kind;
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
    c.model.kind = kind == ModelKind::Sorter ? ModelKind::Transformer : kind;
  }
  return c;
}

void TrainConfig::validate() const {
  TF_CHECK((task == TaskKind::Sort) == (model.kind == ModelKind::Sorter),
           "the sort task trains the sorter, and only it");
  model.validate();
  TF_CHECK(steps >= 0 && steps <= 100000000, "steps must be between 0 and 1e8, got ", steps);
  TF_CHECK(batch >= 1 && batch <= 65536, "batch must be between 1 and 65536, got ", batch);
  TF_CHECK(seq_len >= 2 && seq_len <= model.max_length,
           "seq_len must be between 2 and the model's max_length ", model.max_length, ", got ", seq_len);
  TF_CHECK(optimizer == "adam" || optimizer == "adamw" || optimizer == "sgd", "unknown optimizer '",
           optimizer, "' (expected adam, adamw or sgd)");
  TF_CHECK(lr > 0 && lr < 10, "lr must be in (0, 10), got ", lr);
  TF_CHECK(weight_decay >= 0 && momentum >= 0 && momentum < 1, "bad weight decay or momentum");
  TF_CHECK(schedule == "constant" || schedule == "onecycle" || schedule == "cosine", "unknown schedule '",
           schedule, "' (expected constant, onecycle or cosine)");
  TF_CHECK(pct_start > 0 && pct_start < 1, "pct_start must be in (0, 1), got ", pct_start);
  TF_CHECK(warmup >= 0 && clip >= 0, "warmup and clip must be >= 0");
  TF_CHECK(max_skips >= 1 && max_skips <= 1000000, "max_skips must be between 1 and 1e6, got ", max_skips);
}

std::string TrainConfig::to_json() const {
  nlohmann::json j = {{"task", task_name(task)},
                      {"model", nlohmann::json::parse(model.to_json())},
                      {"steps", steps},
                      {"batch", batch},
                      {"seq_len", seq_len},
                      {"optimizer", optimizer},
                      {"lr", lr},
                      {"weight_decay", weight_decay},
                      {"momentum", momentum},
                      {"schedule", schedule},
                      {"pct_start", pct_start},
                      {"warmup", warmup},
                      {"clip", clip},
                      {"seed", seed},
                      {"max_skips", max_skips}};
  return j.dump();
}

TrainConfig TrainConfig::from_json(const std::string& text) {
  namespace jf = json_fields;
  const std::string what = "training config";
  jf::Json j = jf::parse(text, what);
  jf::require_object(j, what);
  TrainConfig c = for_task(j.contains("task") ? jf::string(j["task"], what, "task") : "stories");
  // Wide bounds that keep casts defined; validate() gives each field's real range and message.
  constexpr int64_t kBig = int64_t{1} << 40;
  constexpr double kHuge = 1e30;
  for (auto& [key, v] : j.items()) {
    if (key == "task") continue;
    if (key == "model") {
      jf::require_object(v, "training config field 'model'");
      c.model = ModelConfig::from_json(v.dump());  // shallow: jf::parse limited the depth
    } else if (key == "steps") {
      c.steps = jf::integer(v, what, key, -kBig, kBig);
    } else if (key == "batch") {
      c.batch = jf::integer(v, what, key, -kBig, kBig);
    } else if (key == "seq_len") {
      c.seq_len = jf::integer(v, what, key, -kBig, kBig);
    } else if (key == "optimizer") {
      c.optimizer = jf::string(v, what, key);
    } else if (key == "lr") {
      c.lr = static_cast<float>(jf::number(v, what, key, -kHuge, kHuge));
    } else if (key == "weight_decay") {
      c.weight_decay = static_cast<float>(jf::number(v, what, key, -kHuge, kHuge));
    } else if (key == "momentum") {
      c.momentum = static_cast<float>(jf::number(v, what, key, -kHuge, kHuge));
    } else if (key == "schedule") {
      c.schedule = jf::string(v, what, key);
    } else if (key == "pct_start") {
      c.pct_start = jf::number(v, what, key, -kHuge, kHuge);
    } else if (key == "warmup") {
      c.warmup = jf::integer(v, what, key, -kBig, kBig);
    } else if (key == "clip") {
      c.clip = static_cast<float>(jf::number(v, what, key, -kHuge, kHuge));
    } else if (key == "seed") {
      c.seed = jf::unsigned_integer(v, what, key);
    } else if (key == "max_skips") {
      c.max_skips = jf::integer(v, what, key, -kBig, kBig);
    } else {
      fail("unknown training config field '", key, "'");
    }
  }
  c.validate();
  return c;
}

}  // namespace tf
