// masked_fill: where a (broadcast) mask is nonzero the value replaces x; those places get no gradient.
#include "autograd/node.hpp"
#include "ops/layout.hpp"
#include "ops/ops.hpp"
#include "util/error.hpp"

namespace tf {

namespace {
Tensor fill_where(const Tensor& x, const Tensor& mask, float value) {
  TF_CHECK(broadcast_shape(x.shape(), mask.shape()) == x.shape(), "masked_fill: mask ", mask.shape().str(),
           " does not broadcast to ", x.shape().str());
  Tensor y = Tensor::empty(x.shape(), x.device());
  Dims4 d = dims4(x.shape());
  if (y.numel() > 0)
    backend_of(x).masked_fill(x.data(), mask.data(), broadcast_strides(mask.shape(), d), value, y.data(), d);
  return y;
}
}  // namespace

Tensor masked_fill(const Tensor& x, const Tensor& mask, float value) {
  Tensor y = fill_where(x, mask, value);
  Tensor sm = mask.detach();
  record(y, "masked_fill", {x},
         [sm](const Tensor& g) -> std::vector<Tensor> { return {fill_where(g, sm, 0.f)}; });
  return y;
}

Tensor causal_mask(int64_t T, Device device) {
  std::vector<float> m(static_cast<size_t>(T * T), 0.f);
  for (int64_t i = 0; i < T; ++i)
    for (int64_t j = i + 1; j < T; ++j) m[static_cast<size_t>(i * T + j)] = 1.f;
  return Tensor::from_vector(m, Shape{T, T}, device);
}

}  // namespace tf
