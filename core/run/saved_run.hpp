// A checkpoint read as what it holds: the model's config, the run's training config and task (absent in a
// weights-only file), its step and vocabulary, checked to agree with each other and with the tensors
// before anything is built from them. Every front end (CLI commands, the Embind layer) describes and opens
// files through these calls and resumes runs through a Session (session.hpp) built on them, so the file's
// metadata keys are spelled in core/checkpoint alone.
#pragma once
#include <memory>
#include <optional>
#include <string>

#include <nlohmann/json.hpp>

#include "checkpoint/checkpoint.hpp"
#include "nn/model.hpp"
#include "train/task.hpp"

namespace tf {

struct SavedRun {
  Checkpoint file;                   // the tensors and the untyped rest
  ModelConfig model;                 // the network the tensors fill
  std::optional<TrainConfig> train;  // the run's settings; absent in a weights-only file
  TaskKind task = TaskKind::Stories;

  bool resumable() const { return train.has_value() && !file.optimizer_state.empty(); }
  int64_t step() const { return file.step; }
  const std::vector<std::string>& vocab() const { return file.vocab; }
};

// Checks that the parts agree: the tensors hold exactly the numbers the config's model has (so a tiny file
// cannot make a front end build a huge model), the training config names the same model and task. Files
// without a task key (written before it existed) take it from the training config, else the model: the
// sorter sorts, the toy language's vocabulary is the toy task, anything else is stories.
SavedRun read_saved_run(Checkpoint ck);
SavedRun load_saved_run(const std::string& path);  // errors name the file
SavedRun load_saved_run_bytes(const uint8_t* data, size_t size);

// What `tinyformer info` and the page show: {"config", "train" (or null), "task", "step", "vocab",
// "resumable", "parameters" (the count), "table" (parameter_table_json of the tensors), "losses" (the
// loss history, null for a skipped step), "timeline" (the steps of its snapshots), "metadata" (the rest)}.
nlohmann::json describe_saved_run(const SavedRun& run);

// The model with the file's parameters, on `device`.
std::unique_ptr<Model> build_model(const SavedRun& run, Device device = Device::CPU);

// The data the run's task needs: the story text read with the file's own vocabulary (so ids mean what
// they meant in training); null for the toy and sort tasks, which make their own.
std::shared_ptr<const StoryData> story_data_for(const SavedRun& run, const std::string& train_text,
                                                const std::string& valid_text = "");
// The settings the run trained with (its batch and window length), or the course's for its task and model
// when the file is weights only; and its task with those settings.
TrainConfig task_config(const SavedRun& run);
std::unique_ptr<Task> task_for(const SavedRun& run, std::shared_ptr<const StoryData> data);

// A weights-only checkpoint of a model (what the page saves for a model it only views).
Checkpoint weights_checkpoint(const Model& model, const std::vector<std::string>& vocab, TaskKind task);

}  // namespace tf
