// Where the parameters are (course B5, A8, A9, D7): a row per parameter, totals per kind of piece, the
// share of attention / FFN / LayerNorm inside one block, and the 12 * L * d^2 estimate of a GPT's blocks.
#pragma once
#include <string>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "nn/model_config.hpp"
#include "nn/module.hpp"

namespace tf {

struct ParameterRow {
  std::string name, shape, group;  // group: embedding, attention, ffn, layernorm or output
  int64_t count;
};

std::vector<ParameterRow> parameter_table(const ParameterShapes& shapes);
std::vector<ParameterRow> parameter_table(const std::vector<std::pair<std::string, Tensor>>& params);
inline std::vector<ParameterRow> parameter_table(const Module& model) {
  return parameter_table(model.named_parameters());
}
// What `info` prints and the page shows: {"rows": [{name, shape, group, count}], "groups": [{group,
// count}], "total": count}, from a model's parameters or a checkpoint's tensors alike, or from a model
// config's shapes before anything is built (B5 counts MyTransformer(2002) without a task to train it on).
nlohmann::json parameter_table_json(const std::vector<ParameterRow>& rows);
inline nlohmann::json parameter_table_json(const std::vector<std::pair<std::string, Tensor>>& params) {
  return parameter_table_json(parameter_table(params));
}
// Totals per group, in first-seen order.
std::vector<std::pair<std::string, int64_t>> parameter_groups(const std::vector<ParameterRow>& rows);
std::string parameter_group(const std::string& name);

// 12 * layers * d^2: attention (4 d^2) plus a 4x FFN (8 d^2) per block, biases and norms ignored.
double block_parameter_estimate(int64_t layers, int64_t d);

}  // namespace tf
