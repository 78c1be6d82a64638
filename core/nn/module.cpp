#include "nn/module.hpp"

#include "util/error.hpp"

namespace tf {

Tensor Module::register_parameter(const std::string& name, Tensor t) {
  t.set_requires_grad(true);
  t.set_name(name);
  params_.emplace_back(name, t);
  return t;
}

void Module::register_module(const std::string& name, Module& child) { children_.emplace_back(name, &child); }

void Module::collect(const std::string& prefix, std::vector<std::pair<std::string, Tensor>>& out) const {
  for (const auto& [name, t] : params_) {
    Tensor named = t;
    named.set_name(prefix + name);
    out.emplace_back(prefix + name, named);
  }
  for (const auto& [name, child] : children_) child->collect(prefix + name + ".", out);
}

std::vector<std::pair<std::string, Tensor>> Module::named_parameters() const {
  std::vector<std::pair<std::string, Tensor>> out;
  collect("", out);
  return out;
}

std::vector<Tensor> Module::parameters() const {
  std::vector<Tensor> out;
  for (auto& [name, t] : named_parameters()) out.push_back(t);
  return out;
}

int64_t Module::parameter_count() const {
  int64_t n = 0;
  for (auto& [name, t] : named_parameters()) n += t.numel();
  return n;
}

Tensor Module::parameter(const std::string& name) const {
  for (auto& [n, t] : named_parameters())
    if (n == name) return t;
  fail("no parameter named '", name, "'");
}

void Module::zero_grad() const {
  for (auto& [name, t] : named_parameters()) t.set_grad(Tensor());
}

void Module::to(Device device) const {
  for (auto& [name, t] : named_parameters()) {
    if (t.device() == device) continue;
    Tensor moved = t.to(device);
    t.impl()->storage = moved.impl()->storage;
    t.impl()->offset = moved.impl()->offset;
    t.set_grad(Tensor());
  }
}

Device Module::device() const {
  auto params = named_parameters();
  return params.empty() ? Device::CPU : params.front().second.device();
}

}  // namespace tf
