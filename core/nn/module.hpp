// Module: a piece of a network that owns named parameters and child modules, like nn.Module. Names are
// dotted paths ("blocks.0.attention.qkv.weight"); checkpoints and the parameter tables use them.
#pragma once
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "tensor/tensor.hpp"

namespace tf {

class Module {
 public:
  Module() = default;
  virtual ~Module() = default;
  Module(const Module&) = delete;
  Module& operator=(const Module&) = delete;

  // Every parameter below this module with its dotted name, in registration order.
  std::vector<std::pair<std::string, Tensor>> named_parameters() const;
  std::vector<Tensor> parameters() const;
  int64_t parameter_count() const;
  // The parameter with this dotted name; throws when there is none.
  Tensor parameter(const std::string& name) const;
  void zero_grad() const;
  // Moves every parameter's numbers to the device (all references to the parameters follow).
  void to(Device device) const;
  Device device() const;

 protected:
  // Registers a parameter (it gets requires_grad and its name) and returns it.
  Tensor register_parameter(const std::string& name, Tensor t);
  // Registers a child whose lifetime the subclass manages (a member or a unique_ptr it holds).
  void register_module(const std::string& name, Module& child);

 private:
  void collect(const std::string& prefix, std::vector<std::pair<std::string, Tensor>>& out) const;
  std::vector<std::pair<std::string, Tensor>> params_;
  std::vector<std::pair<std::string, Module*>> children_;
};

}  // namespace tf
