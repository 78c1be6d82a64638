#include "train/train_config.hpp"

#include <nlohmann/json.hpp>

#include "util/error.hpp"

namespace tf {

TrainConfig TrainConfig::for_task(const std::string& task, ModelKind kind) {
  TrainConfig c;
  c.task = task;
  if (task == "toy") {
    c.model = ModelConfig::transformer(14, 32, 1, 1);
    c.model.kind = kind == ModelKind::Sorter ? ModelKind::Transformer : kind;
    c.steps = 1500;
    c.batch = 64;
  } else if (task == "sort") {
    c.model = ModelConfig::sorter();
    c.steps = 1200;
    c.batch = 128;
    c.optimizer = "adamw";
    c.weight_decay = 0.01f;
    c.schedule = "onecycle";
    c.pct_start = 0.1;
    c.clip = 1.f;
  } else if (task == "stories") {
    c.model = ModelConfig::transformer(2002);
    c.model.kind = kind == ModelKind::Sorter ? ModelKind::Transformer : kind;
  } else {
    fail("unknown task '", task, "' (expected toy, sort or stories)");
  }
  return c;
}

void TrainConfig::validate() const {
  TF_CHECK(task == "toy" || task == "sort" || task == "stories", "unknown task '", task, "'");
  TF_CHECK((task == "sort") == (model.kind == ModelKind::Sorter),
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
  nlohmann::json j = {{"task", task},
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
  nlohmann::json j;
  try {
    j = nlohmann::json::parse(text);
  } catch (const std::exception& e) {
    fail("training config is not valid JSON: ", e.what());
  }
  TF_CHECK(j.is_object(), "training config must be a JSON object");
  TrainConfig c = TrainConfig::for_task(j.value("task", std::string("stories")));
  for (auto& [key, v] : j.items()) {
    try {
      if (key == "task") continue;
      if (key == "model")
        c.model = ModelConfig::from_json(v.dump());
      else if (key == "steps")
        c.steps = v.get<int64_t>();
      else if (key == "batch")
        c.batch = v.get<int64_t>();
      else if (key == "seq_len")
        c.seq_len = v.get<int64_t>();
      else if (key == "optimizer")
        c.optimizer = v.get<std::string>();
      else if (key == "lr")
        c.lr = v.get<float>();
      else if (key == "weight_decay")
        c.weight_decay = v.get<float>();
      else if (key == "momentum")
        c.momentum = v.get<float>();
      else if (key == "schedule")
        c.schedule = v.get<std::string>();
      else if (key == "pct_start")
        c.pct_start = v.get<double>();
      else if (key == "warmup")
        c.warmup = v.get<int64_t>();
      else if (key == "clip")
        c.clip = v.get<float>();
      else if (key == "seed")
        c.seed = v.get<uint64_t>();
      else if (key == "max_skips")
        c.max_skips = v.get<int64_t>();
      else
        fail("unknown training config field '", key, "'");
    } catch (const nlohmann::json::exception&) {
      fail("training config field '", key, "' has the wrong type");
    }
  }
  c.validate();
  return c;
}

}  // namespace tf
