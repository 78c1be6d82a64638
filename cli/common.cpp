#include "common.hpp"

#include <cstdio>

#include "backend/backend.hpp"
#include "backend/cpu/thread_pool.hpp"
#include "data_source.hpp"
#include "nn/model_config.hpp"
#include "printable.hpp"
#include "util/error.hpp"

namespace tf::cli {

void compute_options(OptionTable& o) {
  o.integer("threads", "N", "CPU threads (default: the machine's cores, at most 64)", 1, 1024);
  o.choice("device", {"cpu", "cuda"}, "where the model runs (cuda when the CUDA backend is built)", "cpu");
}

void apply_threads(const Args& args) {
  if (args.has("threads")) ThreadPool::instance().set_threads(static_cast<int>(args.integer("threads")));
}

Device device_option(const Args& args) {
  Device d = parse_device(args.str("device"));
  if (d == Device::CUDA)
    backend_for(d);  // throws a clear message when CUDA is not built or no GPU is present
  return d;
}

void print_json_line(const nlohmann::json& j) {
  std::printf("%s\n", printable_json(j).c_str());
  std::fflush(stdout);
}

std::string task_of(const Checkpoint& ck) {
  auto it = ck.metadata.find("tinyformer.task");
  if (it != ck.metadata.end()) return it->second;
  ModelConfig c = ModelConfig::from_json(ck.config_json);
  if (c.kind == ModelKind::Sorter) return "sort";
  return c.vocab == 14 ? "toy" : "stories";
}

TrainConfig run_config(const Checkpoint& ck) {
  auto it = ck.metadata.find("tinyformer.train");
  if (it != ck.metadata.end()) return TrainConfig::from_json(it->second);
  return TrainConfig::for_task(task_of(ck), ModelConfig::from_json(ck.config_json).kind);
}

std::shared_ptr<const StoryData> story_data_for(const Checkpoint& ck, const Args& args) {
  if (task_of(ck) != "stories") return nullptr;
  TF_CHECK(!ck.vocab.empty(), "this story checkpoint holds no vocabulary");
  StoryText text = load_story_text(args);
  return std::make_shared<StoryData>(
      StoryData::with_vocab(Vocabulary::from_entries(ck.vocab), text.train, text.valid));
}

}  // namespace tf::cli
