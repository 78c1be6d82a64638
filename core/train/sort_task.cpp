// Page 000's sorting task: teacher-forced cross-entropy on random digit sequences. Its evaluation decodes
// 2000 fresh inputs greedily: fully correct sequences, per-digit accuracy and four examples.
#include "data/sort_digits.hpp"
#include "train/losses.hpp"
#include "train/task.hpp"

namespace tf {

namespace {

class SortTask : public Task {
 public:
  explicit SortTask(int64_t batch) : Task(TaskKind::Sort, batch) {}

  LossResult batch_loss(const Model& model, Rng& rng) const override {
    const Sorter& net = model.sorter_model("the sort task");
    sort_digits::Batch b = in_batch_phase([&] { return sort_digits::make_batch(rng, batch_); });
    return {sorter_loss(net, b.src, b.tgt_in, b.tgt, shard_), 1.f, b.src.numel() + b.tgt.numel()};
  }

  nlohmann::json evaluate(const Model& model, Rng& rng) const override {
    return sort_accuracy(model.sorter_model("the sort task"), 2000, rng);
  }

  std::vector<std::string> vocabulary() const override {
    std::vector<std::string> v;
    for (int d = 0; d < 10; ++d) v.push_back(std::to_string(d));
    v.push_back("<sos>");
    return v;
  }
};

}  // namespace

nlohmann::json sort_accuracy(const Sorter& net, int64_t count, Rng& rng) {
  sort_digits::Batch b = sort_digits::make_batch(rng, count);
  Ids pred = net.greedy(b.src, sort_digits::kLength);
  int64_t L = sort_digits::kLength, full = 0, digits = 0;
  nlohmann::json examples = nlohmann::json::array();
  for (int64_t n = 0; n < count; ++n) {
    bool all = true;
    for (int64_t i = 0; i < L; ++i) {
      bool ok = pred.at(n * L + i) == b.tgt.at(n * L + i);
      digits += ok;
      all = all && ok;
    }
    full += all;
    if (n < 4) {
      std::vector<int32_t> in(b.src.data.begin() + n * L, b.src.data.begin() + (n + 1) * L);
      std::vector<int32_t> out(pred.data.begin() + n * L, pred.data.begin() + (n + 1) * L);
      examples.push_back({{"input", in}, {"output", out}, {"correct", all}});
    }
  }
  return {{"sequences", count},
          {"accuracy", static_cast<double>(full) / static_cast<double>(count)},
          {"digit_accuracy", static_cast<double>(digits) / static_cast<double>(count * L)},
          {"examples", examples}};
}

std::unique_ptr<Task> make_sort_task(int64_t batch) { return std::make_unique<SortTask>(batch); }

}  // namespace tf
