// GELU, exact (erf, as nn.GELU) or the tanh approximation (GPT-2, page 000's FFN).
#include "autograd/node.hpp"
#include "ops/layout.hpp"
#include "ops/ops.hpp"

namespace tf {

Tensor gelu(const Tensor& x, GeluMode mode) {
  Tensor y = Tensor::empty(x.shape(), x.device());
  if (y.numel() > 0) backend_of(x).gelu_forward(x.data(), y.data(), count(x), mode);
  Tensor sx = x.detach();
  record(y, "gelu", {x}, [sx, mode](const Tensor& g) -> std::vector<Tensor> {
    Tensor dx = Tensor::empty(sx.shape(), g.device());
    if (dx.numel() > 0) backend_of(g).gelu_backward(sx.data(), g.data(), dx.data(), count(sx), mode);
    return {dx};
  });
  return y;
}

}  // namespace tf
