// tinyformer info: what a checkpoint holds — its config, training step, metadata and a table of its
// parameters with their shapes, grouped into the pieces the course counts (embeddings, attention, FFN,
// LayerNorm, output). The table is for people (control characters from the file escaped); the last line,
// or with --json the only line, is one JSON object.
#include <cstdio>
#include <map>

#include "args.hpp"
#include "commands.hpp"
#include "common.hpp"
#include "interp/parameter_table.hpp"
#include "io/model_loader.hpp"
#include "printable.hpp"
#include "util/error.hpp"

namespace tf::cli {

namespace {

// The table a person reads. Every string from the file goes through printable(): it may hold escapes.
void print_table(const std::string& path, const Checkpoint& ck, const std::vector<ParameterRow>& rows,
                 int64_t total) {
  std::printf("%s\n", printable(path).c_str());
  std::printf("  config  %s\n  step    %lld\n  vocab   %zu tokens\n", printable(ck.config_json).c_str(),
              static_cast<long long>(ck.step), ck.vocab.size());
  for (const auto& [k, v] : ck.metadata)
    std::printf("  %-24s %s\n", printable(k).c_str(), printable(v).c_str());
  std::printf("\n  %-44s %-16s %12s\n", "parameter", "shape", "count");
  for (const ParameterRow& r : rows)
    std::printf("  %-44s %-16s %12lld\n", printable(r.name).c_str(), r.shape.c_str(),
                static_cast<long long>(r.count));
  std::printf("\n  total %lld parameters\n", static_cast<long long>(total));
}

}  // namespace

void info_options(OptionTable& o) {
  o.text("checkpoint", "FILE", "the checkpoint (or any Tinyformer safetensors file)", std::nullopt, true);
  o.flag("json", "print only the JSON summary (with the metadata) on stdout");
}

int info_command(const Args& a) {
  Checkpoint ck = load_checkpoint(a.str("checkpoint"));
  std::unique_ptr<Model> model = load_model(ck);
  std::vector<ParameterRow> rows = parameter_table(model->module());
  if (!a.flag("json")) print_table(a.str("checkpoint"), ck, rows, model->module().parameter_count());
  nlohmann::json groups = nlohmann::json::object();
  for (const auto& [group, n] : parameter_groups(rows)) groups[group] = n;
  print_json_line({{"config", nlohmann::json::parse(ck.config_json)},
                   {"step", ck.step},
                   {"parameters", model->module().parameter_count()},
                   {"groups", groups},
                   {"metadata", ck.metadata},
                   {"optimizer_state", !ck.optimizer_state.empty()}});
  return 0;
}

}  // namespace tf::cli
