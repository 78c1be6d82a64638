// Several steps' figures together: what a front end shows after a batch of steps, whether they ran one by
// one (Session::advance) or as a chunk read once (Session::finish_chunk). One function totals both.
#pragma once
#include <cstdint>
#include <vector>

#include "train/trainer.hpp"

namespace tf {

struct StepTotals {
  std::vector<float> losses;  // one per step, in order
  int64_t step = 0;           // steps done after the last one
  float lr = 0;               // of the last step
  double seconds = 0, tokens = 0, flops = 0;
  int64_t skipped = 0;        // steps of these skipped for a non-finite loss or gradient norm
  int64_t skipped_steps = 0;  // skipped by the run so far
};

// The totals of consecutive steps' stats (all zero for none).
StepTotals step_totals(const std::vector<StepStats>& stats);

}  // namespace tf
