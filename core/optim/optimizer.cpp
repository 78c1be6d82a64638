// The shared half of every optimizer: which parameters step, per-parameter step counts, state slots kept on
// the parameter's device (moved along when the model moves), and the named state for checkpoints (counts as
// int64; float32 counts from older files are still read).
#include "optim/optimizer.hpp"

#include <cmath>
#include <map>
#include <set>

#include "util/error.hpp"

namespace tf {

namespace {

constexpr const char* kStepsName = "optim.steps";
std::string param_steps_name(const std::string& param) { return "optim.step." + param; }
std::string slot_name(const std::string& slot, const std::string& param) {
  return "optim." + slot + "." + param;
}

// A count as files from before int64 counts store it: a float32 tensor of one number. Their writer refused
// counts past 2^24, so a larger or fractional value is not a count.
int64_t read_float_count(const std::string& name, const Tensor& t) {
  constexpr float kMaxExactCount = 16777216.f;  // 2^24: float32 holds every integer up to here
  TF_CHECK(t.numel() == 1, "optimizer state '", name, "' should hold one number, has shape ",
           t.shape().str());
  float v = t.item();
  TF_CHECK(v >= 0 && v <= kMaxExactCount && v == std::floor(v), "optimizer state '", name,
           "' should be a step count, got ", v);
  return static_cast<int64_t>(v);
}

// The names a state may hold for these parameters and slots.
struct StateNames {
  std::set<std::string> counts, slots;
};

StateNames state_names(const NamedTensors& params, const std::vector<std::string>& slot_names) {
  StateNames names;
  names.counts.insert(kStepsName);
  for (const auto& [name, p] : params) {
    names.counts.insert(param_steps_name(name));
    for (const std::string& slot : slot_names) names.slots.insert(slot_name(slot, name));
  }
  return names;
}

// A given state's entries by name, each checked against the known names; float counts become counts.
struct GivenState {
  std::map<std::string, int64_t> counts;
  std::map<std::string, Tensor> slots;
};

GivenState sort_entries(const OptimizerState& state, const StateNames& names) {
  GivenState given;
  auto check_known = [&](const std::string& name) {
    TF_CHECK(names.counts.count(name) || names.slots.count(name),
             "optimizer state has an entry this optimizer does not know: '", name,
             "' (is the state from another optimizer or model?)");
  };
  auto add_count = [&](const std::string& name, int64_t n) {
    TF_CHECK(n >= 0, "optimizer state '", name, "' should be a step count, got ", n);
    TF_CHECK(given.counts.emplace(name, n).second, "optimizer state '", name, "' appears twice");
  };
  for (const auto& [name, n] : state.counts) {
    check_known(name);
    TF_CHECK(names.counts.count(name), "optimizer state '", name, "' is a tensor, not a step count");
    add_count(name, n);
  }
  for (const auto& [name, t] : state.slots) {
    check_known(name);
    TF_CHECK(t.defined(), "optimizer state '", name, "' is an undefined tensor");
    if (names.counts.count(name))
      add_count(name, read_float_count(name, t));
    else
      TF_CHECK(given.slots.emplace(name, t).second, "optimizer state '", name, "' appears twice");
  }
  return given;
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
  slab_ = FlatSlab::make(params_);
  flat_slots_.resize(slot_names_.size());
}

void Optimizer::set_lr(float lr) {
  TF_CHECK(std::isfinite(lr) && lr >= 0.f, "learning rate must be finite and >= 0, got ", lr);
  lr_ = lr;
}

std::vector<bool> Optimizer::apply_gradients(const float* guard) {
  if (flat_step_possible()) return flat_step(guard, 0, slab_->numel());
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
  if (slab_ && slab_->intact()) return slab_->zero_grads();
  for (const auto& [name, p] : params_) p.set_grad(Tensor());
}

std::vector<Tensor> Optimizer::gradients() const {
  if (slab_ && slab_->intact()) return {slab_->grads()};
  std::vector<Tensor> grads;
  for (const auto& [name, p] : params_)
    if (p.grad().defined()) grads.push_back(p.grad());
  return grads;
}

// Every parameter has its gradient in the slab and the same step count, and each state slot exists for
// all of them or for none.
bool Optimizer::flat_step_possible() const {
  if (!slab_ || !slab_->intact()) return false;
  for (size_t i = 0; i < params_.size(); ++i) {
    if (!params_[i].second.grad().defined() || param_steps_[i] != param_steps_[0]) return false;
    for (size_t j = 0; j < slot_names_.size(); ++j)
      if (slots_[i][j].defined() != slots_[0][j].defined()) return false;
  }
  return true;
}

void Optimizer::gather_slot(size_t j) {
  Tensor& flat = flat_slots_[j];
  if (!slots_[0][j].defined()) {
    flat = Tensor();
    return;
  }
  if (!flat.defined()) flat = slab_->new_slab();
  for (size_t i = 0; i < params_.size(); ++i) {
    if (slab_->is_view(slots_[i][j], flat, i)) continue;
    Tensor view = slab_->view(flat, i);
    view.copy_from(slots_[i][j]);  // a loaded state, or one stepped per parameter
    slots_[i][j] = view;
  }
}

bool Optimizer::can_step_part() const {
  if (!flat_step_possible()) return false;
  for (size_t j = 0; j < slot_names_.size(); ++j)
    if (!slots_[0][j].defined()) return false;
  return true;
}

std::vector<bool> Optimizer::apply_gradients(const float* guard, int64_t begin, int64_t end) {
  TF_CHECK(can_step_part() && 0 <= begin && begin <= end && end <= slab_->numel(),
           "this optimizer cannot step the part [", begin, ", ", end, ") of its slabs alone");
  return flat_step(guard, begin, end);
}

std::vector<Tensor> Optimizer::state_slabs() const {
  std::vector<Tensor> slabs;
  for (const Tensor& s : flat_slots_)
    if (s.defined()) slabs.push_back(s);
  return slabs;
}

// One update over the slabs (or their numbers [begin, end)): the same numbers as one per parameter (the
// kernels work element by element).
std::vector<bool> Optimizer::flat_step(const float* guard, int64_t begin, int64_t end) {
  for (size_t j = 0; j < slot_names_.size(); ++j) gather_slot(j);
  int64_t step = param_steps_[0] + 1;
  if (begin == 0 && end == slab_->numel()) {
    update(slab_->params(), slab_->grads(), flat_slots_, step, guard);  // may make the state slabs
  } else {
    std::vector<Tensor> slots;
    for (const Tensor& s : flat_slots_) slots.push_back(FlatSlab::range(s, begin, end));
    update(FlatSlab::range(slab_->params(), begin, end), FlatSlab::range(slab_->grads(), begin, end), slots,
           step, guard);
  }
  for (size_t j = 0; j < slot_names_.size(); ++j)
    for (size_t i = 0; flat_slots_[j].defined() && i < params_.size(); ++i)
      if (!slab_->is_view(slots_[i][j], flat_slots_[j], i)) slots_[i][j] = slab_->view(flat_slots_[j], i);
  param_steps_.assign(params_.size(), step);
  ++steps_;
  return std::vector<bool>(params_.size(), true);
}

OptimizerState Optimizer::state() const {
  OptimizerState out;
  out.counts.emplace_back(kStepsName, steps_);
  for (size_t i = 0; i < params_.size(); ++i) {
    const std::string& name = params_[i].first;
    out.counts.emplace_back(param_steps_name(name), param_steps_[i]);
    for (size_t j = 0; j < slot_names_.size(); ++j)
      if (slots_[i][j].defined()) out.slots.emplace_back(slot_name(slot_names_[j], name), slots_[i][j]);
  }
  return out;
}

void Optimizer::load_state(const OptimizerState& state) {
  GivenState given = sort_entries(state, state_names(params_, slot_names_));
  auto count = [&](const std::string& name) {
    auto it = given.counts.find(name);
    TF_CHECK(it != given.counts.end(), "optimizer state has no '", name, "' entry");
    return it->second;
  };
  int64_t steps = count(kStepsName);
  std::vector<int64_t> param_steps(params_.size());
  std::vector<std::vector<Tensor>> slots(params_.size(), std::vector<Tensor>(slot_names_.size()));
  for (size_t i = 0; i < params_.size(); ++i) {
    const auto& [name, p] = params_[i];
    param_steps[i] = count(param_steps_name(name));
    for (size_t j = 0; j < slot_names_.size(); ++j) {
      std::string key = slot_name(slot_names_[j], name);
      auto it = given.slots.find(key);
      if (it == given.slots.end()) {
        TF_CHECK(!slot_required(param_steps[i]), "optimizer state has no '", key, "' entry");
        continue;
      }
      const Tensor& t = it->second;
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
