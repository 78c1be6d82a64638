// A figure for the page: named arrays to draw (heatmaps, curves) and named numbers to print.
#pragma once
#include <string>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "tensor/tensor.hpp"

namespace tf {

struct Figure {
  nlohmann::json values = nlohmann::json::object();
  std::vector<std::pair<std::string, Tensor>> arrays;
  void add(const std::string& name, const Tensor& t) { arrays.emplace_back(name, t); }
  const Tensor& array(const std::string& name) const;  // throws when absent
};

}  // namespace tf
