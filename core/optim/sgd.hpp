// Stochastic gradient descent with momentum and L2 weight decay, PyTorch 1.13's torch.optim.SGD (no
// dampening, no Nesterov): g += wd * p; buf = g on its first step, else momentum * buf + g; p -= lr * buf.
#pragma once
#include "optim/optimizer.hpp"

namespace tf {

class Sgd : public Optimizer {
 public:
  explicit Sgd(NamedTensors params, float lr = 1e-2f, float momentum = 0.f, float weight_decay = 0.f);

  float momentum() const { return momentum_; }
  float beta1() const override { return momentum_; }
  void set_beta1(float momentum) override;  // sets the momentum, as OneCycleLR does for SGD

 protected:
  void update(const Tensor& param, const Tensor& grad, std::vector<Tensor>& slots, int64_t param_step,
              const float* guard) override;
  // The momentum buffer exists only once a step ran with momentum, so a state may lack it.
  bool slot_required(int64_t) const override { return false; }

 private:
  float momentum_, weight_decay_;
};

}  // namespace tf
