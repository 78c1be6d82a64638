// Softmax and log-softmax over the last dim; both keep their output for the backward pass, which needs
// only it and the incoming gradient, so one function records either.
#include "autograd/node.hpp"
#include "ops/layout.hpp"
#include "ops/ops.hpp"

namespace tf {
namespace {

using RowsForward = decltype(&Backend::softmax_forward);    // (x, y, rows, cols)
using RowsBackward = decltype(&Backend::softmax_backward);  // (y, dy, dx, rows, cols)

Tensor over_rows(const Tensor& x, const char* name, RowsForward forward, RowsBackward backward) {
  Tensor y = Tensor::empty(x.shape(), x.device());
  int64_t cols = x.size(-1), rows = x.shape().rows();
  if (y.numel() > 0) (backend_of(x).*forward)(x.data(), y.data(), rows, cols);
  Tensor sy = y.detach();
  record(y, name, {x}, [sy, rows, cols, backward](const Tensor& g) -> std::vector<Tensor> {
    Tensor dx = Tensor::empty(sy.shape(), g.device());
    if (dx.numel() > 0) (backend_of(g).*backward)(sy.data(), g.data(), dx.data(), rows, cols);
    return {dx};
  });
  return y;
}

}  // namespace

Tensor softmax(const Tensor& x) {
  return over_rows(x, "softmax", &Backend::softmax_forward, &Backend::softmax_backward);
}

Tensor log_softmax(const Tensor& x) {
  return over_rows(x, "log_softmax", &Backend::log_softmax_forward, &Backend::log_softmax_backward);
}

}  // namespace tf
