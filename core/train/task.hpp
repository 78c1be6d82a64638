// A training task: where batches come from, which loss they feed, and what the course measures at the
// end. ToyTask (two-sentence language, diffusion loss), SortTask (page 000's sorter), StoryTask (windows of
// a corpus; diffusion loss for a full-attention model, next-token loss for a causal one).
#pragma once
#include <memory>
#include <optional>
#include <string>

#include <nlohmann/json.hpp>

#include "data/corpus.hpp"
#include "data/vocabulary.hpp"
#include "nn/model.hpp"
#include "profile/profile.hpp"
#include "train/losses.hpp"
#include "train/train_config.hpp"
#include "util/rng.hpp"

namespace tf {

struct LossResult {
  Tensor loss;             // what the backward pass starts from
  float report_scale = 1;  // loss * report_scale is the course's figure (per token on stories)
  int64_t tokens = 0;      // tokens in the batch, for tokens/s
};

class Task {
 public:
  Task(TaskKind kind, int64_t batch) : kind_(kind), batch_(batch) {}
  virtual ~Task() = default;
  std::string name() const { return task_name(kind_); }
  // The loss of this process's shard of a batch (the whole batch unless set_shard says otherwise); the RNG
  // draws the whole batch, so it moves as one process's would. tokens counts the whole batch's.
  virtual LossResult batch_loss(const Model& model, Rng& rng) const = 0;
  // Data parallelism: this process is one of shard.ranks and computes its rows of every batch.
  void set_shard(BatchShard shard);
  // Loss on a fixed held-out set (same numbers every call), when the task has one.
  virtual std::optional<float> validation_loss(const Model&) const { return std::nullopt; }
  // The course's figures for a trained model (see each task).
  virtual nlohmann::json evaluate(const Model& model, Rng& rng) const = 0;
  // The token strings, for checkpoints and for writing; empty when the task has none worth storing.
  virtual std::vector<std::string> vocabulary() const { return {}; }

 protected:
  // make() with the profiler in its batch phase: the time a step spends making data, not in the model.
  template <class Make>
  static auto in_batch_phase(Make make) {
    PhaseScope batch(Phase::Batch);
    return make();
  }

  TaskKind kind_;
  int64_t batch_;  // examples per step (the global batch: all ranks together)
  BatchShard shard_;
};

// Text for the story task: the vocabulary of the training text, its tokens, and held-out tokens.
struct StoryData {
  Vocabulary vocab;
  Corpus train, valid;
  bool valid_given = false;  // valid is text given for it, not the training text's tail
  // Vocabulary from `train_text`; validation from `valid_text`, or the last 5 % of the training text when
  // empty.
  static StoryData from_text(const std::string& train_text, const std::string& valid_text = "",
                             int64_t top_words = Vocabulary::kDefaultTop);
  // The same with a given vocabulary (a checkpoint's), so ids mean what they meant in training.
  static StoryData with_vocab(Vocabulary vocab, const std::string& train_text,
                              const std::string& valid_text = "");
};

std::unique_ptr<Task> make_toy_task(int64_t batch);
std::unique_ptr<Task> make_sort_task(int64_t batch);
std::unique_ptr<Task> make_story_task(std::shared_ptr<const StoryData> data, int64_t batch, int64_t seq_len);
// Toy-language figures (course B1-B3): the guesses at position 2 for the page's three prompts beside
// GuessX0, and what `count` sentences undiffused in `steps` steps come out as (bar chart, nonsense fraction).
nlohmann::json toy_position_two_guesses(const TokenModel& net);
nlohmann::json toy_undiffuse_census(const TokenModel& net, int count, int steps, Rng& rng);

// Sorter figures (course D2): greedy decoding of `count` fresh inputs: fully correct sequences,
// per-digit accuracy and four examples.
nlohmann::json sort_accuracy(const Sorter& net, int64_t count, Rng& rng);

// The task a config names (stories need data).
std::unique_ptr<Task> make_task(const TrainConfig& config, std::shared_ptr<const StoryData> data = nullptr);

}  // namespace tf
