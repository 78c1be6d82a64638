// tinyformer info: what a checkpoint holds — its config, training step, metadata and a table of its
// parameters with their shapes, grouped into the pieces the course counts (embeddings, attention, FFN,
// LayerNorm, output).
#include <cstdio>
#include <map>

#include "args.hpp"
#include "commands.hpp"
#include "common.hpp"
#include "interp/parameter_table.hpp"
#include "io/model_loader.hpp"
#include "util/error.hpp"

namespace tf::cli {

int info_command(const std::vector<std::string>& argv) {
  Args a(argv, {"checkpoint"}, {});
  TF_CHECK(a.has("checkpoint"), "info needs --checkpoint FILE");
  Checkpoint ck = load_checkpoint(a.str("checkpoint"));
  std::unique_ptr<Model> model = load_model(ck);
  std::printf("%s\n", a.str("checkpoint").c_str());
  std::printf("  config  %s\n  step    %lld\n  vocab   %zu tokens\n", ck.config_json.c_str(),
              static_cast<long long>(ck.step), ck.vocab.size());
  for (const auto& [k, v] : ck.metadata) std::printf("  %-24s %s\n", k.c_str(), v.c_str());
  std::printf("\n  %-44s %-16s %12s\n", "parameter", "shape", "count");
  std::vector<ParameterRow> rows = parameter_table(model->module());
  for (const ParameterRow& r : rows)
    std::printf("  %-44s %-16s %12lld\n", r.name.c_str(), r.shape.c_str(), static_cast<long long>(r.count));
  nlohmann::json groups = nlohmann::json::object();
  for (const auto& [group, n] : parameter_groups(rows)) groups[group] = n;
  std::printf("\n  total %lld parameters\n", static_cast<long long>(model->module().parameter_count()));
  print_json_line({{"config", nlohmann::json::parse(ck.config_json)},
                   {"step", ck.step},
                   {"parameters", model->module().parameter_count()},
                   {"groups", groups},
                   {"optimizer_state", !ck.optimizer_state.empty()}});
  return 0;
}

}  // namespace tf::cli
