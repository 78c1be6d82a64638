#include "run/session.hpp"

#include "train/vocabulary_agreement.hpp"
#include "util/error.hpp"

namespace tf {
namespace {

std::shared_ptr<const StoryData> story_text(const CorpusText* text, TaskKind task) {
  if (task != TaskKind::Stories) return nullptr;
  TF_CHECK(text != nullptr && !text->train.empty(), "the stories task needs text to train on");
  TF_CHECK(text->top_words >= 1 && text->top_words <= 1000000, "topWords must be 1..1000000, got ",
           text->top_words);
  return std::make_shared<const StoryData>(StoryData::from_text(text->train, text->valid, text->top_words));
}

}  // namespace

Session::Session(std::unique_ptr<Trainer> trainer, std::unique_ptr<Model> model, TaskKind task,
                 std::vector<std::string> vocab, std::vector<float> losses)
    : trainer_(std::move(trainer)),
      model_(std::move(model)),
      task_(task),
      vocab_(std::move(vocab)),
      losses_(std::move(losses)) {
  if (!vocab_.empty()) codec_.emplace(vocab_);
}

std::unique_ptr<Session> Session::create(TrainConfig config, const CorpusText* text, Device device) {
  std::shared_ptr<const StoryData> data = story_text(text, config.task);
  if (data) config.model.vocab = data->vocab.size();
  config.validate();
  auto trainer = std::make_unique<Trainer>(config, make_task(config, data), device);
  std::vector<std::string> vocab = trainer->task().vocabulary();
  std::unique_ptr<Session> s(new Session(std::move(trainer), nullptr, config.task, std::move(vocab)));
  s->data_ = std::move(data);
  return s;
}

std::unique_ptr<Session> Session::resume(const SavedRun& run, const CorpusText* text, Device device,
                                         std::optional<TaskKind> expected) {
  TF_CHECK(!expected || *expected == run.task, "this checkpoint is a ", task_name(run.task),
           " run; it cannot be resumed as a ", task_name(*expected), " run");
  TF_CHECK(run.train,
           "this checkpoint holds weights only, not a training run: start a new run from it "
           "(initialise from it) instead of resuming");
  TF_CHECK(!run.file.optimizer_state.empty(), "this checkpoint has no optimizer state to resume from");
  std::shared_ptr<const StoryData> data;
  if (run.task == TaskKind::Stories) {
    TF_CHECK(text != nullptr && !text->train.empty(), "resuming a story run needs its text again");
    data = story_data_for(run, text->train, text->valid);
  }
  auto trainer = Trainer::resume(*run.train, run.file, make_task(*run.train, data), device);
  std::unique_ptr<Session> s(
      new Session(std::move(trainer), nullptr, run.task, run.vocab(), run.file.losses));
  s->data_ = std::move(data);
  return s;
}

std::unique_ptr<Session> Session::view(const SavedRun& run, Device device) {
  std::unique_ptr<Session> s(
      new Session(nullptr, build_model(run, device), run.task, run.vocab(), run.file.losses));
  s->viewed_step_ = run.step();
  return s;
}

Trainer& Session::trainer(const char* purpose) const {
  TF_CHECK(trainer_, purpose, " needs a training run, not a model opened for viewing");
  return *trainer_;
}

const WordCodec& Session::codec(const char* purpose) const {
  TF_CHECK(codec_, purpose, " needs the model's vocabulary, and this checkpoint stores none");
  return *codec_;
}

int64_t Session::steps_done() const { return trainer_ ? trainer_->steps_done() : 0; }

int64_t Session::skipped_steps() const { return trainer_ ? trainer_->skipped_steps() : 0; }

std::optional<float> Session::validation_loss() const { return trainer("validation").validation_loss(); }

nlohmann::json Session::evaluate(uint64_t seed) const { return trainer("evaluation").evaluate(seed); }

TrainConfig Session::train_config() const {
  TrainConfig c = trainer("the training config").config();
  c.model = model().config();
  return c;
}

std::vector<StepStats> Session::advance(int64_t n) {
  TF_CHECK(n >= 1 && n <= 1000000, "a run trains 1 <= n <= 1e6 steps at a time, got ", n);
  Trainer& t = trainer("training");
  std::vector<StepStats> stats;
  for (int64_t i = 0; i < n; ++i) {
    stats.push_back(t.train_step());
    losses_.push_back(stats.back().loss);  // kept as each step ends: a later step may stop the run
  }
  return stats;
}

DeviceBlock Session::start_chunk(int64_t n) {
  TF_CHECK(n >= 1 && n <= 1000000, "a chunk needs 1 <= n <= 1e6 steps, got ", n);
  Trainer& t = trainer("training");
  t.start_chunk(n);
  const Tensor& log = t.pending_log();
  return {"", log.data(), static_cast<size_t>(log.numel()) * sizeof(float), log.shape()};
}

std::vector<StepStats> Session::finish_chunk() { return kept(trainer("training").finish_chunk()); }

std::vector<StepStats> Session::finish_chunk(const std::vector<float>& log) {
  return kept(trainer("training").finish_chunk(log));
}

std::vector<StepStats> Session::kept(std::vector<StepStats> stats) {
  for (const StepStats& s : stats) losses_.push_back(s.loss);
  return stats;
}

Device Session::device() const { return model().module().named_parameters().front().second.device(); }

std::vector<DeviceBlock> Session::parameter_blocks() const {
  std::vector<DeviceBlock> blocks;
  for (const auto& [name, p] : model().module().named_parameters())
    blocks.push_back({name, p.data(), static_cast<size_t>(p.numel()) * sizeof(float), p.shape()});
  return blocks;
}

Checkpoint Session::checkpoint() const {
  if (trainer_ && trainer_->last_step_skipped())
    throw CheckpointRefused(
        Refusal::SkippedStep,
        "the run's last step was skipped (its loss or gradient norm was not finite), so a "
        "checkpoint now could hold a diverging run");
  Checkpoint ck = trainer_ ? trainer_->checkpoint() : weights_checkpoint(*model_, vocab_, task_);
  if (!trainer_) ck.step = viewed_step_;  // the losses are the file's, one per step it trained
  ck.losses = losses_;
  return ck;
}

namespace {

// The tensors of a checkpoint that are not on the host, in the order checkpoint_blocks() lists them.
std::vector<std::pair<std::string, Tensor>*> device_tensors(Checkpoint& ck) {
  std::vector<std::pair<std::string, Tensor>*> out;
  for (auto* group : {&ck.params, &ck.optimizer_state.slots})
    for (auto& named : *group)
      if (named.second.device() != Device::CPU) out.push_back(&named);
  return out;
}

}  // namespace

std::vector<DeviceBlock> Session::checkpoint_blocks() const {
  Checkpoint ck = checkpoint();
  std::vector<DeviceBlock> blocks;
  for (const auto* named : device_tensors(ck)) {
    const Tensor& t = named->second;
    blocks.push_back({named->first, t.data(), static_cast<size_t>(t.numel()) * sizeof(float), t.shape()});
  }
  return blocks;
}

Checkpoint Session::checkpoint(const std::vector<std::vector<float>>& read) const {
  Checkpoint ck = checkpoint();
  std::vector<std::pair<std::string, Tensor>*> off_host = device_tensors(ck);
  TF_CHECK(read.size() == off_host.size(), "a checkpoint read from the device needs ", off_host.size(),
           " tensors, got ", read.size());
  for (size_t i = 0; i < read.size(); ++i) {
    Tensor& t = off_host[i]->second;
    TF_CHECK(read[i].size() == static_cast<size_t>(t.numel()), "'", off_host[i]->first,
             "' read from the device has ", read[i].size(), " numbers, the tensor ", t.numel());
    t = Tensor::from_vector(read[i], t.shape());
  }
  return ck;
}

Tensor Session::parameter(const std::string& name) const {
  for (const auto& [n, t] : model().module().named_parameters())
    if (n == name) return t.to(Device::CPU);
  fail("the model has no parameter '", name, "'");
}

void Session::copy_weights_from(const Session& other) {
  load_weights(other.model().module().named_parameters(), other.vocab());
}

void Session::load_weights(const NamedTensors& params, const std::vector<std::string>& vocab) {
  require_same_vocabulary(vocab, vocab_);  // the same shapes can number other words
  Checkpoint weights;
  weights.params = params;
  load_parameters(model().module(), weights);
}

void Session::set_causal(bool causal) { model().transformer_model("switching attention").set_causal(causal); }

}  // namespace tf
