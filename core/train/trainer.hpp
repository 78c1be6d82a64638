// The training loop, one step at a time so that every front end can drive it: the CLI loops with a progress
// bar, the web worker runs a few steps between messages. A step: schedule -> batch loss -> finiteness check
// -> backward -> optional clipping -> optimizer step. The RNG that draws batches and masks is part of the
// state, so a checkpoint resumes a run with exactly the losses it would have had.
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
  uint64_t flops = 0;  // matrix and attention work of this step
};

class Trainer {
 public:
  // A fresh run: the model is built from config.model with the config's seed.
  Trainer(const TrainConfig& config, std::unique_ptr<Task> task, Device device = Device::CPU);
  // A run that continues from a checkpoint (parameters, optimizer state, step, RNG, training config).
  static std::unique_ptr<Trainer> resume(const Checkpoint& ck, std::unique_ptr<Task> task,
                                         Device device = Device::CPU);

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

 private:
  TrainConfig config_;
  std::unique_ptr<Task> task_;
  std::unique_ptr<Model> model_;
  std::unique_ptr<Optimizer> optimizer_;
  std::unique_ptr<Schedule> schedule_;
  Rng rng_;
  int64_t step_ = 0;
};

// The optimizer and schedule a config names, over the model's parameters.
std::unique_ptr<Optimizer> make_optimizer(const TrainConfig& config, const Module& model);
std::unique_ptr<Schedule> make_schedule(const TrainConfig& config);

}  // namespace tf
