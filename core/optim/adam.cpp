// Adam's and AdamW's update: one backend kernel call per parameter with the bias corrections worked out here
// in double (as torch does in Python). State slots: "exp_avg" and "exp_avg_sq", zero before the first step.
#include "optim/adam.hpp"

#include <cmath>

#include "backend/backend.hpp"
#include "util/error.hpp"

namespace tf {

namespace {
void check_beta(const char* which, float b) {
  TF_CHECK(b >= 0.f && b < 1.f, "Adam ", which, " must be in [0, 1), got ", b);
}
}  // namespace

Adam::Adam(NamedTensors params, float lr, float beta1, float beta2, float eps, float weight_decay)
    : Adam(std::move(params), lr, beta1, beta2, eps, weight_decay, false) {}

Adam::Adam(NamedTensors params, float lr, float beta1, float beta2, float eps, float weight_decay,
           bool decoupled)
    : Optimizer(std::move(params), lr, {"exp_avg", "exp_avg_sq"}),
      beta2_(beta2),
      eps_(eps),
      weight_decay_(weight_decay),
      decoupled_(decoupled) {
  set_beta1(beta1);
  check_beta("beta2", beta2);
  TF_CHECK(std::isfinite(eps) && eps >= 0.f, "Adam eps must be >= 0, got ", eps);
  TF_CHECK(std::isfinite(weight_decay) && weight_decay >= 0.f, "Adam weight decay must be >= 0, got ",
           weight_decay);
}

void Adam::set_beta1(float beta1) {
  check_beta("beta1", beta1);
  beta1_ = beta1;
}

void Adam::update(const Tensor& param, const Tensor& grad, std::vector<Tensor>& slots, int64_t param_step,
                  const float* guard) {
  for (Tensor& s : slots)
    if (!s.defined()) s = Tensor::zeros(param.shape(), param.device());
  AdamArgs a;
  a.lr = lr();
  a.beta1 = beta1_;
  a.beta2 = beta2_;
  a.eps = eps_;
  a.weight_decay = weight_decay_;
  a.decoupled = decoupled_;
  a.guard = guard;
  double t = static_cast<double>(param_step);
  a.bias_correction1 = static_cast<float>(1.0 - std::pow(static_cast<double>(beta1_), t));
  a.bias_correction2 = static_cast<float>(1.0 - std::pow(static_cast<double>(beta2_), t));
  backend_for(param.device())
      .adam_step(param.data(), grad.data(), slots[0].data(), slots[1].data(),
                 static_cast<size_t>(param.numel()), a);
}

AdamW::AdamW(NamedTensors params, float lr, float beta1, float beta2, float eps, float weight_decay)
    : Adam(std::move(params), lr, beta1, beta2, eps, weight_decay, true) {}

}  // namespace tf
