// Global-norm clipping over backend kernels: each gradient's sum of squares lands in one small tensor on the
// gradients' device, and step_guard adds them in double and works out the clip factor in float as torch
// does, still on the device. The training step stops there; clip_grad_norm and grad_norm read the row back.
#include "optim/clip_grad.hpp"

#include <algorithm>
#include <limits>

#include "backend/backend.hpp"
#include "util/error.hpp"

namespace tf {

namespace {

std::vector<Tensor> grads_of(const std::vector<Tensor>& params) {
  std::vector<Tensor> grads;
  for (const Tensor& p : params)
    if (p.defined() && p.grad().defined()) grads.push_back(p.grad());
  return grads;
}

std::vector<Tensor> tensors_of(const NamedTensors& params) {
  std::vector<Tensor> tensors;
  tensors.reserve(params.size());
  for (const auto& [name, p] : params) tensors.push_back(p);
  return tensors;
}

// Every gradient's sum of squares and then the step-log row, on `device` (where every gradient must be).
void write_guard(const std::vector<Tensor>& grads, Device device, const Tensor& loss, float report_scale,
                 float max_norm, float* row, const SumOverRanks& sum_over_ranks = nullptr) {
  Backend& be = backend_for(device);
  int64_t n = static_cast<int64_t>(grads.size());
  Tensor squares = Tensor::empty(Shape{std::max<int64_t>(n, 1) + 1}, device);  // [grads, the loss]
  for (int64_t i = 0; i < n; ++i) {
    const Tensor& g = grads[static_cast<size_t>(i)];
    TF_CHECK(g.device() == device, "the gradient norm needs every gradient on one device; found ",
             device_name(g.device()), " and ", device_name(device));
    be.sum_squares(g.data(), static_cast<size_t>(g.numel()), squares.data() + i);
  }
  const float* loss_at = loss.data();
  if (sum_over_ranks) {
    be.copy(squares.data() + n, loss.data(), sizeof(float));
    sum_over_ranks(squares);
    loss_at = squares.data() + n;
  }
  be.step_guard(squares.data(), static_cast<size_t>(n), loss_at, report_scale, max_norm, row);
}

// The guard row of gradients with no loss (a zero one), read back to the host.
std::vector<float> read_guard(const std::vector<Tensor>& grads, float max_norm) {
  Device device = grads.empty() ? Device::CPU : grads.front().device();
  Tensor row = Tensor::empty(Shape{kStepLogWidth}, device);
  write_guard(grads, device, Tensor::zeros(Shape{1}, device), 1.f, max_norm, row.data());
  return row.to_vector();
}

}  // namespace

void guard_step(const std::vector<Tensor>& grads, const Tensor& loss, float report_scale, float max_norm,
                float* row, const SumOverRanks& sum_over_ranks) {
  write_guard(grads, loss.device(), loss, report_scale, max_norm, row, sum_over_ranks);
}

float clip_grad_norm(const std::vector<Tensor>& params, float max_norm) {
  TF_CHECK(max_norm >= 0.f, "clip_grad_norm: max_norm must be >= 0, got ", max_norm);
  std::vector<Tensor> grads = grads_of(params);
  std::vector<float> row = read_guard(grads, max_norm);
  float coef = row[kStepCoef];
  if (row[kStepKeep] != 0.f && coef != 1.f) {
    for (const Tensor& g : grads)
      backend_for(g.device()).scale(g.data(), coef, g.data(), static_cast<size_t>(g.numel()));
  }
  return row[kStepNorm];
}

float clip_grad_norm(const NamedTensors& params, float max_norm) {
  return clip_grad_norm(tensors_of(params), max_norm);
}

float grad_norm(const NamedTensors& params) {
  return read_guard(grads_of(tensors_of(params)), std::numeric_limits<float>::infinity())[kStepNorm];
}

}  // namespace tf
