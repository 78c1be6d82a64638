// Stories (course C): windows of a tokenized corpus. A full-attention model trains with the diffusion loss
// (reported per token, loss / L, as the page prints), a causal model with the next-token loss. Validation
// uses fixed windows of held-out text and, for diffusion, a fixed masking seed, so the number is comparable
// from one evaluation to the next.
#include "autograd/node.hpp"
#include "train/losses.hpp"
#include "train/task.hpp"
#include "util/error.hpp"

namespace tf {

namespace {

constexpr int64_t kValidationWindows = 256;
constexpr uint64_t kValidationSeed = 20240601;

class StoryTask : public Task {
 public:
  StoryTask(std::shared_ptr<const StoryData> data, int64_t batch, int64_t seq_len)
      : Task(TaskKind::Stories, batch), data_(std::move(data)), seq_len_(seq_len) {
    TF_CHECK(data_ && data_->train.size() > seq_len_, "the story corpus has ",
             data_ ? data_->train.size() : 0, " tokens: too few for windows of ", seq_len_);
    TF_CHECK(!data_->valid_given || data_->valid.size() > seq_len_, "the held-out text has ",
             data_->valid.size(), " tokens: too few for one window of ", seq_len_,
             "; give more (or none, to hold out the tail of the training text)");
  }

  LossResult batch_loss(const Model& model, Rng& rng) const override {
    const TokenModel& net = model.token_model("the story task");
    check_vocab(net);
    Ids x0 = in_batch_phase([&] { return data_->train.batch(rng, batch_, seq_len_); });
    if (net.config().causal) return {next_token_loss(net, x0, shard_), 1.f, x0.numel()};
    return {diffusion_loss(net, x0, data_->vocab.mask_id(), rng, shard_), 1.f / static_cast<float>(seq_len_),
            x0.numel()};
  }

  std::optional<float> validation_loss(const Model& model) const override {
    const TokenModel& net = model.token_model("the story task");
    const Corpus& valid = data_->valid;  // never the training windows: no number rather than a wrong one
    int64_t count =
        valid.size() > seq_len_ ? std::min<int64_t>(kValidationWindows, valid.size() / seq_len_) : 0;
    if (count == 0) return std::nullopt;
    Ids all = valid.windows(count, seq_len_);
    NoGrad no_grad;
    Rng rng(kValidationSeed);
    double total = 0;
    int64_t done = 0;
    for (int64_t start = 0; start < count; start += batch_) {
      int64_t n = std::min(batch_, count - start);
      Ids x0(std::vector<int32_t>(all.data.begin() + start * seq_len_,
                                  all.data.begin() + (start + n) * seq_len_),
             Shape{n, seq_len_});
      float loss = net.config().causal
                       ? next_token_loss(net, x0).item()
                       : diffusion_loss(net, x0, data_->vocab.mask_id(), rng).item() / seq_len_;
      total += static_cast<double>(loss) * n;
      done += n;
    }
    return static_cast<float>(total / done);
  }

  nlohmann::json evaluate(const Model& model, Rng&) const override {
    std::optional<float> v = validation_loss(model);
    nlohmann::json j = {{"causal", model.config().causal},
                        {"validation_loss", v ? nlohmann::json(*v) : nullptr}};
    if (!v)
      j["validation"] = "none: the held-out tail of the training text has " +
                        std::to_string(data_->valid.size()) + " tokens, too few for one window of " +
                        std::to_string(seq_len_);
    return j;
  }

  std::vector<std::string> vocabulary() const override { return data_->vocab.words(); }

 private:
  void check_vocab(const TokenModel& net) const {
    TF_CHECK(net.config().vocab == data_->vocab.size(), "the model has a vocabulary of ", net.config().vocab,
             " tokens but the corpus has ", data_->vocab.size());
  }
  std::shared_ptr<const StoryData> data_;
  int64_t seq_len_;
};

}  // namespace

StoryData StoryData::from_text(const std::string& train_text, const std::string& valid_text,
                               int64_t top_words) {
  return with_vocab(Vocabulary::from_text(train_text, top_words), train_text, valid_text);
}

StoryData StoryData::with_vocab(Vocabulary vocab, const std::string& train_text,
                                const std::string& valid_text) {
  Corpus train = Corpus::from_text(train_text, vocab);
  if (!valid_text.empty()) return {vocab, train, Corpus::from_text(valid_text, vocab), true};
  auto [head, tail] = train.split_tail(0.05);
  return {vocab, head, tail};
}

std::unique_ptr<Task> make_story_task(std::shared_ptr<const StoryData> data, int64_t batch, int64_t seq_len) {
  return std::make_unique<StoryTask>(std::move(data), batch, seq_len);
}

void Task::set_shard(BatchShard shard) {
  TF_CHECK(shard.ranks >= 1 && shard.rank >= 0 && shard.rank < shard.ranks, "rank ", shard.rank, " of ",
           shard.ranks, " does not exist");
  TF_CHECK(batch_ >= shard.ranks, "a batch of ", batch_, " cannot be split over ", shard.ranks,
           " ranks: --batch is the global batch and needs at least one sequence per rank");
  shard_ = shard;
}

std::unique_ptr<Task> make_task(const TrainConfig& c, std::shared_ptr<const StoryData> data) {
  if (c.task == TaskKind::Toy) return make_toy_task(c.batch);
  if (c.task == TaskKind::Sort) return make_sort_task(c.batch);
  TF_CHECK(data != nullptr, "the story task needs a corpus");
  return make_story_task(std::move(data), c.batch, c.seq_len);
}

}  // namespace tf
