// The shared half of every optimizer: which parameters step, per-parameter step counts, state slots kept on
// the parameter's device (moved along when the model moves), and the named state for checkpoints.
#include "optim/optimizer.hpp"

#include <cmath>
#include <map>
#include <set>

#include "util/error.hpp"

namespace tf {

namespace {

constexpr int64_t kMaxExactCount = int64_t{1} << 24;  // float32 holds every integer up to here

Tensor count_tensor(const std::string& name, int64_t n) {
  TF_CHECK(n <= kMaxExactCount, "optimizer state '", name, "': ", n, " steps do not fit a float32 exactly");
  return Tensor::from_vector({static_cast<float>(n)}, Shape{1});
}

int64_t read_count(const std::string& name, const Tensor& t) {
  TF_CHECK(t.numel() == 1, "optimizer state '", name, "' should hold one number, has shape ",
           t.shape().str());
  float v = t.item();
  TF_CHECK(v >= 0 && v <= static_cast<float>(kMaxExactCount) && v == std::floor(v), "optimizer state '", name,
           "' should be a step count, got ", v);
  return static_cast<int64_t>(v);
}

// A copy of t on the device, never sharing the caller's numbers.
Tensor copy_onto(const Tensor& t, Device device) {
  Tensor out = Tensor::empty(t.shape(), device);
  out.copy_from(t.to(device));
  return out;
}

}  // namespace

Optimizer::Optimizer(NamedTensors params, float lr, std::vector<std::string> slot_names)
    : params_(std::move(params)), slot_names_(std::move(slot_names)), lr_(0.f) {
  TF_CHECK(!params_.empty(), "an optimizer needs at least one parameter");
  std::set<std::string> seen;
  for (const auto& [name, p] : params_) {
    TF_CHECK(p.defined(), "optimizer parameter '", name, "' is an undefined tensor");
    TF_CHECK(seen.insert(name).second, "optimizer parameter name '", name, "' appears twice");
  }
  slots_.assign(params_.size(), std::vector<Tensor>(slot_names_.size()));
  param_steps_.assign(params_.size(), 0);
  set_lr(lr);
}

void Optimizer::set_lr(float lr) {
  TF_CHECK(std::isfinite(lr) && lr >= 0.f, "learning rate must be finite and >= 0, got ", lr);
  lr_ = lr;
}

std::vector<bool> Optimizer::step(const float* guard) {
  std::vector<bool> stepped(params_.size(), false);
  for (size_t i = 0; i < params_.size(); ++i) {
    const auto& [name, p] = params_[i];
    Tensor g = p.grad();
    if (!g.defined()) continue;
    TF_CHECK(g.shape() == p.shape() && g.device() == p.device(), "gradient of '", name, "' has shape ",
             g.shape().str(), " on ", device_name(g.device()), ", parameter ", p.shape().str(), " on ",
             device_name(p.device()));
    for (Tensor& s : slots_[i])
      if (s.defined() && s.device() != p.device()) s = s.to(p.device());
    update(p, g, slots_[i], ++param_steps_[i], guard);
    stepped[i] = true;
  }
  ++steps_;
  return stepped;
}

void Optimizer::uncount_step(const std::vector<bool>& stepped) {
  TF_CHECK(stepped.size() == params_.size() && steps_ > 0, "uncount_step: not a step of this optimizer");
  for (size_t i = 0; i < params_.size(); ++i)
    if (stepped[i]) --param_steps_[i];
  --steps_;
}

void Optimizer::zero_grad() {
  for (const auto& [name, p] : params_) p.set_grad(Tensor());
}

NamedTensors Optimizer::state() const {
  NamedTensors out;
  out.emplace_back("optim.steps", count_tensor("optim.steps", steps_));
  for (size_t i = 0; i < params_.size(); ++i) {
    const std::string& name = params_[i].first;
    out.emplace_back("optim.step." + name, count_tensor("optim.step." + name, param_steps_[i]));
    for (size_t j = 0; j < slot_names_.size(); ++j)
      if (slots_[i][j].defined()) out.emplace_back("optim." + slot_names_[j] + "." + name, slots_[i][j]);
  }
  return out;
}

void Optimizer::load_state(const NamedTensors& state) {
  std::set<std::string> known{"optim.steps"};
  for (const auto& [name, p] : params_) {
    known.insert("optim.step." + name);
    for (const std::string& slot : slot_names_) known.insert("optim." + slot + "." + name);
  }
  std::map<std::string, Tensor> given;
  for (const auto& [name, t] : state) {
    TF_CHECK(known.count(name), "optimizer state has an entry this optimizer does not know: '", name,
             "' (is the state from another optimizer or model?)");
    TF_CHECK(t.defined(), "optimizer state '", name, "' is an undefined tensor");
    TF_CHECK(given.emplace(name, t).second, "optimizer state '", name, "' appears twice");
  }
  auto take = [&](const std::string& name) {
    auto it = given.find(name);
    TF_CHECK(it != given.end(), "optimizer state has no '", name, "' entry");
    Tensor t = it->second;
    given.erase(it);
    return t;
  };
  int64_t steps = read_count("optim.steps", take("optim.steps"));
  std::vector<int64_t> param_steps(params_.size());
  std::vector<std::vector<Tensor>> slots(params_.size(), std::vector<Tensor>(slot_names_.size()));
  for (size_t i = 0; i < params_.size(); ++i) {
    const auto& [name, p] = params_[i];
    param_steps[i] = read_count("optim.step." + name, take("optim.step." + name));
    for (size_t j = 0; j < slot_names_.size(); ++j) {
      std::string key = "optim." + slot_names_[j] + "." + name;
      if (!given.count(key) && !slot_required(param_steps[i])) continue;
      Tensor t = take(key);
      TF_CHECK(t.shape() == p.shape(), "optimizer state '", key, "' has shape ", t.shape().str(),
               " but the parameter has shape ", p.shape().str());
      slots[i][j] = copy_onto(t, p.device());
    }
  }
  steps_ = steps;
  param_steps_ = std::move(param_steps);
  slots_ = std::move(slots);
}

}  // namespace tf
