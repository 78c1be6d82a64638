// The training loop, one step or one chunk of steps at a time so that every front end can drive it: the CLI
// loops with a progress bar, the web worker runs a chunk between messages. A step: schedule -> batch loss ->
// backward -> gradient norm and clip factor (the step_guard kernel) -> optimizer step, all queued on the
// model's device without reading anything back: the guard's row of the chunk's step log says on the device
// whether the optimizer updates. A step whose loss or gradient norm is NaN or infinite is skipped (parameters
// and optimizer state untouched) and counted when the log is read; config.max_skips skips in a row stop the
// run with an error. The RNG that draws batches and masks is part of the state, so a checkpoint resumes a
// run with exactly the losses it would have had.
//
// On a host device the log of a chunk of one step (train_step()) is read at once, so a skip is uncounted
// before the next step runs. Within a longer chunk (and on a device read asynchronously, WebGPU) the host
// learns of a skip only at the chunk's end: the steps after it in the chunk use optimizer step counts one too
// high (Adam's bias correction), the schedule is not held back, and the max_skips stop comes after the
// chunk's remaining steps have run (skipped too, on a diverged model).
#pragma once
#include <memory>
#include <vector>

#include "checkpoint/checkpoint.hpp"
#include "dist/gradient_exchange.hpp"
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

  // Data parallelism: this Trainer is one of the ranks. Each step it computes its shard of the batch and,
  // after the backward pass, the gradients and the loss are summed over the ranks, so the step guard and the
  // optimizer see the global batch's on every rank and all ranks step, or skip, alike; each rank updates its
  // part of the parameters and optimizer state (dist/gradient_exchange.hpp).
  void distribute(std::shared_ptr<Communicator> ranks);

  // One step, its stats read at once.
  StepStats train_step();
  // A chunk: start_chunk(n) queues n steps and reads nothing; finish_chunk reads the step log once and
  // returns each step's stats (the max_skips stop is thrown from there). A device read asynchronously gets
  // the log from pending_log() itself and passes its numbers ([n, kStepLogWidth] floats) to finish_chunk.
  void start_chunk(int64_t n);
  bool chunk_pending() const { return log_.defined(); }
  const Tensor& pending_log() const;  // [n, kStepLogWidth] on the model's device
  std::vector<StepStats> finish_chunk();
  std::vector<StepStats> finish_chunk(const std::vector<float>& log);
  std::optional<float> validation_loss() const { return task_->validation_loss(*model_); }
  nlohmann::json evaluate(uint64_t seed) const;

  // Everything needed to resume: parameters, optimizer state, step, RNG, configs and vocabulary.
  Checkpoint checkpoint() const;

  const TrainConfig& config() const { return config_; }
  Model& model() const { return *model_; }
  const Task& task() const { return *task_; }
  Optimizer& optimizer() const { return *optimizer_; }
  int64_t steps_done() const { return step_; }
  // Non-finite steps skipped since this Trainer was made (not stored in checkpoints).
  int64_t skipped_steps() const { return skipped_; }
  bool last_step_skipped() const { return skipped_in_a_row_ > 0; }  // of the steps settled so far

 private:
  TrainConfig config_;
  std::unique_ptr<Task> task_;
  std::unique_ptr<Model> model_;
  std::unique_ptr<Optimizer> optimizer_;
  std::unique_ptr<Schedule> schedule_;
  std::unique_ptr<GradientExchange> exchange_;  // null in a run of one process
  Rng rng_;
  int64_t step_ = 0;
  int64_t skipped_ = 0, skipped_in_a_row_ = 0;

  // What the host knows of a queued step before its log row is read.
  struct QueuedStep {
    float lr = 0;
    double seconds = 0;
    int64_t tokens = 0;
    uint64_t flops = 0;
    std::vector<bool> stepped;  // the parameters the optimizer counted a step for
  };
  Tensor log_;  // [chunk steps, kStepLogWidth]; undefined when no chunk is pending
  std::vector<QueuedStep> queued_;

  QueuedStep queue_step(float* log_row);
  // The stats of a queued step from its log row; a skip is counted (and the optimizer's count taken back).
  StepStats settle(const QueuedStep& q, const float* row, int64_t step);
  [[noreturn]] void stop_run(int64_t step, int64_t skips_in_a_row) const;  // the max_skips error
};

// The optimizer and schedule a config names, over the model's parameters.
std::unique_ptr<Optimizer> make_optimizer(const TrainConfig& config, const Module& model);
std::unique_ptr<Schedule> make_schedule(const TrainConfig& config);

}  // namespace tf
