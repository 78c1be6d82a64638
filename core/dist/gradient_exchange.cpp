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

void GradientExchange::sum(const std::vector<std::pair<std::string, Tensor>>& params, const Tensor& loss) {
  std::vector<Tensor> parts;
  int64_t n = 0;
  for (const auto& named : params)
    if (Tensor g = named.second.grad(); g.defined()) {
      parts.push_back(g);
      n += g.numel();
    }
  parts.push_back(loss);
  n += loss.numel();
  if (!flat_.defined() || flat_.numel() != n) flat_ = Tensor::empty(Shape{n}, loss.device());
  copy_between(parts, flat_, true);
  ranks_->sum(flat_.data(), static_cast<size_t>(n), loss.device());
  copy_between(parts, flat_, false);
}

}  // namespace tf
