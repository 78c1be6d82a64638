// Tinyformer's runtime: what a front end asks of the running library rather than of a model — how many
// kernel threads run, how much host memory the tensor pool holds, how much matrix work has been done, and
// which devices are usable, and where the time goes (the profiler: profile/profile.hpp, tf::profiler::start,
// stop, reset, read). Front ends include this and tinyformer.hpp, nothing else of the core.
#pragma once
#include <cstdint>
#include <string>

#include "backend/device.hpp"
#include "profile/profile.hpp"

namespace tf::runtime {

int max_threads();        // the most kernel threads the pool runs (256)
void set_threads(int n);  // 1..max_threads() (wasm: the worker pool); a tf::Error otherwise
int threads();
bool threaded();  // false in the single-threaded wasm build

struct MemoryStats {
  uint64_t live_bytes = 0;    // held by tensors now
  uint64_t cached_bytes = 0;  // freed blocks kept for reuse
};
MemoryStats host_memory();

uint64_t flops_done();  // matrix and attention flops since the process started

// The device a name ("cpu", "cuda") means, checked to be usable here (CUDA built and a GPU present).
Device usable_device(const std::string& name);

}  // namespace tf::runtime
