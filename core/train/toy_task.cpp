// The two-sentence toy language (course B): diffusion loss on batches from SamplePInit. Its evaluation gives
// the page's figures: the guesses at position 2 for three prompts beside the exact GuessX0, and what 1000
// undiffused sentences (T = 20) come out as (the bar chart and the nonsense fraction).
#include "data/toy_language.hpp"
#include "sample/undiffuse.hpp"
#include "train/losses.hpp"
#include "train/task.hpp"

namespace tf {

namespace {

class ToyTask : public Task {
 public:
  explicit ToyTask(int64_t batch) : Task(TaskKind::Toy, batch) {}

  LossResult batch_loss(const Model& model, Rng& rng) const override {
    const TokenModel& net = model.token_model("the toy task");
    Ids x0 = in_batch_phase([&] { return toy::sample_batch(rng, batch_); });
    return {diffusion_loss(net, x0, toy::kMask, rng, shard_), 1.f, x0.numel()};
  }

  nlohmann::json evaluate(const Model& model, Rng& rng) const override;
  std::vector<std::string> vocabulary() const override { return toy::vocabulary(); }
};

}  // namespace

nlohmann::json toy_position_two_guesses(const TokenModel& net) {
  nlohmann::json rows = nlohmann::json::array();
  Guesser guess = make_guesser(net);
  double worst = 0;
  for (const char* prompt : {"_ _ _ _", "_ _ is alive", "the _ _ empty"}) {
    std::vector<int32_t> x = toy::encode(prompt);
    std::vector<float> p = guess(Ids(x, Shape{1, toy::kLength}));
    std::vector<float> exact = toy::guess_x0(x);
    nlohmann::json net_p = nlohmann::json::array(), exact_p = nlohmann::json::array();
    for (int32_t v = 0; v < toy::kVocabSize; ++v) {
      float a = p[static_cast<size_t>(toy::kVocabSize + v)],
            b = exact[static_cast<size_t>(toy::kVocabSize + v)];
      net_p.push_back(a);
      exact_p.push_back(b);
      worst = std::max(worst, static_cast<double>(std::abs(a - b)));
    }
    rows.push_back({{"prompt", prompt}, {"network", net_p}, {"exact", exact_p}});
  }
  return {{"prompts", rows}, {"max_abs_difference", worst}};
}

nlohmann::json toy_undiffuse_census(const TokenModel& net, int count, int steps, Rng& rng) {
  Ids start(std::vector<int32_t>(static_cast<size_t>(count * toy::kLength), toy::kMask),
            Shape{count, toy::kLength});
  UndiffuseOptions o;
  o.steps = steps;
  UndiffuseResult r = undiffuse(make_guesser(net), start, toy::kMask, o, rng);
  const char* names[4] = {"the cat is alive", "the box is empty", "the cat is empty", "the box is alive"};
  int counts[5] = {0, 0, 0, 0, 0};
  for (int n = 0; n < count; ++n) {
    std::vector<int32_t> s(r.tokens.data.begin() + n * toy::kLength,
                           r.tokens.data.begin() + (n + 1) * toy::kLength);
    std::string text = toy::decode(s);
    int k = 4;
    for (int i = 0; i < 4; ++i)
      if (text == names[i]) k = i;
    ++counts[k];
  }
  nlohmann::json bars = nlohmann::json::object();
  for (int i = 0; i < 4; ++i) bars[names[i]] = counts[i];
  bars["other"] = counts[4];
  int nonsense = count - counts[0] - counts[1];
  return {{"sentences", count},
          {"steps", steps},
          {"counts", bars},
          {"nonsense_fraction", static_cast<double>(nonsense) / count},
          {"network_calls", r.network_calls}};
}

nlohmann::json ToyTask::evaluate(const Model& model, Rng& rng) const {
  const TokenModel& net = model.token_model("the toy task");
  return {{"guesses_at_position_2", toy_position_two_guesses(net)},
          {"undiffuse", toy_undiffuse_census(net, 1000, 20, rng)}};
}

std::unique_ptr<Task> make_toy_task(int64_t batch) { return std::make_unique<ToyTask>(batch); }

}  // namespace tf
