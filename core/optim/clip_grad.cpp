// Global-norm clipping over backend kernels: each gradient's sum of squares lands in one small tensor on its
// device (one read-back per device, no per-tensor sync), the squares are added in double on the host, and the
// clip factor is worked out in float as torch does.
#include "optim/clip_grad.hpp"

#include <cmath>

#include "backend/backend.hpp"
#include "util/error.hpp"

namespace tf {

namespace {

// Sum of squares of every gradient on one device.
double device_sum_squares(const std::vector<Tensor>& grads, Device device) {
  std::vector<const Tensor*> here;
  for (const Tensor& g : grads)
    if (g.device() == device) here.push_back(&g);
  if (here.empty()) return 0.0;
  Tensor partial = Tensor::empty(Shape{static_cast<int64_t>(here.size())}, device);  // [grads on device]
  Backend& be = backend_for(device);
  for (size_t i = 0; i < here.size(); ++i)
    be.sum_squares(here[i]->data(), static_cast<size_t>(here[i]->numel()), partial.data() + i);
  double total = 0.0;
  for (float s : partial.to_vector()) total += s;
  return total;
}

std::vector<Tensor> grads_of(const std::vector<Tensor>& params) {
  std::vector<Tensor> grads;
  for (const Tensor& p : params)
    if (p.defined() && p.grad().defined()) grads.push_back(p.grad());
  return grads;
}

float norm_of(const std::vector<Tensor>& grads) {
  double squares = device_sum_squares(grads, Device::CPU) + device_sum_squares(grads, Device::CUDA);
  return static_cast<float>(std::sqrt(squares));
}

std::vector<Tensor> tensors_of(const NamedTensors& params) {
  std::vector<Tensor> tensors;
  tensors.reserve(params.size());
  for (const auto& [name, p] : params) tensors.push_back(p);
  return tensors;
}

}  // namespace

float clip_grad_norm(const std::vector<Tensor>& params, float max_norm) {
  TF_CHECK(max_norm >= 0.f, "clip_grad_norm: max_norm must be >= 0, got ", max_norm);
  std::vector<Tensor> grads = grads_of(params);
  float total = norm_of(grads);
  float coef = max_norm / (total + 1e-6f);
  if (std::isfinite(total) && coef < 1.f) {
    for (const Tensor& g : grads)
      backend_for(g.device()).scale(g.data(), coef, g.data(), static_cast<size_t>(g.numel()));
  }
  return total;
}

float clip_grad_norm(const NamedTensors& params, float max_norm) {
  return clip_grad_norm(tensors_of(params), max_norm);
}

float grad_norm(const NamedTensors& params) { return norm_of(grads_of(tensors_of(params))); }

}  // namespace tf
