// Adam (L2 weight decay added to the gradient) and AdamW (decoupled decay: p *= 1 - lr * wd first), PyTorch
// 1.13's single-tensor formulas. The bias corrections 1 - beta^t use the current beta1, so a schedule that
// cycles beta1 (OneCycleLR) gives torch's numbers; t counts the steps that reached the parameter.
#pragma once
#include "optim/optimizer.hpp"

namespace tf {

class Adam : public Optimizer {
 public:
  explicit Adam(NamedTensors params, float lr = 1e-3f, float beta1 = 0.9f, float beta2 = 0.999f,
                float eps = 1e-8f, float weight_decay = 0.f);

  float beta1() const override { return beta1_; }
  void set_beta1(float beta1) override;
  float beta2() const { return beta2_; }
  float eps() const { return eps_; }
  float weight_decay() const { return weight_decay_; }

 protected:
  Adam(NamedTensors params, float lr, float beta1, float beta2, float eps, float weight_decay,
       bool decoupled);
  void update(const Tensor& param, const Tensor& grad, std::vector<Tensor>& slots, int64_t param_step,
              const float* guard) override;
  bool slot_required(int64_t param_steps) const override { return param_steps > 0; }

 private:
  float beta1_ = 0.9f, beta2_, eps_, weight_decay_;
  bool decoupled_;
};

class AdamW : public Adam {
 public:
  explicit AdamW(NamedTensors params, float lr = 1e-3f, float beta1 = 0.9f, float beta2 = 0.999f,
                 float eps = 1e-8f, float weight_decay = 1e-2f);
};

}  // namespace tf
