// GELU, exact (erf, as nn.GELU) or the tanh approximation (GPT-2, page 000's FFN).
#include "autograd/node.hpp"
#include "ops/layout.hpp"
#include "ops/ops.hpp"

namespace tf {

// The forward writes GELU's slope where a gradient will be needed, so the backward pass is one product
// (and the slope, not x, is what the graph keeps).
Tensor gelu(const Tensor& x, GeluMode mode) {
  Tensor y = Tensor::empty(x.shape(), x.device());
  bool grad = needs_grad({&x});
  Tensor slope = grad ? Tensor::empty(x.shape(), x.device()) : Tensor();
  if (y.numel() > 0)
    backend_of(x).gelu_forward(x.data(), y.data(), grad ? slope.data() : nullptr, count(x), mode);
  if (grad)
    record(y, "gelu", {x}, [slope](const Tensor& g) -> std::vector<Tensor> { return {mul(g, slope)}; });
  return y;
}

}  // namespace tf
