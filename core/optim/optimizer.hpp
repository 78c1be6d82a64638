// Optimizer: the base of Sgd, Adam and AdamW. It owns the named parameters, skips those without a gradient
// (as PyTorch does), keeps per-parameter state tensors on the parameter's device, and exports that state
// under stable names for checkpoints. Each update calls the backend kernel of the parameter's device, so the
// same optimizer runs on CPU and CUDA. Step counts are exported as int64 (optim/optimizer_state.hpp).
// A training step passes its step-log row as a guard: the kernels then decide on the device whether the
// update happens, and the counts advance regardless until the trainer reads the log and uncounts a skip.
// The parameters, gradients and state live in flat slabs (optim/flat_slab.hpp) where they can: a step in
// which every parameter has a gradient and the same step count is one kernel call over the slabs.
#pragma once
#include <cstdint>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "optim/flat_slab.hpp"
#include "optim/optimizer_state.hpp"
#include "tensor/tensor.hpp"

namespace tf {

class Optimizer {
 public:
  virtual ~Optimizer() = default;
  Optimizer(const Optimizer&) = delete;
  Optimizer& operator=(const Optimizer&) = delete;

  // Updates every parameter that has a gradient; a parameter whose grad is undefined is left as it is.
  // guard: an optional step-log row in device memory (backend/kernels.hpp): no update where its keep flag
  // is 0, gradients times its clip factor otherwise. Returns which parameters were stepped (and counted).
  std::vector<bool> apply_gradients(const float* guard = nullptr);
  // Takes back the counts of a step whose guard turned out to skip it (`stepped`: apply_gradients' result).
  void uncount_step(const std::vector<bool>& stepped);
  // Drops the gradients (sets them to undefined, like PyTorch's zero_grad(set_to_none=True)).
  void zero_grad();
  // The gradients as buffers: the flat gradient slab alone where every parameter's gradient is in it
  // (the parameters without one hold zeros there; so does the padding between them), else each defined
  // gradient. A data-parallel step can sum the one buffer across processes before the gradient norm.
  std::vector<Tensor> gradients() const;
  // The slabs, when the parameters could share them (null otherwise).
  const FlatSlab* slab() const { return slab_.get(); }
  // The optimizer's work split over data-parallel ranks: whether a step can update the slabs' numbers
  // [begin, end) alone (a flat step with the state made), that update, and the state slabs it updates.
  bool can_step_part() const;
  std::vector<bool> apply_gradients(const float* guard, int64_t begin, int64_t end);
  std::vector<Tensor> state_slabs() const;

  float lr() const { return lr_; }
  void set_lr(float lr);
  // The first-moment coefficient that a one-cycle schedule cycles: Adam's beta1, SGD's momentum (as
  // torch's OneCycleLR does for each).
  virtual float beta1() const = 0;
  virtual void set_beta1(float beta1) = 0;
  int64_t steps() const { return steps_; }  // calls of apply_gradients() so far
  const NamedTensors& params() const { return params_; }

  // The state for a checkpoint. counts: "optim.steps", then per parameter "optim.step.<name>" (the steps that
  // reached it). slots: "optim.<slot>.<name>" (e.g. "optim.exp_avg.blocks.0.mlp.weight", the parameter's
  // shape, the live tensor on the parameter's device).
  OptimizerState state() const;
  // Replaces the state with an exported one (copied onto the parameters' devices). Throws tf::Error naming
  // the entry when a name is unknown, a shape differs, a count is negative, or a required entry is missing.
  // A count may also come as a float32 tensor of one number among the slots, as files written before counts
  // were int64 hold it.
  void load_state(const OptimizerState& state);

 protected:
  Optimizer(NamedTensors params, float lr, std::vector<std::string> slot_names);
  // One parameter's update. slots[i] (undefined until created) is this parameter's slot_names[i] state;
  // param_step counts the steps that reached this parameter, this one included.
  virtual void update(const Tensor& param, const Tensor& grad, std::vector<Tensor>& slots, int64_t param_step,
                      const float* guard) = 0;
  // Whether a loaded state must hold this slot for a parameter that has taken param_steps steps.
  virtual bool slot_required(int64_t param_steps) const = 0;

 private:
  NamedTensors params_;
  std::vector<std::string> slot_names_;
  std::vector<std::vector<Tensor>> slots_;  // [param][slot]
  std::vector<int64_t> param_steps_;        // [param]
  float lr_;
  int64_t steps_ = 0;
  std::unique_ptr<FlatSlab> slab_;
  std::vector<Tensor> flat_slots_;  // [slot]: the state slabs (undefined until a flat step makes them)

  bool flat_step_possible() const;
  std::vector<bool> flat_step(const float* guard, int64_t begin, int64_t end);
  void gather_slot(size_t j);  // every parameter's slot j into flat_slots_[j], as views of it
};

}  // namespace tf
