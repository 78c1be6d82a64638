// How a training run is set up: the task, the model, the optimizer and schedule, the seed. Each task has
// the course's settings as defaults (toy: Adam 1e-3, batch 64, 1500 steps; stories: Adam 1e-3, 64 x 32
// windows, 5000 steps; sort: AdamW 1e-3 with weight decay 0.01, one-cycle with 10 % warm-up, clipping at
// 1.0, batch 128, 1200 steps). Stored as JSON in checkpoints so a run can be resumed exactly.
#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "nn/model_config.hpp"

namespace tf {

// The course's three training tasks; their names ("toy", "sort", "stories") are what files and front ends
// use.
enum class TaskKind { Toy, Sort, Stories };
std::string task_name(TaskKind task);
TaskKind parse_task(const std::string& name);  // throws on an unknown name
ModelKind default_kind(TaskKind task);         // the sorter for sort, the transformer for toy and stories

// A numeric setting's bounds as TrainConfig::validate() checks them: min to max, an end excluded where open.
struct Bounds {
  const char* name;  // the setting's JSON name
  double min, max;
  bool min_open = false, max_open = false, whole = true;  // whole: a count, written "between 1 and 65536"
};

struct TrainConfig {
  TaskKind task = TaskKind::Stories;
  ModelConfig model;
  int64_t steps = 5000;
  int64_t batch = 64;
  int64_t seq_len = 32;            // stories: tokens per window
  std::string optimizer = "adam";  // adam | adamw | sgd
  float lr = 1e-3f;
  float weight_decay = 0.f;
  float momentum = 0.f;               // sgd
  std::string schedule = "constant";  // constant | onecycle | cosine
  double pct_start = 0.1;             // onecycle
  int64_t warmup = 0;                 // cosine
  float clip = 0.f;                   // max gradient norm; 0 = no clipping
  uint64_t seed = 0;
  int64_t max_skips = 20;  // non-finite steps in a row (each skipped) after which training stops

  // The course's settings for a task ("toy", "sort", "stories") and model family; without a family, the
  // task's own (default_kind). A family the task cannot train (the sorter on toy) is kept for validate() to
  // refuse. The names' form is what front ends pass on from their users ("" for the task's own family).
  static TrainConfig for_task(TaskKind task, std::optional<ModelKind> kind = std::nullopt);
  static TrainConfig for_task(const std::string& task, std::optional<ModelKind> kind = std::nullopt);
  static TrainConfig for_task(const std::string& task, const std::string& kind);
  void validate() const;
  // validate()'s bounds of steps, batch, lr, weight_decay, momentum, pct_start and max_skips (seq_len's
  // depend on the model): front ends take theirs from here. bounds(name) throws on another name.
  static const std::vector<Bounds>& bounds();
  static const Bounds& bounds(const std::string& name);
  std::string to_json() const;
  static TrainConfig from_json(const std::string& json);  // every field typed and range-checked
};

}  // namespace tf
