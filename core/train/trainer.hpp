// The training loop, one step at a time so that every front end can drive it: the CLI loops with a progress
// bar, the web worker runs a few steps between messages. A step: schedule -> batch loss -> backward ->
// gradient norm (and optional clipping) -> optimizer step. A step whose loss or gradient norm is NaN or
// infinite is skipped (parameters and optimizer state untouched) and counted; config.max_skips skips in a row
// stop the run with an error. The RNG that draws batches and masks is part of the state, so a checkpoint
// resumes a run with exactly the losses it would have had.
#pragma once
#include <memory>

#include "io/checkpoint.hpp"
#include "optim/optimizer.hpp"
#include "optim/schedule.hpp"
#include "train/task.hpp"

namespace tf {

struct StepStats {
  int64_t step = 0;  // steps done after this one
  float loss = 0;    // the course's figure (per token on stories)
  float lr = 0;
  double seconds = 0;  // wall time of this step
  int64_t tokens = 0;
  uint64_t flops = 0;    // matrix and attention work of this step
  float grad_norm = 0;   // global 2-norm of the gradients before clipping (NaN when the loss was not finite)
  bool skipped = false;  // the loss or gradient norm was not finite: no update was made
  int64_t skipped_steps = 0;  // steps skipped by this Trainer so far, this one included
};

class Trainer {
 public:
  // A fresh run: the model is built from config.model with the config's seed.
  Trainer(const TrainConfig& config, std::unique_ptr<Task> task, Device device = Device::CPU);
  // A run that continues from a checkpoint (parameters, optimizer state, step, RNG, training config).
  static std::unique_ptr<Trainer> resume(const Checkpoint& ck, std::unique_ptr<Task> task,
                                         Device device = Device::CPU);
  // The same with the training config already read from the checkpoint (run/saved_run.hpp reads it once).
  static std::unique_ptr<Trainer> resume(const TrainConfig& config, const Checkpoint& ck,
                                         std::unique_ptr<Task> task, Device device = Device::CPU);

  StepStats step();
  std::optional<float> validation_loss() const { return task_->validation_loss(*model_); }
  nlohmann::json evaluate(uint64_t seed) const;

  // Everything needed to resume: parameters, optimizer state, step, RNG, configs and vocabulary.
  Checkpoint checkpoint() const;
  // Starts from the parameters of a checkpoint (e.g. a causal model for course C10); optimizer fresh.
  // Refuses weights whose stored vocabulary differs from this run's (ids would mean other words).
  void load_weights(const Checkpoint& ck);

  const TrainConfig& config() const { return config_; }
  Model& model() const { return *model_; }
  const Task& task() const { return *task_; }
  Optimizer& optimizer() const { return *optimizer_; }
  int64_t steps_done() const { return step_; }
  // Non-finite steps skipped since this Trainer was made (not stored in checkpoints).
  int64_t skipped_steps() const { return skipped_; }

 private:
  TrainConfig config_;
  std::unique_ptr<Task> task_;
  std::unique_ptr<Model> model_;
  std::unique_ptr<Optimizer> optimizer_;
  std::unique_ptr<Schedule> schedule_;
  Rng rng_;
  int64_t step_ = 0;
  int64_t skipped_ = 0, skipped_in_a_row_ = 0;

  float backward_and_clip(const LossResult& r);  // the gradient norm, NaN when the loss is not finite
  void count_skip();                             // throws after config_.max_skips skips in a row
};

// The optimizer and schedule a config names, over the model's parameters.
std::unique_ptr<Optimizer> make_optimizer(const TrainConfig& config, const Module& model);
std::unique_ptr<Schedule> make_schedule(const TrainConfig& config);

}  // namespace tf
