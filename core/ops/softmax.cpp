// Softmax and log-softmax over the last dim; both keep their output for the backward pass.
#include "autograd/node.hpp"
#include "ops/layout.hpp"
#include "ops/ops.hpp"

namespace tf {

Tensor softmax(const Tensor& x) {
  Tensor y = Tensor::empty(x.shape(), x.device());
  int64_t cols = x.size(-1), rows = x.shape().rows();
  if (y.numel() > 0) backend_of(x).softmax_forward(x.data(), y.data(), rows, cols);
  Tensor sy = y.detach();
  record(y, "softmax", {x}, [sy, rows, cols](const Tensor& g) -> std::vector<Tensor> {
    Tensor dx = Tensor::empty(sy.shape(), g.device());
    if (dx.numel() > 0) backend_of(g).softmax_backward(sy.data(), g.data(), dx.data(), rows, cols);
    return {dx};
  });
  return y;
}

Tensor log_softmax(const Tensor& x) {
  Tensor y = Tensor::empty(x.shape(), x.device());
  int64_t cols = x.size(-1), rows = x.shape().rows();
  if (y.numel() > 0) backend_of(x).log_softmax_forward(x.data(), y.data(), rows, cols);
  Tensor sy = y.detach();
  record(y, "log_softmax", {x}, [sy, rows, cols](const Tensor& g) -> std::vector<Tensor> {
    Tensor dx = Tensor::empty(sy.shape(), g.device());
    if (dx.numel() > 0) backend_of(g).log_softmax_backward(sy.data(), g.data(), dx.data(), rows, cols);
    return {dx};
  });
  return y;
}

}  // namespace tf
