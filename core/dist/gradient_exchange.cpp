#include "dist/gradient_exchange.hpp"

#include "backend/backend.hpp"

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

}  // namespace tf
