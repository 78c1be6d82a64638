// Cross-entropy with a weight per row: the diffusion loss weighs masked positions by 1/t and the rest by 0,
// the next-token and sorter losses weigh every row by 1/rows. Where a gradient will be needed the forward
// kernel also writes each row's softmax - onehot from the exponentials it sums anyway, and the backward
// pass scales those rows by weight times the loss's gradient (one product, no second exp per logit); the
// graph keeps that [rows, V] table instead of the logits.
#include "autograd/node.hpp"
#include "ops/layout.hpp"
#include "ops/ops.hpp"
#include "util/error.hpp"

namespace tf {

Tensor cross_entropy(const Tensor& logits, const Ids& targets, const Tensor& weights) {
  int64_t V = logits.size(-1), N = logits.shape().rows();
  TF_CHECK(targets.numel() == N, "cross_entropy: ", targets.numel(), " targets for ", N, " rows of logits ",
           logits.shape().str());
  check_ids(targets, V, "cross_entropy targets");
  Tensor w = weights;
  if (!w.defined()) w = Tensor::full(Shape{N}, N > 0 ? 1.f / static_cast<float>(N) : 0.f, logits.device());
  TF_CHECK(w.numel() == N, "cross_entropy: ", w.numel(), " weights for ", N, " rows");
  w = reshape(w.detach(), Shape{N});
  bool grad = needs_grad({&logits});
  Tensor rows = Tensor::empty(Shape{N}, logits.device());
  Tensor dunit = grad ? Tensor::empty(Shape{N, V}, logits.device()) : Tensor();
  DeviceIds dev(targets, logits.device());
  if (N > 0)
    backend_of(logits).cross_entropy_forward(logits.data(), dev.get(), rows.data(),
                                             grad ? dunit.data() : nullptr, N, V);
  Tensor loss = sum(mul(rows, w));  // no graph: rows and w do not require grad
  if (grad) {
    Shape shape = logits.shape();
    record(loss, "cross_entropy", {logits}, [dunit, w, shape, N](const Tensor& g) -> std::vector<Tensor> {
      Tensor row_scale = reshape(mul(w, g), Shape{N, 1});  // g is a scalar: broadcast
      return {reshape(mul(dunit, row_scale), shape)};
    });
  }
  return loss;
}

}  // namespace tf
