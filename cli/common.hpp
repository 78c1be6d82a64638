// Pieces the commands share: threads and device from the options, reading checkpoints, printing JSON.
#pragma once
#include <memory>
#include <string>

#include <nlohmann/json.hpp>

#include "args.hpp"
#include "backend/device.hpp"
#include "io/checkpoint.hpp"
#include "train/task.hpp"

namespace tf::cli {

void compute_options(OptionTable& o);           // --threads N, --device cpu|cuda
void apply_threads(const Args& args);           // --threads N
Device device_option(const Args& args);         // --device cpu|cuda, checked to be usable
void print_json_line(const nlohmann::json& j);  // one line on stdout
// The data a checkpoint's task needs, with the checkpoint's vocabulary for stories.
std::shared_ptr<const StoryData> story_data_for(const Checkpoint& ck, const Args& args);
std::string task_of(const Checkpoint& ck);  // "toy", "sort" or "stories"
// The settings the checkpoint's run was trained with (its sequence length, ...), or the course's defaults
// for its task when the file does not say.
TrainConfig run_config(const Checkpoint& ck);

}  // namespace tf::cli
