#include "dist/gradient_exchange.hpp"

#include "backend/backend.hpp"
#include "optim/clip_grad.hpp"

namespace tf {

namespace {

// Copies each tensor into `flat` one after the other (to_flat), or back out of it.
void copy_between(const std::vector<Tensor>& parts, const Tensor& flat, bool to_flat) {
  Backend& b = backend_for(flat.device());
  float* at = flat.data();
  for (const Tensor& t : parts) {
    size_t bytes = static_cast<size_t>(t.numel()) * sizeof(float);
    to_flat ? b.copy(at, t.data(), bytes) : b.copy(t.data(), at, bytes);
    at += t.numel();
  }
}

}  // namespace

void GradientExchange::sum(const std::vector<Tensor>& gradients, const Tensor& loss) {
  if (gradients.size() == 1) {  // the optimizer's flat gradient slab: summed where it lies, then the loss
    ranks_->sum(gradients[0].data(), static_cast<size_t>(gradients[0].numel()), loss.device());
    return ranks_->sum(loss.data(), 1, loss.device());
  }
  std::vector<Tensor> parts = gradients;
  parts.push_back(loss);
  int64_t n = 0;
  for (const Tensor& t : parts) n += t.numel();
  if (!flat_.defined() || flat_.numel() != n) flat_ = Tensor::empty(Shape{n}, loss.device());
  copy_between(parts, flat_, true);
  ranks_->sum(flat_.data(), static_cast<size_t>(n), loss.device());
  copy_between(parts, flat_, false);
}

std::vector<bool> GradientExchange::step(Optimizer& optimizer, const Tensor& loss, float report_scale,
                                         float max_norm, float* row) {
  if (!optimizer.can_step_part()) {
    gather_state(optimizer);
    sum(optimizer.gradients(), loss);
    guard_step(optimizer.gradients(), loss, report_scale, max_norm, row);
    return optimizer.apply_gradients(row);
  }
  const FlatSlab& slab = *optimizer.slab();
  Device device = loss.device();
  size_t n = static_cast<size_t>(slab.numel());
  auto [begin, end] = ranks_->part(n);
  ranks_->reduce_scatter(slab.grads().data(), n, device);
  Tensor mine = FlatSlab::range(slab.grads(), static_cast<int64_t>(begin), static_cast<int64_t>(end));
  guard_step({mine}, loss, report_scale, max_norm, row, [&](const Tensor& sums) {
    ranks_->sum(sums.data(), static_cast<size_t>(sums.numel()), device);
  });
  std::vector<bool> stepped =
      optimizer.apply_gradients(row, static_cast<int64_t>(begin), static_cast<int64_t>(end));
  ranks_->all_gather(slab.params().data(), n, device);
  state_scattered_ = true;
  return stepped;
}

void GradientExchange::gather_state(Optimizer& optimizer) {
  if (!state_scattered_) return;
  for (const Tensor& s : optimizer.state_slabs())
    ranks_->all_gather(s.data(), static_cast<size_t>(s.numel()), s.device());
  state_scattered_ = false;
}

}  // namespace tf
