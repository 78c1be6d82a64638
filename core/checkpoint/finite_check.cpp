#include "checkpoint/finite_check.hpp"

#include "ops/ops.hpp"
#include "util/error.hpp"

namespace tf {

namespace {

void check_all(const std::vector<std::pair<std::string, Tensor>>& tensors, const char* kind,
               const std::string& context) {
  for (const auto& [name, t] : tensors)
    if (t.defined() && !all_finite(t))
      throw CheckpointRefused(
          Refusal::NotFinite,
          context + ": " + kind + " '" + name + "' holds NaN or infinity (the run that made it diverged)");
}

}  // namespace

void check_checkpoint_finite(const Checkpoint& ck, const std::string& context) {
  check_all(ck.params, "parameter", context);
  check_all(ck.optimizer_state.slots, "optimizer state", context);
}

}  // namespace tf
