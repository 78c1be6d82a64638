#include "run/saved_run.hpp"

#include <functional>
#include <numeric>

#include "data/toy_language.hpp"
#include "interp/parameter_table.hpp"
#include "io/file_bytes.hpp"
#include "util/error.hpp"

namespace tf {
namespace {

TaskKind task_of(const Checkpoint& ck, const ModelConfig& model, const std::optional<TrainConfig>& train) {
  if (!ck.task.empty()) return parse_task(ck.task);
  if (train) return train->task;
  if (model.kind == ModelKind::Sorter) return TaskKind::Sort;
  return ck.vocab == toy::vocabulary() ? TaskKind::Toy : TaskKind::Stories;
}

// What the file claims, typed and checked; everything but its tensors' numbers.
SavedRun typed(const Checkpoint& ck, const ParameterShapes& params) {
  SavedRun run;
  run.model = ModelConfig::from_json(ck.config_json);
  int64_t want = run.model.parameter_count(), have = 0;
  for (const auto& [name, shape] : params)  // each fits in the file's bytes: the sum cannot overflow
    have += std::accumulate(shape.begin(), shape.end(), int64_t{1}, std::multiplies<int64_t>());
  // The count first: it guards memory. Then the first parameter that makes the difference, named.
  std::string mismatch = parameter_mismatch(run.model.parameter_shapes(), params);
  TF_CHECK(have == want, "the checkpoint's config describes a ", kind_name(run.model.kind), " of ", want,
           " parameters, but its tensors hold ", have, " numbers", mismatch.empty() ? "" : ": " + mismatch);
  TF_CHECK(mismatch.empty(), mismatch);
  if (!ck.train_config_json.empty()) {
    run.train = TrainConfig::from_json(ck.train_config_json);
    TF_CHECK(run.train->model.to_json() == run.model.to_json(),
             "the checkpoint's training config names another model than its model config");
  }
  run.task = task_of(ck, run.model, run.train);
  TF_CHECK(!run.train || run.train->task == run.task, "the checkpoint says its task is ", task_name(run.task),
           " but its training config says ", task_name(run.train->task));
  TF_CHECK((run.task == TaskKind::Sort) == (run.model.kind == ModelKind::Sorter), "a ",
           kind_name(run.model.kind), " cannot be a ", task_name(run.task), " model");
  return run;
}

}  // namespace

SavedRun read_saved_run(Checkpoint ck) {
  ParameterShapes params;
  for (const auto& [name, t] : ck.params) params.emplace_back(name, t.shape().dims());
  SavedRun run = typed(ck, params);
  run.file = std::move(ck);
  return run;
}

SavedRun load_saved_run(const std::string& path) {
  return parse_file(path, kMaxCheckpointBytes, [](const std::vector<uint8_t>& bytes) {
    return load_saved_run_bytes(bytes.data(), bytes.size());
  });
}

SavedRun load_saved_run_bytes(const uint8_t* data, size_t size) {
  SavedRun run;
  Checkpoint ck = load_checkpoint_bytes(
      data, size,
      [&](const Checkpoint& claims, const ParameterShapes& params) { run = typed(claims, params); });
  run.file = std::move(ck);
  return run;
}

nlohmann::json describe_saved_run(const SavedRun& run) {
  std::vector<int64_t> timeline;
  for (const auto& [step, params] : run.file.timeline) timeline.push_back(step);
  return {{"config", nlohmann::json::parse(run.model.to_json())},
          {"train", run.train ? nlohmann::json::parse(run.train->to_json()) : nlohmann::json()},
          {"task", task_name(run.task)},
          {"step", run.step()},
          {"vocab", run.vocab()},
          {"resumable", run.resumable()},
          {"parameters", run.model.parameter_count()},
          {"table", parameter_table_json(run.file.params)},
          {"losses", run.file.losses},
          {"timeline", timeline},
          {"metadata", run.file.metadata}};
}

std::unique_ptr<Model> build_model(const SavedRun& run, Device device) {
  Rng rng(0);  // the initial values are overwritten at once
  auto model = std::make_unique<Model>(run.model, rng, device);
  load_parameters(model->module(), run.file);
  return model;
}

std::shared_ptr<const StoryData> story_data_for(const SavedRun& run, const std::string& train_text,
                                                const std::string& valid_text) {
  if (run.task != TaskKind::Stories) return nullptr;
  TF_CHECK(!run.vocab().empty(), "this story checkpoint holds no vocabulary");
  return std::make_shared<const StoryData>(
      StoryData::with_vocab(Vocabulary::from_entries(run.vocab()), train_text, valid_text));
}

TrainConfig task_config(const SavedRun& run) {
  if (run.train) return *run.train;
  TrainConfig c = TrainConfig::for_task(run.task, run.model.kind);
  c.model = run.model;
  return c;
}

std::unique_ptr<Task> task_for(const SavedRun& run, std::shared_ptr<const StoryData> data) {
  return make_task(task_config(run), std::move(data));
}

Checkpoint weights_checkpoint(const Model& model, const std::vector<std::string>& vocab, TaskKind task) {
  Checkpoint ck;
  ck.config_json = model.config().to_json();
  ck.vocab = vocab;
  ck.task = task_name(task);
  ck.params = model.module().named_parameters();
  return ck;
}

}  // namespace tf
