#include "interp/parameter_table.hpp"

#include <algorithm>

namespace tf {

namespace {
bool has(const std::string& s, const char* part) { return s.find(part) != std::string::npos; }
bool starts(const std::string& s, const char* prefix) { return s.rfind(prefix, 0) == 0; }
}  // namespace

std::string parameter_group(const std::string& name) {
  if (has(name, "attention.") || has(name, "attn.")) return "attention";
  if (has(name, "mlp.") || has(name, "ffn.")) return "ffn";
  if (has(name, "norm") || has(name, "ln")) return "layernorm";
  if (starts(name, "out.")) return "output";
  return "embedding";
}

std::vector<ParameterRow> parameter_table(const ParameterShapes& shapes) {
  std::vector<ParameterRow> rows;
  for (const auto& [name, dims] : shapes) {
    Shape shape(dims);
    rows.push_back({name, shape.str(), parameter_group(name), shape.numel()});
  }
  return rows;
}

std::vector<ParameterRow> parameter_table(const std::vector<std::pair<std::string, Tensor>>& params) {
  ParameterShapes shapes;
  for (const auto& [name, t] : params) shapes.emplace_back(name, t.shape().dims());
  return parameter_table(shapes);
}

std::vector<std::pair<std::string, int64_t>> parameter_groups(const std::vector<ParameterRow>& rows) {
  std::vector<std::pair<std::string, int64_t>> out;
  for (const ParameterRow& r : rows) {
    auto it = std::find_if(out.begin(), out.end(), [&](const auto& g) { return g.first == r.group; });
    if (it == out.end())
      out.emplace_back(r.group, r.count);
    else
      it->second += r.count;
  }
  return out;
}

nlohmann::json parameter_table_json(const std::vector<ParameterRow>& rows) {
  nlohmann::json table = nlohmann::json::array(), groups = nlohmann::json::array();
  int64_t total = 0;
  for (const ParameterRow& r : rows) {
    table.push_back({{"name", r.name}, {"shape", r.shape}, {"group", r.group}, {"count", r.count}});
    total += r.count;
  }
  for (const auto& [g, n] : parameter_groups(rows)) groups.push_back({{"group", g}, {"count", n}});
  return {{"rows", table}, {"groups", groups}, {"total", total}};
}

double block_parameter_estimate(int64_t layers, int64_t d) {
  return 12.0 * static_cast<double>(layers) * static_cast<double>(d) * static_cast<double>(d);
}

}  // namespace tf
