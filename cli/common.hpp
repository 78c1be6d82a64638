// Pieces the commands share: threads and device from the options, reading checkpoints, printing JSON.
#pragma once
#include <memory>
#include <string>

#include <nlohmann/json.hpp>

#include "args.hpp"
#include "tinyformer.hpp"

namespace tf::cli {

void compute_options(OptionTable& o);           // --threads N, --device cpu|cuda
void apply_threads(const Args& args);           // --threads N
Device device_option(const Args& args);         // --device cpu|cuda, checked to be usable
void print_json_line(const nlohmann::json& j);  // one line on stdout
// The data a saved run's task needs: for stories the text of --data, read with the run's vocabulary.
std::shared_ptr<const StoryData> story_data_for(const SavedRun& run, const Args& args);

}  // namespace tf::cli
