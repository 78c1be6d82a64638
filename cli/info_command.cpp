// tinyformer info: what a checkpoint holds — its config, training step, the length of its loss history,
// metadata and a table of its parameters with their shapes, grouped into the pieces the course counts
// (embeddings, attention, FFN, LayerNorm, output). The table is for people (control characters from the file
// escaped); the last line, or with --json the only line, is one JSON object.
#include <cstdio>
#include <map>

#include "args.hpp"
#include "commands.hpp"
#include "common.hpp"
#include "printable.hpp"
#include "tinyformer.hpp"

namespace tf::cli {

namespace {

// The table a person reads. Every string from the file goes through printable(): it may hold escapes.
void print_table(const std::string& path, const SavedRun& run, const nlohmann::json& table) {
  std::printf("%s\n", printable(path).c_str());
  std::printf("  task    %s%s\n  config  %s\n  step    %lld\n  losses  %zu steps\n  vocab   %zu tokens\n",
              task_name(run.task).c_str(), run.resumable() ? " (resumable)" : " (weights only)",
              run.model.to_json().c_str(), static_cast<long long>(run.step()), run.file.losses.size(),
              run.vocab().size());
  for (const auto& [k, v] : run.file.metadata)
    std::printf("  %-24s %s\n", printable(k).c_str(), printable(v).c_str());
  std::printf("\n  %-44s %-16s %12s\n", "parameter", "shape", "count");
  for (const auto& r : table["rows"])
    std::printf("  %-44s %-16s %12lld\n", printable(r["name"].get<std::string>()).c_str(),
                r["shape"].get<std::string>().c_str(), r["count"].get<long long>());
  std::printf("\n  total %lld parameters\n", table["total"].get<long long>());
}

void info_options(OptionTable& o) {
  o.text("checkpoint", "FILE", "the checkpoint (or any Tinyformer safetensors file)", std::nullopt, true);
  o.flag("json", "print only the JSON summary (with the metadata) on stdout");
}

int info_command(const Args& a) {
  SavedRun run = load_saved_run(a.str("checkpoint"));
  build_model(run);  // every name and shape checked against the model the config makes
  nlohmann::json d = describe_saved_run(run);
  if (!a.flag("json")) print_table(a.str("checkpoint"), run, d["table"]);
  nlohmann::json groups = nlohmann::json::object();
  for (const auto& g : d["table"]["groups"]) groups[g["group"].get<std::string>()] = g["count"];
  print_json_line({{"config", d["config"]},
                   {"task", d["task"]},
                   {"step", run.step()},
                   {"loss_history_steps", run.file.losses.size()},  // the curve the page draws
                   {"timeline", d["timeline"]},                     // the steps of its snapshots
                   {"parameters", d["parameters"]},
                   {"groups", groups},
                   {"metadata", run.file.metadata},
                   {"optimizer_state", !run.file.optimizer_state.empty()}});
  return 0;
}

}  // namespace

const Command info_subcommand{"info", "what a checkpoint holds: config, metadata, parameters", info_options,
                              info_command};

}  // namespace tf::cli
