#include "sample/guesser.hpp"

#include <cmath>
#include <limits>

#include "autograd/node.hpp"
#include "ops/ops.hpp"
#include "util/error.hpp"

namespace tf {

void logits_to_probabilities(std::vector<float>& logits, int64_t V, const GuessOptions& o) {
  TF_CHECK(o.temperature > 0 && std::isfinite(o.temperature), "temperature must be positive, got ",
           o.temperature);
  for (int32_t f : o.forbidden)
    TF_CHECK(f >= 0 && f < V, "forbidden token ", f, " is outside the vocabulary");
  for (size_t r = 0; r + static_cast<size_t>(V) <= logits.size(); r += static_cast<size_t>(V)) {
    float* row = logits.data() + r;
    for (int32_t f : o.forbidden) row[f] = -std::numeric_limits<float>::infinity();
    float m = -std::numeric_limits<float>::infinity();
    for (int64_t v = 0; v < V; ++v) {
      TF_CHECK(!std::isnan(row[v]), "the network produced NaN logits");
      m = std::max(m, row[v]);
    }
    TF_CHECK(std::isfinite(m), "every token is forbidden");
    double total = 0;
    for (int64_t v = 0; v < V; ++v) {
      row[v] = std::exp((row[v] - m) / o.temperature);
      total += row[v];
    }
    for (int64_t v = 0; v < V; ++v) row[v] = static_cast<float>(row[v] / total);
  }
}

Guesser make_guesser(const TokenModel& net, const GuessOptions& options) {
  return [&net, options](const Ids& x) {
    NoGrad no_grad;
    std::vector<float> logits = net.forward(x).to_vector();
    logits_to_probabilities(logits, net.config().vocab, options);
    return logits;
  };
}

}  // namespace tf
