#include "nn/feed_forward.hpp"

#include "ops/ops.hpp"

namespace tf {

FeedForward::FeedForward(int64_t dim, int64_t hidden, GeluMode m, Rng& rng, Device device)
    : up(dim, hidden, true, rng, device), down(hidden, dim, true, rng, device), mode(m) {
  register_module("0", up);
  register_module("2", down);
}

Tensor FeedForward::forward(const Tensor& x) const { return down.forward(gelu(up.forward(x), mode)); }

}  // namespace tf
