#include "train/step_totals.hpp"

namespace tf {

StepTotals step_totals(const std::vector<StepStats>& stats) {
  StepTotals t;
  for (const StepStats& s : stats) {
    t.losses.push_back(s.loss);
    t.seconds += s.seconds;
    t.tokens += static_cast<double>(s.tokens);
    t.flops += static_cast<double>(s.flops);
    t.skipped += s.skipped ? 1 : 0;
  }
  if (!stats.empty()) {
    t.step = stats.back().step;
    t.lr = stats.back().lr;
    t.skipped_steps = stats.back().skipped_steps;
  }
  return t;
}

}  // namespace tf
