// What every front end holds in memory, its one door into a run: a training run (a Trainer), or a model
// opened from a file for viewing and writing, together with the task and vocabulary it came with. The CLI
// holds one; the page's worker keeps several (one per slot) through the Embind layer, which only marshals;
// they read one parameter or copy weights from another session in memory instead of round-tripping through
// file bytes. The rule for saving a run lives here: checkpoint() refuses right after a skipped step. Training
// in chunks leaves the step figures on the device until the chunk is finished: a device read asynchronously
// (WebGPU) has its log, and for a weight snapshot its parameters, read by the caller from where
// parameter_blocks() and start_chunk say.
#pragma once
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "data/word_codec.hpp"
#include "run/saved_run.hpp"
#include "train/step_totals.hpp"

namespace tf {

// Story text a session trains on: the training text, optional held-out text, and for a fresh run the size
// of the vocabulary to keep (the most common words).
struct CorpusText {
  std::string train, valid;
  int64_t top_words = Vocabulary::kDefaultTop;
};

// A range of device memory for a caller to read itself (the asynchronous WebGPU read): a tensor's numbers.
struct DeviceBlock {
  std::string name;  // a parameter's Module name; "" for a step log
  const float* data = nullptr;
  size_t bytes = 0;
  Shape shape;
};

class Session {
 public:
  // A fresh run; a story run's vocabulary (and so the model's vocab) comes from its text.
  static std::unique_ptr<Session> create(TrainConfig config, const CorpusText* text,
                                         Device device = Device::CPU);
  // A run continued from its file (a story run needs its text again). `expected` (a front end's --task)
  // must be the file's task when given.
  static std::unique_ptr<Session> resume(const SavedRun& run, const CorpusText* text,
                                         Device device = Device::CPU,
                                         std::optional<TaskKind> expected = std::nullopt);
  // A model to look at and write with; it cannot train.
  static std::unique_ptr<Session> view(const SavedRun& run, Device device = Device::CPU);

  const Model& model() const { return trainer_ ? trainer_->model() : *model_; }
  bool trainable() const { return trainer_ != nullptr; }
  TaskKind task() const { return task_; }
  // The story text as the run reads it (vocabulary, training and held-out tokens); null for other tasks.
  const StoryData* story_data() const { return data_.get(); }
  const std::vector<std::string>& vocab() const { return vocab_; }
  Device device() const;                              // where the model's parameters live
  const WordCodec& codec(const char* purpose) const;  // a tf::Error when the model has no vocabulary
  int64_t steps_done() const;                         // 0 for a model opened for viewing
  int64_t skipped_steps() const;                      // skipped since this session was made (not stored)
  // The run's training config with the model's config as it is now (set_causal changes it); a tf::Error
  // when viewing.
  TrainConfig train_config() const;

  std::vector<StepStats> advance(int64_t n);  // n steps, each read at once (step_totals() totals them)
  // n steps queued without reading the device; the block is the chunk's step log ([n, kStepLogWidth]).
  DeviceBlock start_chunk(int64_t n);
  // The queued steps' stats: read from the device here (host devices), or from the log's numbers as the
  // caller read them. Skips and the max_skips stop are settled here (see Trainer).
  std::vector<StepStats> finish_chunk();
  std::vector<StepStats> finish_chunk(const std::vector<float>& log);
  // Where each parameter's numbers lie on the model's device, for a snapshot read by the caller.
  std::vector<DeviceBlock> parameter_blocks() const;
  // The loss of every step so far (NaN for a skipped one), carried on from the file a run resumed from.
  const std::vector<float>& losses() const { return losses_; }
  // A training run's whole state, or a viewed model's weights (weights-only file); both with the losses.
  // Refuses (CheckpointRefused, SkippedStep) right after a skipped step: a diverged run's parameters can be
  // finite and still useless, so the file a run was last saved to keeps the last state that trained.
  Checkpoint checkpoint() const;
  // The tensors of checkpoint() that lie on a device (parameters, then optimizer state), for a caller that
  // reads them asynchronously (WebGPU); checkpoint(read) is checkpoint() with their numbers as read, in
  // that order (each checked against its block's size).
  std::vector<DeviceBlock> checkpoint_blocks() const;
  Checkpoint checkpoint(const std::vector<std::vector<float>>& read) const;
  // One parameter by its Module name, on the CPU; a tf::Error names a missing one.
  Tensor parameter(const std::string& name) const;
  // The held-out loss (when the task has held-out data) and the course's figures, of a training run.
  std::optional<float> validation_loss() const;
  nlohmann::json evaluate(uint64_t seed) const;
  // Copies every parameter of `other` into this model by name (vocabularies, names and shapes checked
  // first; on error nothing changes). The optimizer state stays (course C10: diffusion from causal weights).
  void copy_weights_from(const Session& other);
  // The same from named tensors (e.g. a snapshot read from another session's device) of a model with the
  // vocabulary `vocab`.
  void load_weights(const NamedTensors& params, const std::vector<std::string>& vocab);
  // A fresh run starting from a file's weights (the CLI's --init-from), checked as load_weights checks.
  void init_from(const SavedRun& run) { load_weights(run.file.params, run.vocab()); }
  void set_causal(bool causal);
  // Data parallelism (mpirun): this session is one of `ranks` and trains its slice of every batch, the
  // gradients summed over the ranks each step (Trainer::distribute).
  void distribute(std::shared_ptr<Communicator> ranks) {
    trainer("data parallelism").distribute(std::move(ranks));
  }

 private:
  Session(std::unique_ptr<Trainer> trainer, std::unique_ptr<Model> model, TaskKind task,
          std::vector<std::string> vocab, std::vector<float> losses = {});
  Trainer& trainer(const char* purpose) const;  // a tf::Error saying what `purpose` needs when viewing

  std::unique_ptr<Trainer> trainer_;
  std::shared_ptr<const StoryData> data_;
  std::unique_ptr<Model> model_;
  TaskKind task_;
  std::vector<std::string> vocab_;
  std::optional<WordCodec> codec_;
  std::vector<float> losses_;
  int64_t viewed_step_ = 0;  // a viewed model's step, as its file said

  std::vector<StepStats> kept(std::vector<StepStats> stats);  // adds a chunk's losses to losses_
};

}  // namespace tf
