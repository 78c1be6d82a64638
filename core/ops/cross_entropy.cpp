// Cross-entropy with a weight per row: the diffusion loss weighs masked positions by 1/t and the rest by 0,
// the next-token and sorter losses weigh every row by 1/rows. Softmax is recomputed in the backward pass
// from the kept log-sum-exp instead of storing a [rows, V] probability table.
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
  Tensor rows = Tensor::empty(Shape{N}, logits.device()), lse = Tensor::empty(Shape{N}, logits.device());
  DeviceIds dev(targets, logits.device());
  Backend& be = backend_of(logits);
  if (N > 0) be.cross_entropy_forward(logits.data(), dev.get(), rows.data(), lse.data(), N, V);
  Tensor loss = sum(mul(rows, w));  // no graph: rows and w do not require grad
  Tensor sl = logits.detach();
  record(loss, "cross_entropy", {logits},
         [sl, targets, w, lse, N, V](const Tensor& g) -> std::vector<Tensor> {
           Tensor row_scale = mul(w, g);  // g is a scalar: broadcast
           Tensor dlogits = Tensor::empty(sl.shape(), g.device());
           DeviceIds d(targets, g.device());
           if (N > 0)
             backend_of(g).cross_entropy_backward(sl.data(), d.get(), lse.data(), row_scale.data(),
                                                  dlogits.data(), N, V);
           return {dlogits};
         });
  return loss;
}

}  // namespace tf
