// Non-finite numbers in a checkpoint. A diverged run's weights look like any other file (a NaN is four
// bytes like the rest), so the checkpoint writer refuses them and `eval` checks what it loads.
#pragma once
#include <string>

#include "checkpoint/checkpoint.hpp"

namespace tf {

// Throws CheckpointRefused (NotFinite) "<context>: parameter 'name' holds NaN or infinity ..." for the first
// tensor (parameter or optimizer state) that holds a non-finite value.
void check_checkpoint_finite(const Checkpoint& ck, const std::string& context);

}  // namespace tf
