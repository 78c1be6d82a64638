// Sum and mean of all elements, as scalars that stay on the tensor's device.
#include "autograd/node.hpp"
#include "ops/layout.hpp"
#include "ops/ops.hpp"

namespace tf {

Tensor sum(const Tensor& x) {
  Tensor out = x.numel() > 0 ? Tensor::empty(Shape{}, x.device()) : Tensor::zeros(Shape{}, x.device());
  if (x.numel() > 0) backend_of(x).sum(x.data(), count(x), out.data());
  Shape s = x.shape();
  record(out, "sum", {x}, [s](const Tensor& g) -> std::vector<Tensor> { return {expand_scalar(g, s)}; });
  return out;
}

Tensor mean(const Tensor& x) {
  return scale(sum(x), x.numel() > 0 ? 1.f / static_cast<float>(x.numel()) : 0.f);
}

}  // namespace tf
