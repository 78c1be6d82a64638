#include "common.hpp"

#include <cstdio>

#include "data_source.hpp"
#include "printable.hpp"
#include "runtime.hpp"

namespace tf::cli {

void compute_options(OptionTable& o) {
  o.integer("threads", "N", "CPU threads (default: the machine's cores, at most 64)", 1,
            runtime::max_threads());
  o.choice("device", {"cpu", "cuda"}, "where the model runs (cuda when the CUDA backend is built)", "cpu");
}

void apply_threads(const Args& args) {
  if (args.has("threads")) runtime::set_threads(static_cast<int>(args.integer("threads")));
}

Device device_option(const Args& args) { return runtime::usable_device(args.str("device")); }

void print_json_line(const nlohmann::json& j) {
  std::printf("%s\n", printable_json(j).c_str());
  std::fflush(stdout);
}

std::shared_ptr<const StoryData> story_data_for(const SavedRun& run, const Args& args) {
  if (run.task != TaskKind::Stories) return nullptr;
  StoryText text = load_story_text(args);
  return tf::story_data_for(run, text.train, text.valid);
}

}  // namespace tf::cli
