// LayerNorm over the last dim with a learned scale and shift; mean and 1/std are kept for the backward.
#include "autograd/node.hpp"
#include "ops/layout.hpp"
#include "ops/ops.hpp"
#include "util/error.hpp"

namespace tf {

Tensor layer_norm(const Tensor& x, const Tensor& gamma, const Tensor& beta, float eps) {
  int64_t C = x.size(-1), rows = x.numel() / std::max<int64_t>(C, 1);
  TF_CHECK(gamma.ndim() == 1 && gamma.size(0) == C && beta.shape() == gamma.shape(),
           "layer_norm: gamma and beta must be [", C, "], got ", gamma.shape().str(), " and ",
           beta.shape().str());
  Tensor y = Tensor::empty(x.shape(), x.device());
  Tensor mu = Tensor::empty(Shape{rows}, x.device()), rstd = Tensor::empty(Shape{rows}, x.device());
  backend_of(x).layer_norm_forward(x.data(), gamma.data(), beta.data(), y.data(), mu.data(), rstd.data(),
                                   rows, C, eps);
  Tensor sx = x.detach(), sg = gamma.detach();
  record(y, "layer_norm", {x, gamma, beta},
         [sx, sg, mu, rstd, rows, C](const Tensor& g) -> std::vector<Tensor> {
           Tensor dx = Tensor::empty(sx.shape(), g.device());
           // the kernel adds into dgamma and dbeta: their gradient homes, or zeros
           GradBuffer dgamma = grad_buffer(1, sg.shape(), g.device(), true);
           GradBuffer dbeta = grad_buffer(2, sg.shape(), g.device(), true);
           backend_of(g).layer_norm_backward(g.data(), sx.data(), sg.data(), mu.data(), rstd.data(),
                                             dx.data(), dgamma.t.data(), dbeta.t.data(), rows, C);
           return {dx, dgamma.t, dbeta.t};
         });
  return y;
}

}  // namespace tf
