// SGD's update: one backend kernel call per parameter; the momentum buffer ("momentum_buffer" in the state)
// is created the first time a step runs with momentum, and that step copies the gradient into it.
#include "optim/sgd.hpp"

#include <cmath>

#include "backend/backend.hpp"
#include "util/error.hpp"

namespace tf {

Sgd::Sgd(NamedTensors params, float lr, float momentum, float weight_decay)
    : Optimizer(std::move(params), lr, {"momentum_buffer"}), momentum_(0.f), weight_decay_(weight_decay) {
  set_beta1(momentum);
  TF_CHECK(std::isfinite(weight_decay) && weight_decay >= 0.f, "SGD weight decay must be >= 0, got ",
           weight_decay);
}

void Sgd::set_beta1(float momentum) {
  TF_CHECK(std::isfinite(momentum) && momentum >= 0.f, "SGD momentum must be >= 0, got ", momentum);
  momentum_ = momentum;
}

void Sgd::update(const Tensor& param, const Tensor& grad, std::vector<Tensor>& slots, int64_t,
                 const float* guard) {
  SgdArgs a;
  a.lr = lr();
  a.momentum = momentum_;
  a.weight_decay = weight_decay_;
  a.guard = guard;
  Tensor& buf = slots[0];
  a.first_step = !buf.defined();
  // Zeros, not empty: a guarded first step may turn out skipped, and the next one (not a first step any
  // more) then computes momentum * 0 + g, which is the first step's g.
  if (momentum_ != 0.f && !buf.defined()) buf = Tensor::zeros(param.shape(), param.device());
  float* buf_data = momentum_ != 0.f ? buf.data() : nullptr;
  backend_for(param.device())
      .sgd_step(param.data(), grad.data(), buf_data, static_cast<size_t>(param.numel()), a);
}

}  // namespace tf
